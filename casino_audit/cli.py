"""Command line: casino-audit check | rules list | rules explain | rulesets validate | schema."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from casino_audit import __version__, coverage, kinds
from casino_audit.config import ConfigError, find_config, load_config
from casino_audit.engine import CheckCrashed, Checker, selected
from casino_audit.findings import TOOL_FINDINGS, Severity
from casino_audit.loader import DEFAULT_MAX_BYTES, load_file
from casino_audit.pipeline import UsageError, run
from casino_audit.reporters import REPORTERS, ReportContext
from casino_audit.rulesets import Ruleset, RulesetError, builtin_names, load_builtin, load_ruleset
from casino_audit.shape import packaged_schema

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Check casino filings (slot-machine homologation files, gaming-table configurations) "
                       "against gaming law. Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or "
                       "internal error.")
rules_app = typer.Typer(no_args_is_help=True, help="List and explain the rules of the rulesets.")
rulesets_app = typer.Typer(no_args_is_help=True, help="Work with ruleset files.")
app.add_typer(rules_app, name="rules")
app.add_typer(rulesets_app, name="rulesets")

err = Console(stderr=True, highlight=False, soft_wrap=True)


class Fail(Exception):
    """Stop with a message and an exit code (2 unless said otherwise)."""

    def __init__(self, message: str, code: int = EXIT_ERROR):
        super().__init__(message)
        self.code = code


def _exits(command):
    """Turn Fail into a message and exit code; any other exception into exit 2, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except Fail as failure:
            err.print(Text(f"casino-audit: {failure}", style="red"))
            raise typer.Exit(failure.code) from None
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as error:  # noqa: BLE001 - the whole point is that nothing escapes as a traceback
            err.print(Text(f"casino-audit: internal error: {type(error).__name__}: {error}", style="red"))
            raise typer.Exit(EXIT_ERROR) from None
    return wrapper


@app.callback(invoke_without_command=True)
def _version(version: bool = typer.Option(False, "--version", help="Print the version and exit.")):
    if version:
        typer.echo(f"casino-audit {__version__}")
        raise typer.Exit()


def _split(values: Optional[List[str]]) -> list[str]:
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def _load_rulesets(extra: list[Path]) -> dict[str, Ruleset]:
    """Built-in rulesets by jurisdiction, each replaced by a custom one of the same jurisdiction if given."""
    try:
        rulesets = {ruleset.code: ruleset for ruleset in (load_builtin(name) for name in builtin_names())}
        for path in extra:
            custom = load_ruleset(path)
            rulesets[custom.code] = custom
    except RulesetError as error:
        raise Fail("the ruleset is not valid:\n" + "\n".join(error.problems)) from None
    return rulesets


def _param_values(rulesets: dict[str, Ruleset], raw: dict) -> dict[str, dict]:
    declared = {name for ruleset in rulesets.values() for name in ruleset.params}
    unknown = sorted(set(raw) - declared)
    if unknown:
        raise Fail(f"unknown parameter(s): {', '.join(unknown)}; the rulesets declare: "
                   f"{', '.join(sorted(declared)) or 'none'}")
    values: dict[str, dict] = {}
    for code, ruleset in rulesets.items():
        values[code] = {}
        for name, value in raw.items():
            if name in ruleset.params:
                try:
                    values[code][name] = ruleset.params[name].parse(value)
                except ValueError as error:
                    raise Fail(str(error)) from None
    return values


def _check_codes(rulesets: dict[str, Ruleset], codes: list[str]) -> None:
    """A --select/--ignore code that matches no rule is a typo: refuse it rather than select nothing."""
    known = [rule.id for ruleset in rulesets.values() for rule in ruleset.rules] + list(TOOL_FINDINGS)
    unknown = [code for code in codes if not any(selected(rule_id, [code], None) for rule_id in known)]
    if unknown:
        raise Fail(f"--select/--ignore: no rule matches {', '.join(unknown)} (`casino-audit rules list` shows them)")


def _parse_params(items: list[str]) -> dict[str, str]:
    parsed = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise Fail(f"--param takes NAME=VALUE, not {item!r}")
        parsed[name.strip()] = value.strip()
    return parsed


def _jurisdiction(code: Optional[str]) -> Optional[str]:
    if code is None:
        return None
    code = code.strip().upper()
    if len(code) != 2 or not code.isalpha():
        raise Fail(f"--jurisdiction takes a two-letter code (LU, PT, MC), not {code!r}")
    return code


FORMATS = ", ".join(REPORTERS)


@app.command()
@_exits
def check(
    paths: List[Path] = typer.Argument(..., help="Files or directories to check; directories are walked."),
    jurisdiction: Optional[str] = typer.Option(None, "-j", "--jurisdiction",
                                               help="Jurisdiction code for documents that do not say one, "
                                                    "overriding the ones that do."),
    ruleset: List[Path] = typer.Option([], "--ruleset", help="A custom ruleset file (may extend a built-in one)."),
    param: List[str] = typer.Option([], "--param", help="NAME=VALUE for a value the law leaves to a later "
                                                        "decision (repeatable)."),
    output_format: str = typer.Option("rich", "--format", help=f"Report format: {FORMATS}."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report to this file."),
    fail_on: Optional[str] = typer.Option(None, "--fail-on", help="error (default), warning, info or never."),
    select: Optional[List[str]] = typer.Option(None, "--select", help="Only these rule ids or prefixes "
                                                                      "(comma-separated, repeatable)."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", help="Leave out these rule ids or prefixes."),
    config: Optional[Path] = typer.Option(None, "--config", help="Config file (default: ./casino-audit.yaml "
                                                                 "if present)."),
    max_file_size: Optional[int] = typer.Option(None, "--max-file-size", help="Largest file read, in bytes "
                                                                              "(default 10 MiB)."),
    color: Optional[bool] = typer.Option(None, "--color/--no-color", help="Force colour on or off."),
):
    """Check filings and report every breach with the article it breaks."""
    try:
        settings = load_config(find_config(config))
    except ConfigError as error:
        raise Fail(f"the config file is not valid:\n{error}") from None
    if output_format not in REPORTERS:
        raise Fail(f"unknown --format {output_format!r}; choose one of {FORMATS}")
    threshold_name = (fail_on or settings.fail_on or "error").lower()
    try:
        threshold = None if threshold_name == "never" else Severity.parse(threshold_name)
    except ValueError:
        raise Fail(f"--fail-on takes error, warning, info or never, not {threshold_name!r}") from None
    rulesets = _load_rulesets(settings.rulesets + list(ruleset))
    raw_params = {**settings.params, **_parse_params(param)}
    chosen_select, chosen_ignore = _split(select) or settings.select, _split(ignore) or settings.ignore
    _check_codes(rulesets, chosen_select + chosen_ignore)
    checker = Checker(rulesets, _param_values(rulesets, raw_params), select=chosen_select, ignore=chosen_ignore)
    limit = max_file_size or settings.max_file_size or DEFAULT_MAX_BYTES
    try:
        result = run([str(p) for p in paths], checker, functools.partial(load_file, max_bytes=limit),
                     _jurisdiction(jurisdiction) or settings.jurisdiction)
    except UsageError as error:
        raise Fail(str(error)) from None
    except CheckCrashed as crash:
        raise Fail(str(crash)) from None
    if not result.files:
        err.print(Text("casino-audit: warning: no YAML or JSON files found under the given paths", style="yellow"))
    context = ReportContext(threshold, sorted(rulesets.values(), key=lambda r: r.code), color)
    reporter = REPORTERS[output_format]
    if output is not None:
        try:
            with output.open("w", encoding="utf-8") as stream:
                reporter(result, context, stream)
        except OSError as error:
            raise Fail(f"cannot write {output}: {error.strerror or error}") from None
    else:
        reporter(result, context, sys.stdout)
    raise typer.Exit(EXIT_FINDINGS if result.failed(threshold) else EXIT_CLEAN)


def _rules_in_scope(jurisdiction: Optional[str], ruleset: List[Path]) -> list[Ruleset]:
    rulesets = _load_rulesets(list(ruleset))
    code = _jurisdiction(jurisdiction)
    if code is not None and code not in rulesets:
        raise Fail(f"no ruleset for jurisdiction {code}; loaded: {', '.join(sorted(rulesets))}")
    return [rulesets[c] for c in sorted(rulesets) if code is None or c == code]


def rule_dict(rule, ruleset: Ruleset) -> dict:
    return {
        "id": rule.id, "title": rule.title, "severity": rule.severity.label, "jurisdiction": rule.jurisdiction,
        "ruleset": ruleset.name, "applies_to": {"kind": rule.kind, "games": list(rule.games)},
        "check": rule.describe(), "params": list(rule.params),
        "citation": {"instrument": rule.citation.instrument, "article": rule.citation.article,
                     "text": rule.citation.text, "language": rule.citation.language},
        "rationale": rule.rationale,
    }


@rules_app.command("list")
@_exits
def rules_list(
    jurisdiction: Optional[str] = typer.Option(None, "-j", "--jurisdiction", help="Only this jurisdiction."),
    ruleset: List[Path] = typer.Option([], "--ruleset", help="A custom ruleset file."),
    output_format: str = typer.Option("rich", "--format", help="rich, json, or markdown (the coverage document: "
                                                               "articles to rules, and what is left out and why)."),
):
    """List every rule with its severity and citation."""
    scope = _rules_in_scope(jurisdiction, ruleset)
    if output_format == "json":
        typer.echo(json.dumps([rule_dict(rule, rs) for rs in scope for rule in rs.rules], indent=2,
                              ensure_ascii=False))
        return
    if output_format == "markdown":
        typer.echo(coverage.markdown(scope), nl=False)
        return
    if output_format != "rich":
        raise Fail(f"unknown --format {output_format!r}; choose rich, json or markdown")
    console = Console(highlight=False)
    for rs in scope:
        table = Table(title=f"{rs.jurisdiction_name} ({rs.code}) — ruleset {rs.name}: {len(rs.rules)} rules",
                      title_justify="left")
        table.add_column("id", style="bold", no_wrap=True)
        table.add_column("severity")
        table.add_column("kind")
        table.add_column("title")
        table.add_column("article", style="dim")
        for rule in rs.rules:
            table.add_row(rule.id, rule.severity.label, rule.kind, rule.title, rule.citation.article)
        console.print(table)


@rules_app.command("explain")
@_exits
def rules_explain(
    rule_id: str = typer.Argument(..., help="A rule id, e.g. LU-SLOT-RTP-MIN."),
    ruleset: List[Path] = typer.Option([], "--ruleset", help="A custom ruleset file."),
):
    """Explain a rule: what it checks, the article and its original words, what passes and what fails."""
    for rs in _rules_in_scope(None, ruleset):
        for rule in rs.rules:
            if rule.id == rule_id.upper():
                _explain(rule, rs)
                return
    raise Fail(f"no rule {rule_id!r}; `casino-audit rules list` shows them all")


def _explain(rule, rs: Ruleset) -> None:
    console = Console(highlight=False, soft_wrap=True)
    console.print(Text(f"{rule.id}: {rule.title}", style="bold"))
    games = f" for {', '.join(rule.games)}" if rule.games else ""
    console.print(f"Severity: {rule.severity.label} · applies to: {rule.kind} documents{games} in "
                  f"{rs.jurisdiction_name} ({rs.code}) · ruleset {rs.name} ({rule.source})")
    console.print(Text("\nLaw", style="bold underline"))
    console.print(f"{rule.citation.article}, {rule.citation.instrument}")
    console.print(Text(f"« {rule.citation.text} »", style="italic"))
    console.print(Text("\nWhat it checks", style="bold underline"))
    console.print(f"Passes: {rule.describe()}.")
    console.print("Fails otherwise: each value that breaks it is a finding at its file:line:column.")
    for name in rule.params:
        param = rs.params[name]
        console.print(f"Needs the parameter {name} ({param.description}; {param.citation.article}); "
                      f"without it the rule is not applied and an info finding says so.")
    console.print(Text("\nWhy", style="bold underline"))
    console.print(rule.rationale)


@rulesets_app.command("validate")
@_exits
def rulesets_validate(files: List[Path] = typer.Argument(..., help="Ruleset files to validate.")):
    """Validate ruleset files against the meta-schema and the check kinds; exit 1 if any is invalid."""
    bad = False
    for path in files:
        try:
            rs = load_ruleset(path)
        except RulesetError as error:
            bad = True
            err.print(Text(f"{path}: invalid", style="bold red"))
            for problem in error.problems:
                err.print(f"  {problem}")
            continue
        extends = f", extends {' -> '.join(rs.chain[1:])}" if len(rs.chain) > 1 else ""
        typer.echo(f"{path}: valid — ruleset {rs.name} ({rs.code}), {len(rs.rules)} rules{extends}")
    raise typer.Exit(EXIT_FINDINGS if bad else EXIT_CLEAN)


SCHEMAS = {"ruleset": "ruleset.schema.json", "report": "report.schema.json"}


@app.command()
@_exits
def schema(name: str = typer.Argument(..., help=f"A document kind ({', '.join(kinds.KINDS)}), "
                                                f"or {' / '.join(SCHEMAS)}.")):
    """Print the JSON Schema of a document kind (for editors), of rulesets or of the JSON report."""
    if name in kinds.KINDS:
        document = kinds.schema(name)
    elif name in SCHEMAS:
        document = packaged_schema(SCHEMAS[name])
    else:
        raise Fail(f"unknown schema {name!r}; choose one of {', '.join([*kinds.KINDS, *SCHEMAS])}")
    typer.echo(json.dumps(document, indent=2, ensure_ascii=False))


def main() -> None:
    app(prog_name="casino-audit")
