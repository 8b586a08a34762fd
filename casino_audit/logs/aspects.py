"""The core's aspects over a log's stream (numbering, times, sessions, limits, stakes, turns), each run only
if a rule verifies it. One state, one object: each aspect's methods live in its own module (order, limits,
stakes, turns) and read the state the others keep (a turn ends with a séance, a limit is kept through one).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Iterator

from casino_audit.core.findings import Finding
from casino_audit.replay import Returns, money
from casino_audit.logs.order import OrderAspects
from casino_audit.logs.limits import _Limits, LimitAspects
from casino_audit.logs.stakes import StakeAspects, _chances, _whole
from casino_audit.logs.turns import TurnAspects


if TYPE_CHECKING:  # the session that owns these aspects, for the annotation alone (it imports this module)
    from casino_audit.logs.session import LogSession


class CoreAspects(OrderAspects, LimitAspects, StakeAspects, TurnAspects):
    """The core's aspects over the stream: each runs only if a rule verifies it."""

    # The state stays flat, one attribute each, grouped below by the aspect that keeps it: the aspects read one
    # another's (the stakes the limits in force, a turn the séance), and a hop through a group on every coup and
    # stake would cost the hot path and rename every read in order, limits, stakes and turns.
    def __init__(self, session: LogSession):
        self.session = session
        self.wanted = session.by_aspect
        self.zone = session.zone
        self._order_state(session)
        self._limit_state(session)
        self._turn_state(session)
        self._stake_state(session)

    def _order_state(self, session: LogSession) -> None:
        """What the numbering, the times and the séances are judged against: the coups before this one."""
        self.last_coup: int | None = None
        first = session.header.data.get("first_coup") if isinstance(session.header.data, dict) else None
        self.first_coup = first if type(first) is int else 1  # a log that continues another says where it starts
        self.last_time: datetime | None = None  # the previous coup's instant (UTC; as written where no zone is known)
        self.last_written: datetime | None = None  # its time as written
        self.last_clock: timedelta | None = None  # the offset of the clock it is written by (order._clock)
        self.offsets_said: set = set()  # the offsets from UTC the table's zone does not show, said once each
        self.stamp: tuple | None = None  # (the second the last coups are stamped with, how many, the first's number)
        self.began = None  # the table's local day the séance in force began on (`per: session_day`; order._SeanceDay)
        self.opened = 0  # the séances opened so far (a pause the table may have closed in opens one)
        self.opening = None  # the day the séance in force began at the earliest, until its first readable time
        self.first_day = None  # the local day of the log's first séance's first coup
        self.outside = (0, None)  # the coups played outside the header's period: how many, the first's number
        self.pause_said = self.continued_said = False  # what a pause, a continuation was read as: said once each
        self.unnamed: set = set()  # (place, name) of the names that say nothing, said already
        # Between the previous coup and this one: how long the table was idle, and whether a session or a day began
        self.idle: timedelta | None = None
        self.new_session = self.new_day = False
        self.sessions = Returns()  # the session of the last coup, and the ones that ended before it (by _same_name)
        self.session_shown = None  # the last session as written
        # the séance in force: the label that began it, kept through a label changed while play went on
        self.seance = None
        self.kept = None  # the séance the `session` rules keep a limit through: the label's, or one a pause opens
        self.relabel_said = False  # a run without session_break_minutes: the session rules narrowed, said once

    def _limit_state(self, session: LogSession) -> None:
        """The limits in force (the header's, a coup's own), the table configuration's they are held to, and the
        law's table rules on them."""
        limits = session.terms.limits
        self.limits = _Limits(money(limits.get("minimum")), money(limits.get("maximum")))
        self.law_minimum = limits.get("law_minimum")  # the least minimum the law allows (law_minimum), if known
        self.maxima = {k: money(v) for k, v in (limits.get("maxima") or {}).items()}
        self.minima = {k: money(v) for k, v in (limits.get("minima") or {}).items()}
        # the limits a coup's own may narrow, never widen: the table configuration's. The header's are not
        # held so: a coup sets the limits of its day or session anew (LU Art. 37-3), up as well as down
        table = session.terms.table
        stakes = (table.get("stakes") or {}) if isinstance(table, dict) else {}
        self.approved = {key: money(stakes.get(f"{key}_eur")) for key in ("minimum", "maximum")}
        self.chance_said: set[tuple] = set()  # (chance, minimum, maximum) whose coefficient was judged
        self.coefficient_unknown_said = False  # the maximum's coefficient said not checked, for want of a limit
        self.started = False  # the first coup sets the limits in force: the coefficient is judged there
        self.bounds: dict[tuple, tuple] = {}  # names of a stake -> (minimum, maximum) under the limits in force
        self.law_limits: list = []  # the table rules on stake limits the limits in force are held to
        self.law_said: set[tuple] = set()  # (rule, place, message) said already: a limit set back is said once
        self.ceilings: dict[tuple, list] = {}  # names of a stake -> its law ceilings under the limits in force

    def _turn_state(self, session: LogSession) -> None:
        """Who holds each role, since when, and the roles the turn rules name."""
        self.shuffled = session.engine and bool((getattr(session.prepared, "burn", None) or {}).get("shuffled"))
        # role -> (who, since, first coup, reported, since as written)
        self.turns: dict[str, tuple[str, datetime, int, bool, str]] = {}
        self.named: set[str] = set()  # the roles some coup names, for the turn rules: one never named is said
        self.unplaced_said: set[str] = set()
        self.misnamed: set[str] = set()  # the turn rules' roles some coup wrote otherwise (`Spinner`), said once

    def _stake_state(self, session: LogSession) -> None:
        """The stake rules, read once (none where no engine reads the game's stakes: said so), and what the stakes
        so far were held to."""
        wanted = self.wanted
        self.stakes = getattr(session.module, "stakes", None)
        self.limits_said = False
        self.seatless_said = False  # a seatless stake beside a seat's on one bet, said once
        if ("stake_limits" in wanted or "stake_multiple" in wanted) and self.stakes is None:
            for aspect in ("stake_limits", "stake_multiple"):
                for rule, _ in wanted.pop(aspect, ()):
                    session._not_applied(rule, f"no replay engine reads the stakes of {session.game} yet")
        self.law_ceilings: list = []  # (rule, {chance: at most so many times its minimum}) of the law's maxima
        self.held: set[str] = set()  # the per-chance limits' names some stake of the log was filed under
        self.unbounded: set[tuple] = set()  # (limit rule, minimum?) said of a stake with that bound unknown
        # (rule, check, its chances or None[, the unit]) of the stake rules, read once
        self.limit_rules = [(rule, spec, _chances(spec)) for rule, spec in wanted.get("stake_limits", ())]
        # a rule whose law fixes each chance's maximum in times the minimum (LU Art. 37-3) -> {name: times}
        self.law_maxima = {id(spec): {name: money(times) for name, times in spec["maxima_per_minimum"].items()}
                           for _, spec, _ in self.limit_rules if spec.get("maxima_per_minimum")}
        self.multiple_rules = [(rule, spec, _chances(spec), spec["unit"] if spec["unit"] == "minimum" else
                                _whole(money(spec["unit"]))) for rule, spec in wanted.get("stake_multiple", ())]
        # the law's coefficients of the maximum (LU Art. 37-5, al. 4: 50, 100 or 200 times the minimum) are a
        # ceiling too: a stake over the largest times its minimum is over any maximum the law allows, whether the
        # limits give a maximum or not ("*": every chance)
        for rule, spec in wanted.get("maximum_coefficient", ()):
            most = max((money(v) for v in spec["one_of"] if money(v) is not None), default=None)
            if most is not None and most > 0:
                self.law_ceilings.append((rule, {"*": most}))
        self.unheld: dict[str, tuple] = {}  # limit rule id -> (rule, {chance: stakes held to no maximum})

    def coup(self, record) -> Iterator[Finding]:
        data, wanted = record.data, self.wanted
        when = yield from self.order(record, data)
        yield from self._limits(record, data, when)
        if "staff_turn" in wanted and when is not None:
            yield from self._turns(record, data, when)
        if (self.limit_rules or self.multiple_rules or self.law_ceilings) and self.stakes is not None:
            yield from self._stakes(record, data)

    def close(self) -> Iterator[Finding]:
        yield from self.outside_period()
        yield from self._limits_under_no_chance()
        self._held_to_no_maximum()
        yield from self._roles_never_named()
