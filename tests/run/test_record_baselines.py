"""Baselines and waivers name a log's records by what they are, not by where they sit in the file: a game log's
table, coup number and time, a meter log's machine and reading time (identities.record_identity). Day 2's log filed
under day 1's name is not baselined by day 1's baseline; a waiver naming coup 5 covers coup 5 and nothing else.
Baselines of versions 1 and 2 are still read as they were written (by the record's place), and the report says so.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from helpers.command import EXAMPLES

ZERO = ("--param", "roulette_zero_rule=lose")
SETTLED = "LU-ROUL-LOG-SETTLEMENT"


def _roulette_log(directory: Path, day: int = 2, coups: int = 6, breaches=(5, 6), name: str = "log.jsonl",
                  first: int = 1) -> Path:
    """A LU roulette log of `coups` coups on 2026-11-`day`, one bet each; the coups in `breaches` pay noir 7 for 5
    (the law pays 5), each the same breach in the same words."""
    shutil.copy(EXAMPLES / "lu" / "table-roulette.yaml", directory / "table-roulette.yaml")
    header = {"kind": "game-log", "jurisdiction": "LU", "game": "roulette", "casino": "Casino 2000 Mondorf-les-Bains",
              "table": "R1", "table_config": "table-roulette.yaml"}
    if first > 1:
        header.update(first_coup=first)
    lines = [header]
    for coup in range(first, first + coups):
        lines.append({"coup": coup, "time": f"2026-11-{day:02d}T21:{coup:02d}:05", "session": f"2026-11-{day:02d}",
                      "staff": {"croupier": "C-3", "spinner": "C-7"}, "number": 17,
                      "bets": [{"seat": 1, "chance": "noir", "stake": 5, "net": 7 if coup in breaches else 5}]})
    path = directory / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _check(cli, target, *options) -> dict:
    done = cli("check", str(target), *ZERO, "--format", "json", *options)
    assert done.returncode in (0, 1), done
    return json.loads(done.stdout)


def _places(report: dict, rule: str = SETTLED) -> Counter:
    return Counter((f["document"], f["pointer"], f["message"], (f["suppression"] or {}).get("kind"))
                   for f in report["findings"] if f["rule_id"] == rule)


def test_day_two_under_day_ones_name_is_not_baselined(cli, tmp_path):
    log = _roulette_log(tmp_path, day=1)
    baseline = tmp_path / "baseline.json"
    _check(cli, log, "--write-baseline", str(baseline))
    same = _check(cli, log, "--baseline", str(baseline))
    assert same["summary"]["baselined"] == 2 and same["summary"]["errors"] == 0
    entries = json.loads(baseline.read_text())["findings"]
    assert {json.dumps(e.get("record"), sort_keys=True) for e in entries if e["rule_id"] == SETTLED} == {
        json.dumps({"coup": coup, "table": "R1", "time": f"2026-11-01T21:{coup:02d}:05"}, sort_keys=True)
        for coup in (5, 6)}
    _roulette_log(tmp_path, day=2)  # the next day's log, filed under the same name
    day_two = _check(cli, log, "--baseline", str(baseline))
    # the same breach at the same place in words alike: day 1's entries, were they keyed by place, would match
    assert {(d, p, m) for d, p, m, _ in _places(same)} == {(d, p, m) for d, p, m, _ in _places(day_two)}
    assert day_two["summary"]["baselined"] == 0 and day_two["summary"]["errors"] == 2


def test_a_baselined_coup_stays_baselined_when_coups_come_before_it(cli, tmp_path):
    log = _roulette_log(tmp_path, coups=6, breaches=(6,))
    baseline = tmp_path / "baseline.json"
    _check(cli, log, "--write-baseline", str(baseline))
    lines = log.read_text().splitlines(keepends=True)
    log.write_text(lines[0] + "\n" + "".join(lines[1:]))  # a blank line: every coup one line down, same records
    report = _check(cli, log, "--baseline", str(baseline))
    assert report["summary"]["baselined"] == 1 and report["summary"]["errors"] == 0


def test_a_waiver_naming_coup_5_does_not_waive_coup_6(cli, tmp_path):
    _roulette_log(tmp_path)
    (tmp_path / "casino-audit.yaml").write_text(
        "waivers:\n  - rule: LU-ROUL-LOG-SETTLEMENT\n    files: log.jsonl\n    coup: 5\n"
        "    justification: a dispute settled by the inspector\n    granted_by: Ministère des Finances\n"
        "    reference: D-2026-5\n    expires: 2099-12-31\n", encoding="utf-8")
    report = json.loads(cli("check", "log.jsonl", *ZERO, "--format", "json", cwd=tmp_path).stdout)
    found = {(f["pointer"], f["line"]): (f["suppression"] or {}).get("kind") for f in report["findings"]
             if f["rule_id"] == SETTLED}
    assert found == {("/bets/0/net", 6): "waiver", ("/bets/0/net", 7): None}  # coup 5 on line 6, coup 6 on line 7
    assert report["summary"]["waived"] == 1 and report["summary"]["errors"] == 1
    settings = {s["name"]: s["value"] for s in report["settings"]}
    assert "coup 5" in json.dumps(settings["waivers"])


def test_a_waiver_naming_a_record_covers_no_finding_of_the_header(cli, tmp_path):
    log = _roulette_log(tmp_path, breaches=())
    header, *coups = log.read_text().splitlines(keepends=True)
    log.write_text(json.dumps({**json.loads(header), "table_config": "missing.yaml"}) + "\n" + "".join(coups))
    (tmp_path / "casino-audit.yaml").write_text(
        "waivers:\n  - rule: LU-ROUL-LOG-SETTLEMENT\n    files: log.jsonl\n    coup: 1\n"
        "    justification: x\n    granted_by: y\n    reference: z\n    expires: 2099-12-31\n", encoding="utf-8")
    report = json.loads(cli("check", "log.jsonl", *ZERO, "--format", "json", cwd=tmp_path).stdout)
    said = [f for f in report["findings"] if f["rule_id"] == SETTLED]
    assert said and all(f["suppression"] is None for f in said)  # "not checked in this log", at the header
    assert any(f["rule_id"] == "WAIVER-UNUSED" and "coup 1" in f["message"] for f in report["findings"])


@pytest.mark.parametrize("value", ['"5"', "true", "[5]", "-x"])
def test_a_waivers_coup_is_a_whole_number(cli, tmp_path, value):
    _roulette_log(tmp_path)
    (tmp_path / "casino-audit.yaml").write_text(
        f"waivers:\n  - rule: LU-ROUL-LOG-SETTLEMENT\n    files: log.jsonl\n    coup: {value}\n"
        "    justification: x\n    granted_by: y\n    reference: z\n    expires: 2099-12-31\n", encoding="utf-8")
    done = cli("check", "log.jsonl", *ZERO, cwd=tmp_path)
    assert done.returncode == 2 and "coup" in done.stdout + done.stderr


def _meter_log(directory: Path, year: int) -> Path:
    for filed in (EXAMPLES / "lu").glob("machine-m-*.yaml"):  # each machine's homologation file, beside the log
        shutil.copy(filed, directory / filed.name)
    text = (EXAMPLES / "lu" / "meters-breaches.jsonl").read_text("utf-8").replace("2026-", f"{year}-")
    path = directory / "meters.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_meter_log_of_another_period_under_the_same_name_is_not_baselined(cli, tmp_path):
    log = _meter_log(tmp_path, 2026)
    baseline = tmp_path / "baseline.json"
    first = _check(cli, log, "--write-baseline", str(baseline))
    entries = json.loads(baseline.read_text())["findings"]
    assert all(set(e["record"]) == {"machine", "time"} for e in entries if e["document"] is None)
    assert any(e["document"] is None for e in entries)
    _meter_log(tmp_path, 2027)
    later = _check(cli, log, "--baseline", str(baseline))
    keys = lambda report: {(f["rule_id"], f["document"], f["pointer"], f["message"])  # noqa: E731
                           for f in report["findings"] if f["file"] and f["document"]}
    alike = keys(first) & keys(later)
    assert alike  # breaches in the same words at the same places: a baseline by place would take them
    assert not [f for f in later["findings"] if f["suppression"] is not None and f["document"]
                and (f["rule_id"], f["document"], f["pointer"], f["message"]) in alike]


def test_a_meter_waiver_names_a_machine_and_a_reading_time(cli, tmp_path):
    _meter_log(tmp_path, 2026)
    report = json.loads(cli("check", "meters.jsonl", "--format", "json", cwd=tmp_path).stdout)
    resets = [f for f in report["findings"] if f["rule_id"] == "LU-SLOT-LOG-COIN-IN-RESET"]
    assert len(resets) == 2  # machine M-005's two coin-in meters, one reading
    line = (tmp_path / "meters.jsonl").read_text().splitlines()[resets[0]["line"] - 1]
    reading = json.loads(line)
    for machine, waived in ((reading["machine"], 2), ("M-001", 0)):
        (tmp_path / "casino-audit.yaml").write_text(
            f"waivers:\n  - rule: LU-SLOT-LOG-COIN-IN-RESET\n    files: meters.jsonl\n    machine: {machine}\n"
            f"    time: '{reading['time']}'\n    justification: x\n    granted_by: y\n    reference: z\n"
            "    expires: 2099-12-31\n", encoding="utf-8")
        again = json.loads(cli("check", "meters.jsonl", "--format", "json", cwd=tmp_path).stdout)
        assert again["summary"]["waived"] == waived


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_baseline_is_read_by_place_as_it_was_and_said(cli, tmp_path, version):
    log = _roulette_log(tmp_path, day=1)
    report = _check(cli, log)
    entries = [{"file": "log.jsonl", "rule_id": f["rule_id"], "document": f["document"], "pointer": f["pointer"],
                **({"message": f["message"]} if version >= 2 else {}), "count": 1}
               for f in report["findings"] if f["rule_id"] == SETTLED]
    baseline = tmp_path / "old.json"
    baseline.write_text(json.dumps({"format": "casino-audit-baseline", "version": version, "findings": entries}))
    _roulette_log(tmp_path, day=2)
    later = _check(cli, log, "--baseline", str(baseline))
    assert later["summary"]["baselined"] == 2  # by place, as that version was written
    said = next(s for s in later["settings"] if s["name"] == "baseline")["value"]
    assert f"version {version}" in said and "place" in said


def test_a_records_identity_is_its_values_exactly_and_stays_small():
    from casino_audit.run.identities import record_identity

    game = {"kind": "game-log", "table": "R1"}
    assert record_identity(game, {"coup": 5, "time": "t"}) == (("coup", "5"), ("table", '"R1"'), ("time", '"t"'))
    assert record_identity(game, {"coup": "5", "time": "t"}) != record_identity(game, {"coup": 5, "time": "t"})
    assert record_identity({"kind": "meter-log"}, {"machine": "M-1", "time": "t", "coin_in_1": 3}) == \
        (("machine", '"M-1"'), ("time", '"t"'))
    long = record_identity(game, {"coup": 5, "time": "x" * 100_000})
    assert long == record_identity(game, {"coup": 5, "time": "x" * 100_000}) != \
        record_identity(game, {"coup": 5, "time": "x" * 99_999})
    assert len(repr(long)) < 400
    assert record_identity({"kind": "game-log"}, {"bets": []}) is None
    assert record_identity({"kind": "table"}, {"coup": 5}) is None
