"""The drop box counted every calendar month (meters' `drop_counted`): each month a machine's readings cover whole
is judged once they have passed it.

DropMonths is a part of meters.session.MeterSession: its methods use the session's findings, rules and period."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Iterator
from zoneinfo import ZoneInfo

from casino_audit.core import findings as F
from casino_audit.core import pointers
from casino_audit.core.display import brief
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.values import show
from casino_audit.meters.machines import Machine, spelling


SHOWN_MONTHS = 10  # machine months named in the one "not checked" finding; the rest are counted
PART_MONTHS_KEPT = 1_000


class DropMonths:
    """A meter session's drop-box months."""

    def _count(self, machine: Machine, when: datetime, counted: bool, record) -> Iterator[Finding]:
        """Calendar months without a drop-box count, each judged once the machine's readings have passed it and
        only if they cover it whole (read on its 1st or before, and again after its last day). A reading's month is
        the jurisdiction's calendar month (local_time)."""
        local = self.local_time(when)
        month = (local.year, local.month)
        if machine.month is None:
            machine.month, machine.month_whole, machine.counted = month, self._from_start(when), counted
            return
        # A month before the machine's current one (local times go on as the instants do, so only a time read
        # as written past the calendar's ends could): read in the current month, never a walk that cannot end.
        if month <= machine.month:
            machine.counted = machine.counted or counted
            return
        if machine.month_whole and not machine.counted:
            yield from self._uncounted(machine, machine.month, machine.record, "its last reading that month")
        elif not machine.counted:
            self._part_uncounted(machine, f"from {machine.first_time.date()} on")
        first, last = _next_month(machine.month), _month_before(month)
        if first <= last:  # months with no reading at all, between two readings: one finding, whatever their number
            yield from self._unread(machine, first, last, record)
        machine.month, machine.month_whole, machine.counted = month, True, counted

    def local_time(self, when: datetime) -> datetime:
        """`when` on the jurisdiction's clock (its first time zone), where it gives an offset: a count at
        2026-01-31T23:30:00+00:00 is made on 1 February in Luxembourg. A time without an offset, or where no zone
        is known, as written."""
        zone: ZoneInfo | None = self.zone
        if zone is None or when.tzinfo is None:
            return when
        try:
            return when.astimezone(zone)
        except OverflowError:  # the years 1 or 9999, past the calendar in that zone: as written
            return when

    def _from_start(self, when: datetime) -> bool:
        """A machine's first reading covers its month from the start: read on the 1st, or the log's period begins
        on the 1st or before, or the 1st is within one reading interval before it (a machine read every third day
        is read as often as its log says: its month is judged, whatever the interval)."""
        when = self.local_time(when)
        start = datetime(when.year, when.month, 1, tzinfo=when.tzinfo)
        if when.day == 1 or (self.interval is not None and when - start <= self.interval):
            return True
        return self.period is not None and self.period[0].replace(tzinfo=when.tzinfo) <= start

    def _to_end(self, when: datetime) -> bool:
        """A machine's last reading covers its month to the end: read on its last day, or the log's period ends
        with the month or after it, or the month ends within one reading interval after it."""
        when = self.local_time(when)
        if _month_ends(when):
            return True
        if (when.year, when.month) == (9999, 12):  # no month after it: the period's end is the last moment
            return self.period is not None and self.period[1] == datetime.max
        following = datetime(when.year + when.month // 12, when.month % 12 + 1, 1, tzinfo=when.tzinfo)
        if self.interval is not None and following - when <= self.interval:
            return True
        return self.period is not None and self.period[1].replace(tzinfo=when.tzinfo) >= following

    def unread_in_period(self, machine: Machine) -> Iterator[Finding]:
        """The months of the log's `period` before a machine's first reading and after its last, in which it is
        never read: as uncounted as a month between two readings (a filer does not hide a month by leaving out its
        readings), each end one finding; a month the period covers only in part is said not checked."""
        if self.period is None or machine.first_time is None or "drop_counted" not in self.by_aspect:
            return
        first_day, end = self.period
        last_day = datetime.max if end == datetime.max else end - timedelta(days=1)
        opening, closing = (first_day.year, first_day.month), (last_day.year, last_day.month)
        read_first = self.local_time(machine.first_time)
        read_first = (read_first.year, read_first.month)
        if opening < read_first:
            if first_day.day != 1:
                self._part_unread(machine, opening, f"from {first_day.date()} on, no reading")
                opening = _next_month(opening)
            if opening <= _month_before(read_first):
                yield from self._unread(machine, opening, _month_before(read_first), machine.first_record,
                                        "before its first reading, within the log's period")
        if machine.month is not None and machine.month < closing:
            if not (end == datetime.max or _month_ends(last_day)):
                self._part_unread(machine, closing, f"up to {last_day.date()}, no reading")
                closing = _month_before(closing)
            if _next_month(machine.month) <= closing:
                yield from self._unread(machine, _next_month(machine.month), closing, machine.record,
                                        "after its last reading, within the log's period")

    def entries_never_read(self) -> Iterator[Finding]:
        """The machines the header files in `machines` that no reading names (as a reader reads a name: `spelling`):
        a filer does not hide a machine by leaving out every reading of it. A gap over the whole log (LOG-GAP, a
        warning); with a `period`, each whole month of it a month without a drop-box count (one finding)."""
        entries = self.data.get("machines")
        if not isinstance(entries, dict):
            return
        read = {spelling(name) for name in self.machines if isinstance(name, str)}
        for name in entries:
            if not isinstance(name, str) or spelling(name) in read or not spelling(name):
                continue
            pointer = f"/machines/{pointers.escape(name)}"
            yield self._tool(F.LOG_GAP, pointer, f"machine {show(brief(name))} is filed in `machines` but no reading "
                                                 "of the log names it: its meters and its return are not judged",
                             severity=Severity.WARNING)
            if self.period is None or "drop_counted" not in self.by_aspect:
                continue
            first_day, end = self.period
            last_day = datetime.max if end == datetime.max else end - timedelta(days=1)
            first = (first_day.year, first_day.month) if first_day.day == 1 else \
                _next_month((first_day.year, first_day.month))
            last = (last_day.year, last_day.month) if end == datetime.max or _month_ends(last_day) else \
                _month_before((last_day.year, last_day.month))
            if first <= last:
                count = (last[0] - first[0]) * 12 + last[1] - first[1] + 1
                months = f"{first[0]}-{first[1]:02d}" if count == 1 else \
                    f"{first[0]}-{first[1]:02d} to {last[0]}-{last[1]:02d} ({count:,} months)"
                yield from self._breach(self.by_aspect["drop_counted"], self.header, pointer,
                                        f"machine {show(brief(name))}, filed in `machines`: no drop-box count in "
                                        f"{months} of the log's period, and no reading of it at all")

    def _part_unread(self, machine: Machine, month: tuple[int, int], read: str) -> None:
        """`month` of `machine` not judged (`read`: the days the log holds of it), said at the close."""
        if len(self.part_months) <= PART_MONTHS_KEPT:  # memory stays flat: the rest are counted
            self.part_months.append(f"{machine.label} ({month[0]}-{month[1]:02d}, {read})")
        else:
            self.part_months_more = getattr(self, "part_months_more", 0) + 1

    def _part_uncounted(self, machine: Machine, read: str) -> None:
        """A month the log covers only in part (`read`: the days it reads), with no drop-box count in them: the
        count may be in days the log does not hold, so the month is not judged, and that is said at the close
        (never passed in silence, as a log starting on the 10th with no `period` would be)."""
        self._part_unread(machine, machine.month, read)

    def partly_covered(self) -> Iterator[Finding]:
        """The months not judged for want of their other days, said once for every machine."""
        months = self.part_months
        if not months or "drop_counted" not in self.by_aspect:
            return
        shown = ", ".join(months[:SHOWN_MONTHS])
        more = len(months) - SHOWN_MONTHS + getattr(self, "part_months_more", 0)
        yield from self._not_checked(
            self.by_aspect["drop_counted"], self.header, "",
            f"the drop-box count of {shown}{f' and {more} more' if more > 0 else ''}: the log covers these months "
            "only in part (its `period` and its readings leave days of them out), and no count is in the part it "
            "covers; a count in the other days cannot be told from none. A log whose `period` covers the month "
            "has it judged")

    def _uncounted(self, machine: Machine, month: tuple[int, int], record, what: str) -> Iterator[Finding]:
        yield from self._breach(self.by_aspect["drop_counted"], record, "", f"machine {machine.label}: no drop-box "
                                f"count in {month[0]}-{month[1]:02d} ({what}; a count is a reading with "
                                "`drop_box_counted: true`)")


    def _unread(self, machine: Machine, first: tuple[int, int], last: tuple[int, int], record,
                where: str = "between two readings") -> Iterator[Finding]:
        """Months with no reading in them, `first` to `last`: one finding for the run (two readings 8,000 years
        apart would otherwise be 96,000 findings)."""
        if first == last:
            yield from self._uncounted(machine, first, record, f"no reading in it, {where}")
            return
        count = (last[0] - first[0]) * 12 + last[1] - first[1] + 1
        yield from self._breach(self.by_aspect["drop_counted"], record, "", f"machine {machine.label}: no drop-box "
                                f"count from {first[0]}-{first[1]:02d} to {last[0]}-{last[1]:02d} ({count:,} months, "
                                f"no reading in them, {where}; a count is a reading with `drop_box_counted: true`)")


def _next_month(month: tuple[int, int]) -> tuple[int, int]:
    return (month[0] + 1, 1) if month[1] == 12 else (month[0], month[1] + 1)


def _month_before(month: tuple[int, int]) -> tuple[int, int]:
    return (month[0] - 1, 12) if month[1] == 1 else (month[0], month[1] - 1)


def _month_ends(when: datetime) -> bool:
    """`when` is on its month's last day (9999-12-31, the last day a date can be, is one: no day after it)."""
    return when.date() == date.max or (when.date() + timedelta(days=1)).month != when.month
