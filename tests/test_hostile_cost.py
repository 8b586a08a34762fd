"""Any single file under the default limits goes through the whole command (load, shape, rules, JSON report) in
under 10 s and under 500 MB peak RSS. Each worst case (tests/hostile/worst.py) runs in a fresh process with an address-space limit,
in the background while the rest of the suite runs, so a regression fails here instead of taking the machine
down."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "hostile"))
import worst  # noqa: E402

SECONDS, PEAK_MB = 10, 500
ADDRESS_SPACE = 3 * 1024 ** 3  # a bomb stops here (MemoryError) rather than at the machine's end


def _measure(case: str, directory: Path) -> dict:
    (directory / case).mkdir(exist_ok=True)
    done = subprocess.run([sys.executable, str(HERE / "hostile" / "worst.py"), case, str(directory / case),
                           str(ADDRESS_SPACE)], capture_output=True, text=True, timeout=300, env=_ENVIRONMENT)
    assert done.returncode == 0, f"{case}: {done.stderr[-2000:]}"
    return json.loads(done.stdout)


def _run(case: str, directory: Path) -> dict:
    """A case over its bound is measured once more, the lower figure kept: on this 2-core virtual machine a
    process's CPU time grows by up to half while the rest of the suite runs beside it (shared caches and host
    cores). A real regression fails both measures."""
    result = _measure(case, directory)
    if result["cpu_seconds"] >= SECONDS * result["slowdown"] or result["peak_rss_mb"] >= PEAK_MB:
        again = _measure(case, directory)
        result = min(result, again, key=lambda r: (r["cpu_seconds"] / r["slowdown"], r["peak_rss_mb"]))
    return result


# The cases run in the background from the moment this module is collected, one at a time on the core the rest
# of the suite leaves free; each is measured in its own process's CPU time, which sharing the machine leaves
# alone. The tests below collect the results.
_DIRECTORY = Path(tempfile.mkdtemp(prefix="casino-audit-worst-"))
# The environment, copied now: in-process command tests (CliRunner) change os.environ while these children
# start from another thread, and a child that read it mid-change failed to start (EFAULT).
_ENVIRONMENT = dict(os.environ)
atexit.register(shutil.rmtree, _DIRECTORY, ignore_errors=True)
_POOL = ThreadPoolExecutor(max_workers=1)
_FUTURES = {case: _POOL.submit(_run, case, _DIRECTORY) for case in worst.CASES}


@pytest.fixture(scope="module")
def measured() -> dict:
    return {case: future.result() for case, future in _FUTURES.items()}


@pytest.mark.parametrize("case", list(worst.CASES))
def test_worst_file_is_checked_within_bounds(measured, case):
    result = measured[case]
    # CPU seconds, scaled by how much slower than idle the machine ran meanwhile (worst.calibrate).
    assert result["cpu_seconds"] < SECONDS * result["slowdown"], result
    assert result["peak_rss_mb"] < PEAK_MB, result
    assert result["findings"] > 0 and result["exit_code"] == 1, result  # reported and failed, never passed quietly


def test_every_worst_case_is_under_the_default_size_limit():
    for case, build in worst.CASES.items():
        assert len(build().encode("utf-8")) <= worst.LIMIT, case
