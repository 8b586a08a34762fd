"""Checking one file: its documents one by one, or its record stream (a log) record by record in a session
of its own, through the stages; a crash is that file's finding, never the batch's end."""

from __future__ import annotations

import contextlib
import functools
import os
from typing import Callable, Iterable, Iterator

from casino_audit.core import findings as F
from casino_audit.core.display import brief
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.results import FileRecord, FindingSink
from casino_audit.core.values import show
from casino_audit.documents import kinds
from casino_audit.law.engine import CheckCrashed
from casino_audit.law.rulesets import looks_like_ruleset
from casino_audit.logs.reader import Stream
from casino_audit.read.loader import read_file, reads, stream_bytes
from casino_audit.read.parsers import parser_for
from casino_audit.run.identities import named_findings, naming
from casino_audit.run.stages import Context, check_document, tool_finding

PROGRESS_EVERY = 5000  # records of a log between two progress reports
_SOURCES: dict[str, str] = {}  # a name in the reports -> the file its bytes are read from (standard input's)


@contextlib.contextmanager
def standard_input(name: str | None, source: str | None) -> Iterator[None]:
    """While the block runs, the file to check named `name` (`-`, or --stdin-filename's) is read from `source`,
    where standard input was spooled: its findings and records name `name`, and what it names (a log's
    table_config) is found from `name`'s directory, the working directory for `-`. Forked workers inherit it."""
    if name is None:
        yield
        return
    _SOURCES[name] = source
    try:
        yield
    finally:
        _SOURCES.pop(name, None)


def check_one(path: str, record: FileRecord, context: Context, loader, max_bytes: int, on_records) -> int:
    """Check one file; 1 if its check crashed (a finding on it says so), else 0."""
    named: list[str] = []
    try:
        with reads(named):  # the files its documents name (a log's table configuration), for -o to refuse
            _check_file(path, record, context, loader, max_bytes, on_records)
    except Exception as error:  # noqa: BLE001 - one file's crash is that file's finding, not the batch's end
        message = str(error) if isinstance(error, CheckCrashed) else \
            f"internal error while checking the file: {type(error).__name__}: {brief(str(error), 300)}"
        context.sink.add(Finding(F.INTERNAL_ERROR, Severity.ERROR, message + "; the file's verdict is unknown", path))
        return 1
    finally:
        record.reads = sorted(set(named)) or None
    return 0


def _check_file(path: str, record: FileRecord, context: Context, loader, max_bytes: int,
                on_records: Callable[[int], None] | None = None) -> None:
    source = _SOURCES.get(path) if loader is None else None
    parser = parser_for(source or path)
    if parser.records is not None and loader is None:
        stream = parser.records(source or path, max_bytes)
        _check_stream(stream, record, context, on_records, path if source else None)
        return
    if source is not None:  # standard input's bytes, under the name the reports give it
        raw, loaded = read_file(source, max_bytes)
        if raw is None:
            _rename(loaded.findings, source, path)
        else:
            loaded = stream_bytes(raw, path, max_bytes)
    else:
        loaded = (loader or functools.partial(parser.documents, max_bytes=max_bytes))(path)
    other = _OtherFiles()
    for document in loaded.documents:  # each checked as it is read: memory flat in the number of documents
        record.documents += 1
        if other.holds(document, context):
            continue
        _note_filer(record, document)
        found = check_document(document, context)
        if found is not None and kinds.KINDS[found[0]].stream:  # a header with no record: never a clean log
            context.sink.add(tool_finding(document, F.LOAD_UNSUPPORTED, f"a {found[0]} header read as a document: a "
                                           "log's records are read from JSON Lines or CSV (.jsonl, .csv, gzipped or "
                                           "not), the header their first record; none was checked here", "/kind"))
    if other.held and other.held == record.documents and not loaded.findings:
        record.status, record.reason = "skipped", other.reason()
    else:
        other.release(context)
    if loaded.findings:
        record.status = "partial" if record.documents else "unreadable"
        record.reason = loaded.findings[0].message
    context.sink.extend(loaded.findings)


class _OtherFiles:
    """The documents of a file that are plainly not filings (`kinds.plainly_not_a_filing`: a pre-commit config, a
    GitHub action): a file of them alone is skipped and listed, never a failure; one beside a filing is checked
    as any document without a kind is (KIND-MISSING). Held until a filing is met, the first HELD_KEPT of them
    (memory stays flat), the rest counted."""

    HELD_KEPT = 100

    def __init__(self) -> None:
        self.held = 0
        self.kept: list = []
        self.filing = False

    def holds(self, document, context: Context) -> bool:
        if not kinds.plainly_not_a_filing(document.data) or document.findings or looks_like_ruleset(document.data):
            if not self.filing:
                self.filing = True
                self.release(context)
            return False
        if self.filing:
            return False  # beside a filing: checked as it is
        self.held += 1
        if len(self.kept) < self.HELD_KEPT:
            self.kept.append(document)
        return True

    def release(self, context: Context) -> None:
        """The documents held, checked after all (a filing was met in their file), the ones not kept said."""
        for document in self.kept:
            check_document(document, context)
        if self.held > len(self.kept):
            last = self.kept[-1]
            context.sink.add(tool_finding(last, F.KIND_MISSING, f"{self.held - len(self.kept):,} more documents "
                                          "without a kind follow this one in the file, before its first filing"))
        self.kept, self.held = [], 0

    def reason(self) -> str:
        data = self.kept[0].data
        keys = sorted({str(key) for item in (data if isinstance(data, list) else [data]) for key in item})
        shown = ", ".join(brief(key, 40) for key in keys[:6]) + (", ..." if len(keys) > 6 else "")
        return f"not a filing: no `kind:` and no field a filing has (its keys: {shown})"


def _check_stream(stream: Stream, record: FileRecord, context: Context,
                  on_records: Callable[..., None] | None = None, name: str | None = None) -> None:
    """A record stream: its first record is a header naming a stream kind (a game log), whose records follow and
    are replayed one at a time in a session of their own; memory stays flat whatever the stream's length.
    `name`: the name the reports give a stream read from another file (standard input's)."""
    records = iter(stream) if on_records is None else _reporting(stream, on_records)
    if name is not None:
        records = _named(records, name)
    counts = {"read": 0, "checked": 0, "with_findings": 0, "unreadable": 0}
    header = next(records, None)
    session = None
    said: list = []  # the header's findings short of the law
    other = None  # what heads the stream instead of a log's header (a table, a house ruleset), if anything
    if header is not None:
        _note_filer(record, header)
        found = check_document(header, context, said)
        if found is not None and not kinds.KINDS[found[0]].stream:
            other = f"a {found[0]} document"
        elif found is not None:
            session = context.checker.log_session(header, found[1], context.sink.admit)
            record.named_filings = session.named_filings() or None
            _take(context.sink, session.start())
        elif looks_like_ruleset(header.data):  # validated as a ruleset, silent when valid: its records would pass
            other = "a ruleset"
    if session is not None:
        feed, sink = session.coup, context.sink
        if sink.suppressor is not None:  # waivers and the baseline name a log's records by what they are
            feed = naming(feed, header, identities := {})
        for item in records:
            _take(sink, feed(item))
        _take(sink, session.close() if sink.suppressor is None else named_findings(session.close(), identities,
                                                                                     header.data))
        counts["checked"], counts["with_findings"] = session.counts.checked, session.counts.with_findings
    else:
        for _ in records:  # read to the end all the same: every line is counted, the unreadable ones reported
            pass
    if session is None and other is None and header is not None and stream.read > 1:
        # a header that reached no law: the finding that says why says too that its records are not checked
        why = next((f for f in reversed(said) if f.severity is Severity.ERROR), None)
        if why is not None:
            why.message = f"{why.message}; {_after(stream.read - 1)}"
        else:
            context.sink.add(tool_finding(header, F.KIND_MISSING, f"{_after(stream.read - 1)}: a log's records "
                                          "are judged under its header, which names its kind and jurisdiction"))
    if other is not None:
        context.sink.add(tool_finding(header, F.KIND_UNKNOWN, f"{other} cannot head a record stream: "
                                       f"{_after(stream.read - 1)}; the first record of a "
                                       "JSON Lines or CSV file is a header of kind "
                                       + ", ".join(k for k in kinds.KINDS if kinds.KINDS[k].stream),
                                       "/kind" if other != "a ruleset" else ""))
    counts["read"], counts["unreadable"] = stream.read, stream.unreadable
    record.documents = 1 if header is not None else 0  # the header; its coups are counted as records
    record.records = counts
    if stream.unreadable or not stream.read:
        record.status = "partial" if stream.read else "unreadable"
    if name is not None:
        _rename(stream.findings, stream.path, name)
    if stream.findings:
        record.reason = stream.findings[0].message
    context.sink.extend(stream.findings)


def _after(count: int) -> str:
    return "the record after it is not checked" if count == 1 else f"the {count:,} records after it are not checked"


def _named(records: Iterator, name: str) -> Iterator:
    for item in records:
        item.file = name
        yield item


def _rename(findings: list[Finding], source: str, name: str) -> None:
    for finding in findings:
        if finding.file == source:
            finding.file = name


def _reporting(stream: Stream, on_records: Callable[..., None]) -> Iterator:
    """The stream's records, told every PROGRESS_EVERY records (once each is checked): the count read, and the
    bytes of the file read so far of its size (of the file on disk: a gzipped log's compressed bytes), or None."""
    size = None
    for item in stream:
        yield item
        if stream.read % PROGRESS_EVERY == 0:
            at = None
            with contextlib.suppress(OSError, ValueError, AttributeError):  # closed, or no file: the count alone
                at = stream.raw.tell()
                if size is None:
                    size = os.fstat(stream.raw.fileno()).st_size
            on_records(stream.read, at if size else None, size or None)


def _note_filer(record: FileRecord, document) -> None:
    """Who filed the document, as written, for the report: a machine filing's `filing.applicant`, a table
    configuration's `filing.casino`, a game log's `casino`."""
    data = document.data if isinstance(document.data, dict) else {}
    filing = data.get("filing")
    if data.get("kind") == "game-log":
        filer = data.get("casino")
    elif isinstance(filing, dict):
        filer = filing.get("applicant", filing.get("casino"))
    else:
        return
    if filer is None or (isinstance(filer, str) and not filer.strip()):
        return
    if record.filed_by is None:
        record.filed_by = {}
    record.filed_by[document.index] = filer if isinstance(filer, str) else brief(show(filer))


def _take(sink: FindingSink, findings: Iterable[Finding]) -> None:
    """A log session's findings: its law findings were counted (admitted) when made; the tool's are counted here."""
    for finding in findings:
        if finding.rule_id in F.TOOL_FINDINGS or finding.file is None:
            sink.add(finding)
        else:
            sink.keep(finding)
