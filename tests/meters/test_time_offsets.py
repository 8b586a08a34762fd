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
