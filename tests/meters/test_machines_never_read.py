"""A machine the meter log's header files in `machines` but never reads is said: a LOG-GAP, and no drop-box count
in the months of its period (LU-SLOT-LOG-DROP-COUNT); it was passed in silence, exit 0.

RGD 8 mars 2002, Art. 18-13, al. 1: «En tant que de besoin et au moins une fois par mois il est procédé à la
comptée des boîtes qui reçoivent les pièces de monnaie ou les token dans les appareils à sous.»

docs/meter-logs.md, `period`: «a machine read first long after the start, or last long before the end, is a gap».
months.py (unread_in_period) already holds that «a filer does not hide a month by leaving out its readings» for a
machine read at least once. A machine the header names for this log (M-002, with machine-m-002.yaml) and whose
readings are all left out is the extreme case: its whole January goes unread and uncounted, and the tool says
nothing about it (it only ever judges machines some reading names). A filer hides a machine's missing drop-box
count, and its realised return, by leaving all its readings out of the log.

Consequence: breach passed (silent skip of a filed machine).
"""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta

import pytest

from helpers.command import EXAMPLES, log_findings, run_in_process


def _readings(machine: str) -> list[dict]:
    """M-001 read daily through January 2026 at a return of 92.5 %, its drop box counted on the 10th."""
    meters = {"coin_in_1": 1_000_000, "coin_in_2": 1_000_000, "drop": 5_000, "coin_out": 100_000,
              "hand_paid_jackpots": 0, "games_played": 500_000}
    found = []
    for day in range(31):
        reading = {"time": (datetime(2026, 1, 1, 6) + timedelta(days=day)).isoformat(), "machine": machine, **meters}
        if day == 9:
            reading["drop_box_counted"] = True
        found.append(reading)
        meters = {**meters, "coin_in_1": meters["coin_in_1"] + 10_000, "coin_in_2": meters["coin_in_2"] + 10_000,
                  "coin_out": meters["coin_out"] + 9_250, "drop": meters["drop"] + 500,
                  "games_played": meters["games_played"] + 3_000}
    return found


def _header(machines: dict) -> dict:
    return {"kind": "meter-log", "jurisdiction": "LU", "casino": "C", "machines": machines,
            "reading_interval_hours": 24, "denomination": "1.00", "currency": "EUR",
            "period": {"from": "2026-01-01", "to": "2026-01-31"}}


def test_a_machine_filed_in_the_header_and_never_read_is_said(tmp_path):
    for name in ("machine-m-001.yaml", "machine-m-002.yaml"):
        shutil.copy(EXAMPLES / "lu" / name, tmp_path / name)
    alone = log_findings(run_in_process, tmp_path, [_header({"M-001": {"machine": "machine-m-001.yaml"}}),
                                                    *_readings("M-001")])
    assert [f for f in alone if f["severity"] != "info"] == []  # the control: M-001 alone is clean
    both = {"M-001": {"machine": "machine-m-001.yaml"}, "M-002": {"machine": "machine-m-002.yaml"}}
    found = log_findings(run_in_process, tmp_path, [_header(both), *_readings("M-001")])
    about = [(f["rule_id"], f["severity"]) for f in found if "M-002" in f["message"]]
    # M-002's January: never read (a gap over the whole period) and no drop-box count (Art. 18-13)
    assert any(severity in ("error", "warning") for _, severity in about), \
        [(f["rule_id"], f["severity"], f["message"][:120]) for f in found]
