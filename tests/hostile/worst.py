"""The worst single files under the default limits (10 MiB, 1,000,000 values), and a child-process measure.

    python tests/hostile/worst.py CASE DIR [MAX_ADDRESS_SPACE_BYTES]
                                               build CASE in DIR, load + shape + rules it, print JSON:
                                               {"case", "cpu_seconds", "seconds", "peak_rss_mb", ...}

The file goes through the whole command, as a user runs it: load, shape, rules, findings counted exactly and
the first 20 of each rule and file kept, the JSON report written.

Each case is what a filer could send to make one file cost the most: memory through aliases, time through
values or findings by the hundred thousand, pointers through long keys. tests/hostile/test_cost.py runs
every case in a fresh process and asserts peak RSS and a runaway bound; benchmarks/bench_hostile.py the 10 s target.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

MIB = 1024 * 1024
LIMIT = 10 * MIB  # the default --max-file-size
HEAD = "kind: machine\njurisdiction: LU\n"


def _fill(head: str, unit: str, tail: str = "", limit: int = LIMIT - 64) -> str:
    return head + unit * ((limit - len(head) - len(tail)) // len(unit)) + tail


def alias_fanout() -> str:
    # One 5 MB string, referenced 2,000 times where a number is expected (shape and rule quote it).
    return (HEAD + 'filing: {reference: &s "' + "x" * (5 * MIB) + '"}\n'
            + "coin_acceptor:\n  coin_denominations_eur: [" + ", ".join(["*s"] * 2000) + "]\n")


def list_900k() -> str:
    # 900k coins of 0.10 EUR: each a breach of the 0.50 minimum (a rule with a wildcard).
    return HEAD + "coin_acceptor:\n  coin_denominations_eur:\n" + "  - 0.10\n" * 900_000


def list_900k_shape() -> str:
    # 900k meters that are not mappings: each a shape error.
    return HEAD + "meters:\n" + "- x\n" * 900_000


def scalars_flow() -> str:
    # 10 MB of one-digit values in one flow list: five million values.
    return _fill(HEAD + "meters: [", "1,", "1]\n")


def many_keys() -> str:
    # 490k unknown top-level fields (with their values, just under the 1,000,000 keys and values allowed).
    return HEAD + "".join(f"k{n:07d}: 1\n" for n in range(490_000))


def many_documents() -> str:
    # A quarter of a million tiny filings in one file, each missing every field the law requires.
    return _fill("", "--- {kind: machine, jurisdiction: LU}\n")


def long_keys() -> str:
    # Fifty nested 100 kB keys (explicit `? `: a plain key stops at 1,024 characters), then 900k values under
    # them: a pointer string per value would be 5 MB each, 4.5 TB in all.
    text, indent = HEAD, ""
    for depth in range(50):
        text += f"{indent}? k{depth}{'k' * 100_000}\n{indent}:\n"
        indent += " "
    return text + indent + "[" + "0," * 900_000 + "0]\n"


def json_long_keys() -> str:
    text = "".join(f'{{"k{depth}{"k" * 100_000}": ' for depth in range(50))
    return '{"kind": "machine", "jurisdiction": "LU", "x": ' + text + "[" + "0," * 900_000 + "0]" + "}" * 51


def schedule_keys() -> str:
    # A roulette table whose closed payout schedule has some 490k entries the law does not list.
    return ("kind: table\njurisdiction: LU\ngame: english_roulette\npayouts:\n"
            + "".join(f"  c{n:07d}: 35\n" for n in range(490_000)))


def long_values() -> str:
    # A 10 MB rate, quoted by its shape error and its rule.
    return HEAD + 'redistribution_rate: "' + "9" * (LIMIT - 200) + '"\n'


def json_numbers() -> str:
    # 10 MB of JSON numbers: 2.5 million values.
    return _fill('{"kind": "machine", "jurisdiction": "LU", "coin_acceptor": {"coin_denominations_eur": [',
                 "0.1,", "0.1]}}")


def json_keys() -> str:
    return '{"kind": "machine", "jurisdiction": "LU", ' + ", ".join(f'"k{n:07d}": 1' for n in range(490_000)) + "}"


def _machine_with_par(par: dict) -> str:
    # The three-reel example's declarations with other PAR data: what its mathematics cost is the case.
    example = Path(__file__).resolve().parents[2] / "examples" / "lu" / "machine-par-three-reel.yaml"
    text = example.read_text("utf-8")
    return text[:text.index("\npar:\n") + 1] + "par: " + json.dumps(par) + "\n"


def par_scatters() -> str:
    # Twenty scatter symbols counted on tall windows of three 100-stop reels: every combination of counts.
    import random

    rng = random.Random(5)
    symbols = [f"S{i}" for i in range(20)] + ["X"]
    return _machine_with_par({
        "symbols": symbols, "rows": 10, "lines": [[0] * 3],
        "reels": [{"strip": [rng.choice(symbols) for _ in range(100)]} for _ in range(3)],
        "paytables": [{"name": "base", "credits_per_line": 1, "pays": [{"symbol": "X", "count": 1, "pays": 1}],
                       "scatters": [{"symbol": f"S{i}", "count": 10, "pays": 1} for i in range(20)]}]})


def par_wild_multipliers() -> str:
    # A ways game of 400 wilds, each its own multiplier, the highest applying: a term per level and entry.
    symbols = [f"A{i}" for i in range(100)] + [f"W{i}" for i in range(400)]
    return _machine_with_par({
        "symbols": symbols, "rows": 3, "reels": [{"strip": symbols} for _ in range(5)], "ways": True,
        "wild_multipliers": "highest", "wilds": [{"symbol": f"W{i}", "multiplier": i + 2} for i in range(400)],
        "paytables": [{"name": "base", "credits_per_spin": 25,
                       "pays": [{"symbol": f"A{i}", "count": c, "pays": c} for i in range(100) for c in range(1, 6)]}]})


def par_line_wins() -> str:
    # Every win on a line paid (line_wins: all): 2,000 entries on 500 lines of nine 50-symbol reels.
    symbols = [f"A{i}" for i in range(50)]
    return _machine_with_par({
        "symbols": symbols, "rows": 1, "reels": [{"strip": symbols} for _ in range(9)], "lines": [[0] * 9] * 500,
        "line_wins": "all", "paytables": [{"name": "base", "credits_per_line": 1, "pays": [
            {"combination": [f"A{i % 50}"] * (1 + i % 9), "pays": 1 + i} for i in range(2000)]}]})


CASES = {f.__name__: f for f in (alias_fanout, list_900k, list_900k_shape, scalars_flow, many_keys, many_documents,
                                  long_keys, schedule_keys, long_values, json_numbers, json_keys, json_long_keys,
                                  par_scatters, par_wild_multipliers, par_line_wins)}


def build(case: str, directory: Path) -> Path:
    suffix = ".json" if case.startswith("json") else ".yaml"
    path = directory / f"{case}{suffix}"
    data = CASES[case]().encode("utf-8")
    assert len(data) <= LIMIT, (case, len(data))
    path.write_bytes(data)
    return path


def check(path: Path) -> tuple[int, int]:
    """The whole command on one file, as a user runs it (load, shape, rules, capped findings, JSON report):
    (exit code, findings counted)."""
    from casino_audit.cli import app

    report = path.with_name(path.name + ".report.json")
    try:
        app(["check", str(path), "--format", "json", "-o", str(report)], prog_name="casino-audit")
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    summary = json.loads(report.read_text("utf-8"))["summary"]
    return code, summary["errors"] + summary["warnings"] + summary["infos"]


# CPU seconds of `calibrate()` on this machine when it is idle (2 cores, 2026-11-30; the best of five runs). The
# machine is a virtual one: when a neighbour or the rest of the test suite loads it, every process's CPU time
# grows. The bound is then scaled by how much slower this fixed workload ran beside the case (never tightened).
IDLE_CALIBRATION = 0.19


def calibrate() -> float:
    """CPU seconds of a fixed pure-Python workload: how fast this machine is right now."""
    start, total = time.process_time(), 0
    for number in range(2_000_000):
        total += number * number % 7
    return time.process_time() - start


def measure(case: str, directory: Path) -> dict:
    path = build(case, directory)
    speed = calibrate()
    start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    code, found = check(path)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    # CPU time, not the wall clock: what the file costs, whatever else the machine is doing meanwhile.
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    slowdown = max(1.0, (speed + calibrate()) / 2 / IDLE_CALIBRATION)
    return {"case": case, "cpu_seconds": round(cpu, 2), "slowdown": round(slowdown, 2), "seconds": round(seconds, 2),
            "peak_rss_mb": round(after.ru_maxrss / 1024), "findings": found, "exit_code": code}


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's casino_audit, not an installed one
    if len(sys.argv) > 3:  # an address-space limit: a bomb stops here (MemoryError), not at the machine's end
        resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[3]), int(sys.argv[3])))
    print(json.dumps(measure(sys.argv[1], Path(sys.argv[2]))))
