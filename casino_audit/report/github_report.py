"""GitHub Actions report: one workflow-command annotation per finding, then the verdict and the counts.

    ::error file=F,line=L,col=C,title=RULE-ID::message%0Aarticle, instrument

error, warning and notice follow the finding's severity; a waived or baselined finding is a notice titled
`RULE-ID (waived)` or `(baselined)`, whatever its severity. A finding of the whole run (a rule not applied for
want of a parameter) is an annotation without a file. Settings that switch rules off, and a house ruleset that
weakens the law, are one warning titled `casino-audit settings`; every setting not at its default is listed in
a collapsed group. Chosen by default when GITHUB_ACTIONS=true and no --format is given.

Text is escaped as the runner requires (in a message % CR LF as %25 %0D %0A; in a property also : and , as %3A
%2C), after control and invisible characters are written as escapes: a filing can neither end an annotation
early, start a workflow command of its own (nor a legacy `##[command]`, read anywhere in a line), nor colour
the log.
"""

from __future__ import annotations

from typing import TextIO

from casino_audit.core.display import printable
from casino_audit.core.findings import Finding, Severity
from casino_audit.report import common

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
SETTINGS_TITLE = "casino-audit settings"


def plain(text: object) -> str:
    """A log line of ours that is no workflow command: printable, and any `##[` written `#\\x23[`. The runner
    reads a legacy command (`##[error]`, `##[stop-commands]TOKEN`, `##[add-mask]`) anywhere in a line, so a file
    named `##[error]x.yaml` would otherwise raise an annotation of its own or stop every command after it."""
    return printable(text).replace("##[", "#\\x23[")


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(command: str, message: str, title: str, file: str | None = None, line: int | None = None,
               column: int | None = None) -> str:
    """One workflow command; `message` may hold newlines of ours (each piece from a filing is printable)."""
    properties = []
    if file is not None:
        properties.append(f"file={escape_property(printable(file))}")
        if line:
            properties.append(f"line={line}")
            if column:
                properties.append(f"col={column}")
    properties.append(f"title={escape_property(printable(title))}")
    return f"::{command} {','.join(properties)}::{escape_data(message)}"


def _finding(finding: Finding) -> str:
    lines = [printable(finding.message)]
    title, command = finding.rule_id, COMMAND[finding.severity]
    if finding.suppression is not None:
        word = "waived" if finding.suppression.kind == "waiver" else "baselined"
        title, command = f"{finding.rule_id} ({word})", "notice"
        lines.append(printable(common.suppression_text(finding.suppression)))
    if finding.citation is not None:
        lines.append(printable(finding.citation.short()))
    for related in finding.related:
        place = related.location
        lines.append(printable(f"{related.message}: " + ":".join(
            str(part) for part in (place.file, place.line, place.column) if part is not None)))
    return annotation(command, "\n".join(lines), title, finding.file, finding.line, finding.column)


def _narrowing(context) -> list[str]:
    """What switched rules of law off or weakened them in this run, in words."""
    # -j puts another law in place of the filing's own; fail_on never passes the run whatever is found
    said = [f"{setting.name} = {common.value_text(setting.value)} (from {setting.source})"
            for setting in context.settings if setting.name in ("select", "ignore", "jurisdiction_override")
            or (setting.name, setting.value) == ("fail_on", "never")
            or (setting.name == "baseline" and "version 1" in str(setting.value))]  # any message accepted
    for used in context.rulesets:
        if used.weakens_law:
            changed = [f"{change.rule_id} {change.change}" for change in used.changes if change.change != "tightened"]
            said.append(f"the ruleset {used.ruleset.name} changes the law: {', '.join(changed)}")
    return said


def report(result, context, stream: TextIO) -> None:
    write = lambda line: stream.write(line + "\n")  # noqa: E731 - one line at a time, to the stream
    for finding in result.findings:
        write(_finding(finding))
    narrowing = _narrowing(context)
    if narrowing:
        write(annotation("warning", "\n".join(printable(line) for line in narrowing), SETTINGS_TITLE))
    for entry in result.omitted:
        # Every line of ours starts with our words: a file named `::error ...` cannot start a command.
        write(plain(f"casino-audit: {entry.file}: {common.more_text(entry)} not listed "
                    f"({entry.total:,} in all; --max-per-rule 0 lists every one)"))
    if context.settings:
        write("::group::Settings in effect (not the defaults)")
        for setting in context.settings:
            write(plain(f"  {setting.name} = {common.value_text(setting.value)}   [from {setting.source}]"))
        write("::endgroup::")
    summary = result.summary()
    verdict, _ = common.verdict(result, context)
    write(plain(f"casino-audit: {common.counts_text(summary)}; {common.files_text(summary)}"))
    write(plain(f"casino-audit: {verdict}"))
