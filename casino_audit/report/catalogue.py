"""The rule catalogue: `rules list` (rich, json, markdown) and `rules explain`, one place for each format.

Every text comes from rulesets, which a house may write: it is printed as rich Text (never markup), escaped.
"""

from __future__ import annotations

import json
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from casino_audit.report.coverage import markdown
from casino_audit.core.display import brief, printable
from casino_audit.report.json_report import citation_dict
from casino_audit.replay.families import provisions
from casino_audit.law.provenance import shown_source

LIST_FORMATS = ("rich", "json", "markdown")


def rule_dict(rule, ruleset) -> dict:
    return {
        "id": rule.id, "title": rule.title, "severity": rule.severity.label, "jurisdiction": rule.jurisdiction,
        "ruleset": ruleset.name, "applies_to": {"kind": rule.kind, "games": list(rule.games)},
        "check": rule.describe(), "params": list(rule.params), "citation": citation_dict(rule.citation),
        "rationale": rule.rationale,
        # a replay rule's findings cite the provision of the rules of play each coup breaks
        "provisions": [{"game": game, **citation_dict(citation)} for game, citation in provisions(ruleset, rule)],
    }


def _console(stream: TextIO) -> Console:
    return Console(file=stream, highlight=False, soft_wrap=True, markup=False, emoji=False)


def list_rules(scope: list, output_format: str, stream: TextIO) -> None:
    if output_format == "json":
        stream.write(json.dumps([rule_dict(rule, rs) for rs in scope for rule in rs.rules], indent=2,
                                ensure_ascii=False) + "\n")
        return
    if output_format == "markdown":
        stream.write(markdown(scope))
        return
    console = Console(file=stream, highlight=False, markup=False, emoji=False)
    for rs in scope:
        table = Table(title=Text(printable(f"{rs.jurisdiction_name} ({rs.code}) — ruleset {rs.name}: "
                                           f"{len(rs.rules)} rules")), title_justify="left")
        for column, style in (("id", "bold"), ("severity", ""), ("kind", ""), ("title", ""), ("article", "dim")):
            table.add_column(column, style=style, no_wrap=column == "id")
        for rule in rs.rules:  # Text cells: a ruleset's words are never read as markup
            table.add_row(*(Text(printable(cell)) for cell in (rule.id, rule.severity.label, rule.kind, rule.title,
                                                               rule.citation.article)))
        console.print(table)


def explain(rule, rs, stream: TextIO) -> None:
    console = _console(stream)

    def say(text: str, style: str = "") -> None:
        console.print(Text(printable(text, keep_newlines=True), style=style))

    say(f"{rule.id}: {rule.title}", "bold")
    games = f" for {', '.join(rule.games)}" if rule.games else ""
    say(f"Severity: {rule.severity.label} · applies to: {rule.kind} documents{games} in "
        f"{rs.jurisdiction_name} ({rs.code}) · ruleset {rs.name} ({shown_source(rule.source)})")
    say("\nLaw", "bold underline")
    say(f"{rule.citation.article}, {rule.citation.instrument}")
    say(f"« {rule.citation.text} »", "italic")
    cited = provisions(rs, rule)
    if cited:
        say("\nProvisions its findings cite", "bold underline")
        say("Each finding cites the provision of the rules of play the coup breaks, of these (the rule's own "
            "citation where none applies):")
        for game, citation in cited:
            say(f"{citation.article}, {citation.instrument} ({game})")
            say(f"« {citation.text} »", "italic")
    say("\nWhat it checks", "bold underline")
    say(f"Passes: {rule.describe()}.")
    say("Fails otherwise: each value that breaks it is a finding at its file:line:column.")
    for name in rule.params:
        param = rs.params[name]
        say(f"Needs the parameter {name} ({param.description}; {param.citation.article}); without it the rule "
            "is not applied and an info finding says so (an error with --require-params).")
    say("\nWhy", "bold underline")
    say(rule.rationale)
    _cases(rule, say)


def _cases(rule, say) -> None:
    """The rule's cases, run now: each base filing, its patch, and what the ruleset finds on it."""
    from casino_audit.law import cases  # start-up: only `rules explain` runs the cases, through the pipeline

    ruleset = cases.builtin_of(rule)
    if ruleset is None:
        say("\nExamples", "bold underline")
        say("none: only the built-in rules have cases, and this rule is a house ruleset's")
        return
    found = cases.load_cases(ruleset).get(rule.id, [])
    for outcome, heading in (("pass", "Passing examples"), ("fail", "Failing examples")):
        say(f"\n{heading}", "bold underline")
        for case in (c for c in found if c.outcome == outcome):
            say(f"{case.name} ({case.base})", "bold")
            for pointer, value in case.set.items():
                say(f"  {pointer} = {brief(cases.flow(value), 100)}")
            for pointer in case.delete:
                say(f"  {pointer} deleted")
            if case.params:
                say("  with " + ", ".join(f"{name}={value}" for name, value in case.params.items()))
            findings = cases.run_case(case, ruleset).findings
            for finding in findings:
                say(f"  → {finding.rule_id} at {finding.pointer or '/'}: {finding.message}")
            if not findings:
                say("  → no finding")


def validation(path, problems: list | None, ruleset, out: TextIO, err: TextIO) -> None:
    """One ruleset file's validation: `valid — ...` on out, or `invalid` and each problem on err."""
    if problems is not None:
        console = _console(err)
        console.print(Text(f"{printable(path)}: invalid", style="bold red"))
        for problem in problems:
            console.print(Text(f"  {printable(problem)}"))
        return
    extends = f", extends {' -> '.join(ruleset.chain[1:])}" if len(ruleset.chain) > 1 else ""
    out.write(printable(f"{path}: valid — ruleset {ruleset.name} ({ruleset.code}), {len(ruleset.rules)} rules"
                        f"{extends}") + "\n")
