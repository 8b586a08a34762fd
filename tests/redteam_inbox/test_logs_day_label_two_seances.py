"""A log that labels its sessions by day holds the evening séance to the afternoon's minimum, whatever the
closure between them, `session_break_minutes` given.

LU Art. 37-5, al. 3 (LU-PB-LOG-MINIMUM-UNCHANGED): «Durant une même séance le minimum pratiqué à une table ne peut
être modifié.» The schema takes `session` as «The session (or day) the coup belongs to», and the shipped example
log (examples/lu/log-punto-banco.jsonl) labels its coups by day, "2026-11-02". The parameter
`session_break_minutes` is «the least time a table stands closed between two séances»: given 60, a table that
plays until 15:01 and reopens at 21:02 has closed and opened again, two séances, and a new minimum at the evening
séance (20 to 40, the maximum 2,000 to 4,000, the coefficient kept) is legal. The tool consults the pause only
when the session label changes (order.py, `_plays_on`): it merges labels into one séance, never splits a label
over a closure six hours long, and the evening's minimum is an error "within session 2026-11-02". A false flag
on a log written as the schema and the example write one (labelled "A" and "B", the same log is clean).
"""

from __future__ import annotations

import json

from helpers.command import EXAMPLES, log_findings, run_in_process


def test_a_closure_longer_than_the_session_break_opens_a_new_seance_under_one_day_label(tmp_path):
    records = [json.loads(line) for line in
               (EXAMPLES / "lu/log-punto-banco.jsonl").read_text("utf-8").splitlines()]
    for record, time in zip(records[1:], ("2026-11-02T15:00:05", "2026-11-02T15:01:10", "2026-11-02T21:02:30",
                                          "2026-11-02T21:03:40")):
        record["time"] = time
    evening = records[3]  # coup 3, the evening séance's first coup
    evening["limits"] = {"minimum": 40, "maximum": 4000}
    for bet in evening["bets"]:
        if bet["stake"] == 20:
            bet["stake"], bet["net"] = 40, bet["net"] * 2
    assert all(record["session"] == "2026-11-02" for record in records[1:])
    found = log_findings(run_in_process, tmp_path, records, "--param", "session_break_minutes=60")
    assert [(f["rule_id"], f["line"]) for f in found if f["severity"] == "error"] == []
