"""Waivers, baselines and config discovery: what they cover is reported as such, never dropped, never silent."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from casino_audit.core.findings import Finding, Severity
from casino_audit.run.suppressions import Suppressor, Waiver, glob_pattern
from helpers.suppressions import EXAMPLES, Place, run_json

FUTURE, PAST = "2999-12-31", "2000-01-01"


@pytest.fixture
def cli(cli, tmp_path):
    return Place(cli, tmp_path)


@pytest.fixture
def dossier(tmp_path, cli):
    """A casino's dossier: a machine below 85 % and one with coins too small, in a git repository."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "filings" / "old").mkdir(parents=True)
    shutil.copy(EXAMPLES / "machine-rtp-below-85.yaml", root / "filings" / "rtp.yaml")
    shutil.copy(EXAMPLES / "machine-small-coins.yaml", root / "filings" / "old" / "coins.yaml")
    cli.cwd = root
    return root


def waiver(rule="LU-SLOT-RTP-MIN", files="filings/rtp.yaml", expires=FUTURE, pointer=None) -> str:
    return (f"  - rule: {rule}\n    files: {files!r}\n" + (f"    pointer: {pointer}\n" if pointer else "")
            + f"    justification: trial of a new game, dérogation of the Minister\n    granted_by: Ministère de la "
              f"Justice\n    reference: DEROG-2026-7\n    expires: {expires}\n")


def config(root: Path, *waivers: str, name="casino-audit.yaml") -> Path:
    path = root / name
    path.write_text("fail_on: error\nwaivers:\n" + "".join(waivers), encoding="utf-8")
    return path


def by_rule(report):
    # (a machine file without PAR data also says, as info, that its return was not computed from them)
    return {f["rule_id"]: f for f in report["findings"] if f["file"] and f["severity"] != "info"}


def test_a_waived_finding_is_reported_as_waived_and_does_not_fail(cli, dossier):
    config(dossier, waiver(), waiver("LU-SLOT-COIN-MIN", "filings/**/*.yaml"), waiver("LU-SLOT-TOKEN-MIN", "filings/**"))
    done, report = run_json(cli, "filings")
    found = by_rule(report)
    assert done.returncode == 0, done.stdout
    assert set(found) == {"LU-SLOT-RTP-MIN", "LU-SLOT-COIN-MIN", "LU-SLOT-TOKEN-MIN"}
    rtp = found["LU-SLOT-RTP-MIN"]["suppression"]
    assert rtp["kind"] == "waiver" and rtp["reference"] == "DEROG-2026-7" and rtp["expires"] == FUTURE
    assert rtp["source"] == "casino-audit.yaml:3"
    assert report["summary"]["waived"] == 3 and report["summary"]["errors"] == 0
    assert {s["name"]: s["source"] for s in report["settings"]}["config"] == "found upward from the working directory"
    assert any(s["name"] == "waivers" for s in report["settings"])
    rich = cli("check", "filings", "--no-color")
    assert "waived" in rich.stdout and "DEROG-2026-7" in rich.stdout and "3 waived, not counted" in rich.stdout


def test_a_waiver_covers_only_its_rule_files_and_pointer(cli, dossier):
    config(dossier, waiver(files="filings/*.yaml"),  # * stays in one directory: old/coins.yaml is not covered
           waiver("LU-SLOT-COIN-MIN", "filings/*.yaml"),
           waiver("LU-SLOT-TOKEN-MIN", "filings/**", pointer="/coin_acceptor/coin_denominations_eur"))
    done, report = run_json(cli, "filings")
    found = by_rule(report)
    assert done.returncode == 1
    assert found["LU-SLOT-RTP-MIN"]["suppression"]["kind"] == "waiver"
    assert found["LU-SLOT-COIN-MIN"]["suppression"] is None
    assert found["LU-SLOT-TOKEN-MIN"]["suppression"] is None  # its pointer is /coin_acceptor/token_value_eur
    unused = [f for f in report["findings"] if f["rule_id"] == "WAIVER-UNUSED"]
    assert [(f["file"], f["line"], f["pointer"]) for f in unused] == [
        ("casino-audit.yaml", 9, "/waivers/1"), ("casino-audit.yaml", 15, "/waivers/2")]
    assert report["summary"]["waived"] == 1 and report["summary"]["errors"] == 2


def test_an_expired_waiver_is_a_finding_and_covers_nothing(cli, dossier):
    config(dossier, waiver(expires=PAST))
    done, report = run_json(cli, "filings/rtp.yaml")
    assert done.returncode == 1
    found = by_rule(report)
    assert found["LU-SLOT-RTP-MIN"]["suppression"] is None
    expired = found["WAIVER-EXPIRED"]
    assert (expired["file"], expired["line"], expired["severity"]) == ("casino-audit.yaml", 3, "error")
    assert "expired on 2000-01-01" in expired["message"]


@pytest.mark.parametrize("rule, said", [
    ("LOAD-SYNTAX", "tool's own findings"), ("LOG-NUMBERING", "tool's own findings"),
    ("LU-SLOT", "names no rule"), ("LU-SLOT-RTP-MINIMUM", "names no rule")])
def test_a_waiver_names_one_law_rule_exactly(cli, dossier, rule, said):
    config(dossier, waiver(rule))
    done = cli("check", "filings")
    assert done.returncode == 2 and said in done.stderr and "casino-audit.yaml:3" in done.stderr


@pytest.mark.parametrize("entry, said", [
    ("  - rule: LU-SLOT-RTP-MIN\n    files: '*'\n    justification: x\n    granted_by: y\n    reference: z\n",
     "expires"),
    (waiver(expires="2026-02-30"), "not a date"),
    (waiver() + "    scope: everything\n", "scope"),
])
def test_an_incomplete_or_misspelt_waiver_is_refused(cli, dossier, entry, said):
    config(dossier, entry)
    done = cli("check", "filings")
    assert done.returncode == 2 and said in done.stderr


def test_waivers_are_capped_and_counted_apart_in_a_log(cli, tmp_path):
    log = tmp_path / "log.jsonl"
    assert cli("sample-log", "punto_banco", "-j", "LU", "--coups", "300",
               "--param", "punto_banco_minimum_multiple_eur=20", "-o", str(log)).returncode == 0
    # Checked against multiples of 30, most of its stakes (multiples of 20) breach: one rule, many findings.
    base = ["log.jsonl", "--param", "punto_banco_minimum_multiple_eur=30", "--max-per-rule", "1"]
    _, plain = run_json(cli, *base)
    rules = {f["rule_id"] for f in plain["findings"] if f["file"]}
    assert rules, plain["findings"]
    rule = sorted(rules)[0]
    total = next(o["total"] for o in plain["omitted"] if o["rule_id"] == rule)
    config(tmp_path, waiver(rule, "*.jsonl"))
    _, waived = run_json(cli, *base)
    shown = [f for f in waived["findings"] if f["rule_id"] == rule]
    assert len(shown) == 1 and shown[0]["suppression"]["kind"] == "waiver"
    assert [o["total"] for o in waived["omitted"] if o["rule_id"] == rule and o["suppression"] == "waiver"] == [total]
    assert waived["summary"]["waived"] == total
    assert waived["summary"]["errors"] == plain["summary"]["errors"] - total


def test_baseline_keeps_old_findings_out_of_the_verdict_and_fails_on_new_ones(cli, dossier):
    done = cli("check", "filings", "--write-baseline", ".casino-audit-baseline.json")
    assert done.returncode == 1  # the run that writes the baseline reports as usual
    baseline = json.loads((dossier / ".casino-audit-baseline.json").read_text())
    # three breaches, and the two files' info that their PAR data are not given
    assert baseline["format"] == "casino-audit-baseline" and len(baseline["findings"]) == 5
    assert {e["file"] for e in baseline["findings"]} == {"filings/rtp.yaml", "filings/old/coins.yaml"}

    done, report = run_json(cli, "filings", "--baseline", ".casino-audit-baseline.json")
    assert done.returncode == 0 and report["summary"]["baselined"] == 5 and report["summary"]["errors"] == 0
    assert all(f["suppression"]["kind"] == "baseline" for f in report["findings"] if f["file"])

    # An edit above the breach moves its line, not its pointer: still baselined.
    rtp = dossier / "filings" / "rtp.yaml"
    rtp.write_text("# reviewed 2026-11-30\n# by the compliance office\n" + rtp.read_text())
    done, report = run_json(cli, "filings", "--baseline", ".casino-audit-baseline.json")
    assert done.returncode == 0 and report["summary"]["baselined"] == 5

    # A new breach fails, alone.
    shutil.copy(EXAMPLES / "machine-rtp-below-85.yaml", dossier / "filings" / "new.yaml")
    done, report = run_json(cli, "filings", "--baseline", ".casino-audit-baseline.json")
    assert done.returncode == 1 and report["summary"]["errors"] == 1
    [new] = [f for f in report["findings"] if f["file"] and f["suppression"] is None and f["severity"] == "error"]
    assert new["file"] == "filings/new.yaml"


def test_a_baseline_in_the_tree_checked_is_set_aside(cli, dossier):
    assert cli("check", ".", "--write-baseline", "baseline.json").returncode == 1
    done, report = run_json(cli, ".", "--baseline", "baseline.json")
    assert done.returncode == 0
    assert {f["path"]: f["reason"] for f in report["files"]}["baseline.json"].startswith("the baseline file")


@pytest.mark.parametrize("text, said", [
    ("not json", "not JSON"), ('{"format": "other", "findings": []}', "not a casino-audit baseline"),
    ('{"format": "casino-audit-baseline", "version": 9, "findings": []}', "version 9"),
    ('{"format": "casino-audit-baseline", "version": 1, "findings": [{"file": "x"}]}', "findings[0]")])
def test_a_baseline_that_cannot_be_read_is_a_usage_error(cli, dossier, text, said):
    (dossier / "b.json").write_text(text)
    done = cli("check", "filings", "--baseline", "b.json")
    assert done.returncode == 2 and said in done.stderr


def test_tool_findings_are_never_baselined(cli, dossier):
    (dossier / "filings" / "broken.yaml").write_text("kind: machine\njurisdiction: [\n")
    cli("check", "filings", "--write-baseline", "b.json")
    assert "LOAD-SYNTAX" not in (dossier / "b.json").read_text()
    done, report = run_json(cli, "filings", "--baseline", "b.json")
    assert done.returncode == 1 and by_rule(report)["LOAD-SYNTAX"]["suppression"] is None


# --- config discovery -------------------------------------------------------------------------------------------

def test_config_is_found_upward_and_stops_at_the_repository_root(cli, dossier):
    (dossier.parent / "casino-audit.yaml").write_text("fail_on: never\n")  # above the repository: not used
    cli.cwd = dossier / "filings" / "old"
    done, report = run_json(cli, "coins.yaml")
    assert done.returncode == 1 and not any(s["name"] == "config" for s in report["settings"])
    (dossier / ".casino-audit.yaml").write_text("fail_on: never\n")
    done, report = run_json(cli, "coins.yaml")
    assert done.returncode == 0
    assert {s["name"]: s["value"] for s in report["settings"]}["config"] == "../../.casino-audit.yaml"


def test_pyproject_table_is_a_config(cli, dossier):
    (dossier / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.casino-audit]\nfail_on = "never"\n')
    done, report = run_json(cli, "filings")
    assert done.returncode == 0 and {s["name"]: s["value"] for s in report["settings"]}["config"] == "pyproject.toml"
    (dossier / "pyproject.toml").write_text('[tool.casino-audit]\nfail-on = "never"\n')  # misspelt: refused
    done = cli("check", "filings")
    assert done.returncode == 2 and "fail-on" in done.stderr and "pyproject.toml:1" in done.stderr


def test_a_pyproject_without_the_table_is_not_a_config(cli, dossier):
    (dossier / "pyproject.toml").write_text('[project]\nname = "casino-audit-filings"\n')
    done, report = run_json(cli, "filings")
    assert done.returncode == 1 and not any(s["name"] == "config" for s in report["settings"])


def test_two_configs_in_one_directory_are_ambiguous(cli, dossier):
    (dossier / "casino-audit.yaml").write_text("fail_on: never\n")
    (dossier / ".casino-audit.yaml").write_text("fail_on: error\n")
    done = cli("check", "filings")
    assert done.returncode == 2 and "ambiguous" in done.stderr


def test_option_config_wins_over_discovery(cli, dossier, tmp_path):
    (dossier / "casino-audit.yaml").write_text("fail_on: never\n")
    other = tmp_path / "strict.yaml"
    other.write_text("fail_on: error\n")
    done, report = run_json(cli, "filings", "--config", str(other))
    assert done.returncode == 1
    assert {s["name"]: s["source"] for s in report["settings"]}["config"] == "option --config"


# --- the matcher alone ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("glob, path, matches", [
    ("filings/*.yaml", "filings/a.yaml", True), ("filings/*.yaml", "filings/old/a.yaml", False),
    ("filings/**/*.yaml", "filings/a.yaml", True), ("filings/**/*.yaml", "filings/x/y/a.yaml", True),
    ("filings/**", "filings/x/y/a.yaml", True), ("*.yaml", "a.yml", False), ("a?.yaml", "ab.yaml", True),
    ("a?.yaml", "a/.yaml", False), ("f[1].yaml", "f[1].yaml", True), ("f[1].yaml", "f1.yaml", False)])
def test_glob(glob, path, matches):
    assert bool(glob_pattern(glob).match(path)) is matches


@given(st.text(alphabet="ab/.", max_size=12))
def test_a_glob_without_wildcards_matches_only_itself(text):
    assert glob_pattern(text).match(text) and not glob_pattern(text).match(text + "x")


def test_the_waiver_applies_through_its_last_day(tmp_path):
    def finding():
        return Finding("LU-X", Severity.ERROR, "m", str(tmp_path / "a.yaml"), 1, 1, "/a")

    last = Waiver("LU-X", "*.yaml", None, "j", "g", "r", date(2026, 11, 30), str(tmp_path / "c.yaml"), 1, 1, "/waivers/0")
    assert Suppressor([last], date(2026, 11, 30)).match(finding()) is not None
    late = Suppressor([last], date(2026, 12, 1))
    assert late.match(finding()) is None and [f.rule_id for f in late.findings()] == ["WAIVER-EXPIRED"]
