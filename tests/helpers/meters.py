"""A meter log built day by day for the meter tests: the compliant machine file, a header, readings at a
return of 92.5 %, written beside the machine and checked under the shipped rulesets."""

from __future__ import annotations

import json

from casino_audit.law.engine import Checker
from casino_audit.law.rulesets import builtin_names, load_builtin
from casino_audit.run.pipeline import run
from helpers.command import EXAMPLES


RULESETS = {rs.code: rs for rs in (load_builtin(name) for name in builtin_names())}
MACHINE_TEXT = (EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8")  # 92.5 %, sd 3.5, coin-in 10 and 8 digits
AGREE, COIN_IN_RESET, METER_RESET = "LU-SLOT-LOG-COIN-IN-AGREE", "LU-SLOT-LOG-COIN-IN-RESET", "LU-SLOT-LOG-METER-RESET"
DEPARTURE, MINIMUM, COUNT = "LU-SLOT-LOG-RETURN-DEPARTURE", "LU-SLOT-LOG-RETURN-MIN", "LU-SLOT-LOG-DROP-COUNT"


START = {"coin_in_1": 123_456_789, "drop": 500_000, "coin_out": 7_000_000, "hand_paid_jackpots": 40_000,
         "games_played": 2_000_000, "door_openings": 10}
PER_DAY = {"coin_in_1": 4000, "drop": 300, "coin_out": 3700, "hand_paid_jackpots": 0, "games_played": 1600,
           "door_openings": 0}  # a return of 92.5 % exactly, 2.5 units a game


def header(**changes) -> dict:
    found = {"kind": "meter-log", "jurisdiction": "LU", "casino": "C", "machine": "machine.yaml",
             "capacity_digits": {"drop": 10, "coin_out": 10, "hand_paid_jackpots": 10, "games_played": 10,
                                 "door_openings": 6},
             "reading_interval_hours": 24, "denomination": "1.00"}
    found.update(changes)
    return {key: value for key, value in found.items() if value is not None}


def reading(day: int, machine: str = "M-1", start: dict | None = None, counted: bool | None = None,
            **changes) -> dict:
    """Machine `machine` read on day `day` (0 is 2026-01-01) at 06:00, its drop box counted every 7th day."""
    base = {**START, **(start or {})}
    meters = {meter: base[meter] + day * PER_DAY[meter] for meter in PER_DAY}
    found = {"time": _day(day), "machine": machine, "coin_in_1": meters["coin_in_1"],
             "coin_in_2": meters["coin_in_1"] % 10 ** 8, **{m: v for m, v in meters.items() if m != "coin_in_1"}}
    if counted if counted is not None else day % 7 == 0:
        found["drop_box_counted"] = True
    found.update(changes)
    return found


def _day(day: int, hour: int = 6) -> str:
    from datetime import datetime, timedelta

    return (datetime(2026, 1, 1, hour) + timedelta(days=day)).isoformat()


def write(tmp_path, records, name="log.jsonl", machine_text: str | None = MACHINE_TEXT) -> str:
    if machine_text is not None:
        (tmp_path / "machine.yaml").write_text(machine_text, "utf-8")
    path = tmp_path / name
    path.write_text("".join(json.dumps(record) + "\n" for record in records), "utf-8")
    return str(path)


def check(path, params=None, **options):
    return run([str(path)], Checker(RULESETS, {"LU": params or {}}, **options))


def month(days: int = 40, machine: str = "M-1", **kwargs) -> list[dict]:
    return [reading(day, machine, **kwargs) for day in range(days)]
