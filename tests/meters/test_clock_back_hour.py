"""A meter log read through the night the clock goes back: a time without an offset in the repeated hour is read
as its second pass where that puts it after the machine's previous reading (it was refused as out of order).

docs/meter-logs.md: a reading's `time` is «When the meters were read, ISO 8601 (2026-01-31T06:00:00)»; a meter
log has no `timezone`, and its times are read on the jurisdiction's clock (Europe/Luxembourg): a time with no
offset is the wall time the floor's clock showed. The game-log doc says of the same clocks: «the coups' times
written without a UTC offset are read as local times there, the hour the clock goes back in October and all», and
a game log's coups written 02:10, 02:50, 02:20, 02:40 that night pass.

A machine read at 02:00, 02:45 (CEST), then 02:15 (CET, the hour repeated: 30 minutes later) and 03:00 is read
every hour at most, as its header's `reading_interval_hours: 1` asks. The tool says «read at 2026-10-25T02:15:00,
before its previous reading ... the reading is not used»: a LOG-TIME error on a legal log, and the reading is left
out of the machine's meters (a false flag, and a reading not checked).
"""

from __future__ import annotations

import json
import shutil

import pytest

from helpers.command import EXAMPLES, run_in_process


def _log(tmp_path, times: list[str]):
    shutil.copy(EXAMPLES / "lu" / "machine-m-001.yaml", tmp_path / "machine-m-001.yaml")
    header = {"kind": "meter-log", "jurisdiction": "LU", "casino": "C",
              "machines": {"M-001": {"machine": "machine-m-001.yaml"}}, "reading_interval_hours": 1,
              "denomination": "1.00", "period": {"from": "2026-10-25", "to": "2026-10-25"}}
    rows = [{"time": time, "machine": "M-001", "coin_in_1": 1_000_000 + n * 100, "coin_in_2": 1_000_000 + n * 100,
             "drop": 500 + n * 10, "coin_out": 900_000 + n * 90, "hand_paid_jackpots": 0,
             "games_played": 500_000 + n * 40} for n, time in enumerate(times)]
    path = tmp_path / "meters.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [header, *rows]), "utf-8")
    done = run_in_process("check", str(path), "--format", "json")
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)["findings"]


# 02:45 is CEST (+02:00), the 02:15 after it CET (+01:00): 30 minutes later
NIGHT = ["2026-10-25T00:00:00", "2026-10-25T01:00:00", "2026-10-25T02:00:00", "2026-10-25T02:45:00",
         "2026-10-25T02:15:00", "2026-10-25T03:00:00",
         *(f"2026-10-25T{hour:02d}:00:00" for hour in range(4, 24)), "2026-10-25T23:59:00"]


def test_the_same_night_written_with_its_offsets_is_clean(tmp_path):
    aware = [t + ("+02:00" if t < "2026-10-25T02:46" and n < 4 else "+01:00") for n, t in enumerate(NIGHT)]
    found = _log(tmp_path, aware)
    assert not [f for f in found if f["severity"] == "error"], found


def test_a_reading_in_the_hour_the_clock_goes_back_is_no_reading_out_of_order(tmp_path):
    found = _log(tmp_path, NIGHT)
    assert not [(f["rule_id"], f["line"], f["message"][:90]) for f in found
                if f["rule_id"] == "LOG-TIME" and f["severity"] == "error"]


def test_a_reading_before_the_previous_one_on_both_passes_is_still_out_of_order(tmp_path):
    # 02:50 (its second pass: CET), then 02:40: before it on either pass of the hour
    times = ["2026-10-25T02:00:00", "2026-10-25T02:30:00", "2026-10-25T02:50:00", "2026-10-25T02:10:00",
             "2026-10-25T02:05:00"]
    found = [(f["rule_id"], f["line"]) for f in _log(tmp_path, times) if f["rule_id"] == "LOG-TIME"]
    assert found == [("LOG-TIME", 6)], found


def test_a_time_in_the_hour_the_clock_skips_is_compared_as_written(tmp_path):
    # 02:30 on the night the clock goes forward is no time the clock shows: 03:00 is not read as before it
    times = ["2026-03-29T01:00:00", "2026-03-29T02:30:00", "2026-03-29T03:00:00"]
    assert not [f for f in _log(tmp_path, times) if f["rule_id"] == "LOG-TIME" and "before" in f["message"]]
