"""One coup with an unreadable time wipes out what the day keeps: the next coup's change of minimum passes.

LU Art. 37-3, al. 1 (English roulette, LU-EROUL-LOG-MINIMUM-UNCHANGED): «Durant une même journée, le minimum des
mises pratiqué à une table déterminée ne peut être modifié.» The example log's coups 1 to 3 are all on
2 November 2026 (21:00:05, 21:01:20, 21:02:40); coup 3 raises the minimum from 2 to 4: a breach, found when every
time is readable. Write coup 2's time as `2026-11-02 21h01` (a LOG-TIME error for that coup alone) and the breach
of coup 3 is gone: limits.py records the period a limit was set in as the coup's period, and a coup whose time
cannot be read has none (None), so the minimum's "set at" becomes (None, coup 2) and coup 3's day no longer
matches it. The LOG-TIME finding is about coup 2's time; the change of minimum at coup 3, whose time is read and
on the same day, is a breach of Art. 37-3 that is not reported at all. (The same holds for `per: session_day`,
LU Art. 37-8, al. 4, where a new séance's first coup has an unreadable time.)
"""

from __future__ import annotations

import json

from helpers.command import EXAMPLES, log_findings, run_in_process


def test_a_coup_without_a_readable_time_does_not_reset_the_days_minimum(tmp_path):
    records = [json.loads(line) for line in
               (EXAMPLES / "lu/log-english-roulette.jsonl").read_text("utf-8").splitlines()][:4]
    records[3]["limits"] = {"minimum": 4, "maximum": 1440}  # coup 3, 21:02:40 on 2 November: the day's minimum
    found = log_findings(run_in_process, tmp_path, records)
    assert [f["line"] for f in found if f["rule_id"] == "LU-EROUL-LOG-MINIMUM-UNCHANGED"] == [4]
    records[2]["time"] = "2026-11-02 21h01"  # coup 2's time unreadable
    found = log_findings(run_in_process, tmp_path, records)
    assert [f["line"] for f in found if f["rule_id"] == "LOG-TIME"] == [3]
    assert [f["line"] for f in found if f["rule_id"] == "LU-EROUL-LOG-MINIMUM-UNCHANGED"] == [4], \
        [(f["rule_id"], f["line"]) for f in found]
