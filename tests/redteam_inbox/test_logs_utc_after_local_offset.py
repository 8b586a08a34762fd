"""A log whose times switch from the table's offset (+01:00) to UTC (Z) is flagged, though every instant is right.

docs/game-logs.md (`timezone`): «Times with an offset are instants as written; a day is the table's local day.»
The tool's own rule (order.py, `_offset_of_zone`) takes UTC as naming an instant «as well as the table's clock
does», and tests/logs/test_time_zones.py says so ("the table's clock (UTC is one too)"): a log written all in
+01:00, or all in Z, is clean. But a log whose coups are written at the table's offset and then, from one coup
on, in UTC (an export whose clock source changed; the instants 21:01:20+01:00 and 20:02:40Z are 80 seconds
apart, in order) is a LOG-TIME error at the switch: "the clock's offset from UTC changes only when summer time
starts or ends" - the drift check compares the written offsets and forgets that Z is no clock of the table's at
all but UTC itself. A legal log reported as an error: a false flag.
"""

from __future__ import annotations

import json

from helpers.command import EXAMPLES, log_findings, run_in_process


def test_utc_after_the_table_s_offset_is_no_clock_change(tmp_path):
    records = [json.loads(line) for line in
               (EXAMPLES / "lu/log-english-roulette.jsonl").read_text("utf-8").splitlines()][:4]
    records[1]["time"] = "2026-11-02T21:00:05+01:00"
    records[2]["time"] = "2026-11-02T21:01:20+01:00"
    records[3]["time"] = "2026-11-02T20:02:40Z"  # 21:02:40 in Luxembourg, 80 seconds after coup 2
    # each way of writing alone is clean
    for all_utc in (False, True):
        alone = json.loads(json.dumps(records))
        if all_utc:
            alone[1]["time"], alone[2]["time"] = "2026-11-02T20:00:05Z", "2026-11-02T20:01:20Z"
        else:
            alone[3]["time"] = "2026-11-02T21:02:40+01:00"
        assert not [f for f in log_findings(run_in_process, tmp_path, alone) if f["rule_id"] == "LOG-TIME"]
    found = log_findings(run_in_process, tmp_path, records)
    assert not [(f["rule_id"], f["line"], f["message"][:90]) for f in found if f["rule_id"] == "LOG-TIME"]
