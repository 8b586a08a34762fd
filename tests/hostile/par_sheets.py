"""The costliest PAR data (`par:`, docs/par.md) a filer could send, for `casino-audit rtp` and `check`: each
generator returns one homologation file's text (under 1 MB, the size issue 22 bounds), whose mathematics is what
it costs. Benchmarks time them (helper `iocost`'s benchmarks/bench_hostile.py); tests/slots/test_par_exact_return.py and
tests/slots/test_rtp_budget.py hold what they report.

    python tests/hostile/par_sheets.py CASE FILE      write CASE to FILE
"""

from __future__ import annotations

import json
import random
import sys
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from worst import _machine_with_par  # noqa: E402

NAMES = ["A", "K", "Q", "J", "T", "N", "H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8"]


def lines_par(lines: int = 200, rows: int = 4, stops: int = 100, seed: int = 7, names=NAMES) -> dict:
    """A 5-reel game on weighted 100-stop reels with `lines` distinct paylines, a x2 wild, a scatter, 2 to 5 of
    a kind paying: what a real multi-line video slot's PAR sheet holds."""
    rng = random.Random(seed)
    strips = [["W" if i % 17 == 3 else "S" if i % 23 == 5 else rng.choice(names) for i in range(stops)]
              for _ in range(5)]
    chosen: list = []
    seen: set = set()
    while len(chosen) < lines:
        line = tuple(rng.randrange(rows) for _ in range(5))
        if line not in seen:
            seen.add(line)
            chosen.append(list(line))
    return {"symbols": [*names, "W", "S"], "rows": rows, "lines": chosen,
            "reels": [{"strip": strip, "weights": [rng.randint(1, 5) for _ in strip]} for strip in strips],
            "wilds": [{"symbol": "W", "multiplier": 2}],
            "paytables": [{"name": "base", "credits_per_line": 1,
                           "pays": [{"symbol": n, "count": k, "pays": str(Decimal(k * (i + 1)) * Decimal("0.18"))}
                                    for i, n in enumerate(names) for k in (2, 3, 4, 5)],
                           "scatters": [{"symbol": "S", "count": 3, "pays": 5}, {"symbol": "S", "count": 4,
                                                                                  "pays": 20}]}]}


def lines_200(rate: str = "93.73 %") -> str:
    """A legal 200-line machine (its return 93.7341 %, declared 93.73 %): counted exactly by `rtp` and by `check`."""
    par = lines_par()
    par["paytables"][0]["redistribution_rate"] = rate
    return _machine_with_par(par)


def rtp_ways_terms() -> str:
    """A ways game at the reader's limits: 400 subjects paying 1 to 5 of a kind (2,000 entries) on 8,000-stop
    reels. Its return is some 3,600 product terms; its exact standard deviation their 6.5 million pairs, each
    a mean over each reel's 8,000 windows."""
    symbols = [f"A{i}" for i in range(400)]
    rng = random.Random(11)
    return _machine_with_par({
        "symbols": symbols, "rows": 3, "ways": True,
        "reels": [{"strip": [rng.choice(symbols) for _ in range(8_000)]} for _ in range(5)],
        "paytables": [{"name": "base", "credits_per_spin": 25,
                       "pays": [{"symbol": s, "count": c, "pays": c} for s in symbols for c in range(1, 6)]}]})


def rtp_ways_multipliers() -> str:
    """A ways game whose 40 wilds each multiply (the highest applying): every entry a term per multiplier level."""
    symbols = [f"A{i}" for i in range(100)]
    wilds = [f"W{i}" for i in range(40)]
    rng = random.Random(12)
    return _machine_with_par({
        "symbols": symbols + wilds, "rows": 3, "ways": True, "wild_multipliers": "highest",
        "wilds": [{"symbol": w, "multiplier": i + 2} for i, w in enumerate(wilds)],
        "reels": [{"strip": [rng.choice(symbols + wilds) for _ in range(2_000)]} for _ in range(5)],
        "paytables": [{"name": "base", "credits_per_spin": 25,
                       "pays": [{"symbol": s, "count": c, "pays": c} for s in symbols for c in range(1, 6)]}]})


def rtp_many_paytables() -> str:
    """Fifty paytables (the most the reader takes), each its own reels, on a 200-line game: each counted, then its
    moments."""
    par = lines_par()
    rng = random.Random(13)
    base = par["paytables"][0]
    tables = []
    for n in range(50):
        reels = [{"strip": reel["strip"], "weights": [rng.randint(1, 9) for _ in reel["strip"]]}
                 for reel in par["reels"]]
        tables.append({**base, "name": f"version {n}", "reels": reels})
    par["paytables"] = tables
    return _machine_with_par(par)


CASES = {f.__name__: f for f in (lines_200, rtp_ways_terms, rtp_ways_multipliers, rtp_many_paytables)}

if __name__ == "__main__":
    Path(sys.argv[2]).write_text(CASES[sys.argv[1]](), "utf-8")
