"""Any single file under the default limits goes through the whole command (load, shape, rules, JSON report) in
under 10 s and under 500 MB peak RSS. Each worst case (tests/hostile/worst.py) runs in a fresh process with an address-space limit,
two at a time (one per core), so a regression fails here instead of taking the machine down."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "hostile"))
import worst  # noqa: E402

SECONDS, PEAK_MB = 10, 500
ADDRESS_SPACE = 3 * 1024 ** 3  # a bomb stops here (MemoryError) rather than at the machine's end


def _run(case: str, directory: Path) -> dict:
    done = subprocess.run([sys.executable, str(HERE / "hostile" / "worst.py"), case, str(directory / case),
                           str(ADDRESS_SPACE)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{case}: {done.stderr[-2000:]}"
    return json.loads(done.stdout)


@lru_cache(maxsize=1)
def _measured(directory: str) -> dict:
    for case in worst.CASES:
        (Path(directory) / case).mkdir(exist_ok=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda case: _run(case, Path(directory)), worst.CASES)
        return {result["case"]: result for result in results}


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> dict:
    return _measured(str(tmp_path_factory.mktemp("worst")))


@pytest.mark.parametrize("case", list(worst.CASES))
def test_worst_file_is_checked_within_bounds(measured, case):
    result = measured[case]
    assert result["cpu_seconds"] < SECONDS, result  # CPU time: two cases share the two cores
    assert result["peak_rss_mb"] < PEAK_MB, result
    assert result["findings"] > 0 and result["exit_code"] == 1, result  # reported and failed, never passed quietly


def test_every_worst_case_is_under_the_default_size_limit():
    for case, build in worst.CASES.items():
        assert len(build().encode("utf-8")) <= worst.LIMIT, case
