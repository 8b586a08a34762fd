"""The report formats (sarif, junit, github, markdown): each parsed back shows the same findings and counts as
the JSON report; SARIF is valid against the official 2.1.0 schema and fit for GitHub code scanning; text from
filings cannot break or forge any of them; --format/--output pair up like checkov's."""

import dataclasses
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from urllib.parse import unquote_to_bytes

import pytest

from helpers import schema_check
from casino_audit.core.findings import Citation, Finding, Location, Related, Severity, Suppression
from casino_audit.law.provenance import in_use
from casino_audit.report import FORMAT_NAMES, ReportContext, reporter
from casino_audit.core.results import FindingSink, FileRecord, RunResult
from casino_audit.law.rulesets import builtin_names, load_builtin
from casino_audit.run.settings import Setting
from helpers.command import EXAMPLES, REPO, run_in_process, without_par
from helpers.reports import context_for, render
from helpers.reports import github_annotations

SARIF_SCHEMA = json.loads((Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json").read_text("utf-8"))
NEW_FORMATS = ("sarif", "junit", "github", "markdown")
COUNTED = ("errors", "warnings", "infos", "waived", "baselined", "findings_omitted")
PARAMS = ["--param", "slot_stake_minimum_eur=0.50", "--param", "slot_stake_maximum_eur=10"]


def run(*args, cwd: Path = REPO, env: dict | None = None):
    return run_in_process(*args, cwd=cwd, env=env)


# --- each format read back ------------------------------------------------------------------------------------

def key(rule_id, file, line):
    return (rule_id, file, line)


def from_json(report: dict) -> tuple[Counter, dict, Counter]:
    """(rule, file, line) of every finding listed, the counts, and the findings set apart by kind."""
    found = Counter(key(f["rule_id"], f["file"], f["line"]) for f in report["findings"])
    apart = Counter((f["suppression"]["kind"], f["rule_id"], f["file"], f["line"]) for f in report["findings"]
                    if f["suppression"])
    return found, {name: report["summary"][name] for name in COUNTED}, apart


def sarif_document(text: str) -> dict:
    document = json.loads(text)
    schema_check.validate(document, SARIF_SCHEMA)
    return document


def sarif_path(location: dict, root: str) -> str:
    uri = location["uri"]
    if location.get("uriBaseId") == "%SRCROOT%":
        return os.fsdecode(unquote_to_bytes(uri))
    assert uri.startswith("file://")
    return os.path.relpath(os.fsdecode(unquote_to_bytes(uri[len("file://"):])), root)


def sarif_text(text: str) -> str:
    """A message as written, from SARIF plain text (brackets escaped when there are any)."""
    if "[" not in text and "]" not in text:
        return text
    return re.sub(r"\\(.)", r"\1", text)


def from_sarif(text: str) -> tuple[Counter, dict, Counter]:
    """A finding without a line is at line 1 in SARIF, as GitHub requires; one of no file a notification."""
    [run_] = sarif_document(text)["runs"]
    # %SRCROOT% carries no uri (no absolute path of the machine): it is the working directory the run had
    root = os.getcwd()
    rules = run_["tool"]["driver"]["rules"]
    found, apart, levels = Counter(), Counter(), Counter()
    for result in run_["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        physical = result["locations"][0]["physicalLocation"]
        file = sarif_path(physical["artifactLocation"], root)
        found[key(result["ruleId"], file, physical["region"]["startLine"])] += 1
        for suppression in result.get("suppressions", []):
            apart[(suppression["properties"]["kind"], result["ruleId"], file, physical["region"]["startLine"])] += 1
        if not result.get("suppressions"):
            levels[result["level"]] += 1
    invocation = run_["invocations"][0]
    omitted = 0
    for note in invocation["toolExecutionNotifications"]:
        if note["descriptor"]["id"] == "run-finding":
            found[key(note["associatedRule"]["id"], None, None)] += 1
            suppression = note["properties"].get("suppression")
            if suppression:
                apart[(suppression["kind"], note["associatedRule"]["id"], None, None)] += 1
            else:
                levels[note["level"]] += 1
        elif note["descriptor"]["id"] == "findings-not-listed":
            extra = note["properties"]["total"] - note["properties"]["shown"]
            omitted += extra
            # the findings not listed have the level of those listed of the same rule in the same file
            [level] = {r["level"] for r in run_["results"] if r["ruleId"] == note["associatedRule"]["id"]
                       and sarif_path(r["locations"][0]["physicalLocation"]["artifactLocation"], root)
                       == note["properties"]["file"] and not r.get("suppressions")}
            levels[level] += extra
    summary = run_["properties"]["summary"]
    counts = {name: summary[name] for name in COUNTED}
    # The counts the results themselves add up to, beside those the run states.
    assert (levels["error"], levels["warning"], levels["note"]) == (counts["errors"], counts["warnings"],
                                                                    counts["infos"])
    assert omitted == counts["findings_omitted"]
    assert Counter(kind for kind, *_ in apart.elements()) == Counter(
        {"waiver": counts["waived"], "baseline": counts["baselined"]}) - Counter()
    return found, counts, apart


FINDING_LINE = r"(?::(\d+))?(?::\d+)?: (error|warning|info) (\S+): "


def from_junit(text: str) -> tuple[Counter, dict, Counter]:
    root = ET.fromstring(text)
    assert root.tag == "testsuites"
    found, apart = Counter(), Counter()
    counts = None
    for suite in root.findall("testsuite"):
        name = suite.get("name")
        prefix = re.escape("(whole run)") if name == "casino-audit" else re.escape(name)
        for case in suite.findall("testcase"):
            for child in case:
                for line in (child.text or "").splitlines():
                    match = re.match(prefix + FINDING_LINE, line)
                    if line.startswith("    ") or not match:
                        continue
                    file = None if name == "casino-audit" else name
                    line_number = int(match.group(1)) if match.group(1) else None
                    found[key(match.group(3), file, line_number)] += 1
                    kind = re.search(r" \[(waived|baselined) \(", line)
                    if kind:
                        apart[({"waived": "waiver", "baselined": "baseline"}[kind.group(1)], match.group(3), file,
                               line_number)] += 1
        if name == "casino-audit":
            properties = {p.get("name"): p.get("value") for p in suite.find("properties")}
            counts = {name: int(properties[f"summary.{name}"]) for name in COUNTED}
    return found, counts, apart


def counts_in(text: str) -> dict:
    """The counts line every format writes: `N error(s), N warning(s), N info (N waived; ...)`."""
    match = re.search(r"(\d+) error\(s\), (\d+) warning\(s\), (\d+) info(?: \(([^\n]*)\))?", text)
    counts = dict(zip(("errors", "warnings", "infos"), map(int, match.groups()[:3])))
    apart = match.group(4) or ""
    for name, word in (("waived", "waived"), ("baselined", "baselined"), ("findings_omitted", "not listed")):
        number = re.search(rf"([\d,]+) {word}", apart)
        counts[name] = int(number.group(1).replace(",", "")) if number else 0
    return counts


def from_github(text: str) -> tuple[Counter, dict, Counter]:
    found, apart = Counter(), Counter()
    for command, properties, message in github_annotations(text):
        if properties["title"] == "casino-audit settings":
            continue
        rule_id, _, kind = properties["title"].partition(" (")
        line = int(properties["line"]) if "line" in properties else None
        found[key(rule_id, properties.get("file"), line)] += 1
        if kind:
            apart[({"waived)": "waiver", "baselined)": "baseline"}[kind], rule_id, properties.get("file"), line)] += 1
    summary = [line for line in text.splitlines() if line.startswith("casino-audit: ") and "error(s)" in line]
    return found, counts_in(summary[-1]), apart


def markdown_cells(row: str) -> list[str]:
    cells, cell, chars = [], "", iter(row.strip()[1:-1])
    for char in chars:
        if char == "\\":
            cell += char + next(chars)
        elif char == "|":
            cells.append(cell.strip())
            cell = ""
        else:
            cell += char
    return cells + [cell.strip()]


def from_markdown(text: str) -> tuple[Counter, dict, Counter]:
    from casino_audit.report.markdown_report import unescape

    found, apart = Counter(), Counter()
    lines = text.splitlines()
    if "| rule | severity | where | message | article |" in lines:
        start = lines.index("| rule | severity | where | message | article |") + 2
        for row in lines[start:]:
            if not row.startswith("|"):
                break
            rule, severity, where, message, article = markdown_cells(row)
            rule_id = unescape(rule.strip("*"))
            where = unescape(where) if where != "(whole run)" else None
            file, line = where, None
            if where is not None:
                match = re.match(r"(.*?):(\d+)(?::\d+)?$", where)
                if match:
                    file, line = match.group(1), int(match.group(2))
            found[key(rule_id, file, line)] += 1
            kind = re.search(r"\((waived|baselined)\)", severity)
            if kind:
                apart[({"waived": "waiver", "baselined": "baseline"}[kind.group(1)], rule_id, file, line)] += 1
    return found, counts_in(unescape(lines[4])), apart


READERS = {"sarif": from_sarif, "junit": from_junit, "github": from_github, "markdown": from_markdown}


def sarif_lines(found: Counter) -> Counter:
    """The JSON findings as SARIF places them: a finding in a file without a line is at line 1."""
    return Counter({(rule, file, line if line or file is None else 1): n for (rule, file, line), n in found.items()})


def assert_same_as_json(report: dict, outputs: dict[str, str]):
    found, counts, apart = from_json(report)
    for name, text in outputs.items():
        got_found, got_counts, got_apart = READERS[name](text)
        expected_found = sarif_lines(found) if name == "sarif" else found
        expected_apart = Counter({(kind, rule, file, line if line or file is None or name != "sarif" else 1): n
                                  for (kind, rule, file, line), n in apart.items()})
        assert got_found == expected_found, (name, got_found - expected_found, expected_found - got_found)
        assert got_counts == counts, name
        assert got_apart == expected_apart, name


def all_formats(tmp_path, *args, cwd=REPO) -> tuple[int, dict, dict[str, str]]:
    """One run writing every format: json, sarif, junit and github to files, markdown to standard output."""
    files = {name: tmp_path / f"report.{name}" for name in ("json", "sarif", "junit", "github")}
    options = [part for name, path in files.items() for part in ("--format", name, "-o", str(path))]
    done = run("check", *args, *options, "--format", "markdown", cwd=cwd)
    assert "Traceback" not in done.stdout + done.stderr
    outputs = {name: path.read_text("utf-8") for name, path in files.items() if name != "json"}
    outputs["markdown"] = done.stdout
    return done.returncode, json.loads(files["json"].read_text("utf-8")), outputs


# --- every format shows what json shows -----------------------------------------------------------------------

def test_every_format_shows_the_findings_and_counts_of_json_on_the_examples(tmp_path):
    code, report, outputs = all_formats(tmp_path, "examples")
    assert code == 1 and report["exit_code"] == 1
    assert sum(from_json(report)[0].values()) == len(report["findings"]) > 100
    assert_same_as_json(report, outputs)
    assert sorted(outputs) == sorted(NEW_FORMATS) and set(NEW_FORMATS) <= set(FORMAT_NAMES)


def test_every_format_shows_capped_findings_and_counts_them_all(tmp_path):
    code, report, outputs = all_formats(tmp_path, "examples", "--max-per-rule", "1")
    assert report["summary"]["findings_omitted"] > 0 and report["omitted"]
    assert_same_as_json(report, outputs)
    for entry in report["omitted"]:
        more = f"{entry['total'] - entry['shown']} more {entry['rule_id']} finding(s)"
        for name in NEW_FORMATS:
            assert more in outputs[name].replace("\\", ""), (name, more)


def suppressed_run() -> RunResult:
    """A run with findings waived and baselined, as the waiver and baseline stage will hand them over:
    shown, counted apart from the verdict."""
    waiver = Suppression("waiver", "Dérogation ministérielle 2026-14", "Ministère des Finances", "DM-2026-14",
                         "2027-01-31", "waivers.yaml:3")
    baseline = Suppression("baseline", "accepted in the baseline of 2026-11-02", source="baseline.json:12")
    citation = Citation("RGD du 8 mars 2002", "Art. 18-7, al. 3", "Le taux de redistribution ... 85 pour cent.")
    findings = [
        Finding("LU-SLOT-RTP-MIN", Severity.ERROR, "`redistribution_rate` is 84 %, below the minimum of 85 %",
                "filings/a.yaml", 12, 22, "/redistribution_rate", 0, "LU", citation, suppression=waiver),
        Finding("LU-SLOT-RTP-MIN", Severity.ERROR, "`redistribution_rate` is 80 %, below the minimum of 85 %",
                "filings/b.yaml", 12, 22, "/redistribution_rate", 0, "LU", citation),
        Finding("LU-SLOT-METER-ROLES", Severity.WARNING, "a meter is missing", "filings/b.yaml", 30, 1, "/meters",
                0, "LU", citation, suppression=baseline),
        Finding("LU-SLOT-METER-ROLES", Severity.WARNING, "a meter is missing", "filings/c.yaml", None, None, None,
                0, "LU", citation),
        Finding("LU-SLOT-STAKE-MIN-ORDER", Severity.INFO, "not applied: no value for slot_stake_minimum_eur",
                None, jurisdiction="LU", citation=citation, suppression=baseline),
        Finding("LU-SLOT-STAKE-MAX-ORDER", Severity.INFO, "not applied: no value for slot_stake_maximum_eur",
                None, jurisdiction="LU", citation=citation),
    ]
    counted = Counter(f.severity for f in findings if f.suppression is None)
    return RunResult(files=[FileRecord(f"filings/{name}.yaml", "checked", 1) for name in "abc"], findings=findings,
                     totals=counted, suppressed=Counter(f.suppression.kind for f in findings if f.suppression),
                     not_applied=["LU-SLOT-STAKE-MAX-ORDER", "LU-SLOT-STAKE-MIN-ORDER"])


def test_waived_and_baselined_findings_are_shown_as_such_in_every_format_and_never_fail(tmp_path):
    result, context = suppressed_run(), context_for()
    report = json.loads(render(result, context, "json"))
    assert report["summary"]["waived"] == 1 and report["summary"]["baselined"] == 2
    outputs = {name: render(result, context, name) for name in NEW_FORMATS}
    assert_same_as_json(report, outputs)
    # SARIF: an accepted external suppression, with its justification
    [run_] = sarif_document(outputs["sarif"])["runs"]
    suppressed = [r for r in run_["results"] if r.get("suppressions")]
    assert [(r["ruleId"], r["suppressions"][0]["kind"], r["suppressions"][0]["status"]) for r in suppressed] == [
        ("LU-SLOT-RTP-MIN", "external", "accepted"), ("LU-SLOT-METER-ROLES", "external", "accepted")]
    assert "Dérogation ministérielle 2026-14" in suppressed[0]["suppressions"][0]["justification"]
    # JUnit: the waived finding fails no test; the counting one does
    root = ET.fromstring(outputs["junit"])
    failed = {(s.get("name"), c.get("name")) for s in root.iter("testsuite") for c in s.iter("testcase")
              if c.find("failure") is not None}
    assert failed == {("filings/b.yaml", "LU-SLOT-RTP-MIN")}
    # github: a notice whatever the severity, titled as waived
    titles = {(command, properties["title"], properties.get("file")) for command, properties, _
              in github_annotations(outputs["github"])}
    assert ("notice", "LU-SLOT-RTP-MIN (waived)", "filings/a.yaml") in titles
    assert ("error", "LU-SLOT-RTP-MIN", "filings/b.yaml") in titles
    assert ("notice", "LU-SLOT-METER-ROLES (baselined)", "filings/b.yaml") in titles
    assert "Dérogation ministérielle 2026-14" in outputs["markdown"]


def test_sarif_notes_a_run_that_could_not_finish_and_points_a_lineless_finding_at_line_1():
    result = suppressed_run()
    result.findings.append(Finding("INTERNAL-ERROR", Severity.ERROR, "LU-SLOT-RTP-MIN crashed: ZeroDivisionError",
                                   "filings/c.yaml"))
    result.totals[Severity.ERROR] += 1
    result.internal_errors = 1
    [run_] = sarif_document(render(result, context_for(), "sarif"))["runs"]
    assert run_["invocations"][0]["executionSuccessful"] is False and run_["invocations"][0]["exitCode"] == 2
    crash = [r for r in run_["results"] if r["ruleId"] == "INTERNAL-ERROR"]
    assert crash[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 1, "startColumn": 1}
    assert run_["invocations"][0]["properties"]["verdict"].startswith("ERROR")
    good = render(suppressed_run(), context_for(), "sarif")
    assert sarif_document(good)["runs"][0]["invocations"][0]["executionSuccessful"] is True


# --- SARIF for GitHub code scanning ----------------------------------------------------------------------------

def test_sarif_meets_github_code_scanning_requirements(tmp_path):
    code, report, outputs = all_formats(tmp_path, "examples", "--max-per-rule", "1", "--ignore", "LU-SLOT-TYPE")
    document = sarif_document(outputs["sarif"])
    assert document["version"] == "2.1.0" and document["$schema"]
    [run_] = document["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "casino-audit" and driver["version"]
    rules = driver["rules"]
    ids = [rule["id"] for rule in rules]
    assert len(ids) == len(set(ids))
    # every rule of the rulesets in use and every finding id of the tool's own
    from casino_audit.core.findings import TOOL_FINDINGS
    in_use_ids = {rule.id for code in builtin_names() for rule in load_builtin(code).rules}
    assert in_use_ids | set(TOOL_FINDINGS) == set(ids)
    for rule in rules:
        assert rule["shortDescription"]["text"] and len(rule["shortDescription"]["text"]) <= 1024
        assert rule["fullDescription"]["text"] and len(rule["fullDescription"]["text"]) <= 1024
        assert rule["help"]["text"] and rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
        assert "security-severity" not in rule["properties"]
        assert rule["properties"]["problem.severity"] in ("error", "warning", "recommendation")
        assert 0 < len(rule["properties"]["tags"]) <= 10
    rtp = rules[ids.index("LU-SLOT-RTP-MIN")]
    assert rtp["fullDescription"]["text"].startswith("Art. 18-7, al. 3, RGD du 8 mars 2002: « Le taux de ")
    assert "85 %" in rtp["help"]["text"] and "**Law:**" in rtp["help"]["markdown"]
    # no absolute path of the inspector's machine: %SRCROOT% is the consumer's to resolve (GitHub: the repository)
    assert "uri" not in run_["originalUriBaseIds"]["%SRCROOT%"]
    assert "workingDirectory" not in run_["invocations"][0] and str(REPO) not in json.dumps(run_)
    assert run_["results"]
    for result in run_["results"]:
        [location] = result["locations"]  # GitHub refuses a file with a result of no location
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uri"] and physical["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert not physical["artifactLocation"]["uri"].startswith("/")
        assert physical["region"]["startLine"] >= 1 and physical["region"]["startColumn"] >= 1
        assert result["level"] in ("error", "warning", "note") and result["message"]["text"]
        assert result["partialFingerprints"]["casinoAudit/v1"]
        assert "primaryLocationLineHash" not in result["partialFingerprints"]  # the upload action's own
    fingerprints = [r["partialFingerprints"]["casinoAudit/v1"] for r in run_["results"]]
    assert len(fingerprints) == len(set(fingerprints))
    duplicate = [r for r in run_["results"] if r["ruleId"] == "LOAD-DUPLICATE-KEY"]
    assert duplicate[0]["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 25
    pointers = [r for r in run_["results"] if r["ruleId"] == "LU-SLOT-RTP-MIN"]
    assert pointers[0]["locations"][0]["logicalLocations"] == [{"fullyQualifiedName": "/redistribution_rate"}]
    invocation = run_["invocations"][0]
    assert invocation["executionSuccessful"] is True and invocation["exitCode"] == 1
    # rules not applied, capped findings and the settings that switched rules off are all said
    assert invocation["properties"]["rulesNotApplied"] == report["not_applied"]
    assert {n["associatedRule"]["id"] for n in invocation["toolExecutionNotifications"]
            if n["descriptor"]["id"] == "run-finding"} == set(report["not_applied"])
    assert [n for n in invocation["toolExecutionNotifications"] if n["descriptor"]["id"] == "findings-not-listed"]
    assert invocation["ruleConfigurationOverrides"] == [
        {"descriptor": {"id": "LU-SLOT-TYPE", "index": ids.index("LU-SLOT-TYPE")}, "configuration": {"enabled": False}}]
    settings = {n["properties"]["name"]: n for n in invocation["toolConfigurationNotifications"]}
    assert settings["ignore"]["properties"] == {"name": "ignore", "value": ["LU-SLOT-TYPE"],
                                                "source": "option --ignore"}
    assert settings["ignore"]["level"] == "warning"


def test_sarif_fingerprints_follow_a_finding_across_edits_not_its_line(tmp_path):
    compliant = (EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8")
    compliant = without_par(compliant)  # the rate alone: its PAR data would disagree with it too
    (tmp_path / "m.yaml").write_text(compliant.replace("92.5 %", "84 %"), "utf-8")
    first = run("check", "m.yaml", *PARAMS, "--format", "sarif", cwd=tmp_path).stdout
    (tmp_path / "m.yaml").write_text("# a comment\n# and another\n" + compliant.replace("92.5 %", "84 %"), "utf-8")
    second = run("check", "m.yaml", *PARAMS, "--format", "sarif", cwd=tmp_path).stdout
    [a], [b] = ([r for r in sarif_document(text)["runs"][0]["results"] if r["ruleId"] == "LU-SLOT-RTP-MIN"]
                for text in (first, second))
    assert a["locations"][0]["physicalLocation"]["region"]["startLine"] + 2 == \
        b["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert a["partialFingerprints"] == b["partialFingerprints"]
    (tmp_path / "m.yaml").write_text(compliant.replace("92.5 %", "83 %"), "utf-8")
    third = sarif_document(run("check", "m.yaml", *PARAMS, "--format", "sarif", cwd=tmp_path).stdout)
    [c] = [r for r in third["runs"][0]["results"] if r["ruleId"] == "LU-SLOT-RTP-MIN"]
    assert c["partialFingerprints"] != a["partialFingerprints"]  # another breach


def test_sarif_paths_outside_the_working_directory_are_absolute_file_uris(tmp_path):
    (tmp_path / "a b%#.yaml").write_text((EXAMPLES / "lu/machine-rtp-below-85.yaml").read_text("utf-8"), "utf-8")
    done = run("check", str(tmp_path / "a b%#.yaml"), "--format", "sarif")
    [run_] = sarif_document(done.stdout)["runs"]
    location = run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert "uriBaseId" not in location and location["uri"].startswith("file:///")
    assert location["uri"].endswith("/a%20b%25%23.yaml")
    assert unquote_to_bytes(location["uri"][7:]) == os.fsencode(str(tmp_path / "a b%#.yaml"))


# --- text from filings breaks no format ----------------------------------------------------------------------

HOSTILE = ("| error | **PASSED** <img src=x onerror=alert(1)> `tick` [here](1) # no heading\n"
           "::error title=FORGED::forged %0A 100% \r\x1b[2J\x00\ud800\ufffe\u202e end")


def hostile_run() -> RunResult:
    sink = FindingSink(0)
    hostile_file = "filings/we,ird:name|<&>.yaml"
    sink.add(Finding("LU-SLOT-RTP-MIN", Severity.ERROR, HOSTILE, hostile_file, 3, 7, "/x", 0, "LU",
                     Citation("RGD", "Art. 1", HOSTILE),
                     (Related(HOSTILE, Location(hostile_file, 2, 1)),)))
    sink.add(Finding("LU-SLOT-TYPE", Severity.INFO, "plain", hostile_file, 4, 1))
    return RunResult(files=[FileRecord(hostile_file, "checked", 1)], findings=sink.kept, totals=sink.totals)


def test_text_from_a_filing_can_neither_break_nor_forge_any_format():
    result, context = hostile_run(), context_for(settings=[Setting("ignore", [HOSTILE], "config x.yaml")])
    report = json.loads(render(result, context, "json"))
    outputs = {name: render(result, context, name) for name in NEW_FORMATS}
    assert_same_as_json(report, outputs)
    for name, text in outputs.items():
        assert "\x1b" not in text and "\x00" not in text, name
        assert "\u202e" not in text or name == "sarif", name  # SARIF is data: JSON holds the text as it is
        text.encode("utf-8")  # no lone surrogate left
    # JUnit is well-formed XML 1.0 and says the message, escaped
    root = ET.fromstring(outputs["junit"].encode("utf-8"))
    failure = next(root.iter("failure"))
    assert "**PASSED** <img src=x onerror=alert(1)>" in failure.get("message")
    assert "\\x1b[2J\\x00\\ud800\\ufffe\\u202e" in failure.text
    # github: one line per annotation, no command of the filing's own, the message read back whole
    lines = outputs["github"].splitlines()
    assert not [line for line in lines if line.startswith("::") and "FORGED" in line.split("::")[1]]
    [(command, properties, message), _] = [a for a in github_annotations(outputs["github"]) if "file" in a[1]]
    assert command == "error" and properties["file"] == "filings/we,ird:name|<&>.yaml"
    assert properties == {"file": "filings/we,ird:name|<&>.yaml", "line": "3", "col": "7", "title": "LU-SLOT-RTP-MIN"}
    assert message.startswith("| error | **PASSED**") and "%0A 100%" in message and "\\x1b[2J" in message
    # markdown: one row per finding, each cell reads back as written
    from casino_audit.core.display import printable
    from casino_audit.report.markdown_report import unescape

    rows = [line for line in outputs["markdown"].splitlines() if line.startswith("| **")]
    assert len(rows) == 2
    cells = markdown_cells(rows[0])
    assert len(cells) == 5
    assert unescape(cells[3]).startswith(printable(HOSTILE))
    assert unescape(cells[4]) == "Art. 1, RGD"
    assert "<img" not in outputs["markdown"].replace("\\<img", "")
    # SARIF: the message as written (a `[here](1)` is no link), the file name a percent-encoded URI
    [run_] = sarif_document(outputs["sarif"])["runs"]
    result_ = run_["results"][0]
    assert sarif_text(result_["message"]["text"]) == HOSTILE  # a lone surrogate as its JSON escape
    assert "\\[here\\](1)" in result_["message"]["text"]
    assert result_["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
        "filings/we%2Cird%3Aname%7C%3C%26%3E.yaml"


def test_a_file_name_that_is_not_utf8_is_escaped_in_every_format(tmp_path):
    compliant = (EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8")
    with open(os.path.join(os.fsencode(tmp_path), b"caf\xe9-\x1b[2J.yaml"), "w") as handle:
        handle.write(compliant.replace("92.5 %", "80 %"))
    options = [part for name in ("sarif", "junit", "github") for part in
               ("--format", name, "-o", str(tmp_path.parent / f"{tmp_path.name}.{name}"))]
    done = subprocess.run([sys.executable, "-m", "casino_audit", "check", str(tmp_path), *PARAMS, *options,
                           "--format", "markdown"], capture_output=True, cwd=REPO,
                          env={**os.environ, "NO_COLOR": "1", "GITHUB_ACTIONS": ""})
    assert done.returncode == 1, done.stderr
    outputs = {name: (tmp_path.parent / f"{tmp_path.name}.{name}").read_bytes() for name in ("sarif", "junit",
                                                                                           "github")}
    outputs["markdown"] = done.stdout
    for name, data in outputs.items():
        assert b"\x1b" not in data, name
        text = data.decode("utf-8")  # valid UTF-8 whatever the file name held
        assert "LU-SLOT-RTP-MIN" in text, name
    [run_] = sarif_document(outputs["sarif"].decode())["runs"]
    assert run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(
        "/caf%E9-%1B%5B2J.yaml")
    ET.fromstring(outputs["junit"])
    assert "caf\\udce9-\\x1b[2J.yaml" in outputs["github"].decode()


# --- JUnit's shape --------------------------------------------------------------------------------------------

def test_junit_has_the_shape_jenkins_and_gitlab_read(tmp_path):
    code, report, outputs = all_formats(tmp_path, "examples", "--max-per-rule", "1")
    root = ET.fromstring(outputs["junit"])
    assert root.tag == "testsuites"
    totals = Counter()
    suites = root.findall("testsuite")
    for suite in suites:
        assert set(suite.attrib) <= {"name", "tests", "failures", "errors", "skipped", "time"}
        cases = suite.findall("testcase")
        counts = {"tests": len(cases), "failures": sum(c.find("failure") is not None for c in cases),
                  "errors": sum(c.find("error") is not None for c in cases),
                  "skipped": sum(c.find("skipped") is not None for c in cases)}
        assert {name: int(suite.get(name)) for name in counts} == counts
        totals.update(counts)
        # children in the schema's order: properties, test cases, then output
        order = [child.tag for child in suite]
        assert order == sorted(order, key=["properties", "testcase", "system-out", "system-err"].index)
        for case in cases:
            assert case.get("name") and case.get("classname") and case.get("time") == "0"
            assert len(case.findall("failure")) + len(case.findall("error")) <= 1
            for outcome in case.findall("failure") + case.findall("error"):
                assert outcome.get("message") and outcome.get("type") and outcome.text
    assert {name: int(root.get(name)) for name in totals} == dict(totals)
    names = {suite.get("name") for suite in suites}
    checked = {f["path"] for f in report["files"]}
    assert names == checked | {"casino-audit"}
    for suite in suites:  # at least one test case per file; a document without a finding is one that passes
        assert suite.findall("testcase") or suite.get("name") == "casino-audit"
    compliant = [s for s in suites if s.get("name") == "examples/lu/machine-compliant.yaml"]
    assert [c.get("name") for c in compliant[0].findall("testcase")] == ["no finding"]
    failures = [case for case in root.iter("testcase") if case.find("failure") is not None]
    rtp = [c for c in failures if c.get("name") == "LU-SLOT-RTP-MIN"]
    assert "Art. 18-7, al. 3, RGD du 8 mars 2002: « Le taux de redistribution" in rtp[0].find("failure").text
    # a failed test case per (file, document, rule) with a finding at or above --fail-on
    errors = {(f["file"], f["document"] if not f["file"].endswith((".jsonl", ".csv")) else 0, f["rule_id"])
              for f in report["findings"] if f["file"] and f["severity"] == "error"}
    assert len(failures) == len(errors)
    not_applied = [c for c in root.iter("testcase") if c.find("skipped") is not None]
    assert {c.get("name").split(" ")[0] for c in not_applied} >= set(report["not_applied"])
    skipped_files = [c for c in root.iter("testcase") if c.get("name") == "not checked"]
    assert len(skipped_files) == report["summary"]["files_skipped"]


def test_junit_fails_a_rule_not_applied_under_require_params(tmp_path):
    done = run("check", "examples/lu/machine-compliant.yaml", "--require-params", "--format", "junit")
    assert done.returncode == 1
    root = ET.fromstring(done.stdout)
    failed = sorted(c.get("name") for c in root.iter("testcase") if c.find("failure") is not None)
    assert failed == ["LU-SLOT-STAKE-MAX-ORDER (whole run)", "LU-SLOT-STAKE-MIN-ORDER (whole run)"]


# --- settings are said in every format ------------------------------------------------------------------------

def test_a_config_or_option_that_switches_rules_off_is_said_in_every_format(tmp_path):
    (tmp_path / "strict.casino-audit.yaml").write_text("ignore: [LU-SLOT-RTP-MIN]\nfail_on: warning\n", "utf-8")
    code, report, outputs = all_formats(tmp_path, "examples/lu", "--config", str(tmp_path / "strict.casino-audit.yaml"),
                                        "--select", "LU-SLOT")
    assert_same_as_json(report, outputs)
    source = f"config {tmp_path / 'strict.casino-audit.yaml'}"
    said = {(s["name"], json.dumps(s["value"]), s["source"]) for s in report["settings"]}
    assert ("ignore", '["LU-SLOT-RTP-MIN"]', source) in said and ("select", '["LU-SLOT"]', "option --select") in said
    for name in NEW_FORMATS:
        text = outputs[name].replace("\\", "")
        for setting, value, origin in (("ignore", "LU-SLOT-RTP-MIN", source), ("select", "LU-SLOT", "option --select"),
                                       ("fail_on", "warning", source)):
            assert setting in text and value in text and origin in text, (name, setting)
    annotations = github_annotations(outputs["github"])
    [(command, _, message)] = [a for a in annotations if a[1]["title"] == "casino-audit settings"]
    assert command == "warning" and "ignore = LU-SLOT-RTP-MIN" in message and "select = LU-SLOT" in message
    [run_] = sarif_document(outputs["sarif"])["runs"]
    off = {o["descriptor"]["id"] for o in run_["invocations"][0]["ruleConfigurationOverrides"]}
    lu = {rule.id for rule in load_builtin("lu").rules}
    assert off == {rule_id for rule_id in lu if not rule_id.startswith("LU-SLOT-") or rule_id == "LU-SLOT-RTP-MIN"}
    assert "LU-SLOT-RTP-MIN" in off and "LU-SLOT-RTP-DECLARED" not in off and "LU-ROUL-STAKE-MIN-ORDER" in off
    assert not [r for r in run_["results"] if r["ruleId"] == "LU-SLOT-RTP-MIN"]


def test_a_house_ruleset_that_weakens_the_law_is_said_in_every_format(tmp_path):
    (tmp_path / "house.yaml").write_text(
        "ruleset: house\nextends: lu\ninstruments:\n  policy: {title: House policy HP-7, language: en}\n"
        "rules:\n  - id: LU-SLOT-RTP-MIN\n    title: RTP at least 80 %\n"
        "    severity: error\n    applies_to: {kind: machine}\n"
        "    check: {kind: value, target: /redistribution_rate, unit: percent, min: \"80\"}\n"
        "    citation: {instrument: policy, article: HP-7, text: \"at least 80\"}\n"
        "    rationale: a house floor\n", "utf-8")
    code, report, outputs = all_formats(tmp_path, "examples/lu/machine-rtp-below-85.yaml", "--ruleset",
                                        str(tmp_path / "house.yaml"))
    assert code == 0
    assert_same_as_json(report, outputs)
    for name in NEW_FORMATS:
        assert "LU-SLOT-RTP-MIN" in outputs[name].replace("\\", "") and "loosened" in outputs[name], name


# --- the command: formats and outputs --------------------------------------------------------------------------

def test_each_output_takes_its_format_and_one_format_goes_to_standard_output(tmp_path):
    done = run("check", "examples/lu/machine-rtp-below-85.yaml", "--format", "sarif", "-o", str(tmp_path / "r.sarif"),
               "--format", "junit", "--output", str(tmp_path / "r.xml"), "--format", "json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["failed"] is True  # json, the one without an --output
    sarif_document((tmp_path / "r.sarif").read_text("utf-8"))
    ET.fromstring((tmp_path / "r.xml").read_text("utf-8"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.sarif", "r.xml"]  # no temporary file left


@pytest.mark.parametrize("args, said", [
    (["--format", "json", "--format", "sarif"], "would all go to standard output"),
    (["--format", "json", "-o", "{t}/a", "-o", "{t}/b"], "2 --output for 1 --format"),
    (["-o", "{t}/a", "-o", "{t}/b"], "2 --output for 1 --format"),
    (["--format", "json", "-o", "{t}/a", "--format", "sarif", "-o", "{t}/a"], "named twice"),
    (["--format", "json", "-o", "{t}/a", "--format", "xml", "-o", "{t}/b"], "unknown --format 'xml'"),
])
def test_formats_and_outputs_that_do_not_pair_up_are_a_usage_error_and_leave_no_report(tmp_path, args, said):
    for name in ("a", "b"):
        (tmp_path / name).write_text("last week's report\n")
    args = [a.replace("{t}", str(tmp_path)) for a in args]
    done = run("check", "examples/lu/machine-compliant.yaml", *args)
    assert done.returncode == 2 and said in done.stderr, done.stderr
    named = {args[n + 1] for n, a in enumerate(args) if a == "-o"}
    for name in ("a", "b"):  # a failed run leaves no earlier report standing in for its verdict
        assert (tmp_path / name).exists() == (str(tmp_path / name) not in named), name


def test_a_failed_run_leaves_none_of_its_reports(tmp_path):
    targets = [tmp_path / name for name in ("r.json", "r.sarif", "r.xml")]
    for target in targets:
        target.write_text("last week's report\n")
    done = run("check", "examples/lu/machine-compliant.yaml", "--param", "no_such=1",
               *(part for name, target in zip(("json", "sarif", "junit"), targets)
                 for part in ("--format", name, "-o", str(target))))
    assert done.returncode == 2
    assert not [target for target in targets if target.exists()]


def test_a_second_output_naming_an_input_is_refused_and_nothing_is_touched(tmp_path):
    filing = tmp_path / "m.yaml"
    filing.write_text((EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8"))
    (tmp_path / "r.json").write_text("last week's report\n")
    done = run("check", "m.yaml", "--format", "json", "-o", "r.json", "--format", "sarif", "-o", "m.yaml",
               cwd=tmp_path)
    assert done.returncode == 2 and "would overwrite" in done.stderr
    assert filing.read_text() == (EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8")
    assert (tmp_path / "r.json").read_text() == "last week's report\n"


def test_a_broken_config_is_a_report_in_every_output(tmp_path):
    (tmp_path / "casino-audit.yaml").write_text("fail_on: sometimes\n")
    code, report, outputs = all_formats(tmp_path, str(EXAMPLES / "lu/machine-compliant.yaml"), cwd=tmp_path)
    assert code == 2 and report["exit_code"] == 2
    assert_same_as_json(report, outputs)
    [run_] = sarif_document(outputs["sarif"])["runs"]
    assert run_["invocations"][0]["executionSuccessful"] is False
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in run_["results"]] \
        == [("CONFIG-INVALID", "casino-audit.yaml")]


def test_github_actions_gets_annotations_unless_a_format_is_named(tmp_path):
    done = run("check", "examples/lu/machine-rtp-below-85.yaml", env={"GITHUB_ACTIONS": "true"})
    assert done.returncode == 1
    annotations = github_annotations(done.stdout)
    assert ("error", {"file": "examples/lu/machine-rtp-below-85.yaml", "line": "25", "col": "1",
                      "title": "LU-SLOT-RTP-MIN"}) in [(c, p) for c, p, _ in annotations]
    assert done.stdout.splitlines()[-1].startswith("casino-audit: FAILED")
    named = run("check", "examples/lu/machine-rtp-below-85.yaml", "--format", "json", env={"GITHUB_ACTIONS": "true"})
    assert json.loads(named.stdout)["failed"] is True  # json, and nothing else
    elsewhere = run("check", "examples/lu/machine-rtp-below-85.yaml", env={"GITHUB_ACTIONS": "false"})
    assert "FAILED" in elsewhere.stdout and "::error" not in elsewhere.stdout  # rich, as before
    to_file = run("check", "examples/lu/machine-rtp-below-85.yaml", "-o", str(tmp_path / "report.txt"))
    assert to_file.stdout == "" and "LU-SLOT-RTP-MIN" in (tmp_path / "report.txt").read_text()  # one format: as before


def test_github_escapes_data_and_properties_as_the_runner_requires():
    from casino_audit.report.github_report import annotation, escape_data, escape_property

    assert escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert annotation("warning", "two\nlines", "T,1:2", "d/f,g.yaml", 3, None) == \
        "::warning file=d/f%2Cg.yaml,line=3,title=T%2C1%3A2::two%0Alines"
    assert annotation("notice", "m", "T") == "::notice title=T::m"


def test_a_finding_written_fast_is_written_as_json_dumps_writes_it():
    from hypothesis import given, settings, strategies as st

    from casino_audit.report.json_report import finding_dict, finding_json

    texts = st.text(max_size=12)
    optional = st.none() | texts
    citations = st.none() | st.builds(Citation, texts, texts, texts, texts)
    relateds = st.lists(st.builds(Related, texts, st.builds(Location, optional, st.none() | st.integers(1, 9))),
                        max_size=2)
    suppressions = st.none() | st.builds(Suppression, st.sampled_from(["waiver", "baseline"]), texts, optional)
    findings = st.builds(Finding, texts, st.sampled_from(list(Severity)), texts, optional,
                         st.none() | st.integers(1, 99), st.none() | st.integers(1, 99), optional,
                         st.none() | st.integers(0, 3), optional, citations, relateds.map(tuple), suppressions)

    @settings(max_examples=300, deadline=None)
    @given(st.lists(findings, min_size=1, max_size=4), st.data())
    def written_alike(some, data):
        # Findings of one rule differ in all but the rule's own fields: a second finding of the same rule (id,
        # severity, jurisdiction, citation) is written from what the first left in the cache.
        some.append(dataclasses.replace(some[0], **data.draw(st.fixed_dictionaries(
            {}, optional={"message": texts, "file": optional, "line": st.none() | st.integers(1, 99),
                          "pointer": optional, "document": st.none() | st.integers(0, 3)}))))
        # ... and a finding that differs from it in one of the rule's fields only is not written from its part.
        field, values = data.draw(st.sampled_from([("rule_id", texts), ("severity", st.sampled_from(list(Severity))),
                                                   ("jurisdiction", optional), ("citation", citations)]))
        some.append(dataclasses.replace(some[0], **{field: data.draw(values)}))
        cache: dict = {}
        for finding in some + some:  # the second time, every rule's part from the cache
            assert finding_json(finding, cache) == json.dumps(finding_dict(finding), ensure_ascii=False)

    written_alike()


def _report(tmp_path, *args):
    done = run_in_process("check", *args, "--format", "json", cwd=tmp_path)
    return done, json.loads(done.stdout)


def test_report_names_only_the_rulesets_the_run_used(tmp_path):
    """A run over one Luxembourg machine names LU, MC and PT as 'rulesets in use' (with their files and hashes):
    settings.param_values iterates `rulesets.items()`, which reads every built-in ruleset, so the lazy loading
    (settings.Rulesets, provenance.in_use 'only those the run read') never applies and the report's provenance
    claims rulesets that judged nothing. Cause: casino_audit/run/settings.py param_values."""
    from helpers.command import EXAMPLES
    done, report = _report(tmp_path, str(EXAMPLES / "lu" / "machine-compliant.yaml"))
    assert [r["jurisdiction"] for r in report["rulesets"]] == ["LU"]
