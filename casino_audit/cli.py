"""Command line: casino-audit check | rules list | rules explain | rulesets validate | schema."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import List, Optional

import typer

from casino_audit import __version__
from casino_audit.core.display import printable
from casino_audit.documents.kinds import KIND_NAMES
from casino_audit.report import FORMAT_NAMES

# Everything else is imported where a command needs it: a pre-commit hook starts this tool for a handful of
# files on every commit, and `--help` should not pay for rulesets, schemas and validators.

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

# rich_markup_mode=None: plain click help and usage errors; typer's rich help costs ~0.3 s of imports per start.
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="Check casino filings (slot-machine homologation files, gaming-table configurations) "
                       "against gaming law. Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or "
                       "internal error.")
rules_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="List and explain the rules of the rulesets.")
rulesets_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Work with ruleset files.")
app.add_typer(rules_app, name="rules")
app.add_typer(rulesets_app, name="rulesets")



def _say_error(message: str) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(stderr=True, highlight=False, soft_wrap=True, markup=False, emoji=False)
    console.print(Text(message, style="red"))


class Fail(Exception):
    """Stop with a message, lines of detail under it, and an exit code (2 unless said otherwise)."""

    def __init__(self, message: str, code: int = EXIT_ERROR, details: list[str] | tuple = ()):
        super().__init__(message)
        self.code = code
        self.details = list(details)


def _exits(command):
    """Turn Fail into a message and exit code; any other exception into exit 2, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except Fail as failure:
            # Each line escaped on its own: a newline inside a path or a value never starts a line of ours.
            _say_error("\n".join([f"casino-audit: {printable(failure)}", *(printable(d) for d in failure.details)]))
            raise typer.Exit(failure.code) from None
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as error:  # noqa: BLE001 - the whole point is that nothing escapes as a traceback
            _say_error(f"casino-audit: internal error: {type(error).__name__}: {printable(error)}")
            raise typer.Exit(EXIT_ERROR) from None
    return wrapper


@app.callback(invoke_without_command=True)
def _version(version: bool = typer.Option(False, "--version", help="Print the version and exit.")):
    if version:
        typer.echo(f"casino-audit {__version__}")
        raise typer.Exit()


def _settings(**options):
    from casino_audit.run.settings import SettingsError, resolve

    try:
        return resolve(**options)
    except SettingsError as error:
        raise Fail(str(error), details=error.details) from None


def _rulesets(settings) -> dict:
    from casino_audit.run.settings import SettingsError, load_rulesets

    try:
        return load_rulesets(settings)
    except SettingsError as error:
        raise Fail(str(error), details=error.details) from None


FORMATS = ", ".join(FORMAT_NAMES)


class OutputRefused(Fail):
    """-o names a file the run reads: refused, and that file is never touched (not even removed as stale)."""


class ReportedFail(Fail):
    """A run that could not start, whose report (saying why, exit 2) has been written: it stays."""


def _never_walked(output: Path) -> bool:
    """A report a directory walk never reads as a filing (SARIF, JUnit XML, HTML, Markdown) may sit in the tree
    checked, as CI writes it in the workspace; a JSON or YAML one would be read as a filing by the next run."""
    from casino_audit.read.parsers import WALKED_EXTENSIONS

    return not output.name.lower().endswith(WALKED_EXTENSIONS)


def _guard_output(output: Path, paths: list[Path], inside_checked_tree: bool = False) -> None:
    """The report never replaces a filing, ruleset or config, never lands in a tree being checked, never
    replaces a directory."""
    target = output.resolve()
    if output.is_dir():
        raise OutputRefused(f"-o {output} is a directory; name a file")
    for path in paths:
        resolved = path.resolve()
        same = target == resolved or (output.exists() and path.exists() and os.path.samefile(output, path))
        if same:
            raise OutputRefused(f"-o {output} is one of the files this run reads (a filing, ruleset or config); the report "
                       "would overwrite it")
        if not inside_checked_tree and not _never_walked(output) and path.is_dir() and (resolved == target.parent or resolved in target.parents):
            raise OutputRefused(f"-o {output} is inside {path}, a directory being checked; write the report "
                                "elsewhere")


def _guard_named(output: Path, named: set[str], option: str) -> None:
    """A file a checked document reads (a log's table configuration, a meter log's homologation file) is no place
    for a report or a baseline: known once the run has read them, before anything is written."""
    real = os.path.realpath(output)
    if real in named or (output.exists() and any(os.path.exists(path) and os.path.samefile(output, path)
                                                 for path in named)):
        raise OutputRefused(f"{option} {output} is a file a checked document reads (a log's table configuration or "
                            "homologation file); it would be overwritten: name another file")


def _write_atomically(output: Path, write, replace: bool = True) -> None:
    """Write to a temporary file beside the target, then rename it over the target (or, `replace` False, link it
    to a name nothing holds: never over a file that appeared meanwhile): a reader sees the old file or the new
    one, never half of one, and a run stopped (an error, Ctrl-C, SIGTERM from a CI timeout) leaves neither half a
    file under the name nor its temporary beside it."""
    handle, temporary = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=output.parent)
    try:
        with _terminated_as_exit():
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                write(stream)
                stream.flush()
                os.fsync(stream.fileno())
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)  # as a file open() creates, not mkstemp's owner-only mode
            if replace:
                os.replace(temporary, output)
                return
            try:
                os.link(temporary, output)
            except FileExistsError:
                raise
            except OSError:  # no hard links here: copied into a file this run creates
                with open(temporary, "rb") as source, open(output, "xb") as target:
                    shutil.copyfileobj(source, target)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


@contextlib.contextmanager
def _terminated_as_exit():
    """SIGTERM, which runs no handler by default, raised as SystemExit while a file is written, so that the
    writer's clean-up runs (the main thread only: signals are delivered there)."""
    import signal

    try:
        previous = signal.signal(signal.SIGTERM, _exit_on_signal)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _exit_on_signal(number, frame) -> None:
    raise SystemExit(128 + number)


def _quiet_broken_pipe() -> None:
    """The reader went away (`| head`): stop writing, say nothing; the exit code still tells the verdict."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


@app.command()
@_exits
def check(
    paths: List[Path] = typer.Argument(..., metavar="PATH", help="Files or directories to check; directories are walked."),
    jurisdiction: Optional[str] = typer.Option(None, "-j", "--jurisdiction", metavar="CODE",
                                               help="Jurisdiction code for every document, overriding the one it "
                                                    "names (the report says so). A config file's `jurisdiction` only "
                                                    "fills in documents that name none."),
    ruleset: List[Path] = typer.Option([], "--ruleset", metavar="FILE", help="A custom ruleset file (may extend a built-in one)."),
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
    config: Optional[Path] = typer.Option(None, "--config", metavar="FILE", help="Config file (default: ./casino-audit.yaml "
                                                                 "if present)."),
    max_file_size: Optional[int] = typer.Option(None, "--max-file-size", metavar="BYTES", help="Largest file read, in bytes "
                                                                              "(default 10 MiB)."),
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
                                                  help="Write this run's law findings as a baseline (keyed by file, "
                                                       "rule id and JSON pointer, not line)."),
):
    """Check filings and report every breach with the article it breaks."""
    outputs = list(output or [])
    reads = list(paths) + list(ruleset) + ([config] if config else []) + ([baseline] if baseline else [])
    for target in outputs:
        _guard_output(target, reads)
    if write_baseline is not None:  # may sit in the tree checked: it is set aside, not checked
        _guard_output(write_baseline, reads, inside_checked_tree=True)
        _guard_baseline(write_baseline)
        if any(target.resolve() == write_baseline.resolve() for target in outputs):
            raise Fail("--output and --write-baseline name the same file")
    try:
        targets = _report_targets(list(output_format or []), outputs)
        _check(paths, targets, color, dict(
            config=config, jurisdiction=jurisdiction, rulesets=list(ruleset), params=list(param), fail_on=fail_on,
            select=select, ignore=ignore, require_params=require_params, allow_empty=allow_empty,
            max_file_size=max_file_size, max_per_rule=max_per_rule), baseline, write_baseline, jobs)
    except (typer.Exit, OutputRefused, ReportedFail):
        raise
    except Exception:
        for target in outputs:  # a run that failed leaves no earlier report standing in for its verdict
            with contextlib.suppress(OSError):
                target.unlink()
        raise


def _guard_baseline(path: Path) -> None:
    """--write-baseline replaces a baseline, never another file (a filing of the tree checked would be set aside
    unchecked, then lost)."""
    from casino_audit.run.suppressions import is_baseline

    if (path.exists() or path.is_symlink()) and not (path.is_file() and path.stat().st_size == 0) \
            and not is_baseline(path):
        raise OutputRefused(f"--write-baseline {path} exists and is not a casino-audit baseline; it is never "
                            "replaced: name another file")


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


def _check(paths: list[Path], targets: list, color: Optional[bool], options: dict,
           baseline: Optional[Path] = None, write_baseline: Optional[Path] = None, jobs: Optional[int] = None):
    from casino_audit.law.engine import Checker
    from casino_audit.core.findings import Severity
    from casino_audit.run.pipeline import UsageError, run
    from casino_audit.run.progress_bar import progress_for
    from casino_audit.law.provenance import in_use
    from casino_audit.report import ReportContext
    from casino_audit.run.settings import SettingsError, load_rulesets, param_values, resolve

    outputs = [target for _, target in targets if target is not None]
    try:
        settings = resolve(**options)
        for output in outputs:  # the config file found in the working directory, and the rulesets it names
            _guard_output(output, list(paths) + settings.ruleset_paths + [p for p in [settings.config_path] if p])
        rulesets = load_rulesets(settings)
        for output in outputs:  # and the files those rulesets extend
            _guard_output(output, [Path(f.path) for used in in_use(rulesets) for f in used.files])
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
        with progress_for(machine_readable_on_stdout=any(
                target is None and name != "rich" for name, target in targets)) as progress:
            result = run([str(p) for p in paths], checker, None, settings.jurisdiction_override,
                         default_jurisdiction=settings.jurisdiction_default, max_per_rule=settings.max_per_rule,
                         max_bytes=settings.max_file_size, suppressor=suppressor, progress=progress, jobs=jobs)
    except UsageError as error:
        raise Fail(str(error)) from None
    named = {path for record in result.files for path in (record.reads or ())}
    for output, option in [(target, "-o") for target in outputs] + [(write_baseline, "--write-baseline")]:
        if output is not None:
            _guard_named(output, named, option)
    if write_baseline is not None:
        _write_baseline(write_baseline, suppressor)
    if not result.files_to_check() and not settings.allow_empty:
        raise Fail("no filing found to check under the given paths (nothing was checked; --allow-empty accepts "
                   "that)")
    context = ReportContext(settings.fail_on, in_use(rulesets, values, checker.used), settings.in_effect(), color,
                            settings.require_params)
    _report(result, context, targets)
    raise typer.Exit(result.exit_code(settings.fail_on))


def _suppressor(settings, baseline: Optional[Path], write_baseline: Optional[Path]):
    """What waivers and the baseline cover (None when neither is in play: the sink's fast path)."""
    from casino_audit.run.suppressions import BASELINE_VERSION, BaselineError, Suppressor, baseline_version, is_legacy, \
        read_baseline

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
    from casino_audit.run.suppressions import baseline_document

    text = json.dumps(baseline_document(suppressor.recorded), indent=2, ensure_ascii=False) + "\n"
    try:
        _write_atomically(path, lambda stream: stream.write(text))
    except OSError as error:
        raise Fail(f"cannot write the baseline {path}: {error.strerror or error}") from None


def _failed_run(findings: list):
    """A run that could not start: its findings (a config's or ruleset's lines), verdict unknown (exit 2)."""
    from casino_audit.core.results import FindingSink, RunResult

    sink = FindingSink(0)
    for finding in findings:
        sink.add(finding)
    return RunResult(findings=sink.kept, totals=sink.totals, internal_errors=1)


def _report(result, context, targets: list) -> None:
    """Every report: the files first (each written atomically), then the one for standard output, if any."""
    from casino_audit.report import reporter

    for output_format, output in targets:
        if output is None:
            continue
        write = reporter(output_format)
        try:
            _write_atomically(output, lambda stream: write(result, context, stream))
        except OSError as error:
            raise Fail(f"cannot write {output}: {error.strerror or error}") from None
    for output_format, output in targets:
        if output is not None:
            continue
        try:
            reporter(output_format)(result, context, sys.stdout)
            sys.stdout.flush()
        except BrokenPipeError:
            _quiet_broken_pipe()


def _rules_in_scope(jurisdiction: Optional[str], ruleset: List[Path], config: Optional[Path]) -> list:
    """The rules a `check` with the same config and options would apply: config rulesets included."""
    from casino_audit.run.settings import SettingsError, jurisdiction_code

    settings = _settings(config=config, rulesets=list(ruleset))
    rulesets = _rulesets(settings)
    try:
        code = jurisdiction_code(jurisdiction)
    except SettingsError as error:
        raise Fail(str(error)) from None
    if code is not None and code not in rulesets:
        raise Fail(f"no ruleset for jurisdiction {code}; loaded: {', '.join(sorted(rulesets))}")
    return [rulesets[c] for c in sorted(rulesets) if code is None or c == code]


def _param_values(ruleset, config: Optional[Path], param: List[str]) -> dict:
    """The ruleset's parameter values from --param and the config, as `check` reads them (a config's values of
    other jurisdictions are known, not refused)."""
    from casino_audit.run.settings import SettingsError, param_values

    settings = _settings(config=config, params=list(param))
    try:
        return param_values(dict(_rulesets(settings)), settings.params).get(ruleset.code, {})
    except SettingsError as error:
        raise Fail(str(error)) from None


_CONFIG_OPTION = typer.Option(None, "--config", help="Config file (default: ./casino-audit.yaml if present); its "
                                                      "rulesets are the ones `check` would use.")


@rules_app.command("list")
@_exits
def rules_list(
    jurisdiction: Optional[str] = typer.Option(None, "-j", "--jurisdiction", help="Only this jurisdiction."),
    ruleset: List[Path] = typer.Option([], "--ruleset", help="A custom ruleset file."),
    output_format: str = typer.Option("rich", "--format", help="rich, json, or markdown (the coverage document: "
                                                               "articles to rules, and what is left out and why)."),
    config: Optional[Path] = _CONFIG_OPTION,
):
    """List every rule with its severity and citation."""
    from casino_audit.report import catalogue

    if output_format not in catalogue.LIST_FORMATS:
        raise Fail(f"unknown --format {output_format!r}; choose {', '.join(catalogue.LIST_FORMATS)}")
    catalogue.list_rules(_rules_in_scope(jurisdiction, ruleset, config), output_format, sys.stdout)


@rules_app.command("explain")
@_exits
def rules_explain(
    rule_id: str = typer.Argument(..., help="A rule id, e.g. LU-SLOT-RTP-MIN."),
    ruleset: List[Path] = typer.Option([], "--ruleset", help="A custom ruleset file."),
    config: Optional[Path] = _CONFIG_OPTION,
):
    """Explain a rule: what it checks, the article and its original words, what passes and what fails."""
    from casino_audit.report import catalogue

    for rs in _rules_in_scope(None, ruleset, config):
        for rule in rs.rules:
            if rule.id == rule_id.upper():
                catalogue.explain(rule, rs, sys.stdout)
                return
    raise Fail(f"no rule {rule_id!r}; `casino-audit rules list` shows them all")


@rulesets_app.command("validate")
@_exits
def rulesets_validate(files: List[Path] = typer.Argument(..., help="Ruleset files to validate.")):
    """Validate ruleset files against the meta-schema and the check kinds; exit 1 if any is invalid."""
    from casino_audit.report.catalogue import validation
    from casino_audit.law.rulesets import RulesetError, load_ruleset

    bad = False
    for path in files:
        try:
            validation(path, None, load_ruleset(path), sys.stdout, sys.stderr)
        except RulesetError as error:
            bad = True
            validation(path, error.problems, None, sys.stdout, sys.stderr)
    raise typer.Exit(EXIT_FINDINGS if bad else EXIT_CLEAN)


@app.command()
@_exits
def edge(
    game: str = typer.Argument(..., help="The game, as a table configuration names it (punto_banco, english_roulette...)."),
    jurisdiction: str = typer.Option(..., "-j", "--jurisdiction", metavar="CODE", help="Whose law: LU, PT, MC."),
    table: Optional[Path] = typer.Option(None, "--table", metavar="FILE", help="A table configuration: its payouts "
                                                                              "(and decks, wheel) instead of the law's."),
    decks: Optional[int] = typer.Option(None, "--decks", metavar="N", min=1, help="Decks in the shoe (card games)."),
    zero_rule: Optional[str] = typer.Option(None, "--zero-rule", metavar="RULE",
                                            help="What a zero does to the simple chances where the law is silent: "
                                                 "lose, half_back or en_prison_one_spin."),
    rounds: int = typer.Option(200_000, "--rounds", metavar="N", min=1,
                               help="Rounds of the seeded simulation, for the games not computed exactly."),
    seed: int = typer.Option(1, "--seed", metavar="S", help="The simulation's seed."),
    param: List[str] = typer.Option([], "--param", metavar="NAME=VALUE",
                                    help="A value the law leaves out (a payout, a rule of play), as `check` takes it."),
    output_format: str = typer.Option("rich", "--format", metavar="FORMAT", help="rich or json."),
    config: Optional[Path] = _CONFIG_OPTION,
):
    """The house edge of every bet of a game under a jurisdiction's law (or a table's schedule): exactly where
    it can be enumerated, else by a seeded simulation with its 95 % interval, labelled so."""
    from casino_audit.edge import EdgeError, Options, edges
    from casino_audit.read.loader import NotOneDocument, load_single_document
    from casino_audit.report import edges as edge_report

    if output_format not in edge_report.FORMATS:
        raise Fail(f"unknown --format {output_format!r}; choose rich or json")
    [ruleset] = _rules_in_scope(jurisdiction, [], config)
    data = None
    if table is not None:
        try:
            document = load_single_document(table, "a table configuration")
        except NotOneDocument as error:
            raise Fail(f"{table} cannot be read:", details=error.problems) from None
        data = document.data
        if not isinstance(data, dict) or data.get("game") != game:
            raise Fail(f"{table} is not a {game} table configuration")
        from casino_audit.documents.kinds import misshapen

        problems = misshapen(document, "table")
        if problems:
            raise Fail(f"{table} is not a table configuration the edge can be computed from "
                       f"({len(problems)} problem(s)):", details=[f"  {problem}" for problem in problems])
    try:
        found = edges(ruleset, game, data, Options(decks, zero_rule, rounds, seed,
                                                   _param_values(ruleset, config, param)))
    except EdgeError as error:
        raise Fail(str(error)) from None
    source = f"the schedule of {table}" if table else f"the law's schedule ({ruleset.name})"
    filed_under = data.get("jurisdiction") if data is not None else None
    if isinstance(filed_under, str) and filed_under.upper() != ruleset.code:  # -j replaces it: said, as check does
        source += f" (a table filed under {filed_under}, its edges computed under {ruleset.code}'s rules: -j)"
    edge_report.report(f"{game} in {ruleset.jurisdiction_name} ({ruleset.code}): house edge by bet, {source}",
                       found, output_format, sys.stdout)


@app.command()
@_exits
def rtp(
    file: Path = typer.Argument(..., metavar="FILE", help="A slot-machine homologation file (kind: machine) with "
                                                           "PAR data (`par:`)."),
    paytable: Optional[str] = typer.Option(None, "--paytable", metavar="NAME", help="Only this paytable."),
    rounds: int = typer.Option(20_000, "--rounds", metavar="N", min=1,
                               help="Spins of the seeded simulation, for what is not counted exactly."),
    seed: int = typer.Option(1, "--seed", metavar="S", help="The simulation's seed."),
    output_format: str = typer.Option("rich", "--format", metavar="FORMAT", help="rich or json."),
):
    """The return to player of each paytable of a machine's PAR data, computed exactly (a fraction), with its hit
    frequency, standard deviation per spin, each pay's hits and share of the return, and the odds of the top
    award. What cannot be counted within the work budget is estimated by a seeded simulation, labelled so."""
    from casino_audit.slots import par_read, par_returns
    from casino_audit.read.loader import NotOneDocument, load_single_document
    from casino_audit.report import rtp as rtp_report

    if output_format not in rtp_report.FORMATS:
        raise Fail(f"unknown --format {output_format!r}; choose rich or json")
    try:
        document = load_single_document(file, "a machine homologation file")
    except NotOneDocument as error:
        raise Fail(f"{file} cannot be read:", details=error.problems) from None
    data = document.data
    if not isinstance(data, dict) or data.get("kind") != "machine":
        raise Fail(f"{file} is not a slot-machine homologation file (`kind: machine`)")
    if data.get("par") is None:
        raise Fail(f"{file} gives no PAR data (`par:`, see docs/par.md): there is nothing to compute the return from")
    reading = par_read.read(data["par"])
    if reading.problems:
        placed = sorted(((document.position(pointer) or (0, 0)), message) for pointer, message in reading.problems)
        details = [f"  {file}:{line}:{column}: {message}" if line else f"  {file}: {message}"
                   for (line, column), message in placed]
        raise Fail(f"the PAR data of {file} cannot be evaluated ({len(reading.problems)} problem(s)):",
                   details=details)
    if paytable is not None:
        names = [table.paytable.name for table in reading.paytables]
        if paytable not in names:
            raise Fail(f"no paytable {paytable!r} in {file}; it has {', '.join(map(repr, names))}")
        reading.paytables = [t for t in reading.paytables if t.paytable.name == paytable]
    # The returns as `check` counts them (the same pass, the same budget), then the figures beside them within a
    # budget of their own: a hostile sheet stops there, a real one never does.
    computed = par_returns.returns(reading, moments=True, rounds=rounds, seed=seed)
    if all(item.result is None for item in computed):
        raise Fail(f"the PAR data of {file} are too large to count or simulate within casino-audit's work limits "
                   f"(paytable {', '.join(repr(item.paytable.paytable.name) for item in computed)})")
    rtp_report.report(str(file), data.get("redistribution_rate"), computed, output_format, sys.stdout)


SCHEMAS = {"ruleset": "ruleset.schema.json", "report": "report.schema.json"}


@app.command()
@_exits
def schema(name: str = typer.Argument(..., help=f"A document kind ({', '.join(KIND_NAMES)}), "
                                                f"or {' / '.join(SCHEMAS)}."),
           output_format: str = typer.Option("json", "--format", help="json (the JSON Schema), or markdown (a "
                                             "reference page: every field, its type, what it takes and means; a "
                                             "log's CSV columns).")):
    """Print the JSON Schema of a document kind (for editors), of rulesets or of the JSON report."""
    if output_format not in ("json", "markdown"):
        raise Fail(f"unknown format {output_format!r}; choose json or markdown")
    from casino_audit.documents import kinds
    from casino_audit.documents.shape import packaged_schema

    if name == "game-log":
        from casino_audit.logs.schema import game_log_schema

        document = game_log_schema()
    elif name == "meter-log":
        from casino_audit.meters.records import meter_log_schema

        document = meter_log_schema()
    elif name in kinds.KINDS:
        document = kinds.schema(name)
    elif name in SCHEMAS:
        document = packaged_schema(SCHEMAS[name])
    else:
        raise Fail(f"unknown schema {name!r}; choose one of {', '.join([*KIND_NAMES, *SCHEMAS])}")
    if output_format == "markdown":
        from casino_audit.documents.schema_doc import page

        typer.echo(page(name, document), nl=False)
    else:
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))


@app.command("sample-log")
@_exits
def sample_log(
    game: str = typer.Argument(..., help="The game, as a table configuration names it (punto_banco ...)."),
    jurisdiction: str = typer.Option(..., "-j", "--jurisdiction", metavar="CODE", help="Whose law: LU, PT, MC."),
    coups: int = typer.Option(1000, "--coups", metavar="N", min=0, help="How many coups."),
    seed: int = typer.Option(1, "--seed", metavar="S", help="The seed: the same seed gives the same log."),
    inject: List[str] = typer.Option([], "--inject", metavar="BREACH",
                                     help="A breach to inject (repeatable); an unknown name lists the known ones."),
    param: List[str] = typer.Option([], "--param", metavar="NAME=VALUE",
                                    help="A value the law leaves out, as `check` takes it (the game is played by it)."),
    output_format: str = typer.Option("jsonl", "--format", metavar="FORMAT", help="jsonl or csv."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", metavar="FILE",
                                          help="Write to FILE (refused if it exists), else to standard output."),
    config: Optional[Path] = _CONFIG_OPTION,
):
    """Write a realistic game log (shuffled shoes, sessions, staff changes, several seats' bets), compliant or
    with named breaches injected: for tests, benchmarks and a first try of `check`."""
    from casino_audit.samples.log import SampleError, write

    if output_format not in ("jsonl", "csv"):
        raise Fail(f"unknown --format {output_format!r}; choose jsonl or csv")
    [ruleset] = _rules_in_scope(jurisdiction, [], config)
    values = _param_values(ruleset, config, param)
    try:
        _write_sample(output, "sample-log", lambda out: write(ruleset, game, coups, seed, inject, out, output_format,
                                                              values))
    except SampleError as error:
        raise Fail(str(error)) from None


def _write_sample(output: Optional[Path], command: str, write) -> None:
    """A sample to standard output, or to a new file: never over one that exists, and a run that fails leaves no
    half-written file behind."""
    if output is None:
        write(sys.stdout)
        return
    if output.exists():
        raise Fail(f"{output} exists: {command} never writes over a file")
    try:
        _write_atomically(output, write, replace=False)
    except FileExistsError:
        raise Fail(f"{output} exists: {command} never writes over a file") from None
    except OSError as error:
        raise Fail(f"cannot write {output}: {error.strerror or error}") from None


@app.command("sample-meters")
@_exits
def sample_meters(
    jurisdiction: str = typer.Option(..., "-j", "--jurisdiction", metavar="CODE", help="Whose law: LU."),
    machines: int = typer.Option(5, "--machines", metavar="N", min=1, help="How many machines."),
    days: int = typer.Option(31, "--days", metavar="D", min=2, help="How many days, one reading a machine a day."),
    seed: int = typer.Option(1, "--seed", metavar="S", help="The seed: the same seed gives the same log."),
    inject: List[str] = typer.Option([], "--inject", metavar="BREACH",
                                     help="A breach to inject (repeatable); an unknown name lists the known ones."),
    machine: Optional[str] = typer.Option(None, "--machine", metavar="PATH",
                                          help="The machines' homologation file, as the header names it (relative "
                                               "to the log): its rate, meters and maximum stake shape the sample."),
    output_format: str = typer.Option("jsonl", "--format", metavar="FORMAT", help="jsonl or csv."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", metavar="FILE",
                                          help="Write to FILE (refused if it exists), else to standard output."),
    config: Optional[Path] = _CONFIG_OPTION,
):
    """Write a realistic meter log (machines read daily, rollovers, drop-box counts), compliant or with named
    breaches injected: for tests, benchmarks and a first try of `check`."""
    from casino_audit.read.loader import NotOneDocument, load_single_document
    from casino_audit.samples.log import SampleError
    from casino_audit.samples.meters import write

    if output_format not in ("jsonl", "csv"):
        raise Fail(f"unknown --format {output_format!r}; choose jsonl or csv")
    [ruleset] = _rules_in_scope(jurisdiction, [], config)
    data = None
    if machine is not None:  # read where the log will read it: beside the log
        where = (output.parent if output is not None else Path(".")) / machine
        try:
            data = load_single_document(where, "a homologation file").data
        except NotOneDocument as error:
            raise Fail(f"{where} cannot be read:", details=error.problems) from None
        if not isinstance(data, dict) or data.get("kind") != "machine":
            raise Fail(f"{where} is not a homologation file (kind: machine)")
    try:
        _write_sample(output, "sample-meters", lambda out: write(ruleset, machines, days, seed, inject, out,
                                                                 output_format, machine, data))
    except SampleError as error:
        raise Fail(str(error)) from None


def main() -> None:
    app(prog_name="casino-audit")
