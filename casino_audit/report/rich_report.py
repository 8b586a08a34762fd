"""Human report: findings grouped by file, coloured by severity, each with the article it breaks.

Everything printed is a rich Text (never markup) and every text from a filing, ruleset or file name goes through
`printable`, so a key holding escape sequences or `[bold]` is shown as written and cannot forge a verdict.
"""

from __future__ import annotations

from itertools import groupby
from typing import TextIO

from rich.console import Console
from rich.text import Text

from casino_audit.core.display import printable
from casino_audit.core.findings import Finding, Severity
from casino_audit.report import common
from casino_audit.law.provenance import shown_source

STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
VERDICT_STYLE = {common.UNKNOWN: "bold red", common.FAILED: "bold red", common.PASSED_WITH_GAPS: "bold yellow",
                 common.PASSED: "bold green"}


def _console(stream: TextIO, color: bool | None) -> Console:
    if color is None:
        return Console(file=stream, soft_wrap=True, highlight=False, markup=False, emoji=False)
    return Console(file=stream, soft_wrap=True, highlight=False, markup=False, emoji=False, force_terminal=color,
                   no_color=not color)


Segments = list[tuple[str, str]]  # (text, style): a line drawn by rich in a terminal, written plain elsewhere


def _segments(finding: Finding) -> Segments:
    where = f"{finding.line}:{finding.column}" if finding.line else "-"
    out = [("  ", ""), (f"{where:>7}  ", "dim")]
    if finding.suppression is not None:  # reported, but not counted toward the verdict
        out.append((f"{'waived' if finding.suppression.kind == 'waiver' else 'baselined':<9}", "dim"))
    else:
        out.append((f"{finding.severity.label:<7}", STYLE[finding.severity]))
    out.append((f" {printable(finding.rule_id)}", "bold"))
    out.append((f"  {printable(finding.message)}", ""))
    if finding.citation is not None:
        out.append((f"\n{'':18}{printable(finding.citation.short())}", "dim italic"))
    if finding.suppression is not None:
        s = finding.suppression
        out.append((f"\n{'':18}{s.kind}: {printable(s.justification)}"
                    + "".join(f"; {label} {printable(value)}" for label, value in (
                        ("granted by", s.granted_by), ("ref.", s.reference), ("expires", s.expires),
                        ("in", s.source)) if value), "dim"))
    for related in finding.related:
        place = related.location
        where = f"{printable(place.file)}:{place.line}:{place.column}" if place.line else printable(place.file)
        out.append((f"\n{'':18}{printable(related.message)}: {where}", "dim"))
    return out


def _line(finding: Finding) -> Text:
    return Text.assemble(*_segments(finding))


def _block(console: Console, stream: TextIO, lines: list[Segments]) -> None:
    """Lines printed at once: drawn by rich where there is colour, else written as they are (what rich would
    write without colour, at a tenth of the cost: a report of 24,000 findings to a CI log)."""
    if console.color_system is None and not console.is_jupyter:
        console.file.write("\n".join("".join(text for text, _ in line) for line in lines) + "\n")
    else:
        console.print(Text("\n").join(Text.assemble(*line) for line in lines))


def report(result, context, stream: TextIO) -> None:
    console = _console(stream, context.color)
    by_file = [f for f in result.findings if f.file]
    run_level = [f for f in result.findings if not f.file]
    omitted: dict[str, list] = {}
    for entry in result.omitted:
        omitted.setdefault(entry.file, []).append(entry)
    # One write per file, not per finding: rich's cost is per print (5x the JSON report's on 24,000 findings).
    for path, group in groupby(by_file, key=lambda f: f.file):
        block = [[(printable(path), "bold underline")], *map(_segments, group)]
        for entry in omitted.get(path, ()):
            covered = f" {entry.suppression}-covered" if entry.suppression else ""
            block.append([(f"  ... and {entry.total - entry.shown:,} more{covered} {printable(entry.rule_id)} "
                           f"finding(s) in this file ({entry.total:,} in all; --max-per-rule 0 shows every one)",
                           "dim")])
        _block(console, stream, block)
        console.print()
    if run_level:
        _block(console, stream, [[("Whole run", "bold underline")], *map(_segments, run_level)])
        console.print()
    skipped = [record for record in result.files if record.status == "skipped"]
    if skipped:
        console.print(Text(f"Skipped {len(skipped)} path(s), each with why (one met in a directory is checked "
                           "when named explicitly):", style="dim"))
        for record in skipped:
            console.print(Text(f"  {printable(record.path)}: {printable(record.reason)}", style="dim"))
        console.print()
    _provenance(console, context)
    _summary(console, result, context)


def _provenance(console: Console, context) -> None:
    """What shaped this check besides the law: settings not at their default, and house rulesets' changes."""
    if context.settings:
        console.print(Text("Settings in effect (not the defaults):", style="bold"))
        for setting in context.settings:
            console.print(Text(f"  {setting.name} = {printable(common.value_text(setting.value))}   "
                               f"[from {printable(setting.source)}]"))
        console.print()
    for used in context.rulesets:
        if not used.changes:
            continue
        ruleset = used.ruleset
        console.print(Text(f"The ruleset {printable(ruleset.name)} ({ruleset.code}) changes "
                           f"{len(used.changes)} rule(s) of the law:", style="bold yellow" if used.weakens_law
                           else "bold"))
        for change in used.changes:
            line = Text(f"  {printable(change.rule_id)} {change.change}: {printable('; '.join(change.reasons))}")
            line.append(f"\n      law:   {printable(change.law.citation.short())} ({change.law.severity.label})",
                        style="dim")
            if change.house is not None:
                line.append(f"\n      house: {printable(change.house.citation.short())} "
                            f"({change.house.severity.label}, {printable(shown_source(change.house.source))})", style="dim")
            console.print(line)
        console.print()


def _summary(console: Console, result, context) -> None:
    s = result.summary()
    counts = Text(" · ".join(common.files_parts(s)) + " — ")
    counts.append(f"{s['errors']} error(s)", style=STYLE[Severity.ERROR] if s["errors"] else "")
    counts.append(", ")
    counts.append(f"{s['warnings']} warning(s)", style=STYLE[Severity.WARNING] if s["warnings"] else "")
    counts.append(", ")
    counts.append(f"{s['infos']} info", style=STYLE[Severity.INFO] if s["infos"] else "")
    covered = [f"{s[key]:,} {key}" for key in ("waived", "baselined") if s[key]]
    if covered:
        counts.append(f"; {' and '.join(covered)}, not counted")
    if s["findings_omitted"]:
        counts.append(f" ({s['findings_omitted']:,} not listed, see above)")
    console.print(counts)
    if context.rulesets:
        names = ", ".join(f"{printable(u.ruleset.name)} ({u.ruleset.code}, {len(u.ruleset.rules)} rules"
                          f"{'' if u.builtin else ', ' + printable(u.files[0].path) + ' sha256:' + (u.files[0].sha256 or '?')[:12]})"
                          for u in context.rulesets)
        console.print(Text(f"Rulesets: {names}", style="dim"))
    console.print(verdict(result, context))


def verdict(result, context) -> Text:
    text, kind = common.verdict(result, context)
    return Text(text, style=VERDICT_STYLE[kind])
