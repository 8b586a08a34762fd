"""A house ruleset's `jurisdiction.time_zones` may only narrow the zones of the ruleset it extends (the law's tables
are where they are): one extending LU that added Europe/Moscow let a log declare `timezone: Europe/Moscow`, and
an LU stud maximum raised at 23:00+01:00 at a second session of the same Luxembourg day (Art. 37-8: not before
the next day's session) read as a session of the next day: passed, exit 0, nothing said."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from casino_audit.law.model import RulesetError
from casino_audit.law.rulesets import load_ruleset
from helpers.command import REPO

BASE = REPO / "rulesets" / "cases" / "bases" / "lu" / "log-stud-poker.jsonl"


def _house(tmp_path: Path, zones: list[str], extends: str = "lu", code: str = "LU") -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(json.dumps({"ruleset": "house", "extends": extends, "rules": [],
                                "jurisdiction": {"code": code, "name": "house", "time_zones": zones}}), "utf-8")
    return path


def test_a_zone_the_law_has_no_table_in_is_refused(tmp_path):
    with pytest.raises(RulesetError) as refused:
        load_ruleset(_house(tmp_path, ["Europe/Luxembourg", "Europe/Moscow"]))
    assert any("Europe/Moscow" in str(p) and "Europe/Luxembourg" in str(p) for p in refused.value.problems)


def test_narrowing_the_zones_is_allowed(tmp_path):
    assert load_ruleset(_house(tmp_path, ["Atlantic/Madeira"], extends="pt", code="PT")).time_zones == \
        ("Atlantic/Madeira",)
    assert load_ruleset(_house(tmp_path, ["Europe/Luxembourg"])).time_zones == ("Europe/Luxembourg",)


def test_the_stud_maximum_raised_the_same_day_is_never_passed_under_a_house_zone(cli, tmp_path):
    records = [json.loads(line) for line in BASE.read_text("utf-8").splitlines()]
    for record in records[1:]:
        record["time"] += "+01:00"
    when = datetime(2026, 11, 2, 23, 0, 0)
    for record in records[8:]:  # a second session, the same Luxembourg evening
        record["session"], record["time"] = "S-002", when.isoformat() + "+01:00"
        when += timedelta(minutes=2)
    records[8]["limits"] = {"minimum": 5, "maximum": 150}
    records[0]["timezone"] = "Europe/Moscow"
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(record) + "\n" for record in records), "utf-8")
    done = cli("check", str(log), "--ruleset", str(_house(tmp_path, ["Europe/Luxembourg", "Europe/Moscow"])),
               "--param", "stud_poker_high_card_raise=push")
    assert done.returncode == 2 and "Europe/Moscow" in done.stdout + done.stderr
    plain = cli("check", str(log), "--param", "stud_poker_high_card_raise=push", "--format", "json")
    assert "LU-STUD-LOG-MAXIMUM-UNCHANGED" in {f["rule_id"] for f in json.loads(plain.stdout)["findings"]}
