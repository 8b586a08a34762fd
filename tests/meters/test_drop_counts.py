"""A month without a drop-box count (LU Art. 18-13) is found whatever the log's reading interval: its first and
last readings cover the month where they fall within one interval of its start and end, or where the log's period
does."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import datetime, timedelta

from hypothesis import given, settings, strategies as st

from casino_audit.core.findings import Severity
from helpers.command import REPO
from helpers.meters import (COUNT, EXAMPLE_HEADER, START, PER_DAY, check, example_reading, header, rule_ids, write,
                            write_example)


def _readings(hours: int, first: datetime, last: datetime, counted_from: datetime | None) -> list[dict]:
    """One machine read every `hours` hours from `first` to `last`, its drop box counted at every reading from
    `counted_from` on (never where None)."""
    found, when, number = [], first, 0
    while when <= last:
        meters = {meter: START[meter] + number * PER_DAY[meter] for meter in PER_DAY}
        record = {"time": when.isoformat(), "machine": "M-1", "coin_in_1": meters["coin_in_1"],
                  "coin_in_2": meters["coin_in_1"] % 10 ** 8, **{m: v for m, v in meters.items() if m != "coin_in_1"}}
        if counted_from is not None and when >= counted_from:
            record["drop_box_counted"] = True
        found.append(record)
        when += timedelta(hours=hours)
        number += 1
    return found


@settings(max_examples=30, deadline=None)
@given(hours=st.integers(24, 240), offset=st.integers(0, 23))
def test_a_month_without_a_count_is_found_whatever_the_reading_interval(tmp_path_factory, hours, offset):
    # Read every `hours` hours from within one interval of January's start; counted from February on only.
    first = datetime(2026, 1, 1, 6) + timedelta(hours=offset * hours // 24)
    records = [header(reading_interval_hours=hours, period={"from": "2026-01-01", "to": "2026-03-31"}),
               *_readings(hours, first, datetime(2026, 3, 31, 6), datetime(2026, 2, 1))]
    path = write(tmp_path_factory.mktemp("drop"), records)
    counts = [f for f in check(path).findings if f.rule_id == COUNT]
    assert [f.message.split("count in ")[1][:7] for f in counts] == ["2026-01"], hours


def test_a_month_read_every_third_day_from_the_second_is_judged_without_a_period(tmp_path):
    records = [header(reading_interval_hours=72, period=None),
               *_readings(72, datetime(2026, 1, 2, 6), datetime(2026, 3, 1, 6), datetime(2026, 2, 1))]
    counts = [f for f in check(write(tmp_path, records)).findings if f.rule_id == COUNT]
    assert [f.message.split("count in ")[1][:7] for f in counts] == ["2026-01"]


def test_the_last_month_is_judged_when_the_log_ends_within_one_interval_of_its_end(tmp_path):
    # counted in January only; read every 72 hours, last on February 27th: its end is within the interval
    records = [header(reading_interval_hours=72, period=None),
               *_readings(72, datetime(2026, 1, 1, 6), datetime(2026, 2, 27, 6), None)]
    records[1]["drop_box_counted"] = True
    counts = [f for f in check(write(tmp_path, records)).findings if f.rule_id == COUNT]
    assert [f.message.split("count in ")[1][:7] for f in counts] == ["2026-02"]


def test_a_month_the_log_starts_in_its_middle_is_still_not_judged(tmp_path):
    # read daily from the 15th, no period: the count may have been made before the log began (not judged, and
    # said: an info note, never a breach)
    records = [header(reading_interval_hours=24, period=None),
               *_readings(24, datetime(2026, 1, 15, 6), datetime(2026, 2, 28, 6), datetime(2026, 2, 1))]
    found = [f for f in check(write(tmp_path, records)).findings if f.rule_id == COUNT]
    assert [(f.severity.name, f.message[:47]) for f in found] == [("INFO", "not checked: the drop-box count of M-1 (2026-01")]


def test_a_first_month_the_log_covers_only_in_part_is_said_not_judged(tmp_path):
    """No `period`, read daily from 10 January, no count before February: January's count may be in the nine
    days the log does not hold, so January is not judged; that was passed in silence, and is now said (an error
    under --require-params). February, covered whole, is judged as ever."""
    records = [header(), *_readings(24, datetime(2026, 1, 10, 6), datetime(2026, 3, 1, 6), datetime(2026, 2, 1))]
    path = write(tmp_path, records)
    said = [f for f in check(path).findings if f.rule_id == COUNT]
    assert len(said) == 1 and said[0].message.startswith("not checked: the drop-box count of M-1 (2026-01, from "
                                                         "2026-01-10 on)") and said[0].severity.name == "INFO"
    strict = [f for f in check(path, require_params=True).findings if f.rule_id == COUNT]
    assert [f.severity.name for f in strict] == ["ERROR"]
    # the same log whose period says January is covered from its 1st: January judged, a breach
    records[0] = header(period={"from": "2026-01-01", "to": "2026-03-01"})
    path = write(tmp_path, records)
    counts = [f for f in check(path).findings if f.rule_id == COUNT]
    assert [f.message.split("count in ")[1][:7] for f in counts] == ["2026-01"]


def test_a_last_month_cut_short_without_a_count_is_said_too(tmp_path):
    records = [header(), *_readings(24, datetime(2026, 1, 1, 6), datetime(2026, 2, 10, 6), datetime(2026, 1, 15))]
    for record in records[1:]:
        if record["time"] >= "2026-02":
            record.pop("drop_box_counted", None)
    said = [f.message for f in check(write(tmp_path, records)).findings if f.rule_id == COUNT]
    assert said == ["not checked: the drop-box count of M-1 (2026-02, up to 2026-02-10): the log covers these "
                    "months only in part (its `period` and its readings leave days of them out), and no count is "
                    "in the part it covers; a count in the other days cannot be told from none. A log whose "
                    "`period` covers the month has it judged"]


def test_a_later_reading_in_an_earlier_offset_month_does_not_hang_the_drop_box_months(tmp_path):
    # 2026-02-01T00:30+01:00 is 2026-01-31T23:30Z; 2026-01-31T23:45+00:00 comes after it: read in the month its
    # offset writes, it fell back into January and the month walk from February never ended
    readings = [example_reading(f"2026-01-{day:02d}T06:00:00+00:00", "M-001", day, counted=day == 29)
                for day in (29, 30, 31)]
    readings += [example_reading("2026-02-01T00:30:00+01:00", "M-001", 32),
                 example_reading("2026-01-31T23:45:00+00:00", "M-001", 33)]
    path = write_example(tmp_path, EXAMPLE_HEADER, readings)
    try:  # the process boundary is what is tested: a check that never ends
        done = subprocess.run([sys.executable, "-m", "casino_audit", "check", str(path), "--format", "json"],
                              cwd=REPO, capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired:
        raise AssertionError("check did not end within 10 s") from None
    assert done.returncode in (0, 1), done.stderr


def test_a_count_made_on_the_first_of_the_month_in_luxembourg_is_no_count_of_the_month_before(cli, tmp_path):
    # 2026-01-31T23:30:00+00:00 is 1 February, 00:30, in Luxembourg: January has no count
    readings = [example_reading(f"2026-01-{day:02d}T06:00:00+01:00", "M-001", day) for day in range(1, 32)]
    readings.append(example_reading("2026-01-31T23:30:00+00:00", "M-001", 32, counted=True))
    readings += [example_reading(f"2026-02-{day:02d}T06:00:00+01:00", "M-001", 32 + day, counted=day == 10)
                 for day in range(1, 29)]
    done = cli("check", str(write_example(tmp_path, EXAMPLE_HEADER, readings)), "--format", "json")
    assert "LU-SLOT-LOG-DROP-COUNT" in rule_ids(done), done.stdout
    assert "2026-01" in done.stdout


def test_months_with_no_reading_between_two_readings_are_one_finding(cli, tmp_path):
    header = {key: value for key, value in EXAMPLE_HEADER.items() if key not in ("machine", "period")}
    readings = [example_reading("2026-01-01T06:00:00", "X-1", 1, counted=True),
                example_reading("2026-05-31T06:00:00", "X-1", 2, counted=True)]
    done = cli("check", str(write_example(tmp_path, header, readings)), "--format", "json")
    found = [f for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "LU-SLOT-LOG-DROP-COUNT"]
    assert [f["message"] for f in found] == [
        "machine X-1: no drop-box count from 2026-02 to 2026-04 (3 months, no reading in them, between two readings; a count is a reading "
        "with `drop_box_counted: true`)"], done.stdout


def test_readings_eight_thousand_years_apart_are_checked_within_ten_seconds(tmp_path):
    # 150 machines read on 2026-01-01 and 9999-12-31 (71 KB): one finding per month between them was 14 million
    header = {key: value for key, value in EXAMPLE_HEADER.items() if key not in ("machine", "period")}
    readings = []
    for number in range(150):
        readings.append(example_reading("2026-01-01T06:00:00", f"X-{number}", 1, counted=True))
        readings.append(example_reading("9999-12-31T06:00:00", f"X-{number}", 2, counted=True))
    path = write_example(tmp_path, header, readings)
    started = time.monotonic()
    try:  # the process boundary is what is tested: the cost of one check
        subprocess.run([sys.executable, "-m", "casino_audit", "check", str(path), "--format", "json"],
                       cwd=REPO, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pass
    assert time.monotonic() - started < 10



# A calendar month the log's `period` covers in which a machine is never read, and so never has its drop box
# counted, is a LU-SLOT-LOG-DROP-COUNT error between two readings ("no reading in it") but nothing at all when it is
# the period's last (or first) month: only a LOG-GAP warning, exit 0.
#
# Art. 18-13: "En tant que de besoin et au moins une fois par mois il est procédé à la comptée des boîtes qui
# reçoivent les pièces de monnaie ou les token dans les appareils à sous."
#
# M-001 read daily in January, counted weekly, never in February; the header's period runs to 2026-02-28. February
# has no count: the drop-count rule says neither a breach nor "not checked" (months.py judges a month only once a
# reading has passed it, and at the close only the month of the last reading), where the same February between a
# January and a March reading is an error. A filer hides an uncounted month by leaving its readings out of the log.
def _january() -> list[dict]:
    return [example_reading(f"2026-01-{day + 1:02d}T06:00:00", "M-001", day, counted=day % 7 == 0)
            for day in range(31)]


def test_the_period_s_last_month_unread_is_judged(tmp_path):
    findings = check(write_example(tmp_path, EXAMPLE_HEADER, _january())).findings
    said = [f for f in findings if f.rule_id == COUNT]
    assert said and all(f.severity == Severity.ERROR for f in said), \
        [(f.rule_id, f.severity.name, f.message[:160]) for f in findings]


def test_the_period_s_first_month_unread_is_judged(tmp_path):
    february = [example_reading(f"2026-02-{day + 1:02d}T06:00:00", "M-001", day, counted=day % 7 == 0)
                for day in range(28)]
    findings = check(write_example(tmp_path, EXAMPLE_HEADER, february)).findings
    said = [f for f in findings if f.rule_id == COUNT]
    assert said and all(f.severity == Severity.ERROR for f in said), \
        [(f.rule_id, f.severity.name, f.message[:160]) for f in findings]


def test_the_same_month_between_two_readings_is_an_error(tmp_path):
    # the control: February unread between January and March is LU-SLOT-LOG-DROP-COUNT, an error (passes today)
    march = [example_reading(f"2026-03-{day + 1:02d}T06:00:00", "M-001", 31 + day, counted=day % 7 == 0)
             for day in range(31)]
    header = {**EXAMPLE_HEADER, "period": {"from": "2026-01-01", "to": "2026-03-31"}}
    findings = check(write_example(tmp_path, header, [*_january(), *march])).findings
    assert [f.severity for f in findings if f.rule_id == COUNT] == [Severity.ERROR]
