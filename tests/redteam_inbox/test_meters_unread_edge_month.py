"""A calendar month the log's `period` covers in which a machine is never read, and so never has its drop box
counted, is a LU-SLOT-LOG-DROP-COUNT error between two readings ("no reading in it") but nothing at all when it is
the period's last (or first) month: only a LOG-GAP warning, exit 0.

Art. 18-13: "En tant que de besoin et au moins une fois par mois il est procédé à la comptée des boîtes qui
reçoivent les pièces de monnaie ou les token dans les appareils à sous."

M-001 read daily in January, counted weekly, never in February; the header's period runs to 2026-02-28. February
has no count: the drop-count rule says neither a breach nor "not checked" (months.py judges a month only once a
reading has passed it, and at the close only the month of the last reading), where the same February between a
January and a March reading is an error. A filer hides an uncounted month by leaving its readings out of the log.
"""

from __future__ import annotations

from casino_audit.core.findings import Severity
from helpers.meters import COUNT, EXAMPLE_HEADER, check, example_reading, write_example


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
