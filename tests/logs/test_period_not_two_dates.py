"""A game log's `period` with one date (or none) is LOG-TIME, not taken as no period in silence (it was).

docs/game-logs.md, header field `period`: «The period the log covers, ISO 8601 dates (from and to, both days
included). A coup played on a day outside it is a LOG-TIME finding ...; a period that is not two dates, or ends
before it starts, is one too.»

`period: {"from": "2026-10-01"}` (no `to`), or `period: {}`, is not two dates. The game log header's schema
does not require the two members, and the tool's period reader returns «None where it is not two texts (the
header's shape check says what is wrong)»; but the shape check says nothing, so no finding is made at all: the
period is dropped and the log is clean (exit 0) though every one of its coups (2 November) is after the only
day it gives. A filer leaving out `to` escapes the period check entirely.
"""

from __future__ import annotations

import json

import pytest

from helpers.command import EXAMPLES, log_findings, run_in_process


@pytest.mark.parametrize("period", [{"from": "2026-10-01"}, {"to": "2026-10-31"}, {}])
def test_a_period_that_is_not_two_dates_is_said(tmp_path, period):
    records = [json.loads(line) for line in (EXAMPLES / "lu/log-punto-banco.jsonl").read_text("utf-8").splitlines()]
    records[0]["period"] = period
    found = log_findings(run_in_process, tmp_path, records)
    assert [f for f in found if f["severity"] == "error" and f["pointer"].startswith("/period")], \
        [(f["rule_id"], f["severity"], f["pointer"]) for f in found]
