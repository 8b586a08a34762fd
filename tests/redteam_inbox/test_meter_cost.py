"""Red team: the drop-box month walk costs one finding per month between two readings, whatever the gap."""

import subprocess
import sys
import time

from helpers.command import REPO

from _meterlog import HEADER, reading, write


def test_readings_eight_thousand_years_apart_are_checked_within_ten_seconds(tmp_path):
    # 150 machines read on 2026-01-01 and 9999-12-31 (a 71 KB log): DropMonths._count yields a DROP-COUNT error
    # for each of the ~95,900 months between, per machine (14 million findings, 25 s on the shared machine);
    # the brief's limit for an input of at most 1 MB is 10 s.
    header = {key: value for key, value in HEADER.items() if key not in ("machine", "period")}
    readings = []
    for number in range(150):
        readings.append(reading("2026-01-01T06:00:00", f"X-{number}", 1, counted=True))
        readings.append(reading("9999-12-31T06:00:00", f"X-{number}", 2, counted=True))
    path = write(tmp_path, header, readings)
    assert path.stat().st_size < 1_000_000
    started = time.monotonic()
    try:  # the process boundary is what is tested: the cost of one check
        subprocess.run([sys.executable, "-m", "casino_audit", "check", str(path), "--format", "json"],
                       cwd=REPO, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pass
    assert time.monotonic() - started < 10
