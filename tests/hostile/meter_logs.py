"""The worst meter log found (issue 22): what a filer could send to make one meter log of under 100 KB cost the most.

    python tests/hostile/meter_logs.py DIR      build it in DIR and print the log's path

A log cycling over many machines, each given its own homologation file in the header's `machines`, every file a
PAR sheet of distinct pays whose exact count takes the slot engine's whole work budget (the line-wins sheet of
tests/hostile/worst.py, its pays shifted per file). Before issue 22 each machine's theory was computed in full,
one sheet after the other (about 5 s each here: 40 sheets, minutes); now the slot engine's work is one budget
shared by the whole log, and a sheet past it is judged on its top award's bound (said so).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import worst  # noqa: E402  (the line-wins sheet)

MACHINES = 40
READINGS = 600


def _sheet(shift: int) -> str:
    symbols = [f"A{i}" for i in range(50)]
    return worst._machine_with_par({
        "symbols": symbols, "rows": 1, "reels": [{"strip": symbols} for _ in range(9)], "lines": [[0] * 9] * 500,
        "line_wins": "all", "paytables": [{"name": "base", "credits_per_line": 1, "pays": [
            {"combination": [f"A{i % 50}"] * (1 + i % 9), "pays": 1 + i + shift} for i in range(2000)]}]})


def many_sheets(directory: Path) -> Path:
    """Write the homologation files and the log into `directory`; the log's path."""
    directory.mkdir(parents=True, exist_ok=True)
    for number in range(MACHINES):
        # filed for its machine (a reading's machine is its file's location number or serial number)
        (directory / f"machine-{number}.yaml").write_text(
            _sheet(number).rstrip() + f"\nlocation_number: {{number: M-{number}, on_front: true}}\n", "utf-8")
    header = {"kind": "meter-log", "jurisdiction": "LU", "casino": "C", "reading_interval_hours": 24,
              "denomination": "1.00",
              "machines": {f"M-{n}": {"machine": f"machine-{n}.yaml"} for n in range(MACHINES)}}
    lines = [json.dumps(header)]
    for number in range(READINGS):
        day, machine = divmod(number, MACHINES)
        lines.append(json.dumps({"time": f"2026-01-{day + 1:02d}T06:00:00", "machine": f"M-{machine}",
                                 "coin_in_1": 1000 + 4000 * day, "coin_in_2": 1000 + 4000 * day, "drop": 1,
                                 "coin_out": 900 + 3700 * day, "hand_paid_jackpots": 0,
                                 "games_played": 100 + 1600 * day}))
    log = directory / "many-sheets.jsonl"
    log.write_text("\n".join(lines) + "\n", "utf-8")
    return log


if __name__ == "__main__":
    print(many_sheets(Path(sys.argv[1])))
