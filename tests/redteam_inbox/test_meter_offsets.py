"""Red team: readings whose UTC offsets change put a later reading in an earlier calendar month."""

import subprocess
import sys

from helpers.command import REPO

from _meterlog import HEADER, reading, rules, write


def test_a_later_reading_in_an_earlier_month_does_not_hang_the_drop_box_months(tmp_path):
    # 2026-02-01T00:30+01:00 is 2026-01-31T23:30Z; 2026-01-31T23:45+00:00 comes after it, in January again:
    # DropMonths._count walks months forward from February until it meets January, which it never does.
    readings = [reading(f"2026-01-{day:02d}T06:00:00+00:00", "M-001", day, counted=day == 29)
                for day in (29, 30, 31)]
    readings += [reading("2026-02-01T00:30:00+01:00", "M-001", 32),
                 reading("2026-01-31T23:45:00+00:00", "M-001", 33)]
    path = write(tmp_path, HEADER, readings)
    # the process boundary is what is tested: a check that never ends (the brief's cost limit is 10 s)
    try:
        done = subprocess.run([sys.executable, "-m", "casino_audit", "check", str(path), "--format", "json"],
                              cwd=REPO, capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired:
        raise AssertionError("check did not end within 10 s") from None
    assert done.returncode in (0, 1), done.stderr


def test_a_count_made_on_the_first_of_the_month_in_luxembourg_is_no_count_of_the_month_before(cli, tmp_path):
    # Readings at +01:00 (CET); the count made on 1 February at 00:30 in Luxembourg is written as the same instant
    # at +00:00, 2026-01-31T23:30: DropMonths._count takes the calendar month of the offset written, so January
    # passes. Game logs read a day as the table's local day and flag an offset that changes other than as the
    # zone does (docs/reference/game-logs-guide.md); meter logs neither.




    readings = [reading(f"2026-01-{day:02d}T06:00:00+01:00", "M-001", day) for day in range(1, 32)]
    readings.append(reading("2026-01-31T23:30:00+00:00", "M-001", 32, counted=True))
    readings += [reading(f"2026-02-{day:02d}T06:00:00+01:00", "M-001", 32 + day, counted=day == 10)
                 for day in range(1, 29)]
    path = write(tmp_path, HEADER, readings)
    done = cli("check", str(path), "--format", "json")
    assert "LU-SLOT-LOG-DROP-COUNT" in rules(done), done.stdout
