"""Machine-readable report; its shape is documented by schemas/report.schema.json (version below)."""

from __future__ import annotations

import json
from typing import TextIO

from casino_audit import __version__
from casino_audit.core.findings import Citation, Finding
from casino_audit.law.provenance import shown_source

FORMAT_VERSION = "1.4"


def citation_dict(citation: Citation | None) -> dict | None:
    if citation is None:
        return None
    return {"instrument": citation.instrument, "article": citation.article, "text": citation.text,
            "language": citation.language}


def finding_dict(finding: Finding) -> dict:
    return {
        "rule_id": finding.rule_id,
        "severity": finding.severity.label,
        "message": finding.message,
        "file": finding.file,
        "line": finding.line,
        "column": finding.column,
        "pointer": finding.pointer,
        "document": finding.document,
        "jurisdiction": finding.jurisdiction,
        "citation": citation_dict(finding.citation),
        "related": related_list(finding),
        "suppression": suppression_dict(finding.suppression),
    }


def related_list(finding: Finding) -> list[dict]:
    return [{"message": r.message, "file": r.location.file, "line": r.location.line, "column": r.location.column,
             "pointer": r.location.pointer, "document": r.location.document} for r in finding.related]


class Written(str):
    """A list entry already written as JSON (one line)."""


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_STRING = json.encoder.encode_basestring  # what that encoder writes a str with (C)


def _text(value) -> str:
    return _STRING(value) if type(value) is str else _ENCODE(value)


def _whole(value) -> str:
    return "null" if value is None else int.__repr__(value) if type(value) is int else _ENCODE(value)


def finding_json(finding: Finding, written: dict) -> Written:
    """`finding_dict` as `json.dumps` writes it, written faster (a report may hold 20,000 findings, written by
    one process after every worker is done): what is the same for every finding of a rule (its id, severity,
    jurisdiction and citation: the law's words) is written once per rule (`written`), the rest field by field
    by the C string encoder."""
    rule = (finding.rule_id, finding.severity, finding.jurisdiction, finding.citation)
    ends = written.get(rule)
    if ends is None:
        ends = written[rule] = (
            '{"rule_id": ' + _text(finding.rule_id) + ', "severity": ' + _text(finding.severity.label)
            + ', "message": ',
            ', "jurisdiction": ' + _text(finding.jurisdiction) + ', "citation": '
            + _ENCODE(citation_dict(finding.citation)))
    rest = _NOTHING_MORE if not finding.related and finding.suppression is None else (
        ', "related": ' + _ENCODE(related_list(finding)) + ', "suppression": '
        + _ENCODE(suppression_dict(finding.suppression)) + "}")
    return Written(ends[0] + _text(finding.message) + ', "file": ' + _text(finding.file) + ', "line": '
                   + _whole(finding.line) + ', "column": ' + _whole(finding.column) + ', "pointer": '
                   + _text(finding.pointer) + ', "document": ' + _whole(finding.document) + ends[1] + rest)


_NOTHING_MORE = ', "related": [], "suppression": null}'


def suppression_dict(suppression) -> dict | None:
    if suppression is None:
        return None
    return {"kind": suppression.kind, "justification": suppression.justification,
            "granted_by": suppression.granted_by, "reference": suppression.reference,
            "expires": suppression.expires, "source": suppression.source}


def _rule_side(rule, ruleset: str) -> dict:
    return {"ruleset": ruleset, "severity": rule.severity.label, "source": shown_source(rule.source),
            "citation": citation_dict(rule.citation)}


def ruleset_dict(used) -> dict:
    ruleset = used.ruleset
    return {
        "name": ruleset.name, "jurisdiction": ruleset.code, "chain": list(ruleset.chain), "source": shown_source(str(ruleset.source)),
        "rules": len(ruleset.rules), "builtin": used.builtin,
        "files": [{"name": f.name, "path": shown_source(f.path), "sha256": f.sha256} for f in used.files],
        "law_changes": [{"rule_id": change.rule_id, "change": change.change, "reasons": list(change.reasons),
                         "law": _rule_side(change.law, used.files[-1].name),
                         "house": None if change.house is None else _rule_side(change.house, ruleset.name)}
                        for change in used.changes],
    }


def build(result, context, findings: bool = True) -> dict:
    """The report as data; `findings=False` leaves its findings an empty list, for the caller to write."""
    threshold = context.fail_on
    return {
        "format_version": FORMAT_VERSION,
        "tool": {"name": "casino-audit", "version": __version__},
        "settings": [{"name": s.name, "value": s.value, "source": s.source} for s in context.settings],
        "rulesets": [ruleset_dict(used) for used in context.rulesets],
        "fail_on": threshold.label if threshold is not None else "never",
        "failed": result.failed(threshold),
        "exit_code": result.exit_code(threshold),
        "summary": result.summary(),
        "not_applied": list(result.not_applied),
        "files": [{"path": f.path, "status": f.status, "documents": f.documents, "reason": f.reason,
                   "records": f.records}
                  for f in result.files],
        "findings": [finding_dict(f) for f in result.findings] if findings else [],
        "omitted": [{"file": o.file, "rule_id": o.rule_id, "shown": o.shown, "total": o.total,
                     "suppression": o.suppression} for o in result.omitted],
    }


def dumps(document: dict) -> str:
    """The report as JSON, one line per finding, file and list entry: readable, and written by the C encoder
    (an indented dump goes through Python's, ~10x slower on a report of 20,000 findings)."""
    lines = []
    for key, value in document.items():
        name = json.dumps(key)
        if isinstance(value, list) and value:
            entries = ",\n    ".join([entry if type(entry) is Written else _ENCODE(entry) for entry in value])
            lines.append(f"  {name}: [\n    {entries}\n  ]")
        else:
            lines.append(f"  {name}: " + json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  "))
    return "{\n" + ",\n".join(lines) + "\n}"


def report(result, context, stream: TextIO) -> None:
    document = build(result, context, findings=False)
    written: dict = {}
    document["findings"] = [finding_json(f, written) for f in result.findings]
    write_json(document, stream, one_line_entries=True)


def write_json(document, stream: TextIO, one_line_entries: bool = False) -> None:
    text = dumps(document) if one_line_entries else json.dumps(document, indent=2, ensure_ascii=False)
    # A lone surrogate (an undecodable file name) is written as its JSON escape, never as invalid UTF-8.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    stream.write(text)
    stream.write("\n")
