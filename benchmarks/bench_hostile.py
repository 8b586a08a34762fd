"""The worst inputs, each through the whole command in a fresh process: CPU seconds and peak RSS against the
targets (issue 22: any input of at most 1 MB, or 100 KB of gzip, under 10 s and 500 MB).

    python benchmarks/bench_hostile.py [--cases NAME,NAME...] [--records-only] [--json]

The record streams and `rtp` sheets are written by tests/hostile/records.py (a 1 MB game-log line with a hundred
findings, with and without a baseline; a meter log cycling over many machines; a 451 KB ways sheet and a
50-paytable sheet for `rtp`); the single files of tests/hostile/worst.py (10 MiB each, under the default limits)
follow, measured by worst.py's own child process. Each case runs alone, one after the other, so two never share
the machine's cores; CPU time, not the wall clock, so a busy neighbour changes little. A case over a target is
marked OVER; the exit code is 1 if any is.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HOSTILE = REPO / "tests" / "hostile"
sys.path.insert(0, str(HOSTILE))

import records  # noqa: E402
import worst  # noqa: E402

SECONDS, PEAK_MIB = 10, 500

CHILD = """
import json, resource, sys
sys.path.insert(0, {repo!r})
from casino_audit.cli import app
try:
    app({args!r}, prog_name="casino-audit")
    code = 0
except SystemExit as exit_:
    code = exit_.code
usage = resource.getrusage(resource.RUSAGE_SELF)
# This process's own high-water mark (VmHWM): ru_maxrss would include the parent's, kept across fork and exec.
status = open("/proc/self/status").read() if sys.platform == "linux" else ""
peak = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), usage.ru_maxrss)
print(json.dumps({{"cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2), "peak_rss_mb": round(peak / 1024),
                  "exit_code": code}}))
"""


def _arguments(template: list[str], path: Path, report: Path) -> list[str]:
    filled = [part.format(path=path, dir=path.parent) for part in template]
    return filled + (["--format", "json", "-o", str(report)] if filled[0] == "check" else ["--format", "json"])


def _child(arguments: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD.format(repo=str(REPO), args=arguments)], capture_output=True,
                          text=True, timeout=1800)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_record_case(name: str, directory: Path) -> dict:
    write, template = records.CASES[name]
    case = directory / name
    case.mkdir()
    path = write(case)
    prepare = records.PREPARE.get(name)
    if prepare is not None:
        _child(_arguments(prepare, path, case / "prepared.json"))
    result = _child(_arguments(template, path, case / "report.json"))
    report = case / "report.json"
    if report.exists():
        summary = json.loads(report.read_text("utf-8"))["summary"]
        result["findings"] = summary["errors"] + summary["warnings"] + summary["infos"]
        result["baselined"] = summary["baselined"]
    return {"case": name, "bytes": path.stat().st_size, **result}


def measure_worst_case(name: str, directory: Path) -> dict:
    done = subprocess.run([sys.executable, str(HOSTILE / "worst.py"), name, str(directory)], capture_output=True,
                          text=True, timeout=1800)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    size = (directory / f"{name}{'.json' if name.startswith('json') else '.yaml'}").stat().st_size  # as worst.build
    return {"bytes": size, **result}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--records-only", action="store_true", help="only the record streams and rtp sheets")
    parser.add_argument("--json", action="store_true", help="one JSON line per case")
    options = parser.parse_args()
    names = [*records.CASES] + ([] if options.records_only else [*worst.CASES])
    if options.cases:
        wanted = options.cases.split(",")
        unknown = set(wanted) - set(names)
        if unknown:
            parser.error(f"unknown cases: {', '.join(sorted(unknown))}")
        names = [name for name in names if name in wanted]
    over = False
    if not options.json:
        print(f"{'case':28} {'bytes':>10} {'CPU s':>7} {'peak MiB':>9} {'exit':>4}  verdict (< {SECONDS} s, "
              f"< {PEAK_MIB} MiB)")
    for name in names:
        with tempfile.TemporaryDirectory(prefix="casino-audit-hostile-") as directory:
            result = (measure_record_case if name in records.CASES else measure_worst_case)(name, Path(directory))
        result.setdefault("case", name)
        within = result["cpu_seconds"] < SECONDS and result["peak_rss_mb"] < PEAK_MIB
        over = over or not within
        if options.json:
            print(json.dumps({**result, "within": within}), flush=True)
        else:
            print(f"{name:28} {result['bytes']:>10,} {result['cpu_seconds']:>7.2f} {result['peak_rss_mb']:>9} "
                  f"{result['exit_code']:>4}  {'ok' if within else 'OVER'}", flush=True)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
