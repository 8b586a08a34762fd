"""Throughput of the whole check against merely parsing the same files with PyYAML's C loader.

    python benchmarks/bench_check.py [--files 2000] [--rounds 5]

Writes N realistic homologation files (the compliant example with seeded variations, about one in three
carrying a breach), then, in the same process and alternating rounds so machine noise hits both alike:
  baseline: read each file and yaml.load(..., Loader=CSafeLoader)
  check:    the whole pipeline (positions, duplicate keys, kind, schema, rules, findings) plus the JSON report
Prints documents per second (median over rounds) and the ratio check/baseline. Issue target: ratio >= 0.6.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from casino_audit.engine import Checker  # noqa: E402
from casino_audit.pipeline import run  # noqa: E402
from casino_audit.reporters import ReportContext, reporter  # noqa: E402
from casino_audit.findings import Severity  # noqa: E402
from casino_audit.provenance import in_use  # noqa: E402
from casino_audit.rulesets import load_builtin  # noqa: E402

VARIATIONS = [
    ("redistribution_rate: 92.5 %", "redistribution_rate: {rate} %"),
    ("serial_number: NV-232-0048817", "serial_number: NV-232-{serial}"),
    ("serial_number: NV-232-0048817", "serial_number: NV-232-{serial}"),
    ("model: Novo Dominator V.I.P. 2.32", "model: Model {serial}"),
]
BREACHES = [
    ("locks: {upper: 2, lower: 2}", "locks: {upper: 3, lower: 2}"),
    ("[0.50, 1.00, 2.00]", "[0.20, 1.00, 2.00]"),
    ("  new: true", "  new: false"),
    ("hopper: {fitted", "hoper: {fitted"),
]


def make_files(directory: Path, count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    base = (REPO / "examples/lu/machine-compliant.yaml").read_text("utf-8")
    paths = []
    for number in range(count):
        text = base
        for old, new in VARIATIONS:
            text = text.replace(old, new.format(rate=f"{rng.randint(850, 990) / 10:.1f}",
                                                serial=f"{rng.randrange(10**7):07d}"), 1)
        if rng.random() < 0.33:
            old, new = rng.choice(BREACHES)
            text = text.replace(old, new, 1)
        path = directory / f"machine-{number:05d}.yaml"
        path.write_text(text, "utf-8")
        paths.append(str(path))
    return paths


def baseline(paths: list[str]) -> float:
    start = time.perf_counter()
    for path in paths:
        with open(path, "rb") as handle:
            yaml.load(handle.read(), Loader=yaml.CSafeLoader)
    return time.perf_counter() - start


def full_check(paths: list[str], directory: str, checker: Checker, context: ReportContext) -> float:
    start = time.perf_counter()
    result = run([directory], checker)
    reporter("json")(result, context, io.StringIO())
    elapsed = time.perf_counter() - start
    assert result.summary()["documents"] == len(paths)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    lu = load_builtin("lu")
    checker = Checker({"LU": lu})
    context = ReportContext(Severity.ERROR, in_use({"LU": lu}), color=False)
    with tempfile.TemporaryDirectory() as tmp:
        paths = make_files(Path(tmp), args.files)
        full_check(paths, tmp, checker, context)  # warm caches: schemas compiled, files in the page cache
        base_times, check_times = [], []
        for _ in range(args.rounds):
            base_times.append(baseline(paths))
            check_times.append(full_check(paths, tmp, checker, context))
    base_rate = args.files / statistics.median(base_times)
    check_rate = args.files / statistics.median(check_times)
    print(f"files: {args.files}, rounds: {args.rounds} (medians)")
    print(f"parse only (PyYAML CSafeLoader): {base_rate:8.0f} documents/s")
    print(f"whole check + JSON report:       {check_rate:8.0f} documents/s")
    print(f"ratio check/parse: {check_rate / base_rate:.2f} (target >= 0.60)")


if __name__ == "__main__":
    main()
