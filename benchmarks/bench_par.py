"""How long the slot engine takes (issue 9), CPU seconds, best of 3:
- issue 9's targets: the exact return of a 5-reel, 3-row, 20-line machine with 64 stops per reel, a wild and a
  scatter (target under 50 ms), against brute force over every stop combination of the same machine, measured on
  the same game with 8-stop reels and extrapolated by the number of combinations (64^5 / 8^5); and a 243-ways game
  with free spins (target under 0.5 s);
- bigger: a 5-reel 243-ways game on 100-stop virtual reels with wild, scatter and free spins, and a 5x3 50-line
  game on the same reels; the return alone (what `check` computes) and the whole figures (`casino-audit rtp`: hit
  frequency, standard deviation).

    python benchmarks/bench_par.py
"""

from __future__ import annotations

import random
import sys
import time
from fractions import Fraction as F
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casino_audit import slots  # noqa: E402
from casino_audit.slots import Game, LinePay, Paytable, Reel, ScatterPay, WaysPay, Wild  # noqa: E402

NAMES = ["A", "K", "Q", "J", "T", "N", "H1", "H2", "H3"]


def machines():
    rng = random.Random(3)
    strips = [tuple("W" if i % 17 == 3 else "S" if i % 23 == 5 else rng.choice(NAMES) for i in range(100))
              for _ in range(5)]
    reels = tuple(Reel(strip, tuple(rng.randint(1, 5) for _ in strip)) for strip in strips)
    wild = Wild("W", frozenset(NAMES), F(2))
    scatters = (ScatterPay("3 S", "S", 3, F(5), 8, 5), ScatterPay("4 S", "S", 4, F(20), 12, 5),
                ScatterPay("5 S", "S", 5, F(100), 20, 5))
    ways = Game(reels, 3, 0, None, tuple(WaysPay(f"{k} {n}", n, frozenset([n]), k, F(k * (i + 1)))
                                         for i, n in enumerate(NAMES) for k in (3, 4, 5)), scatters, (wild,))
    lines = tuple(tuple(rng.randrange(3) for _ in range(5)) for _ in range(50))
    line_game = Game(reels, 3, 0, lines, tuple(LinePay(f"{k} {n}", (frozenset([n]),) * k, F(k * (i + 1)))
                                               for i, n in enumerate(NAMES) for k in (3, 4, 5)), scatters, (wild,))
    # bets chosen so that each returns about 95 %
    return {"243 ways, 100-stop reels, free spins": Paytable("ways", F(88), ways, ways, F(2)),
            "50 lines 5x3, 100-stop reels, free spins": Paytable("lines", F(100), line_game, line_game, F(2))}


def twenty_lines(stops: int) -> Paytable:
    """5x3, 20 lines, `stops` physical stops per reel, a wild standing for every symbol, a scatter paying anywhere."""
    rng = random.Random(stops)
    strips = [tuple("W" if i % 16 == 3 else "S" if i % 21 == 5 else rng.choice(NAMES) for i in range(stops))
              for _ in range(5)]
    reels = tuple(Reel(strip, (1,) * stops) for strip in strips)
    lines = tuple(tuple(rng.randrange(3) for _ in range(5)) for _ in range(20))
    pays = tuple(LinePay(f"{k} {n}", (frozenset([n]),) * k, F(k * (i + 2))) for i, n in enumerate(NAMES)
                 for k in (3, 4, 5))
    scatters = (ScatterPay("3 S", "S", 3, F(5)), ScatterPay("4 S", "S", 4, F(20)), ScatterPay("5 S", "S", 5, F(100)))
    game = Game(reels, 3, 0, lines, pays, scatters, (Wild("W", frozenset(NAMES)),))
    return Paytable("20 lines", F(20), game)


def best(function, times: int = 3) -> float:
    found = []
    for _ in range(times):
        start = time.process_time()
        function()
        found.append(time.process_time() - start)
    return min(found)


def issue_targets() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "helpers"))
    import slots_brute

    machine = twenty_lines(64)
    counted = best(lambda: slots.evaluate(machine, moments=False))
    small = twenty_lines(8)
    brute_small = best(lambda: slots_brute.paytable_figures(small), times=1)
    assert slots_brute.paytable_figures(small)["rtp"] == slots.evaluate(small, moments=False).rtp
    brute = brute_small * (64 / 8) ** 5
    print(f"20 lines 5x3, 64 stops, wild and scatter: exact return {counted * 1000:.1f} ms (target < 50 ms), "
          f"rtp {float(slots.evaluate(machine, moments=False).rtp):.4%}; brute force over 8-stop reels "
          f"{brute_small:.2f} s, extrapolated to 64^5 combinations {brute / 3600:.1f} h: {brute / counted:,.0f}x")
    ways = machines()["243 ways, 100-stop reels, free spins"]
    print(f"243 ways with free spins (100-stop reels): exact return "
          f"{best(lambda: slots.evaluate(ways, moments=False)):.3f} s (target < 0.5 s)")


if __name__ == "__main__":
    issue_targets()
    for name, paytable in machines().items():
        rtp_only = best(lambda: slots.evaluate(paytable, moments=False))
        whole = best(lambda: slots.evaluate(paytable))
        result = slots.evaluate(paytable)
        print(f"{name}: return {rtp_only:.3f} s, all figures {whole:.3f} s (rtp {float(result.rtp):.4%}, "
              f"sd {float(result.sd):.2f} {'exact' if result.sd_exact else 'estimated'}, cycle {result.cycle:.3e})")
