"""Machine-readable report; its shape is documented by schemas/report.schema.json (version below)."""

from __future__ import annotations

import json
from typing import TextIO

from casino_audit import __version__
from casino_audit.findings import Finding

FORMAT_VERSION = "1.0"


def finding_dict(finding: Finding) -> dict:
    citation = finding.citation
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
        "citation": None if citation is None else {
            "instrument": citation.instrument,
            "article": citation.article,
            "text": citation.text,
            "language": citation.language,
        },
    }


def build(result, context) -> dict:
    threshold = context.fail_on
    return {
        "format_version": FORMAT_VERSION,
        "tool": {"name": "casino-audit", "version": __version__},
        "rulesets": [{"name": r.name, "jurisdiction": r.code, "chain": list(r.chain), "source": r.source,
                      "rules": len(r.rules)} for r in context.rulesets],
        "fail_on": threshold.label if threshold is not None else "never",
        "failed": result.failed(threshold),
        "summary": result.summary(),
        "files": [{"path": f.path, "status": f.status, "documents": f.documents, "reason": f.reason}
                  for f in result.files],
        "findings": [finding_dict(f) for f in result.findings],
    }


def report(result, context, stream: TextIO) -> None:
    json.dump(build(result, context), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
