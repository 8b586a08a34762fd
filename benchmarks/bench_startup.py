"""Start-up: what a pre-commit hook or a CI step pays to start casino-audit for a handful of files.

    python benchmarks/bench_startup.py [--runs 10]

Times, as medians of N runs of a fresh process each: `python -c pass` (the floor), `casino-audit --help`, and
`casino-audit check` on one homologation file. Issue targets, here: `--help` under 0.15 s and the one-file check
under 0.3 s. Prints wall-clock medians and, less noisy on a shared machine, the children's CPU time.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "casino-audit --help": [sys.executable, "-m", "casino_audit", "--help"],
    "casino-audit check (one file)": [sys.executable, "-m", "casino_audit", "check",
                                      str(REPO / "examples/lu/machine-compliant.yaml")],
}
TARGETS = {"casino-audit --help": 0.15, "casino-audit check (one file)": 0.3}


def measure(command: list[str], runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env={**os.environ, "NO_COLOR": "1"})
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    # As installed (pip writes the bytecode): a fresh clone run where PYTHONDONTWRITEBYTECODE is set (this
    # machine's CI) would compile every module in every process timed, 0.4 s more for a one-file check.
    compileall.compile_dir(str(REPO / "casino_audit"), quiet=1)
    print(f"start-up, medians of {runs} runs (wall / CPU seconds)")
    for name, command in COMMANDS.items():
        wall, cpu = measure(command, runs)
        target = f"   target < {TARGETS[name]} s" if name in TARGETS else ""
        print(f"  {name:32} {wall:6.3f} / {cpu:6.3f}{target}")


if __name__ == "__main__":
    main()
