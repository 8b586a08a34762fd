"""The HTML report's tables of the run: what was not checked, the settings, every rule with its result, every
file; and what the run knows per rule and per file, which they show."""

from __future__ import annotations

from collections import Counter

from casino_audit.core import findings as F
from casino_audit.law.checks import describe_condition
from casino_audit.law.engine import selected
from casino_audit.report.common import value_text as setting_text
from casino_audit.report.html_findings import where
from casino_audit.report.html_page import attr, data, plural, text

# The tool's findings that mean a document (or a file) was not checked against law at all.
NOT_CHECKED = frozenset((F.LOAD_UNREADABLE, F.LOAD_ENCODING, F.LOAD_BINARY, F.LOAD_EMPTY, F.LOAD_TOO_LARGE,
                         F.LOAD_SYNTAX, F.LOAD_UNSUPPORTED, F.KIND_MISSING, F.KIND_UNKNOWN, F.JURISDICTION_MISSING,
                         F.JURISDICTION_UNSUPPORTED, F.JURISDICTION_NO_RULES, F.RULESET_INVALID, F.INTERNAL_ERROR))
PASSED, FAILED, NOT_APPLIED = "passed", "failed", "not-applied"


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


# --- what was not checked, the settings, the rules, the files --------------------------------------------------

def not_checked_part(result, context) -> list[str]:
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
             (where(finding.file, finding.line, finding.column, None, finding.document),
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


def settings_part(context) -> list[str]:
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


def rules_part(result, context) -> list[str]:
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
                outcome += f" — {plural(count, 'finding')}"
            elif count:  # a rule that could not be applied says so in findings, which count like any other
                outcome += f" — {plural(count, 'finding')} saying so"
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


def files_part(result) -> list[str]:
    counts = file_counts(result)
    out = ['<section class="part" id="files">', "<h2>Files</h2>",
           '<table class="grid files"><thead><tr><th>Path</th><th>Status</th><th class="num">Documents</th>'
           '<th class="num">Findings</th><th>Filed by</th></tr></thead><tbody>']
    for record in result.files:
        filers = sorted(set((record.filed_by or {}).values()))
        documents = f"{record.documents:,}"
        if record.records is not None:
            documents += f" + {plural(record.records.get('checked', 0), 'coup')}"
        out.append(f'<tr class="file-record {attr(record.status)}"'
                   f"{data(path=record.path, status=record.status, documents=record.documents, reason=record.reason)}>"
                   f"<td><code>{text(record.path)}</code>"
                   + (f'<br><span class="why">{text(record.reason)}</span>' if record.reason else "")
                   + f"</td><td>{text(record.status)}</td><td class=\"num\">{documents}</td>"
                     f"<td class=\"num\">{counts[record.path]:,}</td>"
                     f"<td>{'; '.join(text(f) for f in filers) if filers else '<em>not stated</em>'}</td></tr>")
    out.append("</tbody></table></section>")
    return out
