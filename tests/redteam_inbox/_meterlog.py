"""A small meter log of machine M-001 (examples/lu/machine-m-001.yaml) written where a test wants it."""

import json
import shutil
from pathlib import Path

from helpers.command import EXAMPLES

HEADER = {"kind": "meter-log", "jurisdiction": "LU", "casino": "Casino Sample", "machine": "machine-m-001.yaml",
          "capacity_digits": {"coin_in_1": 10, "coin_in_2": 8, "drop": 10, "coin_out": 10, "hand_paid_jackpots": 10,
                              "games_played": 10, "door_openings": 6},
          "reading_interval_hours": 24, "denomination": "1.00", "currency": "EUR",
          "period": {"from": "2026-01-01", "to": "2026-02-28"}}


def reading(time: str, machine: str, step: int, counted: bool = False) -> dict:
    """The machine's meters after `step` days of play, each day 2,500 games staking 6,000 and paying 5,550."""
    found = {"time": time, "machine": machine, "coin_in_1": 200_000_000 + 6000 * step, "coin_in_2": 6000 * step,
             "drop": 2_000_000 + 500 * step, "coin_out": 44_000_000 + 5550 * step, "hand_paid_jackpots": 223_646,
             "games_played": 9_000_000 + 2500 * step, "door_openings": 789}
    if counted:
        found["drop_box_counted"] = True
    return found


def write(directory: Path, header: dict, readings: list[dict]) -> Path:
    shutil.copy(EXAMPLES / "lu" / "machine-m-001.yaml", directory / "machine-m-001.yaml")
    path = directory / "meters.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in [header, *readings]), encoding="utf-8")
    return path


def rules(done) -> list[str]:
    return [finding["rule_id"] for finding in json.loads(done.stdout)["findings"]]
