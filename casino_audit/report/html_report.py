"""A report an inspector can file, mail or print: one self-contained HTML file (inline CSS, no script, no
external asset), in print order: who and what was checked against which law and the verdict; the findings by
document with the law's own words; the findings waived or baselined, apart; what was not checked and why; the
settings that narrowed the check; every rule with its result; every file.

Every text from a filing, a ruleset or a file name is escaped (`html.escape`) after its invisible and control
characters are written as codes (`display.printable`) and marked, so a value cannot forge markup or a verdict.
Rows carry data attributes with the values the JSON report gives (through `printable`), so the HTML can be read
back and compared with it (tests/test_html_report.py).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from datetime import datetime, timezone
from itertools import groupby
from typing import TextIO

from casino_audit import __version__
from casino_audit.core import findings as F
from casino_audit.law.checks import describe_condition
from casino_audit.core.display import printable
from casino_audit.law.engine import selected
from casino_audit.core.findings import Finding
from casino_audit.report.common import value_text as setting_text
from casino_audit.report.rich_report import verdict

# The tool's findings that mean a document (or a file) was not checked against law at all.
NOT_CHECKED = frozenset((F.LOAD_UNREADABLE, F.LOAD_ENCODING, F.LOAD_BINARY, F.LOAD_EMPTY, F.LOAD_TOO_LARGE,
                         F.LOAD_SYNTAX, F.LOAD_UNSUPPORTED, F.KIND_MISSING, F.KIND_UNKNOWN, F.JURISDICTION_MISSING,
                         F.JURISDICTION_UNSUPPORTED, F.JURISDICTION_NO_RULES, F.RULESET_INVALID, F.INTERNAL_ERROR))
PASSED, FAILED, NOT_APPLIED = "passed", "failed", "not-applied"
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*")


# --- escaping --------------------------------------------------------------------------------------------------

def text(value: object, keep_newlines: bool = False) -> str:
    """Element content: escaped, every control or invisible character written as its code and marked."""
    raw = str(value)
    shown = printable(raw, keep_newlines)
    if shown == raw:
        return html.escape(raw, quote=False)
    return "".join(html.escape(char, quote=False) if printable(char, keep_newlines) == char
                   else f'<span class="ctl" title="an invisible or control character, written as its code">'
                        f'{html.escape(printable(char))}</span>' for char in raw)


def attr(value: object) -> str:
    """An attribute value (to be put between double quotes)."""
    return html.escape(printable(value), quote=True)


def data(**values) -> str:
    """` data-name="value"` for each value that is not None (None leaves the attribute out: it reads back as
    None, an empty string as an empty string)."""
    return "".join(f' data-{name.replace("_", "-")}="{attr(value)}"' for name, value in values.items()
                   if value is not None)


def lang(code: str | None) -> str:
    return f' lang="{attr(code)}"' if code and _LANGUAGE_TAG.fullmatch(code) else ""


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else plural or word + 's'}"


# --- what the run knows, per rule and per file -----------------------------------------------------------------

def rule_counts(result) -> tuple[Counter, Counter]:
    """Findings counted per rule id (shown and, past --max-per-rule, counted only), and those waived or
    baselined; exact, as the verdict counts them."""
    counted, suppressed = Counter(), Counter()
    # Findings that count and those waived or baselined are capped apart: an entry's total is of its kind only.
    omitted = {(entry.file, entry.rule_id): entry for entry in result.omitted if entry.suppression is None}
    for finding in result.findings:
        if finding.suppression is not None:
            suppressed[finding.rule_id] += 1
        elif (finding.file, finding.rule_id) not in omitted:
            counted[finding.rule_id] += 1
    for entry in result.omitted:
        if entry.suppression is None:  # the total counted, those shown included
            counted[entry.rule_id] += entry.total
        else:  # those shown are counted above
            suppressed[entry.rule_id] += entry.total - entry.shown
    return counted, suppressed


def file_counts(result) -> Counter:
    counts = Counter(f.file for f in result.findings if f.file and f.suppression is None)
    for entry in result.omitted:
        if entry.suppression is None:  # waived and baselined findings do not count
            counts[entry.file] += entry.total - entry.shown
    return counts


def _setting(context, name: str):
    return next((s.value for s in context.settings if s.name == name), None)


def rule_results(result, context) -> list[tuple[object, list[tuple[object, str, int, int, str]]]]:
    """Per ruleset in use, each rule with its result: (rule, passed|failed|not-applied, findings, suppressed,
    why not applied)."""
    counted, suppressed = rule_counts(result)
    applied = set(result.applied)
    not_applied = set(result.not_applied)
    first_message: dict[str, str] = {}
    for finding in result.findings:
        first_message.setdefault(finding.rule_id, finding.message)
    select, ignore = _setting(context, "select"), _setting(context, "ignore")
    out = []
    for used in context.rulesets:
        ruleset = used.ruleset
        rows = []
        for rule in ruleset.rules:
            count, waived = counted[rule.id], suppressed[rule.id]
            if rule.id in not_applied:
                state, why = NOT_APPLIED, first_message.get(rule.id, "a parameter has no value")
            elif not selected(rule.id, select, ignore):
                state, why = NOT_APPLIED, "left out by --select / --ignore (see the settings in effect)"
            elif rule.id in applied:
                state, why = (FAILED if count else PASSED), ""
            elif count or waived:  # it spoke only to say it could not check ("not checked: ...")
                state, why = NOT_APPLIED, first_message[rule.id]
            else:
                state, why = NOT_APPLIED, _no_document(rule)
            rows.append((rule, state, count, waived, why))
        out.append((used, rows))
    return out


def _no_document(rule) -> str:
    """Why a selected rule with every parameter was applied to nothing: the run had no document it is for."""
    what = f"{rule.kind} documents" + (f" for {', '.join(rule.games)}" if rule.games else "")
    when = " when " + " and ".join(describe_condition(c) for c in rule.when) if rule.when else ""
    return f"no document of the run it applies to: it applies to {what}{when}"


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
        *_findings(result),
        *_suppressed(result),
        *_not_checked(result, context),
        *_settings(context),
        *_rules(result, context),
        *_files(result),
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
    parts = [f"{text(filer)} <span class=\"aside\">({_plural(n, 'document')})</span>"
             for filer, n in sorted(filers.items())]
    if unstated or not parts:
        parts.append(f"not stated <span class=\"aside\">({_plural(unstated, 'document')})</span>")
    return "<br>".join(parts)


def _threshold(context) -> str:
    if context.fail_on is None:
        return "none (<code>--fail-on never</code>): the run never fails on findings"
    return f"the run fails on any finding of severity <strong>{text(context.fail_on.label)}</strong> or above"


def _files_line(s: dict) -> str:
    line = (f"{_plural(s['files_checked'], 'file')} checked ({_plural(s['documents'], 'document')}), "
            f"{s['files_unreadable']:,} unreadable, {s['files_skipped']:,} skipped")
    if s["records_read"]:
        line += (f"; {_plural(s['records_checked'], 'log record')} checked, {s['records_with_findings']:,} with findings, "
                 f"{_plural(s['records_unreadable'], 'unreadable line')}")
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
                       + f"<td><code>{text(file.path)}</code>"
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
           f"<h3>The ruleset <code>{text(ruleset.name)}</code> changes {_plural(len(used.changes), 'rule')} of the "
           "law</h3><table class=\"grid\"><thead><tr><th>Rule</th><th>Change</th><th>Why</th><th>Law</th>"
           "<th>House rule</th></tr></thead><tbody>"]
    for change in used.changes:
        house = change.house
        out.append(f'<tr class="law-change"{data(rule_id=change.rule_id, change=change.change)}>'
                   f"<td><code>{text(change.rule_id)}</code></td><td>{text(change.change)}</td>"
                   f"<td>{text('; '.join(change.reasons))}</td>"
                   f"<td>{text(change.law.citation.short())} ({text(change.law.severity.label)})</td>"
                   f"<td>{_house_rule(house)}</td></tr>")
    out.append("</tbody></table></div>")
    return out


def _contents(result) -> str:
    entries = [("findings", "Findings by document"), ("suppressed", "Findings waived or baselined"),
               ("not-checked", "What was not checked, and why"), ("settings", "Settings in effect"),
               ("rules", "Rules applied and their results"), ("files", "Files")]
    items = "".join(f'<li><a href="#{anchor}">{label}</a></li>' for anchor, label in entries)
    return f'<nav class="contents"><h2>Contents</h2><ol>{items}</ol></nav>'


# --- findings --------------------------------------------------------------------------------------------------

def _findings(result) -> list[str]:
    counting = [f for f in result.findings if f.suppression is None]
    by_file = [f for f in counting if f.file]
    run_level = [f for f in counting if not f.file]
    records = {record.path: record for record in result.files}
    omitted: dict[str, list] = {}
    for entry in result.omitted:
        omitted.setdefault(entry.file, []).append(entry)
    out = ['<section class="part" id="findings">', "<h2>Findings by document</h2>"]
    if not counting:
        out.append('<p class="none">No finding counts toward the verdict.</p>')
    number = 0
    for path, group in groupby(by_file, key=lambda f: f.file):
        record = records.get(path)
        stream = record is not None and record.records is not None
        many = record is not None and record.documents > 1 and not stream
        out.append(f'<section class="file"{data(file=path)}>')
        out.append(f'<h3 class="file-name"><span class="label">File</span> <code>{text(path)}</code></h3>')
        out.append(_file_facts(record))
        documents: dict[int | None, list[Finding]] = {}  # the file as a whole (None) first, then each document
        for finding in group:
            documents.setdefault(None if stream else finding.document, []).append(finding)
        order = sorted(documents, key=lambda index: -1 if index is None else index)
        for document in order:
            findings = documents[document]
            out.append(f'<div class="document"{data(document=document)}>')
            if record is not None and (many or len(order) > 1):
                out.append(f'<h4 class="document-name">{_document_title(document, record)}</h4>')
            out.append(_table_head())
            for finding in findings:
                number += 1
                out.append(_finding_row(finding, number))
            out.append("</tbody></table></div>")
        for entry in omitted.get(path, ()):
            attributes = data(file=entry.file, rule_id=entry.rule_id, shown=entry.shown, total=entry.total,
                              suppression=entry.suppression)
            covered = {"waiver": "waived", "baseline": "baselined"}.get(entry.suppression)
            out.append(f'<p class="omitted"{attributes}>'
                       f"… and {entry.total - entry.shown:,} more{' ' + covered if covered else ''} "
                       f"<code>{text(entry.rule_id)}</code> finding(s) in this file, "
                       + ("not counted in the verdict" if covered else "counted in the verdict")
                       + f" and not listed ({entry.total:,} in all; <code>--max-per-rule 0</code> lists every one).</p>")
        out.append("</section>")
    if run_level:
        out.append('<section class="file run-level"><h3 class="file-name">The whole run</h3>')
        out.append('<p class="facts">Findings about no one file: chiefly rules not applied for want of a value '
                   "the law leaves to a later decision.</p>")
        out.append('<div class="document">' + _table_head())
        for finding in run_level:
            number += 1
            out.append(_finding_row(finding, number))
        out.append("</tbody></table></div></section>")
    out.append("</section>")
    return out


def _document_title(document: int | None, record) -> str:
    if document is None:
        return "The file as a whole"
    return f"Document {document + 1:,} of {record.documents:,}" + _filer_note(record, document)


def _filer_note(record, document: int) -> str:
    filer = (record.filed_by or {}).get(document)
    return f' <span class="aside">— filed by {text(filer)}</span>' if filer else ""


def _file_facts(record) -> str:
    if record is None:
        return ""
    facts = [f"status: {text(record.status)}"]
    if record.records is not None:
        counts = record.records
        facts.append(f"game log: {_plural(counts.get('read', 0), 'record')} read, "
                     f"{_plural(counts.get('checked', 0), 'record')} checked, {counts.get('with_findings', 0):,} "
                     f"with findings, {_plural(counts.get('unreadable', 0), 'unreadable line')}")
    elif record.documents:
        facts.append(_plural(record.documents, "document"))
    filers = sorted(set((record.filed_by or {}).values()))
    facts.append("filed by " + ("; ".join(text(f) for f in filers) if filers else "<em>not stated</em>"))
    if record.reason:
        facts.append(f"read in part: {text(record.reason)}" if record.status == "partial" else text(record.reason))
    return f'<p class="facts">{" · ".join(facts)}</p>'


def _table_head() -> str:
    return ('<table class="findings"><colgroup><col class="c-no"><col class="c-sev"><col class="c-rule">'
            '<col class="c-what"></colgroup><thead><tr><th>No.</th><th>Severity</th>'
            "<th>Rule and place</th><th>Finding and the law's words</th></tr></thead><tbody>")


def _where(file: str | None, line, column, pointer, document: int | None = None) -> str:
    """file:line:column, the JSON pointer, and the document's number when given (1-based, as a person counts)."""
    place = ":".join(str(part) for part in (file, line, column) if part is not None)
    out = f'<code class="place">{text(place)}</code>' if place else '<span class="aside">the whole run</span>'
    if pointer is not None:
        out += (f'<br><span class="label">pointer</span> '
                f'<code class="pointer">{text(pointer) or "(the document)"}</code>')
    if document is not None:
        out += f'<br><span class="label">document</span> {document + 1:,}'
    return out


def _finding_row(finding: Finding, number: int) -> str:
    severity = finding.severity.label
    suppression = finding.suppression
    cells = [f'<td class="no">{number:,}</td>',
             f'<td class="sev"><span class="badge {severity}">{severity.upper()}</span></td>',
             f'<td class="rule"><code class="rule-id">{text(finding.rule_id)}</code>'
             + (f' <span class="aside">{text(finding.jurisdiction)}</span>' if finding.jurisdiction else "")
             + f'<div class="where">{_where(finding.file, finding.line, finding.column, finding.pointer)}</div></td>',
             f'<td class="what"><p class="message">{text(finding.message)}</p>{_citation(finding.citation)}'
             f"{_related(finding)}{_suppression_block(suppression)}</td>"]
    attrs = data(rule_id=finding.rule_id, severity=severity, file=finding.file, line=finding.line,
                 column=finding.column, pointer=finding.pointer, document=finding.document,
                 jurisdiction=finding.jurisdiction, suppression=suppression.kind if suppression else None)
    return f'<tr class="finding {severity}"{attrs}>{"".join(cells)}</tr>'


def _citation(citation) -> str:
    if citation is None:
        return ""
    out = (f'<p class="law"><span class="article">{text(citation.article)}</span>'
           + (f', <span class="instrument">{text(citation.instrument)}</span>' if citation.instrument else "")
           + "</p>")
    if citation.text:
        words = text(citation.text.strip(), keep_newlines=True)
        out += f'<blockquote class="words"{lang(citation.language)}>{words}</blockquote>'
    return out


def _related(finding: Finding) -> str:
    if not finding.related:
        return ""
    items = []
    for related in finding.related:
        place = related.location
        attributes = data(file=place.file, line=place.line, column=place.column, pointer=place.pointer,
                          document=place.document)
        items.append(f'<li class="related"{attributes}>{text(related.message)}: '
                     f"{_where(place.file, place.line, place.column, place.pointer)}</li>")
    items = "".join(items)
    return f'<ul class="related-list">{items}</ul>'


def _house_rule(house) -> str:
    if house is None:
        return "none"
    return f"{text(house.citation.short())} ({text(house.severity.label)}, {text(house.source)})"


def _suppression_block(suppression) -> str:
    if suppression is None:
        return ""
    word = "Waived" if suppression.kind == "waiver" else "Baselined" if suppression.kind == "baseline" else \
        text(suppression.kind)
    facts = [(label, value) for label, value in (("granted by", suppression.granted_by),
                                                 ("reference", suppression.reference),
                                                 ("expires", suppression.expires),
                                                 ("written at", suppression.source)) if value]
    details = "".join(f"<dt>{label}</dt><dd>{text(value)}</dd>" for label, value in facts)
    return (f'<div class="suppression {attr(suppression.kind)}"><p><strong>{word}:</strong> '
            f"{text(suppression.justification)}</p>" + (f"<dl>{details}</dl>" if details else "") + "</div>")


def _suppressed(result) -> list[str]:
    waived = [f for f in result.findings if f.suppression is not None]
    out = ['<section class="part" id="suppressed">', "<h2>Findings waived or baselined</h2>",
           '<p class="lead">Reported as found, each with the waiver (dérogation) or the baseline entry that '
           "accepts it; they do not count toward the verdict.</p>"]
    if not waived:
        out.append('<p class="none">None.</p></section>')
        return out
    out.append('<div class="document">' + _table_head())
    for number, finding in enumerate(waived, 1):
        out.append(_finding_row(finding, number))
    out.append("</tbody></table></div></section>")
    return out


# --- what was not checked, the settings, the rules, the files --------------------------------------------------

def _not_checked(result, context) -> list[str]:
    out = ['<section class="part" id="not-checked">', "<h2>What was not checked, and why</h2>"]
    files = [record for record in result.files if record.status != "checked"]
    unreadable = {record.path for record in files if record.status == "unreadable"}  # said in the files table
    override = any(setting.name == "jurisdiction_override" for setting in context.settings)
    documents = [f for f in result.findings if f.file and f.file not in unreadable and (
        f.rule_id in NOT_CHECKED
        # a jurisdiction of the wrong shape chooses no ruleset (stages.choose_jurisdiction), unless -j gave one
        or (f.rule_id == F.SHAPE_INVALID and f.pointer == "/jurisdiction" and not override))]
    if not files and not documents:
        out.append('<p class="none">Every file found was read and every document in it checked against law.</p>')
    if files:
        out += _grid("<h3>Files not checked, or checked in part</h3>", ("Path", "Status", "Why"), (
            ("not-checked-file", data(path=record.path, status=record.status),
             (f"<code>{text(record.path)}</code>", text(record.status), text(record.reason or "")))
            for record in files))
    if documents:
        out += _grid("<h3>Documents not checked against law</h3>", ("Where", "Finding", "Why"), (
            ("not-checked-document", data(file=finding.file, document=finding.document),
             (_where(finding.file, finding.line, finding.column, None, finding.document),
              f"<code>{text(finding.rule_id)}</code>", text(finding.message)))
            for finding in documents))
    out.append("</section>")
    return out


def _grid(head: str, columns: tuple[str, ...], rows) -> list[str]:
    """`head` (HTML), then a grid table of `columns` with a row per (class, data attributes, cells as HTML)."""
    out = [head + '<table class="grid"><thead><tr>' + "".join(f"<th>{name}</th>" for name in columns)
           + "</tr></thead><tbody>"]
    out.extend(f'<tr class="{kind}"{attributes}>' + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"
               for kind, attributes, cells in rows)
    out.append("</tbody></table>")
    return out


def _settings(context) -> list[str]:
    out = ['<section class="part" id="settings">', "<h2>Settings in effect</h2>"]
    if not context.settings:
        out.append('<p class="none">Every setting at its default: the whole law, failing on any error.</p>')
    else:
        out += _grid('<p class="lead">Each setting that is not the default narrows, loosens or shapes the check; '
                     "where it came from is named.</p>", ("Setting", "Value", "From"), (
                         ("setting", data(name=setting.name),
                          (f"<code>{text(setting.name)}</code>", text(setting_text(setting.value)),
                           text(setting.source)))
                         for setting in context.settings))
    out.append("</section>")
    return out


_RESULT_WORDS = {PASSED: "passed", FAILED: "failed", NOT_APPLIED: "not applied"}


def _rules(result, context) -> list[str]:
    out = ['<section class="part" id="rules">', "<h2>Rules applied and their results</h2>"]
    tables = rule_results(result, context)
    if not tables:
        out.append('<p class="none">No ruleset was used: no document reached the law.</p></section>')
        return out
    out.append('<p class="lead"><strong>Passed</strong>: checked against at least one document or log of the run, '
               "with no finding. <strong>Failed</strong>: with the number of findings counted. <strong>Not applied"
               "</strong>: with the reason.</p>")
    for used, rows in tables:
        states = Counter(state for _, state, _, _, _ in rows)
        out.append(f'<h3>Ruleset <code>{text(used.ruleset.name)}</code> — {text(used.ruleset.jurisdiction_name)} '
                   f'<span class="aside">({states[PASSED]:,} passed, {states[FAILED]:,} failed, '
                   f"{states[NOT_APPLIED]:,} not applied)</span></h3>")
        out.append('<table class="grid rules"><colgroup><col class="c-rid"><col class="c-sev"><col class="c-art">'
                   '<col class="c-res"></colgroup><thead><tr><th>Rule</th><th>Severity</th><th>Article</th>'
                   "<th>Result</th></tr></thead><tbody>")
        for rule, state, count, waived, why in rows:
            outcome = f'<span class="result {state}">{_RESULT_WORDS[state]}</span>'
            if state == FAILED:
                outcome += f" — {_plural(count, 'finding')}"
            elif count:  # a rule that could not be applied says so in findings, which count like any other
                outcome += f" — {_plural(count, 'finding')} saying so"
            if waived:
                outcome += f" <span class=\"aside\">({waived:,} waived or baselined)</span>"
            if why:
                outcome += f'<br><span class="why">{text(why)}</span>'
            attributes = data(rule_id=rule.id, result=state, count=count, suppressed=waived)
            out.append(f'<tr class="rule-result {state}"{attributes}>'
                       f"<td><code>{text(rule.id)}</code><br><span class=\"title\">{text(rule.title)}</span></td>"
                       f'<td><span class="badge {rule.severity.label}">{rule.severity.label.upper()}</span></td>'
                       f"<td>{text(rule.citation.short())}</td><td>{outcome}</td></tr>")
        out.append("</tbody></table>")
    out.append("</section>")
    return out


def _files(result) -> list[str]:
    counts = file_counts(result)
    out = ['<section class="part" id="files">', "<h2>Files</h2>",
           '<table class="grid files"><thead><tr><th>Path</th><th>Status</th><th class="num">Documents</th>'
           '<th class="num">Findings</th><th>Filed by</th></tr></thead><tbody>']
    for record in result.files:
        filers = sorted(set((record.filed_by or {}).values()))
        documents = f"{record.documents:,}"
        if record.records is not None:
            documents += f" + {_plural(record.records.get('checked', 0), 'coup')}"
        out.append(f'<tr class="file-record {attr(record.status)}"'
                   f"{data(path=record.path, status=record.status, documents=record.documents, reason=record.reason)}>"
                   f"<td><code>{text(record.path)}</code>"
                   + (f'<br><span class="why">{text(record.reason)}</span>' if record.reason else "")
                   + f"</td><td>{text(record.status)}</td><td class=\"num\">{documents}</td>"
                     f"<td class=\"num\">{counts[record.path]:,}</td>"
                     f"<td>{'; '.join(text(f) for f in filers) if filers else '<em>not stated</em>'}</td></tr>")
    out.append("</tbody></table></section>")
    return out


CSS = """
:root { --ink: #1b1f24; --muted: #5b6470; --rule: #c9ced6; --paper: #fff; --band: #f3f4f6;
  --error: #a4161a; --warning: #8a5a00; --info: #1d4f91; --pass: #1e6b34; }
* { box-sizing: border-box; }
html { background: #e9ebee; }
body { margin: 0; color: var(--ink); font: 10.5pt/1.45 "Noto Sans", "DejaVu Sans", "Segoe UI", Arial, sans-serif; }
.report { max-width: 1180px; margin: 24px auto; padding: 36px 44px; background: var(--paper);
  border: 1px solid var(--rule); }
h1, h2, h3, h4 { font-family: "Noto Serif", "DejaVu Serif", Georgia, "Times New Roman", serif; font-weight: 600;
  line-height: 1.25; }
h1 { font-size: 22pt; margin: 0 0 14px; }
h2 { font-size: 14.5pt; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--ink); }
h3 { font-size: 11.5pt; margin: 18px 0 6px; }
h4 { font-size: 10.5pt; margin: 12px 0 4px; }
code { font: 9pt/1.35 "DejaVu Sans Mono", "Noto Sans Mono", Consolas, monospace; overflow-wrap: anywhere; }
.kicker { margin: 0; font-size: 9pt; letter-spacing: .08em; text-transform: uppercase; color: var(--muted); }
.aside, .label, .facts, .lead, .none, .why, .colophon { color: var(--muted); }
.label { font-size: 8pt; text-transform: uppercase; letter-spacing: .05em; }
.masthead { border-bottom: 1px solid var(--rule); padding-bottom: 10px; }
.verdict { display: flex; gap: 14px; align-items: baseline; margin: 0 0 14px; padding: 10px 14px;
  border: 1px solid var(--rule); border-left: 8px solid var(--ink); background: var(--band); }
.verdict-word { font: 700 16pt/1 "Noto Serif", "DejaVu Serif", Georgia, serif; letter-spacing: .06em; }
.verdict.failed, .verdict.error { border-left-color: var(--error); }
.verdict.failed .verdict-word, .verdict.error .verdict-word { color: var(--error); }
.verdict.passed { border-left-color: var(--pass); }
.verdict.passed .verdict-word { color: var(--pass); }
.verdict.passed.caution { border-left-color: var(--warning); }
.identification { display: grid; grid-template-columns: 11em 1fr; gap: 3px 14px; margin: 0; }
.identification dt { font-weight: 600; color: var(--muted); }
.identification dd { margin: 0; }
.counts { display: grid; grid-template-columns: repeat(8, 1fr); margin: 14px 0; border: 1px solid var(--rule); }
.count { padding: 8px 10px; border-right: 1px solid var(--rule); }
.count:last-child { border-right: 0; }
.count .n { display: block; font-size: 15pt; font-weight: 700; }
.count .label { display: block; }
.count.errors:not(.zero) .n, .count.internal_errors:not(.zero) .n { color: var(--error); }
.count.warnings:not(.zero) .n { color: var(--warning); }
.count.zero .n { color: var(--muted); font-weight: 400; }
.contents ol { columns: 2; margin: 4px 0 0; }
.contents a { color: var(--ink); }
table { width: 100%; border-collapse: collapse; margin: 6px 0 10px; }
th, td { text-align: left; vertical-align: top; padding: 5px 7px; border-bottom: 1px solid var(--rule);
  overflow-wrap: break-word; }
th { font-size: 8.5pt; text-transform: uppercase; letter-spacing: .04em; color: var(--muted);
  border-bottom: 1.5px solid var(--ink); background: var(--band); }
td.num, th.num { text-align: right; }
code.hash { font-size: 8pt; }
.findings { table-layout: fixed; }
.findings .c-no { width: 3.2em; } .findings .c-sev { width: 6.6em; } .findings .c-rule { width: 32%; }
.findings td.no { color: var(--muted); text-align: right; }
.rule-id { font-weight: 700; }
.where { margin-top: 3px; }
.badge { display: inline-block; padding: 0 5px; border: 1px solid currentColor; border-radius: 2px;
  font-size: 7.5pt; font-weight: 700; letter-spacing: .05em; }
.badge.error { color: var(--error); } .badge.warning { color: var(--warning); } .badge.info { color: var(--info); }
.message { margin: 0 0 4px; }
.law { margin: 4px 0 2px; font-size: 9pt; }
.law .article { font-weight: 600; }
.words { margin: 0 0 2px; padding: 3px 10px; border-left: 3px solid var(--rule); white-space: pre-line;
  font: italic 9.5pt/1.4 "Noto Serif", "DejaVu Serif", Georgia, serif; }
.words::before { content: "« "; } .words::after { content: " »"; }
.related-list { margin: 4px 0 0; padding-left: 16px; font-size: 9pt; color: var(--muted); }
.suppression { margin: 6px 0 0; padding: 4px 8px; border: 1px dashed var(--muted); font-size: 9pt; }
.suppression p { margin: 0; }
.suppression dl { display: grid; grid-template-columns: 7em 1fr; margin: 2px 0 0; }
.suppression dd { margin: 0; }
.file { margin-top: 18px; }
.file-name { padding: 5px 8px; background: var(--band); border-top: 2px solid var(--ink); }
.file-name .label { margin-right: 6px; }
.facts { margin: 2px 0 6px; font-size: 9pt; }
.omitted { margin: 2px 0 8px; padding: 4px 8px; background: #fff8e6; border: 1px solid #e8d9a8; font-size: 9pt; }
.ctl { padding: 0 1px; border: 1px solid var(--error); border-radius: 2px; color: var(--error); font-family: monospace; }
.rules .c-rid { width: 38%; } .rules .c-sev { width: 8em; } .rules .c-art { width: 22%; }
.rules .title { color: var(--muted); font-size: 9pt; }
.result { font-weight: 700; }
.result.passed { color: var(--pass); } .result.failed { color: var(--error); } .result.not-applied { color: var(--warning); }
.why { font-size: 9pt; }
.law-changes.weakens h3 { color: var(--warning); }
.colophon { margin-top: 28px; padding-top: 6px; border-top: 1px solid var(--rule); font-size: 8.5pt; }
@media print {
  @page { size: A4; margin: 16mm 14mm 18mm; }
  html, body { background: #fff; }
  body { font-size: 9.5pt; }
  .counts { grid-template-columns: repeat(4, 1fr); }
  .count:nth-child(4) { border-right: 0; }
  .count:nth-child(-n+4) { border-bottom: 1px solid var(--rule); }
  .report { max-width: none; margin: 0; padding: 0; border: 0; }
  .contents { display: none; }
  a { color: inherit; text-decoration: none; }
  .part { break-before: page; }
  .file { break-before: page; margin-top: 0; }
  .file:first-of-type { break-before: avoid; }
  .document + .document { break-before: page; }
  tr, .verdict, .counts, .omitted, .suppression, blockquote, dl { break-inside: avoid; }
  h2, h3, h4, .facts { break-after: avoid; }
  thead { display: table-header-group; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""
