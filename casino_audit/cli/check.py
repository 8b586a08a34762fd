"""`casino-audit check`: its options, the reports' targets, the files it never writes over. The check itself is
`checking.py`, imported when the command runs."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import List, Optional

import typer

from casino_audit.cli.apps import CHECK_CONFIG_OPTION, app
from casino_audit.cli.failing import Fail, OutputRefused, ReportedFail, exits
from casino_audit.cli.files import guard_output
from casino_audit.report import FORMAT_NAMES

FORMATS = ", ".join(FORMAT_NAMES)


# Over 60 lines for its 18 options' declarations, which typer reads from the signature; the body is short.
@app.command()
@exits
def check(
    # text, not Path: Path("./-") is Path("-"), and `./-` names a file where `-` is standard input
    paths: List[str] = typer.Argument(..., metavar="PATH",
                                       help="Files or directories to check. A directory is walked at any depth for "
                                            ".yaml, .yml, .json, and the logs' .jsonl, .ndjson and .csv (gzipped "
                                            "too), hidden entries left out; a file named here is read whatever its "
                                            "extension. - reads one filing or log from standard input."),
    jurisdiction: Optional[str] = typer.Option(None, "-j", "--jurisdiction", metavar="CODE",
                                               help="Jurisdiction code for every document, overriding the one it "
                                                    "names (the report says so). A config file's `jurisdiction` only "
                                                    "fills in documents that name none."),
    ruleset: List[Path] = typer.Option([], "--ruleset", metavar="FILE",
                                       help="A custom ruleset file, in place of the built-in ruleset of its "
                                            "jurisdiction (it may extend it); repeatable, one per jurisdiction."),
    param: List[str] = typer.Option([], "--param", metavar="NAME=VALUE", help="NAME=VALUE for a value the law leaves to a later "
                                                        "decision (repeatable)."),
    output_format: Optional[List[str]] = typer.Option(
        None, "--format", metavar="FORMAT", help=f"Report format: {FORMATS} (default rich; github when "
                                                 "GITHUB_ACTIONS=true). Repeatable: the Nth --output takes the "
                                                 "Nth format's report, a format without one goes to standard "
                                                 "output (one at most)."),
    output: Optional[List[Path]] = typer.Option(None, "--output", "-o", metavar="FILE",
                                                help="Write a report to this file (atomically; never over a file "
                                                     "being checked). Repeatable, one per --format."),
    fail_on: Optional[str] = typer.Option(None, "--fail-on", metavar="SEVERITY", help="error (default), warning, info or never."),
    select: Optional[List[str]] = typer.Option(None, "--select", metavar="IDS", help="Only these law rule ids or prefixes "
                                                                      "(comma-separated, repeatable)."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", metavar="IDS", help="Leave out these law rule ids or prefixes. "
                                                                      "The tool's own findings are always kept."),
    config: Optional[Path] = CHECK_CONFIG_OPTION,
    max_file_size: Optional[int] = typer.Option(None, "--max-file-size", metavar="BYTES",
                                                help="Largest YAML or JSON file checked, in bytes (default 10485760, "
                                                     "10 MiB); a larger one is not read: a LOAD-TOO-LARGE finding. "
                                                     "Game and meter logs (.jsonl, .ndjson, .csv, gzipped or not) are "
                                                     "read a record at a time whatever their size, a record at most "
                                                     "1 MiB."),
    max_per_rule: Optional[int] = typer.Option(None, "--max-per-rule", metavar="N", help="Findings listed per rule and file "
                                                                            "(default 20; 0 lists all). All are "
                                                                            "counted."),
    require_params: Optional[bool] = typer.Option(None, "--require-params", help="Fail the run when a rule is not "
                                                                                 "applied for want of a parameter."),
    allow_empty: Optional[bool] = typer.Option(None, "--allow-empty", help="Exit 0, not 2, when no filing is found."),
    color: Optional[bool] = typer.Option(None, "--color/--no-color", help="Force colour on or off."),
    baseline: Optional[Path] = typer.Option(None, "--baseline", metavar="FILE",
                                            help="Findings accepted earlier (written by --write-baseline): shown as "
                                                 "baselined, not counted; only new findings fail."),
    jobs: Optional[int] = typer.Option(None, "--jobs", metavar="N", min=1,
                                       help="Processes checking files side by side (default: every core for 48 "
                                            "files or more, else 1). The report is the same whatever N is."),
    write_baseline: Optional[Path] = typer.Option(None, "--write-baseline", metavar="FILE",
                                                  help="Write every law finding of this run to FILE as a baseline "
                                                       "for --baseline (waived, baselined and those past "
                                                       "--max-per-rule too; never the tool's own LOAD-, SHAPE-... "
                                                       "findings), keyed by file, rule id, document or log record, "
                                                       "JSON pointer and message, not line. It replaces a baseline "
                                                       "or an empty file, never another file; the run reports and "
                                                       "exits as usual."),
    stdin_filename: Optional[str] = typer.Option(None, "--stdin-filename", metavar="NAME",
                                                 help="The name reports give the filing read from standard input "
                                                      "(-), default -; its extension (.yaml, .json, .jsonl, .csv "
                                                      "...) says how it is read, else its content does, and a file "
                                                      "it names (a log's table_config) is found from NAME's "
                                                      "directory (the working directory for -)."),
):
    """Check filings and report every breach with the article it breaks."""
    from casino_audit.cli.checking import guard_baseline, run_check  # start-up: loaded only when a check runs

    outputs = list(output or [])
    if stdin_filename is not None and "-" not in paths:
        raise Fail("--stdin-filename names the filing read from standard input: give - among the paths")
    reads = [Path(p) for p in paths if p != "-"] + list(ruleset) + ([config] if config else []) + ([baseline] if baseline else [])
    for target in outputs:
        guard_output(target, reads)
    if write_baseline is not None:  # may sit in the tree checked: it is set aside, not checked
        guard_output(write_baseline, reads, inside_checked_tree=True)
        guard_baseline(write_baseline)
        if any(target.resolve() == write_baseline.resolve() for target in outputs):
            raise Fail("--output and --write-baseline name the same file")
    with _reports_removed_on_failure(outputs):
        targets = _report_targets(list(output_format or []), outputs)
        run_check(paths, targets, color, dict(
            config=config, jurisdiction=jurisdiction, rulesets=list(ruleset), params=list(param), fail_on=fail_on,
            select=select, ignore=ignore, require_params=require_params, allow_empty=allow_empty,
            max_file_size=max_file_size, max_per_rule=max_per_rule), baseline, write_baseline, jobs,
            stdin_filename)


@contextlib.contextmanager
def _reports_removed_on_failure(outputs: list[Path]):
    """A run that failed leaves no earlier report standing in for its verdict; one that exits with its verdict
    or refuses an output keeps them."""
    try:
        yield
    except (typer.Exit, OutputRefused, ReportedFail):
        raise
    except Exception:
        for target in outputs:
            with contextlib.suppress(OSError):
                target.unlink()
        raise


def _report_targets(formats: list[str], outputs: list[Path]) -> list[tuple[str, Optional[Path]]]:
    """Each report's format and file (None: standard output), like checkov: the Nth --output takes the Nth
    --format's report. No --format: rich, or github in GitHub Actions."""
    if not formats:
        formats = ["github" if os.environ.get("GITHUB_ACTIONS") == "true" else "rich"]
    for name in formats:
        if name not in FORMAT_NAMES:
            raise Fail(f"unknown --format {name!r}; choose one of {FORMATS}")
    if len(outputs) > len(formats):
        raise Fail(f"{len(outputs)} --output for {len(formats)} --format: the Nth --output takes the Nth --format's "
                   "report; name a --format for each")
    targets = [(name, outputs[n] if n < len(outputs) else None) for n, name in enumerate(formats)]
    to_stdout = [name for name, target in targets if target is None]
    if len(to_stdout) > 1:
        raise Fail(f"--format {' and '.join(to_stdout)} would all go to standard output; give every one but one "
                   "an --output")
    seen: list[Path] = []
    for target in outputs:
        if any(target.resolve() == other.resolve() or (target.exists() and other.exists()
                                                        and os.path.samefile(target, other)) for other in seen):
            raise Fail(f"--output {target} is named twice; each report needs a file of its own")
        seen.append(target)
    return targets
