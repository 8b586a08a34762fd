"""JUnit XML report, as Jenkins (junit step) and GitLab (artifacts:reports:junit) read it.

A test suite per file checked, and one for the run (its settings, rulesets, counts and verdict as properties,
and the findings of no file: a rule not applied for want of a parameter is a skipped test, or a failure under
--require-params). In a file's suite, a test case per document and rule that found something, failed when a
finding is at or above --fail-on (an error when casino-audit crashed on the file), passed otherwise with the
findings in its output; a document without a finding is one passing test case, so every file has at least one.
Which rules applied and found nothing is not recorded by a run, so they have no test case of their own.

Each failure's text lists its findings one per line, `file:line:column: severity RULE-ID: message`, then the
citation. Waived and baselined findings are listed as such and never fail a test. Every text is written by
xml.etree with each control or invisible character as an escape (`printable`): XML 1.0 cannot hold control
characters or lone surrogates, and a filing's text cannot end a line of the failure early.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import groupby
from typing import TextIO

from casino_audit.core.display import printable
from casino_audit.core.findings import INTERNAL_ERROR, Finding
from casino_audit.report import common

RUN_SUITE = "casino-audit"


def xml_text(text: object) -> str:
    """Text XML 1.0 can hold, on one line: every control character (which XML forbids but for tab and
    newlines), lone surrogate, U+FFFE/U+FFFF or invisible character written as an escape (\\x1b, \\udcff)."""
    return printable(text)


def finding_line(finding: Finding) -> str:
    """`file:line:column: severity RULE-ID: message`, then the citation and related places indented: the
    lines a failure lists for each finding."""
    where = ":".join(str(part) for part in (finding.file, finding.line, finding.column) if part is not None)
    line = f"{where or '(whole run)'}: {finding.severity.label} {finding.rule_id}: {finding.message}"
    if finding.suppression is not None:
        line += f" [{common.suppression_text(finding.suppression)}]"
    lines = [xml_text(line)]
    if finding.citation is not None:
        citation = finding.citation
        lines.append("    " + xml_text(citation.short() + (f": « {citation.text} »" if citation.text else "")))
    for related in finding.related:
        place = related.location
        lines.append("    " + xml_text(f"{related.message}: " + ":".join(
            str(part) for part in (place.file, place.line, place.column) if part is not None)))
    return "\n".join(lines)


def _element(parent, tag: str, **attributes) -> ET.Element:
    return ET.SubElement(parent, tag, {name: xml_text(value) for name, value in attributes.items()})


def _counts(suite: ET.Element) -> dict[str, int]:
    cases = suite.findall("testcase")
    return {"tests": len(cases),
            "failures": sum(1 for case in cases if case.find("failure") is not None),
            "errors": sum(1 for case in cases if case.find("error") is not None),
            "skipped": sum(1 for case in cases if case.find("skipped") is not None)}


class _Suites:
    def __init__(self, threshold):
        self.root = ET.Element("testsuites", {"name": "casino-audit"})
        self.threshold = threshold

    def suite(self, name: str) -> ET.Element:
        return _element(self.root, "testsuite", name=name)

    def case(self, suite: ET.Element, name: str, classname: str, findings: list[Finding],
             skipped: str | None = None, file: str | None = None) -> None:
        """One test case for these findings: an error if one is INTERNAL-ERROR, a failure if one counts at or
        above the threshold, else skipped (when said why) or passed; every finding listed either way."""
        case = _element(suite, "testcase", name=name, classname=classname, time="0", **({"file": file} if file else {}))
        counting = [f for f in findings if f.suppression is None and self.threshold is not None
                    and f.severity >= self.threshold]
        text = "\n".join(finding_line(f) for f in findings)
        if any(f.rule_id == INTERNAL_ERROR for f in counting):
            _element(case, "error", message=counting[0].message, type=INTERNAL_ERROR).text = text
        elif counting:
            first = counting[0]
            message = first.message if len(counting) == 1 else f"{len(counting)} findings; the first: {first.message}"
            _element(case, "failure", message=message, type=first.rule_id).text = text
        else:
            if skipped is not None:
                _element(case, "skipped", message=skipped)
            if text:
                _element(case, "system-out").text = text


def report(result, context, stream: TextIO) -> None:
    suites = _Suites(context.fail_on)
    run_findings = [f for f in result.findings if f.file is None]
    by_file: dict[str, list[Finding]] = {}
    for finding in result.findings:
        if finding.file is not None:
            by_file.setdefault(finding.file, []).append(finding)
    omitted: dict[str, list] = {}
    for entry in result.omitted:
        omitted.setdefault(entry.file, []).append(entry)
    paths = [record.path for record in result.files]
    paths += [path for path in by_file if path not in set(paths)]  # a config's or ruleset's file, when named
    records = {record.path: record for record in result.files}
    for path in paths:
        _file_suite(suites, path, records.get(path), by_file.get(path, []), omitted.get(path, []))
    _run_suite(suites, result, context, run_findings)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in suites.root.findall("testsuite"):
        counts = _counts(suite)
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", "0")
    for key, value in totals.items():
        suites.root.set(key, str(value))
    ET.indent(suites.root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(suites.root, encoding="unicode"))
    stream.write("\n")


def _file_suite(suites: _Suites, path: str, record, findings: list[Finding], omitted: list) -> None:
    suite = suites.suite(path)
    if record is not None and record.status == "skipped":
        case = _element(suite, "testcase", name="not checked", classname=path, time="0", file=path)
        _element(case, "skipped", message=f"skipped: {record.reason}")
        return
    if record is not None and record.reason:
        _element(_element(suite, "properties"), "property", name="status", value=f"{record.status}: {record.reason}")
    stream = record is not None and record.records is not None  # a game log: the log is the one document
    documents = 1 if stream else max(record.documents if record is not None else 0, 1)
    by_document: dict[int, list[Finding]] = {}
    for finding in findings:
        by_document.setdefault(0 if stream else finding.document or 0, []).append(finding)
    for document in sorted(set(range(documents)) | set(by_document)):
        label = f"document {document + 1}: " if documents > 1 or document else ""
        found = sorted(by_document.get(document, []), key=lambda f: f.rule_id)  # stable: keeps the file's order
        if not found:
            suites.case(suite, f"{label}no finding", path, [], file=path)
        for rule_id, group in groupby(found, key=lambda f: f.rule_id):
            suites.case(suite, f"{label}{rule_id}", path, list(group), file=path)
    if omitted:
        out = _element(suite, "system-out")
        out.text = "\n".join(xml_text(f"{common.more_text(entry)} in this file not listed "
                                        f"({entry.total:,} in all; --max-per-rule 0 lists every one)")
                             for entry in omitted)


def _run_suite(suites: _Suites, result, context, findings: list[Finding]) -> None:
    suite = suites.suite(RUN_SUITE)
    properties = _element(suite, "properties")
    verdict, _ = common.verdict(result, context)
    summary = result.summary()
    entries = [("verdict", verdict), ("exit_code", result.exit_code(context.fail_on)),
               ("fail_on", context.fail_on.label if context.fail_on is not None else "never")]
    entries += [(f"summary.{key}", value) for key, value in summary.items()]
    entries += [(f"setting.{s.name}", f"{common.value_text(s.value)} (from {s.source})") for s in context.settings]
    entries += [("rules_not_applied", ", ".join(result.not_applied))] if result.not_applied else []
    for used in context.rulesets:
        entries.append((f"ruleset.{used.ruleset.code}", f"{used.ruleset.name} ({len(used.ruleset.rules)} rules, "
                        + ("built-in" if used.builtin else f"{used.files[0].path} sha256 {used.files[0].sha256}")
                        + ")"))
        for change in used.changes:
            entries.append((f"law_change.{change.rule_id}", f"{change.change}: {'; '.join(change.reasons)}"))
    for entry in result.omitted:
        covered = {"waiver": ".waived", "baseline": ".baselined"}.get(entry.suppression, "")
        entries.append((f"omitted.{entry.file}.{entry.rule_id}{covered}", f"{entry.total - entry.shown} of {entry.total}"))
    for name, value in entries:
        _element(properties, "property", name=name, value=value)
    not_applied = set(result.not_applied)
    for rule_id, group in groupby(findings, key=lambda f: f.rule_id):
        group = list(group)
        suites.case(suite, f"{rule_id} (whole run)", RUN_SUITE, group,
                    skipped=group[0].message if rule_id in not_applied else None)
    _element(suite, "system-out").text = "\n".join(
        xml_text(line) for line in (verdict, f"{common.counts_text(summary)}; {common.files_text(summary)}"))
