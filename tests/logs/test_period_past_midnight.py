"""A séance runs past the period's last midnight into the next day, no further: one label kept for days (it was)

docs/game-logs.md, header field `period`: «A coup played on a day outside it is a LOG-TIME finding (a séance
begun within it may run past its last midnight)».

The allowance is for a séance that runs past the period's last midnight (a night séance ending in the small
hours). The tool grants it to any coup whose session label opened within the period, however long after: where
`session_break_minutes` is not given, a coup four days after the period's end, under the label of the period's
last séance, is no LOG-TIME and the log passes (exit 0). No séance runs four days; a log filed for 2 November
holding 6 November's coups passes as whole. With `session_break_minutes` given the same coup is flagged, so
only the parameter-less run lets it through.
"""

from __future__ import annotations

import json

import pytest

from helpers.command import EXAMPLES, log_findings, run_in_process


def _example(name: str) -> list:
    return [json.loads(line) for line in (EXAMPLES / name).read_text("utf-8").splitlines()]


def test_a_coup_days_after_the_period_under_the_same_label_is_log_time(tmp_path):
    records = _example("lu/log-punto-banco.jsonl")[:3]
    records[0]["period"] = {"from": "2026-11-02", "to": "2026-11-02"}
    records[1]["session"] = records[2]["session"] = "S1"
    records[2]["time"] = "2026-11-06T21:00:00"  # four days after the period's last day, same label
    found = log_findings(run_in_process, tmp_path, records)
    assert [f for f in found if f["rule_id"] == "LOG-TIME" and f["severity"] == "error"], \
        [(f["rule_id"], f["severity"], f["message"][:80]) for f in found]
