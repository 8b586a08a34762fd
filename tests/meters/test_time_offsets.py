"""A meter reading's UTC offset other than Luxembourg's moves a drop-box count into the month
before. The wall time written (01:00 on 1 February) is what the machine's clock showed; the offset +03:00 (not
Luxembourg's +01:00 in winter) makes the tool read the count as made on 31 January at 23:00, so January, which
had no count, passes Art. 18-13 al. 1 ("au moins une fois par mois"). Such an offset is now LOG-TIME,
as in game logs (a time's offset must be the one the jurisdiction's clock shows, or UTC)."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _log(tmp_path, offset: str) -> Path:
    shutil.copy(EXAMPLES / "lu" / "machine-m-001.yaml", tmp_path / "machine-m-001.yaml")
    header = {"kind": "meter-log", "jurisdiction": "LU", "casino": "C",
              "machines": {"M-001": {"machine": "machine-m-001.yaml"}}, "reading_interval_hours": 48,
              "denomination": "1.00", "period": {"from": "2026-01-01", "to": "2026-02-28"}}
    rows, coin_in, coin_out, games = [], 1_000_000, 900_000, 500_000
    day = datetime(2026, 1, 1, 6)
    while day < datetime(2026, 3, 1):
        time = f"2026-02-01T01:00:00{offset}" if day == datetime(2026, 2, 1, 6) else day.isoformat() + "+01:00"
        counted = time.startswith("2026-02-01") or day == datetime(2026, 2, 15, 6)  # none in January
        rows.append({"time": time, "machine": "M-001", "coin_in_1": coin_in, "coin_in_2": coin_in, "drop": 0,
                     "coin_out": coin_out, "hand_paid_jackpots": 0, "games_played": games,
                     "drop_box_counted": counted})
        coin_in, coin_out, games = coin_in + 10_000, coin_out + 9_250, games + 5_000
        day += timedelta(days=1)
    path = tmp_path / "meters.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [header, *rows]), encoding="utf-8")
    return path


def _findings(cli, path):
    return json.loads(cli("check", str(path), "--format", "json").stdout)["findings"]


def test_the_honest_offset_finds_january_uncounted(cli, tmp_path):
    assert any(f["rule_id"] == "LU-SLOT-LOG-DROP-COUNT" for f in _findings(cli, _log(tmp_path, "+01:00")))


def test_an_offset_not_luxembourgs_never_moves_a_count_into_the_month_before(cli, tmp_path):
    found = _findings(cli, _log(tmp_path, "+03:00"))
    # either January is found uncounted, or the offset is said (and the count not taken for January)
    assert any(f["rule_id"] == "LU-SLOT-LOG-DROP-COUNT" or
               (f["rule_id"] == "LOG-TIME" and "offset" in f["message"]) for f in found), found


def _daily(tmp_path, times: list[str]) -> Path:
    shutil.copy(EXAMPLES / "lu" / "machine-m-001.yaml", tmp_path / "machine-m-001.yaml")
    header = {"kind": "meter-log", "jurisdiction": "LU", "casino": "C",
              "machines": {"M-001": {"machine": "machine-m-001.yaml"}}, "reading_interval_hours": 24,
              "denomination": "1.00", "period": {"from": times[0][:10], "to": times[-1][:10]}}
    rows = [{"time": time, "machine": "M-001", "coin_in_1": 1_000_000 + n * 10_000, "coin_in_2": 1_000_000 + n * 10_000,
             "drop": 0, "coin_out": 900_000 + n * 9_250, "hand_paid_jackpots": 0, "games_played": 500_000 + n * 5_000,
             "drop_box_counted": True} for n, time in enumerate(times)]
    path = tmp_path / "meters.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [header, *rows]), encoding="utf-8")
    return path


def _gaps(cli, tmp_path, times):
    return [f["line"] for f in _findings(cli, _daily(tmp_path, times)) if f["rule_id"] == "LOG-GAP"]


def test_a_daily_reading_at_the_same_hour_across_a_clock_change_is_no_gap(cli, tmp_path):
    # 25 hours pass the night the clock goes back (23 the night it goes forward): 24 on the clock, a day on
    assert _gaps(cli, tmp_path, ["2026-10-24T06:00:00", "2026-10-25T06:00:00", "2026-10-26T06:00:00"]) == []
    assert _gaps(cli, tmp_path, ["2026-10-24T06:00:00+02:00", "2026-10-25T06:00:00+01:00"]) == []
    assert _gaps(cli, tmp_path, ["2026-03-28T06:00:00", "2026-03-29T06:00:00"]) == []


def test_a_reading_late_on_the_clock_and_in_real_time_is_a_gap(cli, tmp_path):
    assert _gaps(cli, tmp_path, ["2026-10-24T06:00:00", "2026-10-25T07:00:00"]) == [3]  # 26 h, 25 on the clock
    assert _gaps(cli, tmp_path, ["2026-10-24T06:00:00+02:00", "2026-10-25T06:30:00+01:00"]) == [3]
    assert _gaps(cli, tmp_path, ["2026-03-28T06:00:00", "2026-03-29T07:30:00"]) == [3]  # 24.5 h, 25.5 on the clock


def _outside(cli, tmp_path, times, period):
    path = _daily(tmp_path, times)
    lines = path.read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    header["period"] = period
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", "utf-8")
    return [(f["severity"], f["pointer"], f["line"]) for f in _findings(cli, path) if f["rule_id"] == "LOG-TIME"]


def test_readings_outside_the_declared_period_are_said_and_counted(cli, tmp_path):
    times = ["2026-01-30T06:00:00", "2026-01-31T06:00:00", "2026-02-01T06:00:00", "2026-02-02T06:00:00"]
    assert _outside(cli, tmp_path, times, {"from": "2026-01-30", "to": "2026-02-02"}) == []
    assert sorted(_outside(cli, tmp_path, times, {"from": "2026-01-01", "to": "2026-01-31"})) == [
        ("warning", "/period", 1), ("warning", "/time", 4)]
    # on the jurisdiction's clock: 23:30 UTC on 31 January is 00:30 on 1 February in Luxembourg
    aware = ["2026-01-30T06:00:00+01:00", "2026-01-31T23:30:00Z"]
    assert _outside(cli, tmp_path, aware, {"from": "2026-01-30", "to": "2026-01-31"}) == [("warning", "/time", 3)]
