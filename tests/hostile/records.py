"""Worst-case record streams and `rtp` sheets of at most 1 MB (benchmarks/bench_hostile.py runs each through the
whole command): what a filer could send to make one log, meter log or PAR sheet cost the most.

Each `write_*` function writes its case into a directory (with the files it names beside it) and returns the path
of the file to check, and `CASES` maps a case's name to (writer, the command's arguments after the path).
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import worst  # tests/hostile/worst.py, beside this file

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
MB = 1_000_000


def _coup(bets: list) -> dict:
    # The session's name holds a character written as a surrogate pair (json.dumps writes U+1F3B0 so): the loader's
    # fast reading leaves such a line to its tokenizer, the costliest way to find a position.
    return {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02 \U0001F3B0",
            "staff": {"croupier": "C-3", "spinner": "C-7"}, "number": 17, "bets": bets}


def long_line_bets(size: int = MB - 100, bad: int = 100) -> list[dict]:
    """Bets on noir (17 is black) of one coup, as many as fit a line of `size` bytes, each at a seat of its own (no
    limit is reached); `bad` of them, spread evenly, are paid 7 for a 5 stake (the law pays 5)."""
    one = len(json.dumps({"seat": 100000, "chance": "noir", "stake": 5, "net": 5})) + 2
    count = (size - len(json.dumps(_coup([])))) // one
    every = max(1, count // bad)
    return [{"seat": n + 1, "chance": "noir", "stake": 5, "net": 7 if n % every == 0 and n // every < bad else 5}
            for n in range(count)]


def write_long_line(directory: Path, bets: int | None = None, bad: int = 100) -> Path:
    """A LU roulette log of one coup on one line of about 1 MB (or of `bets` bets) with `bad` settlement breaches:
    each finding's position is in that line."""
    shutil.copy(EXAMPLES / "lu" / "table-roulette.yaml", directory / "table-roulette.yaml")
    header = {"kind": "game-log", "jurisdiction": "LU", "game": "roulette", "casino": "Casino 2000 Mondorf-les-Bains",
              "table": "R1", "table_config": "table-roulette.yaml"}
    placed = long_line_bets(bad=bad) if bets is None else long_line_bets(size=10 ** 9, bad=bad)[:bets]
    if bets is not None:  # the breaches spread over the bets kept
        every = max(1, bets // bad)
        for n, bet in enumerate(placed):
            bet["net"] = 7 if n % every == 0 and n // every < bad else 5
    path = directory / "long-line.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(_coup(placed)) + "\n", encoding="utf-8")
    return path


def _costly_machine(variant: int) -> str:
    """A homologation file whose PAR data cost the most to evaluate (worst.py's par_line_wins), each `variant` with
    other pays: no two alike, so no return worked out for one serves another."""
    text = worst.par_line_wins()
    return text.replace('"pays": 1}', f'"pays": {2 + variant}}}', 1)


def write_meter_cycle(directory: Path, machines: int = 40, rounds: int = 10) -> Path:
    """A LU meter log of about 100 KB whose readings cycle over `machines` machines, each with its own homologation
    file (the header's `machines:`) of costly PAR data: each machine's theory is worked out once, however often its
    readings come back between the others'."""
    files = {}
    for machine in range(machines):
        name = f"machine-{machine:03d}.yaml"
        (directory / name).write_text(_costly_machine(machine), encoding="utf-8")
        files[f"M-{machine:03d}"] = {"machine": name}
    path = directory / "meter-cycle.jsonl"
    start = datetime(2026, 1, 1, 6)
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps({"kind": "meter-log", "jurisdiction": "LU", "casino": "Bench", "machines": files,
                              "reading_interval_hours": 24, "denomination": "1.00"}) + "\n")
        for day in range(rounds):
            for machine in range(machines):
                coin_in = 100_000_000 + machine * 1_000_000 + day * 4000
                out.write(json.dumps({
                    "time": (start + timedelta(days=day, seconds=machine)).isoformat(), "machine": f"M-{machine:03d}",
                    "coin_in_1": coin_in, "coin_in_2": coin_in % 10 ** 8, "drop": 500_000 + day * 300,
                    "coin_out": 7_000_000 + day * 3700, "hand_paid_jackpots": 40_000,
                    "games_played": 2_000_000 + day * 1600, "door_openings": 10}) + "\n")
    return path


def _machine(par: dict) -> str:
    text = (EXAMPLES / "lu" / "machine-par-three-reel.yaml").read_text("utf-8")
    return text[:text.index("\npar:\n") + 1] + "par: " + json.dumps(par) + "\n"


def ways_sheet(size: int = 451_000) -> str:
    """A ways game on five reels of 10,000 stops (the most casino-audit reads), 200 symbols, every count of each
    paid: a sheet of about `size` bytes."""
    symbols = [f"S{i:03d}" for i in range(198)] + ["W", "X"]
    par = {"symbols": symbols, "rows": 4, "ways": True, "wilds": [{"symbol": "W"}],
           "paytables": [{"name": "base", "credits_per_spin": 50,
                          "pays": [{"symbol": f"S{i:03d}", "count": c, "pays": c * (i % 7 + 1)}
                                   for i in range(198) for c in range(3, 6)],
                          "scatters": [{"symbol": "X", "count": c, "pays": 2 * c} for c in range(3, 6)]}],
           "reels": []}
    stops = min(10_000, (size - len(_machine(par))) // 5 // len('"S000", '))
    par["reels"] = [{"strip": [symbols[(r * 7 + n * (r + 3)) % len(symbols)] for n in range(stops)]}
                    for r in range(5)]
    return _machine(par)


def paytables_sheet(paytables: int = 50, entries: int = 290) -> str:
    """Every win on a line paid (line_wins: all) on 500 lines of nine 50-symbol reels, as worst.py's
    par_line_wins, with `paytables` pay tables of `entries` entries each, no two alike: each a return to count."""
    symbols = [f"A{i}" for i in range(50)]
    return _machine({
        "symbols": symbols, "rows": 1, "reels": [{"strip": symbols} for _ in range(9)], "lines": [[0] * 9] * 500,
        "line_wins": "all", "paytables": [{"name": f"p{t}", "credits_per_line": 1, "pays": [
            {"combination": [f"A{(i + t) % 50}"] * (1 + i % 9), "pays": 1 + i + t} for i in range(entries)]}
            for t in range(paytables)]})


def write_ways_sheet(directory: Path) -> Path:
    path = directory / "ways-sheet.yaml"
    path.write_text(ways_sheet(), encoding="utf-8")
    return path


def write_paytables_sheet(directory: Path) -> Path:
    path = directory / "paytables-sheet.yaml"
    path.write_text(paytables_sheet(), encoding="utf-8")
    return path


def write_long_line_baseline(directory: Path) -> Path:
    """The long line, with a baseline of its findings written beside it (by the command, before it is measured)."""
    return write_long_line(directory)


# name -> (writer, the command and its arguments; {path} is the file written, {dir} its directory)
CASES = {
    "log_long_line": (write_long_line, ["check", "{path}", "--param", "roulette_zero_rule=lose", "--max-per-rule",
                                        "0"]),
    "log_long_line_baseline": (write_long_line_baseline, ["check", "{path}", "--param", "roulette_zero_rule=lose",
                                                          "--baseline", "{dir}/baseline.json"]),
    "meter_cycle": (write_meter_cycle, ["check", "{path}"]),
    "rtp_ways_sheet": (write_ways_sheet, ["rtp", "{path}"]),
    "rtp_paytables_sheet": (write_paytables_sheet, ["rtp", "{path}"]),
}
# what must be done once before a case is measured (its baseline written)
PREPARE = {"log_long_line_baseline": ["check", "{path}", "--param", "roulette_zero_rule=lose", "--write-baseline",
                                      "{dir}/baseline.json"]}
