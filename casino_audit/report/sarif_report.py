"""SARIF 2.1.0 report, as GitHub code scanning ingests it (upload it with github/codeql-action/upload-sarif).

One run. The driver lists every rule of the rulesets in use and the tool's own finding ids, each with its
citation (the article, the instrument and the law's words), its rationale and what passes. A finding in a file
is a result at its line and column (a finding without a line points at line 1), with the JSON pointer as its
logical location. GitHub refuses a whole file if one result has no location, so a finding of the whole run (a
rule not applied for want of a parameter) is a tool execution notification instead, naming its rule. Findings
not listed past --max-per-rule are notifications too; the settings that changed the check are configuration
notifications, and rules switched off by --select/--ignore are rule configuration overrides (`enabled: false`).
Waived and baselined findings are results with an accepted external suppression.

Each result carries a partial fingerprint of its own (`casinoAudit/v1`: rule, file, document, pointer and the
message, never the line), so a consumer can follow a finding across edits. It is deliberately not GitHub's
`primaryLocationLineHash`: the upload action computes that one from the file itself, and warns on every result
whose supplied value differs from its own.

GitHub's upload limits are sarif_limits.py's; the notifications' descriptors and message text sarif_notifications.py's.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib.metadata import PackageNotFoundError, metadata
from typing import TextIO
from urllib.parse import quote

from casino_audit import __version__
from casino_audit.core.findings import TOOL_FINDINGS, LOAD_TRUNCATED, Finding, Severity
from casino_audit.law.engine import selected
from casino_audit.report import common, sarif_limits
from casino_audit.report.json_report import citation_dict, ruleset_dict, suppression_dict
from casino_audit.report.markdown_report import escape
from casino_audit.report.sarif_notifications import NOTIFICATIONS, message_text, notification
from casino_audit.law.provenance import shown_source

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT = "casinoAudit/v1"
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
PROBLEM_SEVERITY = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "recommendation"}
DESCRIPTION_LIMIT = 1024  # GitHub shows at most this many characters of a short or full description
TAG_LIMIT = 10  # GitHub keeps 10 tags of a rule (and refuses more than 20)



def _short(text: str) -> str:
    return text if len(text) <= DESCRIPTION_LIMIT else text[:DESCRIPTION_LIMIT - 1] + "…"


def _uri_part(path: str) -> str:
    return quote(os.fsencode(path), safe="/")  # the file name's own bytes, even undecodable ones


class Locator:
    """File names as SARIF artifact locations: relative to %SRCROOT% (the working directory, where the paths
    of the report are relative to) when inside it, else absolute file:// URIs."""

    def __init__(self, root: str | None = None):
        self.root = os.path.abspath(root or os.getcwd())
        self.root_uri = "file://" + _uri_part(self.root.rstrip("/")) + "/"
        self._cache: dict[str, dict] = {}

    def artifact(self, path: str) -> dict:
        found = self._cache.get(path)
        if found is None:
            absolute = os.path.abspath(path)
            if absolute == self.root or absolute.startswith(self.root.rstrip("/") + "/"):
                relative = os.path.relpath(absolute, self.root).replace(os.sep, "/")
                found = {"uri": _uri_part(relative), "uriBaseId": SRCROOT}
            else:
                found = {"uri": "file://" + _uri_part(absolute)}
            self._cache[path] = found
        return dict(found)

    def physical(self, path: str, line: int | None, column: int | None) -> dict:
        return {"artifactLocation": self.artifact(path),
                "region": {"startLine": line or 1, "startColumn": column or 1}}


def report(result, context, stream: TextIO) -> None:
    document = build(result, context)
    text = sarif_limits.within_upload_size(document)
    left_out = document["runs"][0]["invocations"][0]["properties"].get("resultsLeftOut")
    if left_out:
        print(f"casino-audit: SARIF: {left_out:,} of {len(result.findings):,} results left out to stay within GitHub "
              "code scanning's limits (errors kept first; the run's notifications say how many of each level; the "
              "json format lists every finding)", file=sys.stderr)
    stream.write(text)
    stream.write("\n")


def build(result, context, root: str | None = None) -> dict:
    locator = Locator(root)
    rules, index = _rules(result, context)
    results, run_findings = [], []
    occurrences: dict[str, int] = {}
    for finding in result.findings:
        if finding.file is None:
            run_findings.append(_run_finding(finding, index))
        else:
            results.append(_result(finding, index, locator, occurrences))
    threshold = context.fail_on
    verdict, _ = common.verdict(result, context)
    invocation = {
        "executionSuccessful": not result.internal_errors,
        "exitCode": result.exit_code(threshold),
        "toolExecutionNotifications": run_findings + [_omitted(entry, index, locator) for entry in result.omitted],
        "toolConfigurationNotifications": _settings(context) + _law_changes(context, index),
        "properties": {
            "verdict": verdict,
            "failOn": threshold.label if threshold is not None else "never",
            "failed": result.failed(threshold),
            "settings": [{"name": s.name, "value": s.value, "source": s.source} for s in context.settings],
            "rulesNotApplied": list(result.not_applied),
            "omitted": [{"file": o.file, "rule_id": o.rule_id, "shown": o.shown, "total": o.total,
                         "suppression": o.suppression}
                        for o in result.omitted],
        },
    }
    overrides = _switched_off(rules, context)
    if overrides:
        invocation["ruleConfigurationOverrides"] = overrides
    driver = {"name": "casino-audit", "version": __version__, "semanticVersion": __version__,
              "rules": rules,
              "notifications": [{"id": name, "shortDescription": {"text": text}, "fullDescription": {"text": text}}
                                for name, text in NOTIFICATIONS]}
    homepage = _homepage()
    if homepage:
        driver["informationUri"] = homepage
    run = {
        "tool": {"driver": driver},
        "invocations": [invocation],
        # no uri: the working directory's absolute path is the inspector's machine's, not the report's to carry; a
        # consumer resolves %SRCROOT% itself (GitHub: the repository's root, where CI runs the check)
        "originalUriBaseIds": {SRCROOT: {"description": {"text": "The working directory casino-audit ran in."}}},
        "artifacts": [_artifact(record, locator) for record in result.files],
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {"summary": result.summary(), "rulesets": [ruleset_dict(used) for used in context.rulesets]},
    }
    sarif_limits.within_result_limit(run)
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _homepage() -> str | None:
    """The project's URL, if the installed package's metadata names one."""
    try:
        urls = metadata("casino-audit").get_all("Project-URL") or []
    except PackageNotFoundError:
        return None
    for entry in urls:
        _, _, url = entry.partition(",")
        if url.strip().startswith(("https://", "http://")):
            return url.strip()
    return None


# --- rules ----------------------------------------------------------------------------------------------------

def _rules(result, context) -> tuple[list[dict], dict[str, int]]:
    """Every rule of the rulesets in use, the tool's own finding ids, and any other id a finding names."""
    rules: list[dict] = []
    index: dict[str, int] = {}

    def add(rule_id: str, descriptor: dict) -> None:
        if rule_id not in index:
            index[rule_id] = len(rules)
            rules.append(descriptor)

    for used in context.rulesets:
        for rule in used.ruleset.rules:
            add(rule.id, _law_rule(rule, used.ruleset))
    for rule_id, text in TOOL_FINDINGS.items():
        add(rule_id, _tool_rule(rule_id, text))
    for finding in result.findings:
        if finding.rule_id not in index:
            add(finding.rule_id, _other_rule(finding))
    return rules, index


def _citation_words(citation) -> str:
    where = citation.short()
    return f"{where}: « {citation.text} »" if citation.text else where


def _law_rule(rule, ruleset) -> dict:
    citation = rule.citation
    games = f" ({', '.join(rule.games)})" if rule.games else ""
    passes = rule.describe()
    params = [f"It needs the parameter {name}" + (f" ({ruleset.params[name].description})"
                                                  if name in ruleset.params else "")
              + ": without a value the rule is not applied (an error with --require-params)." for name in rule.params]
    text = "\n\n".join([
        f"{rule.title}.",
        f"Law: {_citation_words(citation)}",
        f"Applies to {rule.kind} documents{games} in {ruleset.jurisdiction_name} ({ruleset.code}).",
        f"How to pass: {passes}.", *params,
        f"Why: {rule.rationale}",
        f"`casino-audit rules explain {rule.id}` shows passing and failing examples.",
    ])
    markdown = "\n\n".join([
        f"**{escape(rule.title)}**",
        f"**Law:** {escape(citation.short())}" + (f"\n\n> {escape(citation.text)}" if citation.text else ""),
        f"**Applies to** {escape(rule.kind)} documents{escape(games)} in {escape(ruleset.jurisdiction_name)} "
        f"({escape(ruleset.code)}).",
        f"**How to pass:** {escape(passes)}.", *(escape(p) for p in params),
        f"**Why:** {escape(rule.rationale)}",
        f"casino\\-audit rules explain {escape(rule.id)} shows passing and failing examples.",
    ])
    tags = ["gaming-law", ruleset.code, rule.kind, *rule.games]
    return {
        "id": rule.id,
        "shortDescription": {"text": _short(rule.title)},
        "fullDescription": {"text": _short(_citation_words(citation))},
        "help": {"text": text, "markdown": markdown},
        "defaultConfiguration": {"level": LEVEL[rule.severity]},
        "properties": {
            "tags": list(dict.fromkeys(tags))[:TAG_LIMIT],
            "precision": "very-high",
            "problem.severity": PROBLEM_SEVERITY[rule.severity],
            "jurisdiction": rule.jurisdiction, "ruleset": ruleset.name, "source": shown_source(rule.source),
            "citation": citation_dict(citation), "params": list(rule.params),
        },
    }


def _tool_rule(rule_id: str, text: str) -> dict:
    about = ("casino-audit's own finding, not a rule of law: the filing could not be read or checked as the law "
             "requires, so it is never passed in silence.")
    severity = Severity.WARNING if rule_id == LOAD_TRUNCATED else Severity.ERROR
    return {
        "id": rule_id,
        "shortDescription": {"text": text},
        "fullDescription": {"text": _short(f"{text} {about}")},
        "help": {"text": f"{text}\n\n{about}", "markdown": f"{text}\n\n{about}"},
        "defaultConfiguration": {"level": LEVEL[severity]},
        "properties": {"tags": ["casino-audit"], "precision": "very-high",
                       "problem.severity": PROBLEM_SEVERITY[severity]},
    }


def _other_rule(finding: Finding) -> dict:
    """A rule id a finding names that no ruleset in use lists (a house ruleset's, say): what the finding says."""
    citation = finding.citation
    full = _citation_words(citation) if citation is not None else finding.rule_id
    return {"id": finding.rule_id, "shortDescription": {"text": _short(finding.rule_id)},
            "fullDescription": {"text": _short(full)}, "help": {"text": full},
            "defaultConfiguration": {"level": LEVEL[finding.severity]},
            "properties": {"precision": "very-high", "problem.severity": PROBLEM_SEVERITY[finding.severity]}}


def _switched_off(rules: list[dict], context) -> list[dict]:
    """Rules of law that --select / --ignore (or the config's) switched off in this run."""
    chosen = {setting.name: setting.value for setting in context.settings if setting.name in ("select", "ignore")}
    if not chosen:
        return []
    law = {rule.id for used in context.rulesets for rule in used.ruleset.rules}
    return [{"descriptor": {"id": rule["id"], "index": position}, "configuration": {"enabled": False}}
            for position, rule in enumerate(rules)
            if rule["id"] in law and not selected(rule["id"], chosen.get("select"), chosen.get("ignore"))]


# --- results and notifications --------------------------------------------------------------------------------

def fingerprint(finding: Finding, uri: str) -> str:
    """Rule, file, document, pointer and message: what the finding is, not which line it is on."""
    message = hashlib.sha256(finding.message.encode("utf-8", "surrogatepass")).hexdigest()
    key = "\0".join([finding.rule_id, uri, str(finding.document or 0), finding.pointer or "", message])
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _result(finding: Finding, index: dict[str, int], locator: Locator, occurrences: dict[str, int]) -> dict:
    location = {"physicalLocation": locator.physical(finding.file, finding.line, finding.column)}
    if finding.pointer:  # the JSON pointer of the value, when it is not the whole document
        location["logicalLocations"] = [{"fullyQualifiedName": finding.pointer}]
    digest = fingerprint(finding, location["physicalLocation"]["artifactLocation"]["uri"])
    occurrences[digest] = occurrences.get(digest, 0) + 1  # the same finding twice in a file stays two alerts
    entry = {
        "ruleId": finding.rule_id,
        "ruleIndex": index[finding.rule_id],
        "level": LEVEL[finding.severity],
        "message": {"text": message_text(finding.message)},
        "locations": [location],
        "partialFingerprints": {FINGERPRINT: f"{digest}:{occurrences[digest]}"},
        "properties": _finding_properties(finding),
    }
    if finding.related:
        # GitHub refuses a result of more locations (its own and related ones) than sarif_limits.LOCATION_LIMIT
        shown = finding.related[:sarif_limits.LOCATION_LIMIT - 1]
        entry["relatedLocations"] = [
            {"id": number, "message": {"text": message_text(related.message)},
             "physicalLocation": locator.physical(related.location.file or finding.file, related.location.line,
                                                  related.location.column)}
            for number, related in enumerate(shown, 1)]
        if len(shown) < len(finding.related):
            entry["properties"]["relatedLocationsLeftOut"] = len(finding.related) - len(shown)
    if finding.suppression is not None:
        entry["suppressions"] = [_suppression(finding.suppression)]
    return entry


def _finding_properties(finding: Finding) -> dict:
    properties = {"severity": finding.severity.label, "pointer": finding.pointer, "document": finding.document,
                  "jurisdiction": finding.jurisdiction, "citation": citation_dict(finding.citation)}
    if finding.suppression is not None:
        properties["suppression"] = suppression_dict(finding.suppression)
    return {key: value for key, value in properties.items() if value is not None}


def _suppression(suppression) -> dict:
    return {"kind": "external", "status": "accepted",
            "justification": common.suppression_text(suppression),
            "properties": suppression_dict(suppression)}


def _run_finding(finding: Finding, index: dict[str, int]) -> dict:
    text = finding.message
    if finding.suppression is not None:
        text += f" ({common.suppression_text(finding.suppression)})"
    return notification("run-finding", LEVEL[finding.severity], text, finding.rule_id, index,
                         properties=_finding_properties(finding))


def _omitted(entry, index: dict[str, int], locator: Locator) -> dict:
    text = (f"{common.more_text(entry)} in this file not listed "
            f"({entry.total:,} in all; --max-per-rule 0 lists every one)")
    return notification("findings-not-listed", "note", text, entry.rule_id, index,
                         locations=[{"physicalLocation": {"artifactLocation": locator.artifact(entry.file)}}],
                         properties={"file": entry.file, "shown": entry.shown, "total": entry.total,
                                     **({"suppression": entry.suppression} if entry.suppression else {})})


def _settings(context) -> list[dict]:
    """Every setting not at its default; those that switch rules of law off as warnings."""
    notes = []
    for setting in context.settings:
        narrows = setting.name in ("select", "ignore")
        text = f"{setting.name} = {common.value_text(setting.value)} (from {setting.source})"
        if narrows:
            text += ": the rules it leaves out were not applied (ruleConfigurationOverrides lists them)"
        notes.append(notification("setting", "warning" if narrows else "note", text,
                                   properties={"name": setting.name, "value": setting.value,
                                               "source": setting.source}))
    return notes


def _law_changes(context, index: dict[str, int]) -> list[dict]:
    notes = []
    for used in context.rulesets:
        for change in used.changes:
            house = "" if change.house is None else f"; house: {change.house.citation.short()}"
            notes.append(notification(
                "law-change", "note" if change.change == "tightened" else "warning",
                f"The ruleset {used.ruleset.name} ({used.ruleset.code}): {change.rule_id} {change.change}: "
                f"{'; '.join(change.reasons)} (law: {change.law.citation.short()}{house})",
                change.rule_id if change.rule_id in index else None, index,
                properties={"ruleset": used.ruleset.name, "change": change.change, "reasons": list(change.reasons)}))
    return notes


def _artifact(record, locator: Locator) -> dict:
    properties = {"status": record.status, "documents": record.documents}
    if record.reason:
        properties["reason"] = record.reason
    if record.records:
        properties["records"] = record.records
    return {"location": locator.artifact(record.path), "properties": properties}
