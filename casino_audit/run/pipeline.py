"""The one-way pipeline: discover files -> load -> identify kind -> validate shape -> check rules -> result.

Loader and checker are passed in, so each stage can be tested alone; reporters read the RunResult.
One file that cannot be read, or whose check crashes, is a finding on that file: the rest of the batch goes on.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable, Iterable

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding
from casino_audit.core.results import DEFAULT_MAX_PER_RULE, FileRecord, FindingSink, RunResult
from casino_audit.law.engine import Checker
from casino_audit.read.loader import DEFAULT_MAX_BYTES, FileLoad, checking
from casino_audit.run.discovery import discover
from casino_audit.run.one_file import check_one, standard_input
from casino_audit.run.parallel import check_in_parallel, parallel_workers
from casino_audit.run.stages import Context, keep


@dataclass(frozen=True)
class Progress:
    """Where a run is, told to an optional callback (a display is the caller's business: the pipeline prints
    nothing): files finished of those to check, the file being read, and its records read so far (a log), with
    the bytes of its file read so far of its size when they are known (a log on disk), for a display's percentage
    and time left. Two reports at the same place are equal whatever the bytes (the tests compare places)."""

    files_done: int
    files_total: int
    path: str
    records: int = 0
    bytes_read: int | None = field(default=None, compare=False)
    bytes_total: int | None = field(default=None, compare=False)


def run(paths: Iterable[str], checker: Checker, loader: Callable[[str], FileLoad] | None = None,
        jurisdiction: str | None = None, *, default_jurisdiction: str | None = None,
        max_per_rule: int = DEFAULT_MAX_PER_RULE, max_bytes: int | None = None, suppressor=None,
        progress: Callable[[Progress], None] | None = None, jobs: int | None = 1,
        stdin: tuple[str, str] | None = None) -> RunResult:
    """`jurisdiction` replaces every document's own (an explicit option); `default_jurisdiction` only fills in
    documents that name none (a config file). `loader` replaces the parsers of documents (tests). `suppressor`
    (suppressions.Suppressor) marks the findings waivers and the baseline cover. `progress` is told when each
    file starts and ends, and every one_file.PROGRESS_EVERY records of a log. `jobs`: processes checking files
    side by side (None: every core for a large batch, one for a handful of files); the result is the same
    whatever it is. `stdin`: (the name reports give it, the file it was spooled to) when a path is `-`."""
    paths = list(paths)
    files, records, problems = discover(paths, suppressor.files() if suppressor is not None else None,
                                        stdin[0] if stdin is not None else None)
    result = RunResult()
    sink = FindingSink(max_per_rule, suppressor)
    sink.extend(problems)
    context = Context(checker, sink, jurisdiction, default_jurisdiction, checker.dossier())
    workers = parallel_workers(jobs, len(files), context.dossier)
    max_bytes = max_bytes or DEFAULT_MAX_BYTES
    with checking(path for path in paths if path != "-" and os.path.isdir(path)), \
            standard_input(*(stdin or (None, None))):  # where a file a log names may be read from; stdin's bytes
        if workers > 1:
            # The first file is checked here: the workers forked after it inherit what it made ready (the rules
            # compiled, a return computed, a module loaded) instead of each making it again.
            _check_in_turn(files[:1], result, context, loader, max_bytes, progress, len(files))
            told = None if progress is None else lambda done, path: progress(Progress(done, len(files), path))
            check_in_parallel(files[1:], result, context, workers, loader, max_bytes, told, len(files))
        else:
            _check_in_turn(files, result, context, loader, max_bytes, progress, len(files))
        _check_named_filings(files, result, context, loader, max_bytes)
    keep(sink, context.dossier.close())
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


def _check_named_filings(files: list[str], result: RunResult, context: Context, loader, max_bytes: int) -> None:
    """Each filing a log was judged under (a game log's table configuration, a meter log's homologation files),
    checked with the logs as a filing of its own, once, whether or not it was among the paths given (a
    configuration or a machine file that breaks the law must not pass because only its log was named); one among
    the files checked already is not checked again."""
    checked = {os.path.realpath(path) for path in files}
    named: dict[str, str] = {}
    for record in result.files:
        for path in record.named_filings or ():
            if os.path.realpath(path) not in checked:
                named.setdefault(os.path.realpath(path), path)
    for _, path in sorted(named.items()):
        record = FileRecord(path, "checked")
        result.files.append(record)
        result.internal_errors += check_one(path, record, context, loader, max_bytes, None)


def _check_in_turn(files: list[str], result: RunResult, context: Context, loader, max_bytes: int, progress,
                   total: int) -> None:
    for done, path in enumerate(files):
        record = FileRecord(path, "checked")
        result.files.append(record)
        on_records = None
        if progress is not None:
            progress(Progress(done, total, path))
            on_records = lambda read, at=None, size=None: progress(  # noqa: E731 - called now
                Progress(done, total, path, read, at, size))
        result.internal_errors += check_one(path, record, context, loader, max_bytes, on_records)
        if progress is not None:
            progress(Progress(done + 1, total, path, record.records["read"] if record.records else 0))
