"""A report an inspector can file, mail or print: one self-contained HTML file (inline CSS, no script, no
external asset), in print order: who and what was checked against which law and the verdict; the findings by
document with the law's own words; the findings waived or baselined, apart; what was not checked and why; the
settings that narrowed the check; every rule with its result; every file.

Every text from a filing, a ruleset or a file name is escaped (`html.escape`) after its invisible and control
characters are written as codes (`display.printable`) and marked, so a value cannot forge markup or a verdict.
Rows carry data attributes with the values the JSON report gives (through `printable`), so the HTML can be read
back and compared with it (tests/test_html_report.py).

This module writes the page and its head (the verdict, the law, the filers); `html_findings` the findings,
`html_tables` the tables of the run, `html_page` the escaping and the style sheet.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from typing import TextIO

from casino_audit import __version__
from casino_audit.report.html_findings import findings_part, house_rule, suppressed_part
from casino_audit.report.html_page import CSS, attr, data, lang, plural, text
from casino_audit.report.html_tables import FAILED, PASSED, files_part, not_checked_part, rules_part, settings_part
from casino_audit.report.rich_report import verdict
from casino_audit.law.provenance import shown_source


# --- the page --------------------------------------------------------------------------------------------------

def report(result, context, stream: TextIO, now: datetime | None = None) -> None:
    page = render(result, context, now or datetime.now(timezone.utc))
    # Everything shown went through printable(); a lone surrogate left anywhere is written as its escape.
    stream.write(page.encode("utf-8", "backslashreplace").decode("utf-8"))


def render(result, context, now: datetime) -> str:
    state = _state(result, context)
    jurisdictions = ", ".join(f"{u.ruleset.jurisdiction_name} ({u.ruleset.code})" for u in context.rulesets)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="casino-audit {attr(__version__)}">',
        f"<title>Compliance report: {state.upper()}"
        f"{' — ' + text(jurisdictions) if jurisdictions else ''} — {now:%Y-%m-%d}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        '<main class="report">',
        *_head(result, context, now, state, jurisdictions),
        *findings_part(result),
        *suppressed_part(result),
        *not_checked_part(result, context),
        *settings_part(context),
        *rules_part(result, context),
        *files_part(result),
        f'<footer class="colophon">casino-audit {text(__version__)} · report generated {now:%Y-%m-%d %H:%M} UTC · '
        "this file is self-contained: it needs no network and no script</footer>",
        "</main>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def _state(result, context) -> str:
    if result.internal_errors:
        return "error"
    return FAILED if result.failed(context.fail_on) else PASSED


def _head(result, context, now: datetime, state: str, jurisdictions: str) -> list[str]:
    s = result.summary()
    threshold = context.fail_on.label if context.fail_on is not None else "never"
    said = verdict(result, context).plain  # the rich report's verdict line, word for word
    word = said.split(":", 1)[0].split(" (", 1)[0]
    said = said[len(word):].lstrip(": ")
    caution = " caution" if state == PASSED and result.not_applied else ""
    out = ['<header class="masthead">',
           f'<p class="kicker">casino-audit {text(__version__)} · check of gaming filings against the law</p>',
           "<h1>Compliance report</h1>",
           f'<div class="verdict {state}{caution}" id="verdict"'
           f'{data(verdict=state, fail_on=threshold, exit_code=result.exit_code(context.fail_on))}>'
           f'<span class="verdict-word">{text(word)}</span>'
           f'<span class="verdict-line">{text(said)}</span></div>',
           '<dl class="identification">',
           f"<dt>Jurisdiction</dt><dd>{text(jurisdictions) or 'none: no document was checked against law'}</dd>",
           f"<dt>Instrument</dt><dd>{_instruments(context) or 'none'}</dd>",
           f"<dt>Filed by</dt><dd>{_filers(result)}</dd>",
           f'<dt>Date of the run</dt><dd><time datetime="{now.isoformat(timespec="seconds")}">'
           f"{now:%Y-%m-%d %H:%M} UTC</time></dd>",
           f"<dt>Tool</dt><dd>casino-audit {text(__version__)}</dd>",
           f"<dt>Pass mark</dt><dd>{_threshold(context)}</dd>",
           f"<dt>Files</dt><dd>{_files_line(s)}</dd>",
           "</dl>",
           "</header>",
           *_counts(s),
           *_rulesets(context),
           _contents(result)]
    return out


def _instruments(context) -> str:
    items = []
    for used in context.rulesets:
        instrument = used.ruleset.instrument or {}
        title = instrument.get("title") or instrument.get("short") or ""
        extra = ", ".join(text(part) for part in (instrument.get("short"), instrument.get("date")) if part)
        items.append(f'<span class="instrument"{lang(instrument.get("language"))}>{text(title)}</span>'
                     + (f" ({extra})" if extra and title != instrument.get("short") else "")
                     + f' <span class="aside">— ruleset <code>{text(used.ruleset.name)}</code>, '
                       f"{used.ruleset.code}</span>")
    return "<br>".join(items)


def _filers(result) -> str:
    filers: Counter = Counter()
    unstated = 0
    for record in result.files:
        if record.status == "skipped":
            continue
        stated = record.filed_by or {}
        for filer in stated.values():
            filers[filer] += 1
        unstated += max(record.documents - len(stated), 0)
    parts = [f"{text(filer)} <span class=\"aside\">({plural(n, 'document')})</span>"
             for filer, n in sorted(filers.items())]
    if unstated or not parts:
        parts.append(f"not stated <span class=\"aside\">({plural(unstated, 'document')})</span>")
    return "<br>".join(parts)


def _threshold(context) -> str:
    if context.fail_on is None:
        return "none (<code>--fail-on never</code>): the run never fails on findings"
    return f"the run fails on any finding of severity <strong>{text(context.fail_on.label)}</strong> or above"


def _files_line(s: dict) -> str:
    line = (f"{plural(s['files_checked'], 'file')} checked ({plural(s['documents'], 'document')}), "
            f"{s['files_unreadable']:,} unreadable, {s['files_skipped']:,} skipped")
    if s["records_read"]:
        line += (f"; {plural(s['records_checked'], 'log record')} checked, {s['records_with_findings']:,} with findings, "
                 f"{plural(s['records_unreadable'], 'unreadable line')}")
    return line


_COUNT_LABELS = (("errors", "errors"), ("warnings", "warnings"), ("infos", "info"), ("waived", "waived"),
                 ("baselined", "baselined"), ("findings_omitted", "counted, not listed"),
                 ("rules_not_applied", "rules not applied"), ("internal_errors", "internal errors"))


def _counts(s: dict) -> list[str]:
    cells = "".join(f'<div class="count {key}{" zero" if not s[key] else ""}"><span class="n">{s[key]:,}</span>'
                    f'<span class="label">{label}</span></div>' for key, label in _COUNT_LABELS)
    counts = data(**{f"summary_{key}": value for key, value in s.items()})
    return [f'<section class="counts" id="summary" aria-label="Counts"{counts}>',
            cells, "</section>"]


def _rulesets(context) -> list[str]:
    if not context.rulesets:
        return []
    out = ['<section class="provenance">', "<h2>Rulesets in use</h2>",
           '<table class="grid rulesets"><thead><tr><th>Ruleset</th><th>Jurisdiction</th><th class="num">Rules</th>'
           "<th>File and its SHA-256</th></tr></thead><tbody>"]
    for used in context.rulesets:
        ruleset = used.ruleset
        origin = "built in" if used.builtin else "custom"
        for index, file in enumerate(used.files):
            lead = index == 0
            out.append(f'<tr class="ruleset-file"{data(ruleset=ruleset.name, name=file.name, sha256=file.sha256)}>'
                       + (f'<td rowspan="{len(used.files)}"><code>{text(ruleset.name)}</code> '
                          f'<span class="aside">({origin})</span></td>'
                          f'<td rowspan="{len(used.files)}">{text(ruleset.jurisdiction_name)} '
                          f"({text(ruleset.code)})</td>"
                          f'<td rowspan="{len(used.files)}" class="num">{len(ruleset.rules):,}</td>' if lead else "")
                       + f"<td><code>{text(shown_source(file.path))}</code>"
                         f"{'' if lead else ' <span class=aside>(extended)</span>'}"
                         f'<br><span class="label">sha-256</span> <code class="hash">'
                         f'{text(file.sha256) if file.sha256 else "none: the file could not be read again"}'
                         "</code></td></tr>")
    out.append("</tbody></table>")
    for used in context.rulesets:
        if used.changes:
            out.extend(_law_changes(used))
    out.append("</section>")
    return out


def _law_changes(used) -> list[str]:
    ruleset = used.ruleset
    out = [f'<div class="law-changes{" weakens" if used.weakens_law else ""}">'
           f"<h3>The ruleset <code>{text(ruleset.name)}</code> changes {plural(len(used.changes), 'rule')} of the "
           "law</h3><table class=\"grid\"><thead><tr><th>Rule</th><th>Change</th><th>Why</th><th>Law</th>"
           "<th>House rule</th></tr></thead><tbody>"]
    for change in used.changes:
        house = change.house
        out.append(f'<tr class="law-change"{data(rule_id=change.rule_id, change=change.change)}>'
                   f"<td><code>{text(change.rule_id)}</code></td><td>{text(change.change)}</td>"
                   f"<td>{text('; '.join(change.reasons))}</td>"
                   f"<td>{text(change.law.citation.short())} ({text(change.law.severity.label)})</td>"
                   f"<td>{house_rule(house)}</td></tr>")
    out.append("</tbody></table></div>")
    return out


def _contents(result) -> str:
    entries = [("findings", "Findings by document"), ("suppressed", "Findings waived or baselined"),
               ("not-checked", "What was not checked, and why"), ("settings", "Settings in effect"),
               ("rules", "Rules applied and their results"), ("files", "Files")]
    items = "".join(f'<li><a href="#{anchor}">{label}</a></li>' for anchor, label in entries)
    return f'<nav class="contents"><h2>Contents</h2><ol>{items}</ol></nav>'
