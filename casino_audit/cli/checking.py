"""The check behind `casino-audit check`: settings and rulesets resolved, the files checked, the baseline and
reports written. Imported when a check runs: everything here is what a check needs."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Optional

import typer

from casino_audit.cli.failing import Fail, OutputRefused, ReportedFail
from casino_audit.cli.files import guard_named, guard_output, quiet_broken_pipe, write_atomically
from casino_audit.core.findings import Severity
from casino_audit.core.results import FindingSink, RunResult
from casino_audit.law.engine import Checker
from casino_audit.law.provenance import in_use
from casino_audit.report import ReportContext, reporter
from casino_audit.run.discovery import UsageError
from casino_audit.run.pipeline import run
from casino_audit.run.progress_bar import progress_for
from casino_audit.run.settings import SettingsError, load_rulesets, param_values, resolve
from casino_audit.run.suppressions import (BASELINE_VERSION, BaselineError, Suppressor, baseline_document,
                                           baseline_version, is_baseline, is_legacy, read_baseline)


def guard_baseline(path: Path) -> None:
    """--write-baseline replaces a baseline, never another file (a filing of the tree checked would be set aside
    unchecked, then lost)."""
    if (path.exists() or path.is_symlink()) and not (path.is_file() and path.stat().st_size == 0) \
            and not is_baseline(path):
        raise OutputRefused(f"--write-baseline {path} exists and is not a casino-audit baseline; it is never "
                            "replaced: name another file")


def run_check(paths: list[str], targets: list, color: Optional[bool], options: dict,
           baseline: Optional[Path] = None, write_baseline: Optional[Path] = None, jobs: Optional[int] = None,
           stdin_filename: Optional[str] = None):
    outputs = [target for _, target in targets if target is not None]
    from_stdin = "-" in paths
    on_disk = [Path(p) for p in paths if p != "-"]
    try:
        settings = resolve(**options)
        for output in outputs:  # the config file found in the working directory, and the rulesets it names
            guard_output(output, on_disk + settings.ruleset_paths + [p for p in [settings.config_path] if p])
        rulesets = load_rulesets(settings)
        for output in outputs:  # and the files those rulesets extend
            guard_output(output, [Path(f.path) for used in in_use(rulesets) for f in used.files])
        values = param_values(rulesets, settings.params)
    except SettingsError as error:
        if error.findings:  # a broken config or ruleset is a report too, with its file:line, for a CI format
            _report(_failed_run(error.findings), ReportContext(Severity.ERROR, color=color), targets)
            raise ReportedFail(str(error), details=error.details) from None
        raise Fail(str(error), details=error.details) from None
    checker = Checker(rulesets, values, select=settings.select, ignore=settings.ignore,
                      require_params=settings.require_params)
    suppressor = _suppressor(settings, baseline, write_baseline)
    try:  # a bar on stderr for a long run in a terminal, erased before the report; none for a program's format
        with _standard_input(from_stdin, stdin_filename) as stdin, progress_for(machine_readable_on_stdout=any(
                target is None and name != "rich" for name, target in targets)) as progress:
            result = run(list(paths), checker, None, settings.jurisdiction_override,
                         default_jurisdiction=settings.jurisdiction_default, max_per_rule=settings.max_per_rule,
                         max_bytes=settings.max_file_size, suppressor=suppressor, progress=progress, jobs=jobs,
                         stdin=stdin)
    except UsageError as error:
        raise Fail(str(error)) from None
    named = {path for record in result.files for path in (record.reads or ())}
    for output, option in [(target, "-o") for target in outputs] + [(write_baseline, "--write-baseline")]:
        if output is not None:
            guard_named(output, named, option)
    if write_baseline is not None:
        _write_baseline(write_baseline, suppressor)
    if not result.files_to_check() and not settings.allow_empty:
        raise Fail("no filing found to check under the given paths (nothing was checked; --allow-empty accepts "
                   "that)")
    context = ReportContext(settings.fail_on, in_use(rulesets, values, checker.used), settings.in_effect(), color,
                            settings.require_params)
    _report(result, context, targets)
    raise typer.Exit(result.exit_code(settings.fail_on))


@contextlib.contextmanager
def _standard_input(wanted: bool, name: Optional[str]):
    """(its name in the reports, the file it was spooled to) while the run lasts, when a path is `-`; else None."""
    if not wanted:
        yield None
        return
    from casino_audit.cli.stdin import spooled  # only a check of standard input spools it

    with spooled(name) as stdin:
        yield stdin


def _suppressor(settings, baseline: Optional[Path], write_baseline: Optional[Path]):
    """What waivers and the baseline cover (None when neither is in play: the sink's fast path)."""
    if not settings.waivers and baseline is None and write_baseline is None:
        return None
    entries, version = None, BASELINE_VERSION
    if baseline is not None:
        try:
            entries = read_baseline(baseline)
        except BaselineError as error:
            raise Fail(str(error)) from None
        settings.baseline = baseline
        settings.baseline_legacy = is_legacy(entries)
        settings.baseline_version = version = baseline_version(baseline) or BASELINE_VERSION
    return Suppressor(settings.waivers, baseline=entries,
                      baseline_root=baseline.parent if baseline is not None else None,
                      baseline_source=str(baseline) if baseline is not None else None,
                      record=write_baseline is not None,
                      record_root=write_baseline.parent if write_baseline is not None else None,
                      baseline_file=baseline, record_file=write_baseline, baseline_version=version)


def _write_baseline(path: Path, suppressor) -> None:
    text = json.dumps(baseline_document(suppressor.recorded), indent=2, ensure_ascii=False) + "\n"
    try:
        write_atomically(path, lambda stream: stream.write(text))
    except OSError as error:
        raise Fail(f"cannot write the baseline {path}: {error.strerror or error}") from None


def _failed_run(findings: list):
    """A run that could not start: its findings (a config's or ruleset's lines), verdict unknown (exit 2)."""
    sink = FindingSink(0)
    for finding in findings:
        sink.add(finding)
    return RunResult(findings=sink.kept, totals=sink.totals, internal_errors=1)


def _report(result, context, targets: list) -> None:
    """Every report: the files first (each written atomically), then the one for standard output, if any."""
    for output_format, output in targets:
        if output is None:
            continue
        write = reporter(output_format)
        try:
            write_atomically(output, lambda stream: write(result, context, stream))
        except OSError as error:
            raise Fail(f"cannot write {output}: {error.strerror or error}") from None
    for output_format, output in targets:
        if output is not None:
            continue
        try:
            reporter(output_format)(result, context, sys.stdout)
            sys.stdout.flush()
        except BrokenPipeError:
            quiet_broken_pipe()
