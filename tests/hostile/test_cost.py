"""Any single file under the default limits goes through the whole command (load, shape, rules, JSON report)
under 500 MB peak RSS, is reported and fails, and does not run away. Each worst case (tests/hostile/worst.py) runs
in a fresh process with an address-space limit, in the background while the rest of the suite runs, so a
regression fails here instead of taking the machine down. The time target (under 10 s of CPU) is a benchmark's:
benchmarks/bench_hostile.py measures each case alone; a test beside the suite can only catch a runaway."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the generators, beside this file
import background  # noqa: E402
import worst  # noqa: E402
from background import PEAK_MB, RUNAWAY_SECONDS  # noqa: E402


@pytest.fixture(scope="module")
def measured() -> dict:
    """The cases measured in the background since the session started (conftest.py starts them); a session
    that did not (this file named some way `background.wanted` does not read) measures them now."""
    directory = os.environ.get(background.ENV)
    if directory:
        return {case: background.result(directory, case) for case in worst.CASES}
    here = background.Measurer(worst.CASES)
    try:
        return {case: background.result(here.directory, case) for case in worst.CASES}
    finally:
        here.stop()


@pytest.mark.parametrize("case", list(worst.CASES))
def test_worst_file_is_checked_within_bounds(measured, case):
    result = measured[case]
    # CPU seconds, scaled by how much slower than idle the machine ran meanwhile (worst.calibrate): a runaway.
    assert result["cpu_seconds"] < RUNAWAY_SECONDS * result["slowdown"], result
    assert result["peak_rss_mb"] < PEAK_MB, result
    assert result["findings"] > 0 and result["exit_code"] == 1, result  # reported and failed, never passed quietly


def test_every_worst_case_is_under_the_default_size_limit():
    for case, build in worst.CASES.items():
        assert len(build().encode("utf-8")) <= worst.LIMIT, case
