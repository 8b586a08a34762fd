"""Game-log throughput: auditing a log against plainly parsing it, and peak memory by log size.

    python benchmarks/bench_logs.py [--game punto_banco|french_roulette] [--coups 100000] [--rounds 3]
                                    [--memory 100000,1000000]

Writes a compliant log (LU punto banco, or PT French roulette) with `casino-audit sample-log` (seeded), then, alternating rounds in one
process so machine noise hits both alike:
  baseline: read each line and json.loads it (no checks)
  audit:    the whole pipeline: header, shape of every coup, limits and multiples, the replay (the deal or the
            spin, drawing, outcome, every bet's settlement to the cent), findings
Prints coups per second and the median of the per-round ratios baseline/audit (issue target: >= 0.5). With
--memory, checks each size in a fresh process and prints its peak RSS (flat memory: the sizes' peaks close).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from casino_audit.law.engine import Checker  # noqa: E402
from casino_audit.run.pipeline import run  # noqa: E402
from casino_audit.law.rulesets import load_builtin  # noqa: E402
from casino_audit.samples.log import write  # noqa: E402

GAMES = {"punto_banco": "lu", "french_roulette": "pt"}  # game -> the ruleset its sample log is played under
PARAMS = {"LU": {"punto_banco_minimum_multiple_eur": Decimal(20), "punto_banco_minimum_floor_eur": Decimal(20),
                 "punto_banco_stake_minimum_eur": Decimal(20), "session_break_minutes": Decimal(60)},
          "PT": {"session_break_minutes": Decimal(60)}}
PEAK = """
import resource, sys
sys.path.insert(0, {repo!r})
sys.argv = ["bench"]
from benchmarks.bench_logs import audit
audit(__import__("pathlib").Path({path!r}), {coups}, {name!r})
# This process's own high-water mark (VmHWM): ru_maxrss would include the parent's, kept across fork and exec.
status = open("/proc/self/status").read() if sys.platform == "linux" else ""
print(next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")),
           resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
"""


def make_log(directory: Path, coups: int, game: str) -> Path:
    path = directory / f"{game}-{coups}.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        write(load_builtin(GAMES[game]), game, coups, 1, (), out)
    return path


def plain(path: Path) -> float:
    start = time.perf_counter()
    with open(path, "rb") as handle:
        for line in handle:
            json.loads(line)
    return time.perf_counter() - start


def audit(path: Path, coups: int, game: str) -> float:
    ruleset = load_builtin(GAMES[game])
    checker = Checker({ruleset.code: ruleset}, PARAMS)
    start = time.perf_counter()
    result = run([str(path)], checker)
    elapsed = time.perf_counter() - start
    assert result.summary()["records_checked"] == coups and not result.findings, result.summary()
    return elapsed


def peak_kib(path: Path, coups: int, game: str) -> int:
    done = subprocess.run([sys.executable, "-c", PEAK.format(repo=str(REPO), path=str(path), coups=coups, name=game)],
                          capture_output=True, text=True, check=True)
    return int(done.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=sorted(GAMES), default="punto_banco")
    parser.add_argument("--coups", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory", default="", help="comma-separated log sizes to measure peak memory for")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = make_log(Path(directory), args.coups, args.game)
        ratios, audits = [], []
        for _ in range(args.rounds):
            base, checked = plain(path), audit(path, args.coups, args.game)
            ratios.append(base / checked)
            audits.append(checked)
        print(f"{args.game}, {args.coups:,} coups: audit {args.coups / statistics.median(audits):,.0f} coups/s; "
              f"ratio to json.loads (median of rounds) {statistics.median(ratios):.2f} (target >= 0.5)")
        for size in (int(n) for n in args.memory.split(",") if n):
            sized = make_log(Path(directory), size, args.game)
            print(f"{args.game}, {size:,} coups: peak RSS {peak_kib(sized, size, args.game) / 1024:.0f} MiB")
            sized.unlink()


if __name__ == "__main__":
    main()
