"""Markdown report: a pull-request comment or a filing's cover note. Verdict, counts, one table of findings,
what was not listed, what was not applied, and every setting that changed the check.

Every text from a filing, a ruleset or a file name is escaped (`escape`): control characters are written as
escapes, and the punctuation Markdown reads inline (and any that starts the text) is backslash-escaped
(CommonMark renders `\\x` as x for every ASCII punctuation character, and GFM tables honour `\\|`), so a value
such as `| error |`, `<img src=...>` or `**PASSED**` is shown as written and can forge neither a row nor a
verdict.
"""

from __future__ import annotations

import string
from typing import TextIO

from casino_audit.core.display import printable
from casino_audit.report import common

_PUNCTUATION = frozenset(string.punctuation)
# Emphasis, code, links and images, HTML and entities, tables, strikethrough, math, references and mentions.
_INLINE = frozenset("\\`*_[]<>|~$&#@")
HEADLINE = {common.UNKNOWN: "ERROR", common.FAILED: "FAILED", common.PASSED_WITH_GAPS: "PASSED",
            common.PASSED: "PASSED"}


def escape(text: object) -> str:
    """Text shown as written in Markdown, on one line: the characters that mean something inline are
    backslash-escaped everywhere, and any punctuation that starts the text (`# `, `1. `, `> `, `- `)."""
    text = printable(text)
    return "".join("\\" + char if char in _INLINE or (not n and char in _PUNCTUATION) else char
                   for n, char in enumerate(text))


def unescape(text: str) -> str:
    """The inverse of `escape` for text it wrote (control characters stay as their escapes)."""
    out, chars = [], iter(text)
    for char in chars:
        out.append(next(chars, "") if char == "\\" else char)
    return "".join(out)


def where(finding) -> str:
    if finding.file is None:
        return "(whole run)"
    return ":".join(str(part) for part in (finding.file, finding.line, finding.column) if part is not None)


def _row(cells) -> str:
    return "| " + " | ".join(cells) + " |"


def report(result, context, stream: TextIO) -> None:
    write = lambda line="": stream.write(line + "\n")  # noqa: E731 - one line at a time, to the stream
    summary = result.summary()
    text, kind = common.verdict(result, context)
    write(f"## casino-audit: {HEADLINE[kind]}")
    write()
    write(f"**{escape(text)}**")
    write()
    write(escape(common.counts_text(summary)) + " — " + escape(common.files_text(summary)) + ".")
    write()
    if result.findings:
        write("| rule | severity | where | message | article |")
        write("|---|---|---|---|---|")
        for finding in result.findings:
            severity = finding.severity.label
            message = escape(finding.message)
            if finding.suppression is not None:
                severity += " (" + ("waived" if finding.suppression.kind == "waiver" else "baselined") + ")"
                message += " — *" + escape(common.suppression_text(finding.suppression)) + "*"
            for related in finding.related:
                message += f" — {escape(related.message)}: {escape(where(related.location))}"
            article = escape(finding.citation.short()) if finding.citation is not None else "—"
            place = escape(where(finding)) if finding.file is not None else where(finding)
            write(_row([f"**{escape(finding.rule_id)}**", severity, place, message, article]))
        write()
    else:
        write("No finding.")
        write()
    if result.omitted:
        write("**Not listed** (`--max-per-rule`; every one is counted above; `--max-per-rule 0` lists all):")
        write()
        for entry in result.omitted:
            write(f"- {escape(entry.file)}: {escape(common.more_text(entry))} ({entry.total:,} in all)")
        write()
    if result.not_applied:
        write("**Rules not applied** for want of a parameter value"
              + ("" if context.require_params else " (`--require-params` makes that a failure)") + ": "
              + ", ".join(escape(rule_id) for rule_id in result.not_applied) + ".")
        write()
    _settings(write, context)
    _rulesets(write, context)
    skipped = [record for record in result.files if record.status == "skipped"]
    if skipped:
        write(f"**Skipped** {len(skipped)} path(s), each with why (one met in a directory is checked when named "
              "explicitly):")
        write()
        for record in skipped:
            write(f"- {escape(record.path)}: {escape(record.reason)}")
        write()


def _settings(write, context) -> None:
    if not context.settings:
        write("Settings: all at their defaults.")
        write()
        return
    write("**Settings in effect** (not the defaults):")
    write()
    write("| setting | value | from |")
    write("|---|---|---|")
    for setting in context.settings:
        write(_row([escape(setting.name), escape(common.value_text(setting.value)), escape(setting.source)]))
    write()


def _rulesets(write, context) -> None:
    if not context.rulesets:
        return
    names = ", ".join(f"{escape(used.ruleset.name)} ({escape(used.ruleset.code)}, {len(used.ruleset.rules)} rules"
                      + (", built-in" if used.builtin else f", {escape(used.files[0].path)} sha256 "
                         f"{(used.files[0].sha256 or '?')[:12]}") + ")"
                      for used in context.rulesets)
    write(f"Rulesets: {names}.")
    write()
    for used in context.rulesets:
        if not used.changes:
            continue
        write(f"**The ruleset {escape(used.ruleset.name)} ({escape(used.ruleset.code)}) changes {len(used.changes)} "
              "rule(s) of the law:**")
        write()
        for change in used.changes:
            house = "" if change.house is None else (f"; house: {escape(change.house.citation.short())} "
                                                     f"({change.house.severity.label})")
            write(f"- {escape(change.rule_id)} {change.change}: {escape('; '.join(change.reasons))} (law: "
                  f"{escape(change.law.citation.short())}, {change.law.severity.label}{house})")
        write()
