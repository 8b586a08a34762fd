"""The HTML report's findings: by document, each with the law's own words; those waived or baselined apart."""

from __future__ import annotations

from itertools import groupby

from casino_audit.core.findings import Finding
from casino_audit.report.html_page import attr, data, lang, plural, text
from casino_audit.law.provenance import shown_source


# --- findings --------------------------------------------------------------------------------------------------

def findings_part(result) -> list[str]:
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
        facts.append(f"game log: {plural(counts.get('read', 0), 'record')} read, "
                     f"{plural(counts.get('checked', 0), 'record')} checked, {counts.get('with_findings', 0):,} "
                     f"with findings, {plural(counts.get('unreadable', 0), 'unreadable line')}")
    elif record.documents:
        facts.append(plural(record.documents, "document"))
    filers = sorted(set((record.filed_by or {}).values()))
    facts.append("filed by " + ("; ".join(text(f) for f in filers) if filers else "<em>not stated</em>"))
    if record.reason:
        facts.append(f"read in part: {text(record.reason)}" if record.status == "partial" else text(record.reason))
    return f'<p class="facts">{" · ".join(facts)}</p>'


def _table_head() -> str:
    return ('<table class="findings"><colgroup><col class="c-no"><col class="c-sev"><col class="c-rule">'
            '<col class="c-what"></colgroup><thead><tr><th>No.</th><th>Severity</th>'
            "<th>Rule and place</th><th>Finding and the law's words</th></tr></thead><tbody>")


def where(file: str | None, line, column, pointer, document: int | None = None) -> str:
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
             + f'<div class="where">{where(finding.file, finding.line, finding.column, finding.pointer)}</div></td>',
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
                     f"{where(place.file, place.line, place.column, place.pointer)}</li>")
    items = "".join(items)
    return f'<ul class="related-list">{items}</ul>'


def house_rule(house) -> str:
    if house is None:
        return "none"
    return f"{text(house.citation.short())} ({text(house.severity.label)}, {text(shown_source(house.source))})"


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


def suppressed_part(result) -> list[str]:
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
