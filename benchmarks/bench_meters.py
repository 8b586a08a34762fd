"""Meter-log throughput: auditing a meter log against plainly parsing it, and peak memory by log size.

    python benchmarks/bench_meters.py [--readings 200000] [--machines 50] [--rounds 3] [--memory 20000,200000]

Writes a compliant log (`--machines` machines read daily, each judged against its own copy of
examples/lu/machine-compliant.yaml, filed for it),
then, alternating rounds in one process: baseline, each line read and json.loads'd; audit, the whole pipeline
(shape of every reading, coin-in agreement, rollovers, drop counts, the return test at the end). Prints readings
per second and the median ratio baseline/audit; with --memory, each size in a fresh process and its peak RSS.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_logs import plain  # noqa: E402 - the same baseline
from casino_audit.law.engine import Checker  # noqa: E402
from casino_audit.run.pipeline import run  # noqa: E402
from casino_audit.law.rulesets import load_builtin  # noqa: E402
from casino_audit.core.findings import Severity

PEAK = """
import resource, sys
sys.path.insert(0, {repo!r})
from benchmarks.bench_meters import audit
audit(__import__("pathlib").Path({path!r}), {readings})
# This process's own high-water mark (VmHWM): ru_maxrss would include the parent's, kept across fork and exec.
status = open("/proc/self/status").read() if sys.platform == "linux" else ""
print(next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")),
           resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
"""


def make_log(directory: Path, readings: int, machines: int) -> Path:
    """A compliant log, written a line at a time (never held whole): 92.5 % returned, 2.5 units a game."""
    model = (REPO / "examples/lu/machine-compliant.yaml").read_text("utf-8")
    for machine in range(machines):  # one file per machine, filed for it (its location number), as the law has it
        (directory / f"machine-m-{machine:03d}.yaml").write_text(
            f"{model.rstrip()}\nlocation_number: {{number: M-{machine:03d}, on_front: true}}\n", "utf-8")
    path = directory / f"meters-{readings}.jsonl"
    start = datetime(2026, 1, 1, 6)
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps({"kind": "meter-log", "jurisdiction": "LU", "casino": "Bench",
                              "machines": {f"M-{m:03d}": {"machine": f"machine-m-{m:03d}.yaml"}
                                           for m in range(machines)},
                              "capacity_digits": {"drop": 10, "coin_out": 10, "hand_paid_jackpots": 10,
                                                  "games_played": 10, "door_openings": 6},
                              "reading_interval_hours": 24, "denomination": "1.00"}) + "\n")
        for number in range(readings):
            day, machine = divmod(number, machines)
            coin_in = 100_000_000 + machine * 1_000_000 + day * 4000
            out.write(json.dumps({
                "time": (start + timedelta(days=day, minutes=machine)).isoformat(), "machine": f"M-{machine:03d}",
                "coin_in_1": coin_in, "coin_in_2": coin_in % 10 ** 8, "drop": 500_000 + day * 300,
                "coin_out": 7_000_000 + day * 3700, "hand_paid_jackpots": 40_000, "games_played": 2_000_000 + day * 1600,
                "door_openings": 10, **({"drop_box_counted": True} if (day + machine) % 7 == 0 else {})}) + "\n")
    return path


def audit(path: Path, readings: int) -> float:
    start = time.perf_counter()
    result = run([str(path)], Checker({"LU": load_builtin("lu")}))
    elapsed = time.perf_counter() - start
    assert result.files[0].records["checked"] == readings, result.files[0].records
    # compliant: no error nor warning (a last month read only in part is said not checked, an info)
    assert not [f for f in result.findings if f.file and f.severity is not Severity.INFO], result.findings[:3]
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--readings", type=int, default=200_000)
    parser.add_argument("--machines", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory", default="")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = make_log(Path(directory), options.readings, options.machines)
        ratios, audits = [], []
        for _ in range(options.rounds):
            baseline, audited = plain(path), audit(path, options.readings)
            ratios.append(baseline / audited)
            audits.append(audited)
        print(f"{options.readings:,} readings of {options.machines} machines: audit "
              f"{options.readings / statistics.median(audits):,.0f} readings/s, "
              f"{statistics.median(ratios):.2f} of the plain json.loads rate")
        for size in filter(None, options.memory.split(",")):
            sized = make_log(Path(directory), int(size), options.machines)
            done = subprocess.run([sys.executable, "-c", PEAK.format(repo=str(REPO), path=str(sized),
                                                                    readings=int(size))],
                                  capture_output=True, text=True, check=True)
            print(f"{int(size):,} readings: peak RSS {int(done.stdout.split()[-1]) / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
