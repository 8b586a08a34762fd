"""The one-way pipeline: discover files -> load -> identify kind -> validate shape -> check rules -> result.

Loader and checker are passed in, so each stage can be tested alone; reporters read the RunResult.
One file that cannot be read, or whose check crashes, is a finding on that file: the rest of the batch goes on.
"""

from __future__ import annotations

import functools
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from casino_audit.core import findings as F
from casino_audit.documents import kinds
from casino_audit.run.config import is_config_name
from casino_audit.core.display import brief
from casino_audit.law.engine import CheckCrashed, Checker
from casino_audit.core.findings import Finding, Severity
from casino_audit.read.loader import DEFAULT_MAX_BYTES, FileLoad, checking, load_file, reads
from casino_audit.logs.reader import Stream
from casino_audit.read.parsers import WALKED_EXTENSIONS, parser_for
from casino_audit.law.scopes import Dossier
from casino_audit.core.results import DEFAULT_MAX_PER_RULE, FileRecord, FindingSink, RunResult
from casino_audit.law.model import RulesetError
from casino_audit.law.rulesets import looks_like_ruleset, ruleset_from_document
from casino_audit.core.values import show

class UsageError(Exception):
    pass


@dataclass(frozen=True)
class Progress:
    """Where a run is, told to an optional callback (a display is the caller's business: the pipeline prints
    nothing): files finished of those to check, the file being read, and its records read so far (a log)."""

    files_done: int
    files_total: int
    path: str
    records: int = 0


PROGRESS_EVERY = 5000  # records of a log between two progress reports


def is_config_file(path: str) -> bool:
    """A file named like a config file is one only if it reads as one: a single mapping with no `kind:`. A filing
    named `machine-7.casino-audit.yaml` is a filing."""
    loaded = load_file(path)
    return (not loaded.findings and len(loaded.documents) == 1 and isinstance(loaded.documents[0].data, dict)
            and "kind" not in loaded.documents[0].data)


def _skipped(path: str, reason: str) -> FileRecord:
    return FileRecord(path, "skipped", reason=reason)


def _inside(path: str, root: str) -> bool:
    real, base = os.path.realpath(path), os.path.realpath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def walk(root: str, to_check: list[str], records: list[FileRecord], problems: list[Finding],
         aside: dict[str, str] | None = None) -> None:
    """Walk a directory without recursion (a tree 1,200 levels deep is still walked), in sorted order.
    Hidden entries are left out; links are followed only to files inside the tree; a directory that cannot be
    read is a finding, never a silent gap."""
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except OSError as error:
            reason = f"cannot read the directory: {error.strerror or error}"
            records.append(FileRecord(directory, "unreadable", reason=reason))
            problems.append(Finding(F.LOAD_UNREADABLE, Severity.ERROR, reason + "; the files in it were not checked",
                                    directory))
            continue
        subdirectories = []
        for entry in entries:
            full = entry.path
            if entry.name.startswith("."):  # .git and friends: listed, so an inspector knows they are there
                records.append(_skipped(full, "hidden (its name starts with a dot; name it to check it)"))
                continue
            try:
                is_link, is_dir = entry.is_symlink(), entry.is_dir()
            except OSError as error:
                records.append(FileRecord(full, "unreadable", reason=str(error.strerror or error)))
                problems.append(Finding(F.LOAD_UNREADABLE, Severity.ERROR, f"cannot read: {error.strerror or error}",
                                        full))
                continue
            if is_dir:
                if is_link:  # a linked directory could lead anywhere, or round in a circle: say so, do not follow
                    records.append(_skipped(full, "a link to a directory, not followed (name it to check it)"))
                else:
                    subdirectories.append(full)
            elif is_config_name(entry.name) and is_config_file(full):
                records.append(_skipped(full, "a casino-audit config file, not a filing"))
            elif aside and os.path.realpath(full) in aside:
                records.append(_skipped(full, aside[os.path.realpath(full)]))
            elif not entry.name.lower().endswith(WALKED_EXTENSIONS):
                records.append(_skipped(full, "not a YAML or JSON file (name it to check it)"))
            elif is_link and not _inside(full, root):
                records.append(_skipped(full, "a link to a file outside the directory, not followed "
                                              "(name it to check it)"))
            else:
                to_check.append(full)
        stack.extend(reversed(subdirectories))


def discover(paths: Iterable[str], aside: dict[str, str] | None = None) \
        -> tuple[list[str], list[FileRecord], list[Finding]]:
    """Files to check; the paths met in walked directories that are not filings (skipped) or cannot be read; and
    the findings on those. A file named on the command line is read whatever its extension, unless it is a
    casino-audit config file. `aside`: real paths of the run's own files (the baseline) -> why they are not
    filings."""
    to_check: list[str] = []
    records: list[FileRecord] = []
    problems: list[Finding] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            walk(raw, to_check, records, problems, aside)
        elif aside and os.path.realpath(raw) in aside:
            records.append(_skipped(raw, aside[os.path.realpath(raw)]))
        elif is_config_name(path.name) and is_config_file(raw):  # pre-commit and globs pass config files along
            records.append(_skipped(raw, "a casino-audit config file, not a filing"))
        elif path.exists() or path.is_symlink():
            to_check.append(raw)
        else:
            raise UsageError(f"no such file or directory: {raw}")
    return to_check, records, problems


@dataclass
class _Context:
    """What every document of a run is checked with: the checker, where findings go, the jurisdiction given from
    outside (an option replaces a document's own, a config only fills in), the dossier of the run."""

    checker: Checker
    sink: FindingSink
    override: str | None
    default: str | None
    dossier: Dossier


def run(paths: Iterable[str], checker: Checker, loader: Callable[[str], FileLoad] | None = None,
        jurisdiction: str | None = None, *, default_jurisdiction: str | None = None,
        max_per_rule: int = DEFAULT_MAX_PER_RULE, max_bytes: int | None = None, suppressor=None,
        progress: Callable[[Progress], None] | None = None, jobs: int | None = 1) -> RunResult:
    """`jurisdiction` replaces every document's own (an explicit option); `default_jurisdiction` only fills in
    documents that name none (a config file). `loader` replaces the parsers of documents (tests). `suppressor`
    (suppressions.Suppressor) marks the findings waivers and the baseline cover. `progress` is told when each
    file starts and ends, and every PROGRESS_EVERY records of a log. `jobs`: processes checking files side by
    side (None: every core for a large batch, one for a handful of files); the result is the same whatever it is."""
    paths = list(paths)
    files, records, problems = discover(paths, suppressor.files() if suppressor is not None else None)
    result = RunResult()
    sink = FindingSink(max_per_rule, suppressor)
    sink.extend(problems)
    context = _Context(checker, sink, jurisdiction, default_jurisdiction, checker.dossier())
    workers = parallel_workers(jobs, len(files), context.dossier)
    max_bytes = max_bytes or DEFAULT_MAX_BYTES
    with checking(path for path in paths if os.path.isdir(path)):  # where a file a log names may be read from
        if workers > 1:
            # The first file is checked here: the workers forked after it inherit what it made ready (the rules
            # compiled, a return computed, a module loaded) instead of each making it again.
            _check_in_turn(files[:1], result, context, loader, max_bytes, progress, len(files))
            _check_in_parallel(files[1:], result, context, workers, loader, max_bytes, progress, len(files))
        else:
            _check_in_turn(files, result, context, loader, max_bytes, progress, len(files))
        _check_named_tables(files, result, context, loader, max_bytes)
    _keep(sink, context.dossier.close())
    if suppressor is not None:
        sink.extend(suppressor.findings())
    result.applied = sorted(checker.applied | context.dossier.applied)
    result.files.extend(records)
    result.findings = sorted(sink.kept, key=Finding.sort_key)
    result.totals = sink.totals
    result.suppressed = sink.suppressed
    result.omitted = sink.omitted()
    # Run-level findings of law rules are the rules not applied for want of a parameter value.
    result.not_applied = sorted({f.rule_id for f in sink.kept if f.file is None and f.rule_id not in F.TOOL_FINDINGS})
    return result


def _check_named_tables(files: list[str], result: RunResult, context: _Context, loader, max_bytes: int) -> None:
    """Each table configuration a game log was replayed under, checked with the logs as a filing of its own,
    once, whether or not it was among the paths given (a configuration that breaks the law must not pass because
    only its log was named); one among the files checked already is not checked again."""
    checked = {os.path.realpath(path) for path in files}
    named: dict[str, str] = {}
    for record in result.files:
        path = getattr(record, "table_config", None)
        if path and os.path.realpath(path) not in checked:
            named.setdefault(os.path.realpath(path), path)
    for _, path in sorted(named.items()):
        record = FileRecord(path, "checked")
        result.files.append(record)
        result.internal_errors += _check_one(path, record, context, loader, max_bytes, None)


def _check_in_turn(files: list[str], result: RunResult, context: _Context, loader, max_bytes: int, progress,
                   total: int) -> None:
    for done, path in enumerate(files):
        record = FileRecord(path, "checked")
        result.files.append(record)
        on_records = None
        if progress is not None:
            progress(Progress(done, total, path))
            on_records = lambda read: progress(Progress(done, total, path, read))  # noqa: E731 - called now
        result.internal_errors += _check_one(path, record, context, loader, max_bytes, on_records)
        if progress is not None:
            progress(Progress(done + 1, total, path, record.records["read"] if record.records else 0))


def _check_one(path: str, record: FileRecord, context: _Context, loader, max_bytes: int, on_records) -> int:
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


# --- several processes --------------------------------------------------------------------------------------
# Files are checked in chunks by forked workers, which inherit the checker (rulesets compiled once), and by this
# process: the workers take chunks from the front, this process from the back, until they meet (two counters in
# shared memory). Each sends back its files' records and findings, merged in the order of the files, so the
# report is the same whatever the number of workers. A run with dossier rules (documents judged together) stays
# in one process.

PARALLEL_FROM = 48  # files: below this, starting workers costs more than it saves
_SHARED: tuple | None = None  # what the workers check with, set before they are forked
_FRONT, _BACK, _DONE = range(3)  # the shared counters: next chunk from the front, past the last one, files done


def parallel_workers(jobs: int | None, files: int, dossier: Dossier) -> int:
    if jobs is None:
        jobs = (os.cpu_count() or 1) if files >= PARALLEL_FROM else 1
    if jobs <= 1 or files <= 1 or dossier.checks or "fork" not in _start_methods():
        return 1
    return min(jobs, files)


def _start_methods() -> list[str]:
    import multiprocessing

    return multiprocessing.get_all_start_methods()


def _chunks(files: list[str], workers: int) -> list[list[str]]:
    size = max(1, min(32, len(files) // (workers * 4)))
    return [files[at:at + size] for at in range(0, len(files), size)]


def _claim(counters, from_front: bool) -> int | None:
    """The next chunk no process has taken, from the front or the back; None once they meet."""
    with counters.get_lock():
        front, back = counters[_FRONT], counters[_BACK]
        if front >= back:
            return None
        if from_front:
            counters[_FRONT] = front + 1
            return front
        counters[_BACK] = back - 1
        return back - 1


def _check_chunk(chunk: list[str]):
    """Check these files; what they gave, and what the shared state learnt on the way."""
    context, loader, max_bytes, _, counters = _SHARED
    records, crashed = [], 0
    for path in chunk:
        record = FileRecord(path, "checked")
        records.append(record)
        crashed += _check_one(path, record, context, loader, max_bytes, None)
    with counters.get_lock():
        counters[_DONE] += len(chunk)
    checker, suppressor = context.checker, context.sink.suppressor
    learnt = None
    if suppressor is not None:
        learnt = (suppressor.used, suppressor.recorded)
        suppressor.used, suppressor.recorded = type(suppressor.used)(), type(suppressor.recorded)()
    return records, context.sink.take(), crashed, set(checker.applied), list(checker.used), learnt


def _work() -> list[tuple[int, tuple]]:
    """In a worker: check chunks from the front until none is left; (chunk index, what it gave) of each."""
    chunks, counters = _SHARED[3], _SHARED[4]
    answers = []
    while (at := _claim(counters, from_front=True)) is not None:
        answers.append((at, _check_chunk(chunks[at])))
    return answers


def _check_in_parallel(files: list[str], result: RunResult, context: _Context, workers: int, loader,
                       max_bytes: int, progress, total: int) -> None:
    """`files`: the last of `total`, the others already checked (their waiver and baseline counts are set
    aside while the workers, which would inherit them, send theirs)."""
    global _SHARED
    import gc
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    chunks = _chunks(files, workers)
    fork = multiprocessing.get_context("fork")
    counters = fork.Array("q", [0, len(chunks), 0])
    worker_context = _Context(context.checker, FindingSink(context.sink.max_per_rule, context.sink.suppressor),
                              context.override, context.default, context.dossier)
    _SHARED = (worker_context, loader, max_bytes, chunks, counters)
    before = total - len(files)
    suppressor = context.sink.suppressor
    if suppressor is not None:
        counted_here = suppressor.used, suppressor.recorded
        suppressor.used, suppressor.recorded = type(suppressor.used)(), type(suppressor.recorded)()
    # The workers' collector would otherwise walk (and, by touching reference counts, copy) every page of the
    # parent's objects they inherit: frozen, those objects are left out of every collection (Python's gc docs).
    gc.freeze()
    try:
        with ProcessPoolExecutor(workers - 1, mp_context=fork) as pool:
            futures = [pool.submit(_work) for _ in range(workers - 1)]
            # This process is the last worker, from the back: one process fewer to fork, feed and hear from. The
            # workers take their first chunk before it takes any, so that each has work whatever the timing.
            while not (counters[_FRONT] or all(future.done() for future in futures)):
                time.sleep(0.001)
            answers = {}
            try:
                while (at := _claim(counters, from_front=False)) is not None:
                    answers[at] = _check_chunk(chunks[at])
                    if progress is not None:
                        progress(Progress(before + counters[_DONE], total, chunks[at][-1]))
            except BaseException:  # interrupted (Ctrl-C): the workers take no more chunks, so the pool ends soon
                with counters.get_lock():
                    counters[_BACK] = counters[_FRONT]
                raise
            for future in futures:
                try:
                    answers.update(future.result())
                except BrokenProcessPool:  # a worker died (killed, out of memory): its chunks have no verdict
                    pass
        for at, chunk in enumerate(chunks):
            answer = answers.get(at)
            if answer is None:
                records, crashed = [FileRecord(path, "checked") for path in chunk], len(chunk)
                for path in chunk:
                    context.sink.add(Finding(F.INTERNAL_ERROR, Severity.ERROR, "the process checking the file "
                                             "stopped; the file's verdict is unknown", path))
                part, applied, used, learnt = None, set(), [], None
            else:
                records, part, crashed, applied, used, learnt = answer
            result.files.extend(records)
            result.internal_errors += crashed
            if part is not None:
                context.sink.absorb(part)
            context.checker.absorb(applied, used)
            if learnt is not None:
                context.sink.suppressor.used.update(learnt[0])
                context.sink.suppressor.recorded.update(learnt[1])
        if progress is not None:
            progress(Progress(total, total, files[-1]))
    finally:
        gc.unfreeze()
        _SHARED = None
        if suppressor is not None:
            suppressor.used.update(counted_here[0])
            suppressor.recorded.update(counted_here[1])


def _check_file(path: str, record: FileRecord, context: _Context, loader, max_bytes: int,
                on_records: Callable[[int], None] | None = None) -> None:
    parser = parser_for(path)
    if parser.records is not None and loader is None:
        _check_stream(parser.records(path, max_bytes), record, context, on_records)
        return
    loaded = (loader or functools.partial(parser.documents, max_bytes=max_bytes))(path)
    for document in loaded.documents:  # each checked as it is read: memory flat in the number of documents
        record.documents += 1
        _note_filer(record, document)
        found = check_document(document, context)
        if found is not None and kinds.KINDS[found[0]].stream:  # a header with no record: never a clean log
            context.sink.add(_tool_finding(document, F.LOAD_UNSUPPORTED, f"a {found[0]} header read as a document: a "
                                           "log's records are read from JSON Lines or CSV (.jsonl, .csv, gzipped or "
                                           "not), the header their first record; none was checked here", "/kind"))
    if loaded.findings:
        record.status = "partial" if record.documents else "unreadable"
        record.reason = loaded.findings[0].message
    context.sink.extend(loaded.findings)


def _check_stream(stream: Stream, record: FileRecord, context: _Context,
                  on_records: Callable[[int], None] | None = None) -> None:
    """A record stream: its first record is a header naming a stream kind (a game log), whose records follow and
    are replayed one at a time in a session of their own; memory stays flat whatever the stream's length."""
    records = iter(stream) if on_records is None else _reporting(stream, on_records)
    counts = {"read": 0, "checked": 0, "with_findings": 0, "unreadable": 0}
    header = next(records, None)
    session = None
    other = None  # what heads the stream instead of a log's header (a table, a house ruleset), if anything
    if header is not None:
        _note_filer(record, header)
        found = check_document(header, context)
        if found is not None and not kinds.KINDS[found[0]].stream:
            other = f"a {found[0]} document"
        elif found is not None:
            session = context.checker.log_session(header, found[1], context.sink.admit)
            record.table_config = getattr(getattr(session, "terms", None), "table_path", None)
            _take(context.sink, session.start())
        elif looks_like_ruleset(header.data):  # validated as a ruleset, silent when valid: its records would pass
            other = "a ruleset"
    if session is not None:
        feed, sink = session.coup, context.sink
        if sink.suppressor is not None:  # waivers and the baseline name a log's records by what they are
            feed = _naming(feed, header, identities := {})
        for item in records:
            _take(sink, feed(item))
        _take(sink, session.close() if sink.suppressor is None else _named(session.close(), identities,
                                                                                     header.data))
        counts["checked"], counts["with_findings"] = session.counts.checked, session.counts.with_findings
    else:
        for _ in records:  # read to the end all the same: every line is counted, the unreadable ones reported
            pass
    if other is not None:
        context.sink.add(_tool_finding(header, F.KIND_UNKNOWN, f"{other} cannot head a record stream: the "
                                       f"{stream.read - 1:,} records after it are not checked; the first record of a "
                                       "JSON Lines or CSV file is a header of kind "
                                       + ", ".join(k for k in kinds.KINDS if kinds.KINDS[k].stream),
                                       "/kind" if other != "a ruleset" else ""))
    counts["read"], counts["unreadable"] = stream.read, stream.unreadable
    record.documents = 1 if header is not None else 0  # the header; its coups are counted as records
    record.records = counts
    if stream.unreadable or not stream.read:
        record.status = "partial" if stream.read else "unreadable"
    if stream.findings:
        record.reason = stream.findings[0].message
    context.sink.extend(stream.findings)


IDENTITIES_KEPT = 20_000  # the records of one log whose identity is remembered for a finding about them made later
# What identifies a record of each stream kind: its own fields, and the header's (a game log's table).
_IDENTITY = {"game-log": (("table",), ("coup", "time")), "meter-log": ((), ("machine", "time"))}


def record_identity(header, data) -> tuple | None:
    """A log record's identity, as a waiver or a baseline names it: a game log's table (its header's), coup number
    and time; a meter log's machine and reading time. ((name, value as JSON), ...) sorted by name; None for a
    record of another kind, or one that gives none of them."""
    return _identity(header, _values(header, data))


def _values(header, data) -> tuple | None:
    """The record's values its identity is made of, kept small: a long or nested value is kept as its digest now,
    so that the records remembered never hold a hostile log's megabytes; the rest as they are, turned into an
    identity only if a finding asks (most records have none)."""
    from casino_audit.run.suppressions import MAX_IDENTITY_VALUE, identity

    own, fields = _IDENTITY.get(header.get("kind") if isinstance(header, dict) else None, ((), ()))
    if not isinstance(data, dict) or not fields:
        return None
    values = tuple(data.get(name) for name in fields)
    if all(value is None or type(value) is int or (type(value) is str and len(value) <= MAX_IDENTITY_VALUE // 2)
           for value in values):
        return values
    return (identity(dict(zip(fields, values))),)  # already an identity


def _identity(header, values: tuple | None) -> tuple | None:
    from casino_audit.run.suppressions import identity

    if values is None:
        return None
    own, fields = _IDENTITY[header.get("kind")]
    if len(values) == 1 and len(fields) > 1:
        given, made = {name: header.get(name) for name in own}, values[0]
    else:
        given, made = {**{name: header.get(name) for name in own}, **dict(zip(fields, values))}, ()
    if all(value is None for value in given.values()) and not any(text != "null" for _, text in made):
        return None
    return tuple(sorted(identity(given) + made))


def _naming(feed, header, identities: dict) -> Callable:
    """`feed`, each finding it makes given the identity of the record it is about (the last IDENTITIES_KEPT
    records are remembered: a finding made later about an older one keeps its place in the file alone)."""
    def named(item):
        identities[item.index] = _values(header.data, item.data)
        if len(identities) > IDENTITIES_KEPT:
            del identities[next(iter(identities))]
        return _named(feed(item), identities, header.data)
    return named


def _named(findings: Iterable[Finding], identities: dict, header) -> Iterator[Finding]:
    for finding in findings:
        if finding.record is None and finding.document and finding.document in identities:
            finding.record = _identity(header, identities[finding.document])
        yield finding


def _reporting(stream: Stream, on_records: Callable[[int], None]) -> Iterator:
    """The stream's records, the count read told every PROGRESS_EVERY records (once each is checked)."""
    for item in stream:
        yield item
        if stream.read % PROGRESS_EVERY == 0:
            on_records(stream.read)


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


def _keep(sink: FindingSink, findings: Iterable[Finding]) -> None:
    for finding in findings:
        if finding.file is None or sink.admit(finding.file, finding.rule_id, finding.severity):
            sink.keep(finding) if finding.file is not None else sink.add(finding)


def ruleset_findings(document) -> list[Finding]:
    """A ruleset met among the filings, validated: its problems are findings on its lines."""
    try:
        ruleset_from_document(document, Path(document.file))
    except RulesetError as error:
        for found in error.problems:
            found.document = document.index if found.file == document.file else found.document
        return list(error.problems)
    return []


def check_document(document, context: _Context) -> tuple[str, str] | None:
    """One document (or record) through the stages: identify its kind, validate its shape, choose its
    jurisdiction, check it against the law. Returns (kind, jurisdiction) when it reached the law, else None."""
    found: list[Finding] = list(document.findings)
    try:
        return _stages(document, context, found)
    finally:
        context.sink.extend(found)


def _stages(document, context: _Context, found: list[Finding]) -> tuple[str, str] | None:
    if looks_like_ruleset(document.data):  # a house ruleset kept beside the filings: validate it, do not misread it
        found.extend(ruleset_findings(document))
        return None
    kind = identify(document, found)
    if kind is None:
        return None
    misshapen = validate_shape(document, kind, context, found)
    jurisdiction = choose_jurisdiction(document, kind, context, misshapen, found)
    if jurisdiction is None:
        return None
    check_law(document, kind, jurisdiction, context)
    if context.dossier.wants(kind):
        _keep(context.sink, context.dossier.feed(kind, document))
    return kind, jurisdiction


def _tool_finding(document, rule_id: str, message: str, pointer: str = "", jurisdiction: str | None = None) -> Finding:
    line, column = document.position(pointer) or (None, None)
    return Finding(rule_id, Severity.ERROR, message, document.file, line, column, pointer, document.index,
                   jurisdiction)


def _given_jurisdiction(document, context: _Context):
    own = document.data.get("jurisdiction")
    return context.override or (own if own is not None else context.default)


def identify(document, found: list[Finding]) -> str | None:
    kind, problem = kinds.identify(document.data)
    if kind is None:
        found.append(_tool_finding(document, *problem, pointer="/kind" if isinstance(document.data, dict) else ""))
    return kind


def validate_shape(document, kind: str, context: _Context, found: list[Finding]) -> set[str]:
    """The shape findings; returns the pointers of values of the wrong shape."""
    jurisdiction = _given_jurisdiction(document, context)
    named = jurisdiction if isinstance(jurisdiction, str) else None
    errors = kinds.validator(kind).errors(document.data, getattr(document, "values", None))
    found.extend(_tool_finding(document, rule_id, message, pointer, named) for rule_id, pointer, message in errors)
    return {pointer for rule_id, pointer, _ in errors if rule_id == F.SHAPE_INVALID}


def choose_jurisdiction(document, kind: str, context: _Context, misshapen: set[str],
                        found: list[Finding]) -> str | None:
    """The ruleset the document is checked against, or None with the finding that says why there is none."""
    jurisdiction = _given_jurisdiction(document, context)
    checker = context.checker
    if not jurisdiction:
        found.append(_tool_finding(document, F.JURISDICTION_MISSING, "the document does not name its jurisdiction "
                                   "(add `jurisdiction: LU`, or pass --jurisdiction)"))
        return None
    if "/jurisdiction" in misshapen and not context.override:
        return None  # already reported as a shape error; no ruleset can be chosen for it
    if not isinstance(jurisdiction, str) or jurisdiction not in checker.rulesets:
        loaded = ", ".join(sorted(checker.rulesets)) or "none"
        found.append(_tool_finding(document, F.JURISDICTION_UNSUPPORTED, f"no ruleset is loaded for jurisdiction "
                                   f"{brief(show(jurisdiction))} (loaded: {loaded}); the document was not checked "
                                   "against law", "/jurisdiction"))
        return None
    game_field = kinds.KINDS[kind].game_field
    game = kinds.KINDS[kind].game_of(document.data)
    if not checker.covers(jurisdiction, kind, game):
        what = f"{kind} documents" + (f" for the game {brief(show(game))}" if game_field else "")
        found.append(_tool_finding(document, F.JURISDICTION_NO_RULES, f"the {jurisdiction} ruleset has no rules for "
                                   f"{what}; the document was not checked against law",
                                   f"/{game_field}" if game_field else "", jurisdiction))
        return None
    return jurisdiction


def check_law(document, kind: str, jurisdiction: str, context: _Context) -> None:
    """The jurisdiction's document rules. A law rule reading a value of the wrong shape still reports (or says
    it could not check): never a silent pass."""
    sink = context.sink
    for finding in context.checker.check(document, kind, jurisdiction, sink.admit):
        if finding.file is None:
            sink.add(finding)  # a rule not applied for want of a parameter: once per run
        else:
            sink.keep(finding)
