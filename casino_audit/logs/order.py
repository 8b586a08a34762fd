"""Whether a log is whole and in order, coup by coup: its numbering, its times (read in the table's zone,
through its clock changes), its sessions and the séances they belong to, and the names that say nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from fractions import Fraction
from typing import Iterator

from casino_audit.core import findings as F
from casino_audit.core import pointers
from casino_audit.core.display import brief, nameless
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.values import show
from casino_audit.law.model import Rule
from casino_audit.replay import money
from casino_audit.logs.clock import TableClock, comparable, written_time
from casino_audit.logs.names import _same_name


SESSIONS_KEPT = 100_000  # the sessions of one log remembered, to find one that comes back
# the parameter naming the least pause between two séances of a table: a session label changed after less is the
# séance going on (LOG-SESSION), never a new one that starts again what the law keeps through a séance
SESSION_BREAK = "session_break_minutes"
NAMES_SAID = 10_000  # the names that say nothing remembered, each said once (memory stays flat past that)


class OrderAspects(TableClock):
    """The numbering, times and séances of the core's aspects (a part of `CoreAspects`, whose state it reads)."""

    def order(self, record, data, refused: bool = False) -> Iterator[Finding]:
        """Whether the log is whole and in order, always checked (a gap is coups nobody can replay), for a coup
        whose shape is `refused` too (a time that is no text is then the shape's finding alone); returns the
        coup's time, if it is one."""
        yield from self._numbered(record, data)
        when = yield from self._timed(record, data, refused)
        if when is None and refused and not isinstance(data.get("time"), str):
            return None
        yield from self._labelled(record, data, when)
        yield from self._staff_named(record, data)
        return when

    def _numbered(self, record, data) -> Iterator[Finding]:
        """Coups numbered 1, 2, 3 ... from the header's `first_coup`: a gap, a repeat or a step back is said."""
        number = data.get("coup")  # a whole number written 2.0 is read as 2 (values.log_number)
        tool = self.session._tool
        if type(number) is int:
            last = self.last_coup
            first = self.first_coup
            if last is None and number != first:  # coups cut from the log's start are as missing as any others
                what = (f"coups {first} to {number - 1} are not in it" if number > first + 1 else
                        f"coup {first} is not in it") if number > first else f"its header says it starts at {first}"
                yield tool(F.LOG_NUMBERING, "/coup", f"the log starts at coup {number}: {what} (a log that continues "
                                                     "another gives the number of its first coup in its header, "
                                                     "`first_coup`)", record)
            elif last is not None and number != last + 1:
                what = ((f"coup {last + 1} is missing" if number == last + 2 else
                         f"{number - last - 1} coups are missing ({last + 1} to {number - 1})") if number > last + 1
                        else "the same number again" if number == last else "a step back")
                yield tool(F.LOG_NUMBERING, "/coup", f"coup {number} follows coup {last}: {what}", record)
            self.last_coup = number

    def _timed(self, record, data, refused: bool) -> Iterator[Finding]:
        """The coup's time read on the table's clock, in order after the previous coup's; returns its instant, or
        None (unread, or in an hour the clock skips)."""
        tool = self.session._tool
        written = written_time(data.get("time"))
        when = None
        self.idle, self.new_day = None, False
        if written is None:
            if refused and not isinstance(data.get("time"), str):
                return None
            yield tool(F.LOG_TIME, "/time", f"`time` is {brief(show(data.get('time')))}, not an ISO 8601 time", record)
        elif self.last_written is not None and not comparable(written, self.last_written):
            # which came first is unknowable: said, never skipped
            yield tool(F.LOG_TIME, "/time", f"the coup is at {data['time']}, "
                                            f"{'with' if written.tzinfo else 'without'} a time zone, the previous "
                                            f"coup at {self.last_written.isoformat()}, "
                                            f"{'with' if self.last_written.tzinfo else 'without'}: the two cannot be "
                                            "put in order (a log's times all give a zone, or none does)", record)
            when = self._instant(written)
            self.last_written, self.last_time = written, when
            self.last_clock = self._clock(written, data["time"])
        else:
            when = self._instant(written)
            last = self.last_time
            yield from self._offset_of_zone(record, data, written, when)
            if when is None:
                yield tool(F.LOG_TIME, "/time", f"the coup is at {data['time']}, a time the clock of "
                                                f"{self.zone.key} never shows (it goes forward an hour that night)",
                           record)
            elif last is None:
                pass
            elif when < last:
                yield tool(F.LOG_TIME, "/time", f"the coup is at {data['time']}, before the previous coup "
                                                f"({self.last_written.isoformat()})", record)
            elif written.tzinfo is not None and (moved := self._clock(written, data["time"]) - self.last_clock) \
                    and moved != self._shift(self.last_written, written):
                # an offset drifting from coup to coup makes every coup one instant, and no turn is ever long
                yield tool(F.LOG_TIME, "/time", f"the coup is at {data['time']}, the previous coup at "
                                                f"{self.last_written.isoformat()}: the clock's offset from UTC changes "
                                                "only when summer time starts or ends (one hour, at 01:00 UTC on the "
                                                "last Sunday of March or October"
                                                + (f", as {self.zone.key} keeps it)" if self.zone else ")"), record)
            if when is not None:
                yield from self._stamped(record, data, when)
                self.idle = when - last if last is not None and comparable(when, last) and when >= last else None
                self.new_day = last is not None and self._day(when) != self._day(last)
                self.last_written, self.last_time = written, when
                self.last_clock = self._clock(written, data["time"])
        return when

    def _labelled(self, record, data, when: datetime | None) -> Iterator[Finding]:
        """The coup's session label: a new label opens a séance (or goes on with one, after a short pause), a
        label that comes back is said, and the séance in force sets the day it began on."""
        tool = self.session._tool
        session = data.get("session")
        self.new_session = False
        if isinstance(session, str) and nameless(session):
            yield from self._nameless(record, "/session", session, "the session",
                                      "read as the session in force going on")
        elif isinstance(session, str) and _same_name(session) != self.sessions.current:
            before = self.session_shown
            back, full = self.sessions.turn_to(_same_name(session), SESSIONS_KEPT)
            self.session_shown = session
            if self.seance is None or not (yield from self._plays_on(record, session, before)):
                self.seance = self.kept = self.sessions.current
                yield from self._opens(record, when, certain=True)
            if back:
                yield tool(F.LOG_SESSION, "/session", f"session {brief(show(session))} comes back after session "
                                                      f"{brief(show(before))} began: a session's coups are logged "
                                                      "together, and what is kept through a session (its minimum) "
                                                      "would start again", record)
            if full:  # memory stays flat: said, not dropped unseen
                yield tool(F.LOG_UNTRACKED, "/session", f"more than {SESSIONS_KEPT:,} sessions in one log: from this "
                                                      "coup on, a session that comes back is not looked for",
                           record, Severity.WARNING)
        if not self.new_session and self.seance is not None and self._closed_maybe():
            # the same label after a pause the table may have closed in: a séance of its own where that clears a
            # coup (what a séance keeps starts again), never where it would hold one to more (a shuffling shoe's
            # burn at a séance's start is not asked for: the label's séance goes on for it)
            self.kept = _Resumed(self.seance, data.get("coup"))
            yield from self._opens(record, when, certain=False)
            yield from self._pause_said(record)
        if self.shuffled:  # a shuffling shoe's burn starts with the séance, as the core reads it
            self.session.state["seance"] = self.seance
        if self.began is None and self.seance is not None and when is not None:
            # a session whose first time could not be read began no later than its first time that can
            day = self._day(when)
            self.began = _SeanceDay(self.opened, day if self.opening is _AS_READ else self.opening, day)
            if self.opened == 1:
                self.first_day = day
        yield from self._in_period(record, when)

    def _staff_named(self, record, data) -> Iterator[Finding]:
        """The staff a coup names, each a name a reader can tell from another."""
        staff = data.get("staff")
        if isinstance(staff, dict):
            for role, who in staff.items():
                if isinstance(who, str) and nameless(who):
                    yield from self._nameless(record, pointers.child("/staff", role), who, f"the {role}",
                                              "read as no one named (whoever held the place before holds it on)")
    def _opens(self, record, when: datetime | None, certain: bool) -> Iterator[Finding]:
        """A séance opens at this coup: at a new label (`certain`), or after a pause within one label that the table
        may have closed in. The day it began, as `_SeanceDay` keeps it: where the opening is not certain the
        séance may still be the one before, and began on the day that one did; the log's first séance, where the
        log continues another (`first_coup` over 1), may have begun in that other log, on a day not in this one."""
        self.new_session = True
        self.opened += 1
        day = self._day(when)
        if not certain:
            self.opening = self.began.earliest if self.began is not None else _AS_READ
        elif self.opened == 1 and self.first_coup > 1:
            self.opening = None  # before this log: the day it began is in the log this one continues
        else:
            self.opening = _AS_READ
        before, self.began = self.began, None
        if day is not None:
            self.began = _SeanceDay(self.opened, day if self.opening is _AS_READ else self.opening, day)
        if before is not None and before.earliest is None and self.began is not None \
                and self.began.latest == self.first_day:
            yield from self._continued_said(record)
        if self.opened == 1:
            self.first_day = day

    def _closed_maybe(self) -> bool:
        """Whether the table stood with no coup longer than `session_break_minutes`, the least time it stands closed
        between two séances: it may have closed, whatever the label (a label by day, «the session (or day)», holds
        the afternoon's séance and the evening's). Two coups at one instant have no closure between them."""
        least, idle = self.session.session_break, self.idle
        return least is not None and idle is not None and idle > timedelta(0) \
            and _seconds(idle) >= (least if type(least) is Fraction else _seconds(least))

    def _pause_said(self, record) -> Iterator[Finding]:
        """What a pause within one label is read as, said once (info): the rules whose verdict it moves."""
        if self.pause_said:
            return
        rules = self._kept_rules(("session", "session_day")) + [rule for rule, _ in self.wanted.get("staff_turn", ())]
        if not rules:
            return
        self.pause_said = True
        turns = ("; a staff member's turn may have ended in the pause" if self.wanted.get("staff_turn") else "")
        yield self.session._tool(
            F.LOG_SESSION, "/time",
            f"the table stood {_pause(self.idle)} with no coup before this coup, within session "
            f"{brief(show(self.session_shown))}: longer than the {SESSION_BREAK} given (the least time a table stands "
            "closed between two séances), so it may have closed and opened again under the same label (a label may "
            "name a day). Which is not known, and neither reading is held against the log: a limit changed from this "
            "coup on is not judged as changed within the séance before the pause, nor a séance after it as opened "
            f"on the day that séance began{turns} (" + ", ".join(sorted({rule.id for rule in rules}))
            + "; said once, for every such pause of the log)", record, Severity.INFO)

    def _continued_said(self, record) -> Iterator[Finding]:
        """What a continuation log's first séance is taken to have begun on, said once (info) where a later séance
        begins on the day the log's first coup is of: a day-of-the-séance rule would judge there on a guess."""
        rules = self._kept_rules(("session_day",))
        if self.continued_said or not rules:
            return
        self.continued_said = True
        yield self.session._tool(
            F.LOG_SESSION, "/session",
            f"the log continues another (`first_coup` {self.first_coup}): the séance in force at its first coup may "
            f"have begun there, on a day not in this log; it is taken to have begun before {self.first_day}, the day "
            f"of this log's first coup, so session {brief(show(self.session_shown))}, beginning on {self.first_day}, "
            "is held as a later day's séance (what that séance kept is held within it alone; "
            + ", ".join(sorted({rule.id for rule in rules})) + ")", record, Severity.INFO)

    def _kept_rules(self, pers: tuple[str, ...]) -> list[Rule]:
        """The rules that keep a limit through one of the periods `pers`."""
        return [rule for aspect, bound in self.wanted.items() if aspect.endswith("_unchanged")
                for rule, spec in bound if spec.get("per") in pers]

    def _period(self, per: str, when: datetime | None):
        """The period a coup's limits are kept through: its séance (a pause the table may have closed in opens one,
        `_Resumed`), its local day, or the day its séance began (`session_day`: kept «avant la séance du
        lendemain», LU Art. 37-8; `_SeanceDay`)."""
        if per == "session":
            return self.kept
        if per == "session_day":
            return self.began if self.seance is not None else None
        return self._day(when)

    def _within(self, per: str, period) -> str:
        """Where a limit kept through `per` was changed, as a reader finds it."""
        if per == "session":
            return f"within session {self.session_shown}"
        if per == "session_day":
            return (f"before the next day's session (session {self.session_shown} began on {period}, the day the "
                    "session it was set in began)")
        if per == "session" and isinstance(period, _Resumed):
            return (f"within session {self.session_shown} (within the séance it opened at coup {period.coup}, after "
                    "a pause the table may have closed in)")
        return f"within {per} {period}"

    def _plays_on(self, record, label: str, before: str) -> Iterator[Finding]:
        """Whether a session label changed at this coup names no new séance: the table played on, with less pause
        since the previous coup than `session_break_minutes` (a séance begins when a table opens, and what the law
        keeps through one, LU Art. 33 (3)'s minimum, Art. 33 (4)'s maximum, would start again at every new label).
        Without the parameter the labels are taken as written, and the rules that keep something through a
        session say so once (narrowed). Returns True where the séance goes on."""
        session, least, idle = self.session, self.session.session_break, self.idle
        if least is None:
            if not self.relabel_said:
                self.relabel_said = True
                for rule in self._seance_rules():
                    session._narrowed(rule, f"each session label is taken as a new séance, whatever the pause before "
                                            "it (the first change is at coup "
                                            f"{brief(show(record.data.get('coup')))}): a label changed while the "
                                            "table plays on would start again what a séance keeps; give --param "
                                            f"{SESSION_BREAK}=N (the least time a table stands closed between two "
                                            "séances) to hold such a label to the séance going on")
            return False
        if idle is None or _seconds(idle) >= (least if type(least) is Fraction else _seconds(least)):
            return False  # a pause long enough, or one that cannot be measured (its time is said), opens a séance
        # a label that changes with the table's day may name the day («the session (or day)»): no séance claimed
        # that was none, only read through (an info); any other names a séance the table never opened (an error)
        yield session._tool(F.LOG_SESSION, "/session",
                            f"session {brief(show(label))} begins {_pause(idle)} after the previous coup, of session "
                            f"{brief(show(before))}: less than the {SESSION_BREAK} given, so the table played on; "
                            "the séance goes on through the new label (what it keeps, its minimum and maximum, "
                            "is kept)" + (", the label changing with the table's day (a label may name a day)"
                                          if self.new_day else ""),
                            record, Severity.INFO if self.new_day else Severity.ERROR)
        return True

    def _seance_rules(self) -> list[Rule]:
        """The rules that keep something through a session: what a label changed while play goes on would end."""
        found = []
        for aspect, bound in self.wanted.items():
            for rule, spec in bound:
                if aspect.endswith("_unchanged") and spec.get("per") in ("session", "session_day") \
                        or aspect == "burn_each" and self.shuffled:
                    found.append(rule)
        return found

    def _nameless(self, record, pointer: str, name: str, what: str, read: str) -> Iterator[Finding]:
        """A name that says nothing (empty, spaces, an invisible or format character, a mark on no letter): said
        once where it is first written, and read as no name wherever it is."""
        key = (pointer, name)
        if key in self.unnamed:
            return
        if len(self.unnamed) < NAMES_SAID:
            self.unnamed.add(key)
        yield self.session._tool(F.SHAPE_INVALID if not name.strip() else F.LOAD_AMBIGUOUS, pointer,
                                 f"{what} is named {brief(show(name))}, which {nameless(name)}: a name no reader "
                                 f"can tell from another, {read}", record)


_AS_READ = object()  # a séance that began on the day of its first readable time


@dataclass(frozen=True)
class _Resumed:
    """The séance a pause the table may have closed in opens within one session label (kept through as a séance of
    its own by the `session` rules: a change after the pause is none within the séance before)."""
    label: str
    coup: object

    def __str__(self) -> str:
        return f"{self.label} (from coup {self.coup}, after a pause the table may have closed in)"


@dataclass(frozen=True, eq=False)
class _SeanceDay:
    """The local day a séance began, as far as the log tells it. `serial` counts the séances opened (a pause the
    table may have closed in opens one); `latest` is the day of this séance's opening, `earliest` the day it began
    if no such pause was a closure (the day of the last certain opening; None where that is in the log this one
    continues, a day before this log's first). Two coups' séances began on the same day (LU Art. 37-8: a limit
    kept «avant la séance du lendemain» is held) only under every reading: the same séance, or the later one's
    opening on the very day the earlier one began at the earliest."""
    serial: int
    earliest: str | None
    latest: str

    def __eq__(self, other) -> bool:
        if not isinstance(other, _SeanceDay):
            return NotImplemented
        if self.serial == other.serial:
            return True
        before, after = (self, other) if self.serial < other.serial else (other, self)
        return before.earliest is not None and after.latest == before.earliest

    __hash__ = None  # compared, never a key: the relation is no identity

    def __str__(self) -> str:
        if self.earliest is None:
            return f"{self.latest} or before (in the log this one continues)"
        if self.earliest != self.latest:
            return f"{self.earliest} (or {self.latest}, if the table closed in a pause since)"
        return self.latest


@lru_cache(maxsize=None)
def _minutes(limit) -> timedelta | Fraction | None:
    """A rule's longest turn, exactly (read once per rule): a timedelta where it is a whole number of
    microseconds (compared with a turn's length as it is, integers), else its seconds as a fraction."""
    minutes = money(limit)
    if minutes is None:
        return None
    seconds = Fraction(minutes) * 60
    if (seconds * 1_000_000).denominator == 1 and 0 <= seconds < 86400 * 999_999_999:
        return timedelta(microseconds=int(seconds * 1_000_000))
    return seconds


def _longer(turn: timedelta, longest: timedelta | Fraction) -> bool:
    """Whether a turn is longer than a rule's longest (as `_minutes` gives it), exactly."""
    return turn > longest if type(longest) is timedelta else _seconds(turn) > longest


def _seconds(delta: timedelta) -> Fraction:
    """A duration exactly (timedelta.total_seconds is a float)."""
    return Fraction(delta.days * 86400 + delta.seconds) + Fraction(delta.microseconds, 1_000_000)


def _pause(idle: timedelta) -> str:
    """A pause as a reader says it."""
    seconds = int(idle.total_seconds())
    if seconds < 120:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    return f"{seconds // 60} minutes"
