"""Human report: findings grouped by file, coloured by severity, each with the article it breaks."""

from __future__ import annotations

from itertools import groupby
from typing import TextIO

from rich.console import Console
from rich.text import Text

from casino_audit.findings import Finding, Severity

STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _console(stream: TextIO, color: bool | None) -> Console:
    if color is None:
        return Console(file=stream, soft_wrap=True, highlight=False)
    return Console(file=stream, soft_wrap=True, highlight=False, force_terminal=color, no_color=not color)


def _line(finding: Finding) -> Text:
    where = f"{finding.line}:{finding.column}" if finding.line else "-"
    text = Text("  ")
    text.append(f"{where:>7}  ", style="dim")
    text.append(f"{finding.severity.label:<7}", style=STYLE[finding.severity])
    text.append(f" {finding.rule_id}", style="bold")
    text.append(f"  {finding.message}")
    if finding.citation is not None:
        text.append(f"\n{'':18}{finding.citation.short()}", style="dim italic")
    return text


def report(result, context, stream: TextIO) -> None:
    console = _console(stream, context.color)
    by_file = [f for f in result.findings if f.file]
    run_level = [f for f in result.findings if not f.file]
    for path, group in groupby(by_file, key=lambda f: f.file):
        console.print(Text(path, style="bold underline"))
        for finding in group:
            console.print(_line(finding))
        console.print()
    if run_level:
        console.print(Text("Whole run", style="bold underline"))
        for finding in run_level:
            console.print(_line(finding))
        console.print()
    skipped = [record for record in result.files if record.status == "skipped"]
    if skipped:
        console.print(Text(f"Skipped {len(skipped)} path(s) met in directories (name one explicitly to check "
                           "it anyway):", style="dim"))
        for record in skipped:
            console.print(Text(f"  {record.path}: {record.reason}", style="dim"))
        console.print()
    _summary(console, result, context)


def _summary(console: Console, result, context) -> None:
    s = result.summary()
    parts = [f"{s['files_checked']} file(s) checked ({s['documents']} document(s))",
             f"{s['files_with_findings']} with findings",
             f"{s['files_unreadable']} unreadable"]
    if s["files_skipped"]:
        parts.append(f"{s['files_skipped']} skipped")
    counts = Text(" · ".join(parts) + " — ")
    counts.append(f"{s['errors']} error(s)", style=STYLE[Severity.ERROR] if s["errors"] else "")
    counts.append(", ")
    counts.append(f"{s['warnings']} warning(s)", style=STYLE[Severity.WARNING] if s["warnings"] else "")
    counts.append(", ")
    counts.append(f"{s['infos']} info", style=STYLE[Severity.INFO] if s["infos"] else "")
    console.print(counts)
    if context.rulesets:
        names = ", ".join(f"{r.name} ({r.code}, {len(r.rules)} rules)" for r in context.rulesets)
        console.print(Text(f"Rulesets: {names}", style="dim"))
    threshold = context.fail_on
    if result.failed(threshold):
        console.print(Text(f"FAILED: findings at or above '{threshold.label}'", style="bold red"))
    else:
        console.print(Text("PASSED" + (f": nothing at or above '{threshold.label}'" if threshold else ""),
                           style="bold green"))
