"""A meter log's readings on the jurisdiction's clock: the period the header declares, the hour the clock goes back
read as its second pass where that orders the readings, the gaps between readings as the shorter of the real time
and the time on the clock, an offset the clock does not show, and the readings outside the period. A part of
`MeterSession` (whose state it reads: `zone`, `interval`, `period`, `outside`).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Iterator
from zoneinfo import ZoneInfo

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Severity
from casino_audit.logs.period import declared_period


class ReadingClock:
    """The period and the times of a meter log's readings, on the jurisdiction's clock."""

    def _period(self, given) -> tuple[datetime, datetime] | None:
        period = declared_period(given)
        if isinstance(period, str):
            self._pending.append(self._tool(F.LOG_TIME, "/period", f"{period}; gaps at the log's start and end are "
                                            "measured from its first and last readings"))
            return None
        if period is None:
            return None  # the header's shape check says what is wrong with it
        first, last = period
        # The day after the last, or the last moment a time can have where the last day is 9999-12-31.
        end = datetime.max if last == date.max else datetime.combine(last + timedelta(days=1), datetime.min.time())
        return datetime.combine(first, datetime.min.time()), end

    def _second_pass(self, before: datetime, when: datetime) -> datetime:
        """A time without an offset in the hour the clock goes back, read as its second pass where the first would
        be at or before the machine's previous reading and the second after it (02:45 then 02:15 is half an hour
        on, the night the clock goes back): `fold` set, which the order and the gaps read; else as it was."""
        if when.tzinfo is not None or before.tzinfo is not None or self.zone is None or (when > before
                                                                                        and not before.fold):
            return when  # later as written, after a first pass: later as instants too (fold 0 keeps the order)
        try:
            second = when.replace(fold=1)
            first_at, second_at = _utc(when, self.zone), _utc(second, self.zone)
            if first_at != second_at and first_at <= _utc(before, self.zone) < second_at:
                return second
        except (OverflowError, ValueError):
            pass
        return when

    def _after(self, before: datetime, when: datetime) -> bool:
        """Whether a reading is after the machine's previous one: as instants where the clock's zone reads a time
        without an offset (the hour the clock goes back passes twice), else as written."""
        if when.tzinfo is None and before.tzinfo is None and self.zone is not None and (when <= before or before.fold
                                                                                        or when.fold):
            try:
                if _shown(when, self.zone) and _shown(before, self.zone):  # an hour the clock skips: as written
                    return _utc(when, self.zone) > _utc(before, self.zone)
            except (OverflowError, ValueError):
                pass
        return when > before

    def _gap(self, before: datetime, after: datetime) -> timedelta:
        """The time between two readings, the shorter of the real time and the time on the jurisdiction's clock: a
        daily reading at 06:00 is 24 hours on, though 25 hours pass the night the clock goes back (and 23 the night
        it goes forward, 24 on the clock)."""
        passed = after - before
        if self.zone is None or (self.interval is not None and timedelta(0) < passed <= self.interval):
            return passed  # within the interval as written: the shorter of the two is too (no zone work per reading)
        try:
            if before.tzinfo is not None:  # instants: their times on the clock
                clock = after.astimezone(self.zone).replace(tzinfo=None) - before.astimezone(self.zone).replace(tzinfo=None)
            else:  # the clock's times: the real time between them (two times in one zone subtract as on the clock)
                clock, passed = passed, _utc(after, self.zone) - _utc(before, self.zone)
                if clock <= timedelta(0) < passed:  # the repeated hour's second pass: as much on the clock
                    clock = passed
        except (OverflowError, ValueError):
            return passed
        return min(passed, clock)

    def _offset_held(self, when: datetime, data, record) -> Iterator[Finding]:
        """A reading's UTC offset is the one the jurisdiction's clock shows at that instant, or UTC: another moves
        the reading across a midnight (a count on 1 February at 01:00 written +03:00 falls in January). Said once
        per offset; the reading is used at the instant written, its day on the jurisdiction's clock."""
        offset = when.utcoffset()
        if not offset:
            return
        try:
            shown = when.astimezone(self.zone).utcoffset()
        except OverflowError:  # the years 1 or 9999: no clock to compare with
            return
        said = self.__dict__.setdefault("offsets_said", set())
        if offset != shown and offset not in said:
            said.add(offset)
            yield self._tool(F.LOG_TIME, "/time", f"`time` is {data['time']}: an offset from UTC the clock of "
                                                  f"{self.zone.key} does not show at that instant (it shows "
                                                  f"{_offset(shown)}); the reading is read at the instant written, "
                                                  "its day on that clock", record)

    def _in_period(self, when: datetime, record) -> Iterator[Finding]:
        """A reading on a day outside the period the header declares (on the jurisdiction's clock): used, but the
        log holds what it says it does not, a warning (a closing reading is often taken the morning after). The
        first is said at its line, the others counted at the close (`outside_period`)."""
        if self.period is None:
            return
        start, end = self.period
        written = when.date()
        if start.date() < written and (end == datetime.max or written < end.date() - timedelta(days=1)):
            return  # a day inside, whatever the offset (less than a day) makes of it on the clock
        try:
            day = (when.astimezone(self.zone) if when.tzinfo is not None and self.zone is not None else when).date()
        except OverflowError:
            return
        if start.date() <= day and (end == datetime.max or day < end.date()):
            return
        count, line = self.outside
        self.outside = (count + 1, line if count else record.line)
        if not count:
            last = end.date() - timedelta(days=1) if end != datetime.max else date.max
            yield self._tool(F.LOG_TIME, "/time", f"read on {day.isoformat()}, outside the period the log declares "
                                                  f"({start.date().isoformat()} to {last.isoformat()}); the reading "
                                                  "is used", record, Severity.WARNING)

    def outside_period(self) -> Iterator[Finding]:
        count, line = self.outside
        if count > 1:
            yield self._tool(F.LOG_TIME, "/period", f"{count:,} readings of the log are outside the period it "
                                                    f"declares (the first, line {line}, is said at its line)",
                             severity=Severity.WARNING)


def _utc(written: datetime, zone: ZoneInfo) -> datetime:
    """A time without an offset, on the jurisdiction's clock (its `fold` saying which pass of a repeated hour), as
    the instant it is."""
    return written.replace(tzinfo=zone).astimezone(timezone.utc)


def _shown(written: datetime, zone: ZoneInfo) -> bool:
    """Whether the clock shows that time (not in the hour it skips the night it goes forward)."""
    return _utc(written, zone).astimezone(zone).replace(tzinfo=None) == written.replace(fold=0)


def _offset(delta) -> str:
    """An offset from UTC as ISO 8601 writes it (+01:00)."""
    minutes = int(delta.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
