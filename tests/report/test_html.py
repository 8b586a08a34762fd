"""The HTML report (`check --format html`): the same findings and counts as the JSON report, read back from its
rows; every text from a filing escaped and its control characters shown; waived findings apart; every rule
with its result; and, in headless Chromium, a page that renders every finding, screenshots and prints."""

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import replace
from datetime import datetime, timezone
from html.parser import HTMLParser
from pathlib import Path

import pytest

from casino_audit.core.display import printable
from casino_audit.core.findings import Suppression
from helpers.command import EXAMPLES, REPO

CHROMIUM_TIMEOUT = 120  # seconds for one launch: a hung browser fails the test, never the suite
FORBIDDEN_TAGS = {"script", "img", "link", "iframe", "object", "embed", "form", "input", "svg", "math", "base"}


class Report(HTMLParser):
    """What an HTML report says, read back: its elements with their attributes, each finding row with the visible
    text of its message and the part of the report it is in."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, list[str], dict]] = []
        self.findings: list[dict] = []
        self.text: list[str] = []
        self._part = None
        self._message = None
        self.feed(page)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        self.elements.append((tag, classes, attributes))
        if tag == "section" and "part" in classes:
            self._part = attributes.get("id")
        if tag == "tr" and "finding" in classes:
            self.findings.append({**attributes, "part": self._part, "message": ""})
        if tag == "p" and "message" in classes:
            self._message = self.findings[-1]

    def handle_endtag(self, tag):
        if tag == "p":
            self._message = None

    def handle_data(self, data):
        self.text.append(data)
        if self._message is not None:
            self._message["message"] += data

    def having(self, cls: str) -> list[dict]:
        return [attributes for _, classes, attributes in self.elements if cls in classes]

    def by_id(self, element_id: str) -> dict:
        [found] = [attributes for _, _, attributes in self.elements if attributes.get("id") == element_id]
        return found


def shown(value):
    """A value as the HTML's data attributes carry it: printable text, None left out."""
    return None if value is None else printable(value)


def json_and_html(cli, *args):
    done_json = cli("check", *args, "--format", "json")
    done_html = cli("check", *args, "--format", "html")
    assert done_json.returncode == done_html.returncode, done_html.stderr
    return json.loads(done_json.stdout), done_html.stdout


def finding_key(finding: dict) -> tuple:
    """A finding of the JSON report, as the HTML report's row carries it."""
    suppression = finding["suppression"]
    return tuple(shown(value) for value in (
        finding["rule_id"], finding["severity"], finding["file"], finding["line"], finding["column"],
        finding["pointer"], finding["document"], finding["jurisdiction"],
        suppression["kind"] if suppression else None, finding["message"]))


def row_key(row: dict) -> tuple:
    return tuple(row.get(f"data-{name}") for name in (
        "rule-id", "severity", "file", "line", "column", "pointer", "document", "jurisdiction",
        "suppression")) + (row["message"],)


def rule_totals(report: dict) -> Counter:
    """Findings counted per rule in the JSON report: those listed, and past --max-per-rule, the total."""
    omitted = {(o["file"], o["rule_id"]): o["total"] for o in report["omitted"]}
    counts = Counter(f["rule_id"] for f in report["findings"]
                     if f["suppression"] is None and (f["file"], f["rule_id"]) not in omitted)
    for (_, rule_id), total in omitted.items():
        counts[rule_id] += total
    return counts


def assert_same_as_json(report: dict, page: str) -> Report:
    html = Report(page)
    assert sorted(map(row_key, html.findings)) == sorted(map(finding_key, report["findings"]))
    assert Counter(row["part"] for row in html.findings) == Counter(
        "suppressed" if f["suppression"] else "findings" for f in report["findings"])
    summary = html.by_id("summary")
    assert {key[len("data-summary-"):].replace("-", "_"): value for key, value in summary.items()
            if key.startswith("data-summary-")} == {key: str(value) for key, value in report["summary"].items()}
    verdict = html.by_id("verdict")
    assert verdict["data-verdict"] == ("failed" if report["failed"] else "passed")
    assert verdict["data-exit-code"] == str(report["exit_code"])
    assert verdict["data-fail-on"] == report["fail_on"]
    assert sorted((o["data-file"], o["data-rule-id"], o["data-shown"], o["data-total"])
                  for o in html.having("omitted")) == sorted(
        (shown(o["file"]), o["rule_id"], str(o["shown"]), str(o["total"])) for o in report["omitted"])
    assert [(f.get("data-path"), f.get("data-status"), f.get("data-documents"), f.get("data-reason"))
            for f in html.having("file-record")] == [
        (shown(f["path"]), f["status"], str(f["documents"]), shown(f["reason"])) for f in report["files"]]
    # Every rule of the rulesets in use, with its result: a failed rule's count is the JSON report's count; a rule
    # with a finding never passes; a rule not applied for want of a parameter says so.
    totals = rule_totals(report)
    rules = html.having("rule-result")
    assert len(rules) == sum(r["rules"] for r in report["rulesets"])
    for rule in rules:
        rule_id, result = rule["data-rule-id"], rule["data-result"]
        if result == "failed":
            assert int(rule["data-count"]) == totals[rule_id] > 0, rule_id
        elif result == "passed":
            assert totals[rule_id] == 0 and rule["data-count"] == "0", rule_id
        else:
            assert result == "not-applied", rule
    not_applied = {r["data-rule-id"] for r in rules if r["data-result"] == "not-applied"}
    assert set(report["not_applied"]) <= not_applied
    return html


@pytest.mark.parametrize("options", [(), ("--max-per-rule", "1")], ids=["default", "max-per-rule-1"])
def test_same_findings_and_counts_as_the_json_report(cli, options):
    report, page = json_and_html(cli, "examples", *options)
    if options:  # the cap is what is tested: findings counted past it, said per file
        assert report["omitted"] and report["summary"]["findings_omitted"]
    html = assert_same_as_json(report, page)
    results = Counter(rule["data-result"] for rule in html.having("rule-result"))
    assert results["passed"] and results["failed"] and results["not-applied"]
    assert "FAILED" in page and "casino-audit" in page


def test_every_rule_has_its_result(cli, tmp_path):
    """A compliant machine: its rules pass; table and log rules were applied to nothing; an ignored rule and a
    rule wanting a parameter say why they were not applied; a machine below the floor fails the floor rule."""
    (tmp_path / "ok.yaml").write_text((EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8"), "utf-8")
    report, page = json_and_html(cli, str(tmp_path), "--ignore", "LU-SLOT-METER-COIN-IN")
    html = assert_same_as_json(report, page)
    results = {rule["data-rule-id"]: rule for rule in html.having("rule-result")}
    assert results["LU-SLOT-RTP-MIN"]["data-result"] == "passed"
    assert results["LU-SLOT-METER-COIN-IN"]["data-result"] == "not-applied"
    assert results["LU-SLOT-STAKE-MIN-ORDER"]["data-result"] == "not-applied"  # slot_stake_minimum_eur not given
    assert results["LU-ROUL-POCKETS"]["data-result"] == "not-applied"
    text = "".join(html.text)
    assert "left out by --select / --ignore" in text and "no value for slot_stake_minimum_eur" in text
    assert "no document of the run it applies to: it applies to table documents for roulette" in text
    assert "Casino 2000 Mondorf-les-Bains" in text  # who filed, from filing.applicant

    (tmp_path / "low.yaml").write_text((EXAMPLES / "lu/machine-rtp-below-85.yaml").read_text("utf-8"), "utf-8")
    report, page = json_and_html(cli, str(tmp_path))
    results = {rule["data-rule-id"]: rule for rule in assert_same_as_json(report, page).having("rule-result")}
    assert (results["LU-SLOT-RTP-MIN"]["data-result"], results["LU-SLOT-RTP-MIN"]["data-count"]) == ("failed", "1")


def test_filing_text_is_escaped_and_control_characters_shown(cli, tmp_path):
    hostile = '<script>alert("x")</script> & \'Co\' <b> \x1b[2J \u202e'
    name = tmp_path / 'a<b>&"c.yaml'
    document = (EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8")
    document = document.replace("applicant: Casino 2000 Mondorf-les-Bains", f"applicant: {json.dumps(hostile)}")
    document = document.replace("redistribution_rate: 92.5 %", 'redistribution_rate: "<i>80</i> % \\e[2J \\u202e"')
    document += '"<img src=x onerror=alert(1)>": 1\n'
    name.write_text(document, "utf-8")
    report, page = json_and_html(cli, str(name))
    html = assert_same_as_json(report, page)
    tags = {tag for tag, _, _ in html.elements}
    assert not tags & FORBIDDEN_TAGS and "b" not in tags and "i" not in tags
    assert not [attributes for _, _, attributes in html.elements for key in attributes if key.startswith("on")]
    assert "<script>" not in page and "<img" not in page and "\x1b" not in page and "\u202e" not in page
    text = "".join(html.text)
    assert printable(hostile) in text  # shown as written, as text, the controls as their codes
    assert "<img src=x onerror=alert(1)>" in text
    assert 'a<b>&"c.yaml' in text
    controls = re.findall(r'<span class="ctl"[^>]*>([^<]*)</span>', page)
    assert "\\x1b" in controls and "\\u202e" in controls
    assert {row.get("data-file") for row in html.findings} == {str(name), None}  # None: the run's own


def test_waived_and_baselined_findings_are_shown_apart():
    """Findings carrying a suppression are listed with their waiver or baseline entry, apart from those that
    count, and never counted as a rule's failures."""
    from casino_audit.law.engine import Checker
    from casino_audit.run.pipeline import run
    from casino_audit.report import ReportContext, html_report
    from casino_audit.law.provenance import in_use
    from casino_audit.core.findings import Severity
    from casino_audit.law.rulesets import load_builtin

    rulesets = {"LU": load_builtin("lu")}
    checker = Checker(rulesets)
    result = run([str(EXAMPLES / "lu/machine-devices-locks.yaml")], checker)
    assert len(result.findings) >= 3
    waiver = Suppression("waiver", 'Door light <replaced> on 2026-11-01 & "tested"', "Ministère des Finances",
                         "DER-2026-12", "2027-06-30", "waivers.yaml:4")
    baseline = Suppression("baseline", "accepted at the 2025 inspection", source="baseline.json:2")
    first, second = result.findings[0], result.findings[1]
    result.findings[0], result.findings[1] = replace(first, suppression=waiver), replace(second, suppression=baseline)
    result.suppressed.update(["waiver", "baseline"])
    result.totals[first.severity] -= 1
    result.totals[second.severity] -= 1
    context = ReportContext(Severity.ERROR, in_use(rulesets, None, checker.used))
    page = html_report.render(result, context, datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc))
    html = Report(page)
    parts = {row["data-rule-id"]: row for row in html.findings}
    assert parts[first.rule_id]["part"] == parts[second.rule_id]["part"] == "suppressed"
    assert parts[first.rule_id]["data-suppression"] == "waiver"
    assert {row["part"] for row in html.findings if row["data-rule-id"] not in (first.rule_id, second.rule_id)} == {
        "findings"}
    text = "".join(html.text)
    for words in ('Door light <replaced> on 2026-11-01 & "tested"', "Ministère des Finances", "DER-2026-12",
                  "2027-06-30", "waivers.yaml:4", "accepted at the 2025 inspection"):
        assert words in text
    summary = html.by_id("summary")
    assert (summary["data-summary-waived"], summary["data-summary-baselined"]) == ("1", "1")
    rules = {rule["data-rule-id"]: rule for rule in html.having("rule-result")}
    assert rules[first.rule_id]["data-suppressed"] == "1"
    assert rules[first.rule_id]["data-count"] == str(sum(1 for f in result.findings if f.rule_id == first.rule_id
                                                         and f.suppression is None))
    assert "2026-11-30 12:00 UTC" in text


def test_header_documents_not_checked_and_settings(cli, tmp_path):
    (tmp_path / "broken.yaml").write_text("kind: machine\njurisdiction: [LU\n", "utf-8")
    (tmp_path / "elsewhere.yaml").write_text("kind: machine\njurisdiction: XX\n", "utf-8")
    (tmp_path / "listed.yaml").write_text("kind: machine\njurisdiction: [LU]\n", "utf-8")
    (tmp_path / "notes.txt").write_text("not a filing\n", "utf-8")
    table = (EXAMPLES / "lu/table-roulette.yaml").read_text("utf-8")
    (tmp_path / "table.yaml").write_text(table, "utf-8")
    report, page = json_and_html(cli, str(tmp_path), "--fail-on", "warning", "--param",
                                 "roulette_stake_minimum_eur=5")
    html = assert_same_as_json(report, page)
    text = "".join(html.text)
    not_checked = {row["data-path"]: row["data-status"] for row in html.having("not-checked-file")}
    assert not_checked == {str(tmp_path / "broken.yaml"): "unreadable", str(tmp_path / "notes.txt"): "skipped"}
    # an unreadable file is said once, in the files table; a document that reached no ruleset is listed
    assert {row["data-file"] for row in html.having("not-checked-document")} == {
        str(tmp_path / "elsewhere.yaml"), str(tmp_path / "listed.yaml")}
    settings = {row["data-name"] for row in html.having("setting")}
    assert {"fail_on", "params"} <= settings
    assert "option --fail-on" in text and "roulette_stake_minimum_eur=5" in text
    assert "Luxembourg (LU)" in text and "Règlement grand-ducal du 8 mars 2002" in text
    hashes = [row["data-sha256"] for row in html.having("ruleset-file")]
    assert hashes == [used["files"][0]["sha256"] for used in report["rulesets"]] and all(
        re.fullmatch("[0-9a-f]{64}", h) for h in hashes)
    assert "Casino 2000 Mondorf-les-Bains" in text and "not stated" in text  # the table's filing.casino; the others
    assert "severity warning or above" in text


def test_a_house_ruleset_is_named_with_both_files_and_what_it_changes_in_the_law(cli, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("ruleset: house\nextends: lu\ninstruments:\n  policy: {title: House <policy>, language: en}\n"
                     "rules:\n  - id: LU-SLOT-RTP-MIN\n    title: house\n    severity: info\n"
                     "    applies_to: {kind: machine}\n"
                     '    check: {kind: value, target: /redistribution_rate, unit: percent, min: "85"}\n'
                     "    citation: {instrument: policy, article: HP-7 s. 2, text: house words}\n"
                     "    rationale: house\n", "utf-8")
    report, page = json_and_html(cli, "examples/lu/machine-rtp-below-85.yaml", "--ruleset", str(house))
    html = assert_same_as_json(report, page)
    assert [(row["data-ruleset"], row["data-name"], row["data-sha256"]) for row in html.having("ruleset-file")] == [
        ("house", f["name"], f["sha256"]) for f in report["rulesets"][0]["files"]]
    [change] = html.having("law-change")
    assert (change["data-rule-id"], change["data-change"]) == ("LU-SLOT-RTP-MIN", "severity lowered")
    text = "".join(html.text)
    assert "Art. 18-7, al. 3, RGD du 8 mars 2002 (error)" in text and "HP-7 s. 2" in text
    assert html.by_id("verdict")["data-verdict"] == "passed"  # the house rule made the breach an info


def test_multi_document_file_grouped_by_document(cli, tmp_path):
    names = ["machine-compliant", "machine-rtp-below-85", "machine-devices-locks", "machine-small-coins"]
    batch = tmp_path / "batch.yaml"
    batch.write_text("\n---\n".join((EXAMPLES / f"lu/{name}.yaml").read_text("utf-8") for name in names), "utf-8")
    report, page = json_and_html(cli, str(batch))
    html = assert_same_as_json(report, page)
    documents = {row["data-document"] for row in html.having("document") if "data-document" in row}
    assert documents == {str(f["document"]) for f in report["findings"] if f["file"]}
    assert documents == {"1", "2", "3"}  # the compliant first document has no finding
    for index in documents:
        assert f"Document {int(index) + 1} of 4" in page


def test_the_page_is_self_contained():
    page = _examples_page()
    report_page = Report(page)
    for tag, _, attributes in report_page.elements:
        assert tag not in FORBIDDEN_TAGS
        for key, value in attributes.items():
            assert not key.startswith("on")
            if key in ("href", "src", "action", "srcset", "poster"):
                assert value.startswith("#"), (tag, key, value)
    assert "url(" not in page and "@import" not in page and "http://" not in page and "https://" not in page


def _examples_page() -> str:
    from helpers.command import run_in_process

    return run_in_process("check", "examples", "--format", "html").stdout


# --- in a real browser ------------------------------------------------------------------------------------------

def _browser() -> str | None:
    return shutil.which("chromium")


def _chromium(*args: str, user_data: Path) -> subprocess.CompletedProcess:
    command = [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={user_data}", *args]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=CHROMIUM_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"chromium did not finish within {CHROMIUM_TIMEOUT} s: {' '.join(args)}")


PARTS = ("Findings by document", "Findings waived or baselined", "What was not checked, and why",
         "Settings in effect", "Rules applied and their results", "Files")


def pdf_outline(document: bytes) -> list[tuple[str, bytes]]:
    """(title, the object number of its page) of each entry of a Chromium PDF's outline (its headings)."""
    entries = []
    for match in re.finditer(rb"/Title\s*(\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f]*>)\s*/Dest\s*\[\s*(\d+)\s+0\s+R",
                             document):
        raw, page = match.groups()
        if raw.startswith(b"<"):
            title = bytes.fromhex(raw[1:-1].decode()).decode("utf-16" if raw[1:5].upper() == b"FEFF" else "latin-1")
        else:
            title = re.sub(rb"\\(.)", rb"\1", raw[1:-1]).decode("latin-1")
        entries.append((title, page))
    return entries


# Added to a copy of the report (the report itself has no script): marks each finding row, each "more findings"
# note and the verdict with whether the browser renders it (laid out, with a size, not hidden or transparent).
PROBE = """<script>
for (const el of document.querySelectorAll('tr.finding, p.omitted, #verdict, #summary')) {
  const box = el.getBoundingClientRect();
  const seen = el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}) && box.width > 0 &&
    box.height > 0 && box.left >= 0 && box.right <= document.documentElement.scrollWidth;
  el.setAttribute('data-rendered', seen ? 'yes' : 'no');
}
</script>"""


@pytest.mark.skipif(_browser() is None, reason="Chromium is not installed (`apt-get install chromium`; .ci/run "
                                              "installs it): the rendering of the HTML report is not checked")
def test_rendered_in_chromium_screenshot_pdf_and_every_finding_visible(tmp_path):
    from helpers.command import run_in_process

    artifacts = Path(os.environ["CASINO_AUDIT_ARTIFACTS"]) if os.environ.get("CASINO_AUDIT_ARTIFACTS") else tmp_path
    artifacts.mkdir(parents=True, exist_ok=True)
    page_path, png, pdf = (artifacts / "html-report.html", artifacts / "html-report.png",
                           artifacts / "html-report.pdf")
    for stale in (page_path, png, pdf):
        stale.unlink(missing_ok=True)
    report = json.loads(run_in_process("check", "examples", "--format", "json").stdout)
    done = run_in_process("check", "examples", "--format", "html", "-o", str(page_path), cwd=REPO)
    assert done.returncode == 1 and page_path.stat().st_size > 10_000, done.stderr

    with tempfile.TemporaryDirectory() as profile:  # one launch: the screenshot and the print
        _chromium(f"--screenshot={png}", "--window-size=1280,4000", "--no-pdf-header-footer",
                  "--generate-pdf-document-outline", f"--print-to-pdf={pdf}", page_path.as_uri(),
                  user_data=Path(profile))
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 100_000
    assert (int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")) == (1280, 4000)
    document = pdf.read_bytes()
    assert document.startswith(b"%PDF-")
    pages = len(re.findall(rb"/Type\s*/Page\b", document))
    assert pages > report["summary"]["files_with_findings"], pages
    # Printed, each part and each file's findings start a page: the PDF's outline (its headings) says where.
    outline = pdf_outline(document)
    files = [attributes["data-file"] for attributes in Report(page_path.read_text("utf-8")).having("file")
             if "data-file" in attributes]
    file_pages = [page for title, page in outline if re.sub(r"^file ", "", title, flags=re.I) in files]
    assert len(file_pages) == len(files) == report["summary"]["files_with_findings"]
    part_pages = [page for title, page in outline if title in PARTS]
    assert len(part_pages) == len(PARTS)
    assert len(set(file_pages)) == len(file_pages) and len(set(part_pages)) == len(part_pages)
    assert set(file_pages) & set(part_pages) == {file_pages[0]} == {part_pages[0]}  # the first file under its part

    probe = tmp_path / "probe.html"
    probe.write_text(page_path.read_text("utf-8").replace("</body>", PROBE + "</body>"), "utf-8")
    with tempfile.TemporaryDirectory() as profile:
        dom = _chromium("--dump-dom", probe.as_uri(), user_data=Path(profile)).stdout
    rendered = Report(dom)
    assert len(rendered.findings) == len(report["findings"]) > 100
    hidden = [row for row in rendered.findings if row.get("data-rendered") != "yes"]
    assert not hidden, hidden[:3]
    notes = rendered.having("omitted")
    assert all(note.get("data-rendered") == "yes" for note in notes)
    assert rendered.by_id("verdict")["data-rendered"] == rendered.by_id("summary")["data-rendered"] == "yes"
