"""The table's clock, as a log's times are read on it: a time without an offset is the table's local time (its
zone's clock changes: the hour it skips, the hour it goes through twice), one with an offset must be the offset
that clock shows or UTC, and a coup's day is the table's local day. Also the period the header declares, and the
coups stamped with one second. A part of the core's aspects (`OrderAspects`, whose state it reads).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Iterator

from casino_audit.core import findings as F
from casino_audit.core.display import brief
from casino_audit.core.findings import Finding
from casino_audit.core.values import show

SAME_SECOND = 10  # coups stamped with one second: no table plays so many so fast (a roulette spin takes a minute)


class TableClock:
    """How a coup's time is read on the table's clock (`zone`, the previous coup's `last_time`, `last_written`)."""

    def _offset_of_zone(self, record, data, written: datetime, when: datetime | None) -> Iterator[Finding]:
        """A time's offset from UTC is the one the table's clock shows at that instant, or UTC's: +14:00 on a Luxembourg
        table moves its coups to other days as a header `timezone` outside the jurisdiction would. The coup is
        read at the instant written (its day the table's at that instant); said once per offset."""
        if written.tzinfo is None or when is None or self.zone is None:
            return
        try:
            shown = when.astimezone(self.zone).utcoffset()
        except OverflowError:
            return
        offset = written.utcoffset()
        if offset in (shown, timedelta(0)) or offset in self.offsets_said:
            return  # UTC itself names the instant as well as the table's clock does
        last = self.last_written
        if last is not None and last.tzinfo is not None and offset != last.utcoffset():
            return  # an offset that moves from the previous coup's: the drift's finding (`order`), not two
        self.offsets_said.add(offset)
        yield self.session._tool(F.LOG_TIME, "/time", f"the coup is at {data['time']}, an offset from UTC the clock "
                                                      f"of {self.zone.key} does not show at that instant (it shows "
                                                      f"{_offset(shown)}): read as that instant, on the table's day "
                                                      f"{self._day(when)} (said once for each such offset)", record)

    def _clock(self, written: datetime, text: str) -> timedelta | None:
        """The offset from UTC of the clock a time is written by: its offset as written, but UTC itself is no clock
        of the table's that could drift. It names the instant as well as the table's clock does, and is read as the
        offset that clock shows at that instant (an export that writes +01:00, then from one coup on Z, changes no
        clock). UTC is a time written with "Z", or with +00:00 where the table's clock never shows +00:00 (a
        Luxembourg or Monaco table): in Lisbon or Madeira +00:00 is the winter clock's offset too, and +00:00 in
        summer there is read as that clock written out of season (the drift's finding). Where no zone is known,
        as written."""
        offset = written.utcoffset()
        if offset or offset is None or self.zone is None:
            return offset
        try:
            if not text.rstrip().upper().endswith("Z") and self._shows_utc(written.year):
                return offset
            return written.astimezone(self.zone).utcoffset()
        except (OverflowError, ValueError):
            return offset

    def _shows_utc(self, year: int) -> bool:
        """Whether the table's clock shows +00:00 in some season of `year` (its winter or its summer)."""
        return any(datetime(year, month, 15, 12, tzinfo=self.zone).utcoffset() == timedelta(0) for month in (1, 7))

    def _instant(self, written: datetime) -> datetime | None:
        """A coup's time as an instant: with its offset as written; without, as the table's local time (the hour
        the clock goes back is read as its first pass, unless that is before the previous coup), None where the
        clock never shows it. Where no zone is known, the time as written."""
        zone = self.zone
        if written.tzinfo is not None:
            try:
                return written.astimezone(timezone.utc)
            except OverflowError:  # the years 1 or 9999, past the calendar in UTC: compared as written
                return written
        if zone is None:
            return written
        try:
            first, second = (written.replace(tzinfo=zone, fold=fold).astimezone(timezone.utc) for fold in (0, 1))
        except OverflowError:
            return None
        if first.astimezone(zone).replace(tzinfo=None) != written:
            return None  # in the hour the clock skips
        if second != first and self.last_time is not None and self.last_time.tzinfo is not None \
                and first < self.last_time <= second:
            return second
        return first

    def _shift(self, before: datetime, after: datetime) -> timedelta:
        """How much the table's clock's offset from UTC moves between two instants (by its zone; by the summer
        time the EU sets where no zone is known)."""
        if self.zone is None:
            return _summer_time_shift(before, after)
        try:
            return after.astimezone(self.zone).utcoffset() - before.astimezone(self.zone).utcoffset()
        except OverflowError:
            return timedelta(0)

    def _in_period(self, record, when: datetime | None) -> Iterator[Finding]:
        """A coup played on a day outside the period the header declares (a séance begun within it may run past
        its last midnight): the log holds what it says it does not. The first is said at its line, the others
        counted at the close (`outside_period`)."""
        period = self.session.period
        if period is None:  # most logs: no local day worked out for nothing
            return
        day = self._day(when)
        if day is None:
            return
        first, last = (bound.isoformat() for bound in period)
        began = self.began.latest if self.began is not None else None
        # past the last midnight, into the next day's early hours, and no further: a label kept for days
        # (without session_break_minutes, a label is one séance however long its pauses) opens no period of its own
        after = (period[1] + timedelta(days=1)).isoformat() if period[1] < date.max else last
        if first <= day <= last or (day == after and began is not None and first <= began <= last):
            return
        count, coup = self.outside
        self.outside = (count + 1, coup if count else record.data.get("coup"))
        if not count:
            yield self.session._tool(F.LOG_TIME, "/time", f"the coup was played on {day}, outside the period the "
                                                          f"log declares ({first} to {last}): a log holds the coups "
                                                          "of the period it is filed for", record)

    def outside_period(self) -> Iterator[Finding]:
        count, coup = self.outside
        if count > 1:
            yield self.session._tool(F.LOG_TIME, "/period", f"{count:,} coups of the log are outside the period it "
                                                            f"declares (the first, coup {coup}, is said at its line)")

    def _day(self, when: datetime | None):
        """The table's local day of an instant (as written where no zone is known)."""
        if when is None:
            return None
        if self.zone is not None and when.tzinfo is not None:
            try:
                return when.astimezone(self.zone).date().isoformat()
            except OverflowError:
                pass
        return when.date().isoformat()

    def _stamped(self, record, data, when: datetime) -> Iterator[Finding]:
        """Coups stamped with one second: SAME_SECOND of them in a row is a log whose times are not the times of
        play (every turn and period measured from them would be nothing long)."""
        second = when.replace(microsecond=0)
        stamp = self.stamp
        if stamp is not None and stamp[0] == second:
            self.stamp = stamp = (second, stamp[1] + 1, stamp[2])
            if stamp[1] == SAME_SECOND:
                yield self.session._tool(F.LOG_TIME, "/time", f"{SAME_SECOND} coups in a row, from coup "
                                         f"{brief(show(stamp[2]))}, are stamped with the same second ({data['time']}):"
                                         " no table plays so fast, and the turns and periods measured from these "
                                         "times would all be none long", record)
        else:
            self.stamp = (second, 1, data.get("coup"))


def written_time(value) -> datetime | None:
    """A coup's `time` as written (ISO 8601), or None where it is none."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def _summer_time_shift(before: datetime, after: datetime) -> timedelta:
    """How much the clock's offset from UTC moves between two instants by the summer time the EU sets (Directive
    2000/84/EC, kept by Luxembourg, Portugal and Monaco): one hour forward at 01:00 UTC on March's last Sunday,
    back at 01:00 UTC on October's."""
    shift = timedelta(0)
    try:
        start, end = before.astimezone(timezone.utc), after.astimezone(timezone.utc)
    except OverflowError:  # an instant of the years 1 or 9999 past the calendar in UTC: no summer time known there
        return shift
    for year in range(start.year, min(end.year, start.year + 2) + 1):  # a longer gap is said as a change anyway
        for month, by in ((3, timedelta(hours=1)), (10, timedelta(hours=-1))):
            last = datetime(year, month, 31, 1, tzinfo=timezone.utc)
            switch = last - timedelta(days=(last.weekday() + 1) % 7)  # the month's last Sunday
            if start < switch <= end:
                shift += by
    return shift


def comparable(a: datetime, b: datetime) -> bool:
    """Whether two times can be put in order: both with an offset, or neither."""
    return (a.tzinfo is None) == (b.tzinfo is None)


def _offset(delta: timedelta) -> str:
    """An offset from UTC as ISO 8601 writes it (+01:00)."""
    minutes = int(delta.total_seconds()) // 60
    return f"{'-' if minutes < 0 else '+'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
