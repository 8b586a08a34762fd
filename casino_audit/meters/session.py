"""One meter log checked reading by reading, each machine with its own state (several may be read in one log).

Per reading: its shape (records.READING_SCHEMA; a reading of the wrong shape is reported and not used), its time
(readable, after the machine's previous reading: else LOG-TIME and the reading is not used), the gap since the
machine's previous reading (LOG-GAP), then the aspects the ruleset asks for (checks/meters.py): the two coin-in
meters agree; no meter goes back except to roll over past its capacity; the drop box is counted every calendar month.
What each machine paid and took between two readings (the increments, modulo each meter's capacity) adds up to its
realised return, judged at the end of the log against its theory (theory.py) with a stated confidence.

Nothing is smoothed over: a reading left out, a meter that went back, two coin-in meters that disagree leave that
period out of the realised return, and the finding about the return says how many periods were left out.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Iterator, Mapping

from casino_audit.core import findings as F
from casino_audit.law.checks import bind_params
from casino_audit.law.checks.meters import DEFAULT_CONFIDENCE
from casino_audit.core.display import brief, same_name
from casino_audit.core.findings import Finding, Severity
from casino_audit.logs.session import Counts
from casino_audit.meters import theory as theories
from casino_audit.meters.records import COIN_IN, METERS, READING_SCHEMA, homologated_digits
from casino_audit.meters.stats import bet_squares, log_inverse, normal_quantile, root
from casino_audit.law.model import Rule, Ruleset
from casino_audit.core.values import show, to_decimal

Admit = Callable[[str, str, Severity], bool]
SHOWN_MACHINES = 10  # machines named in one "not checked" finding; the rest are counted


@dataclass
class _Sums:
    """What a machine staked, paid and played over the periods whose every increment is known."""

    staked: int = 0
    paid: int = 0
    games: int = 0
    periods: int = 0
    ungamed: int = 0  # of `staked`, the units staked over periods whose games_played count is not known
    ungamed_periods: int = 0
    left_out: dict = field(default_factory=dict)  # why a period was left out -> how many times
    first_line: int | None = None
    last_line: int | None = None


@dataclass
class _Machine:
    name: str
    capacity: dict  # meter -> digits, or None where no one says (the homologation file's, else the header's)
    filed: dict  # meter -> digits its homologation file gives: the only capacity a meter rolls over at
    theory: Any  # theories.Theory or None
    unknown_theory: str | None  # why its return cannot be judged, or None
    max_bet: int | None  # units one game may stake at most, where known
    meters: dict | None = None  # the last reading used: meter -> count
    time: datetime | None = None
    record: Any = None  # the last reading used (its position, for findings made later)
    first_time: datetime | None = None
    first_record: Any = None
    difference: int = 0  # coin_in_1 - coin_in_2 at the last reading, modulo the smaller capacity
    difference_line: int | None = None
    sums: _Sums = field(default_factory=_Sums)
    month: tuple[int, int] | None = None  # (year, month) of the last reading used
    month_whole: bool = False  # the machine was read on the 1st of that month or before it
    counted: bool = False  # its drop box was counted in that month

    @property
    def label(self) -> str:
        """The machine's name as a message quotes it: cut short past 80 characters (a name of a megabyte would be
        quoted whole in every finding about the machine)."""
        return brief(self.name)


class MeterSession:
    """One meter log under one jurisdiction's `meters` rules. The same interface as a game log's LogSession:
    start(), coup(record) for each reading, close(), counts."""

    def __init__(self, header, game, jurisdiction: str, ruleset: Ruleset, rules: list[Rule],
                 params: Mapping[str, Any], admit: Admit, require_params: bool = False,
                 param_finding: Callable[[Rule, tuple[str, ...]], Finding] | None = None):
        self.header, self.jurisdiction, self.file = header, jurisdiction, header.file
        self.admit, self.require_params = admit, require_params
        self.counts = Counts()
        self.hit = False
        self._pending: list[Finding] = []
        self.by_aspect: dict[str, list[tuple[Rule, dict]]] = {}
        for rule in rules:
            missing = tuple(name for name in rule.params if name not in params)
            if missing:
                if param_finding is not None:
                    self._pending.append(param_finding(rule, missing))
                continue
            self.by_aspect.setdefault(rule.check["verify"], []).append((rule, bind_params(rule.check, params)))
        self.reset_rules = {meter: [(rule, spec) for rule, spec in self.by_aspect.get("no_reset", ())
                                    if meter in spec["meters"]] for meter in METERS}
        self.validator = _validator()
        data = header.data if isinstance(header.data, dict) else {}
        self.data = data
        hours = to_decimal(data.get("reading_interval_hours"))
        if hours is None and _number_like(data.get("reading_interval_hours")):  # 1e400, as a number or as text
            self._pending.append(self._tool(F.SHAPE_INVALID, "/reading_interval_hours", "`reading_interval_hours` "
                                            f"is {brief(show(data['reading_interval_hours']))}, no number of hours "
                                            "casino-audit can read; gaps are not judged"))
        self.interval = _duration(hours) if hours is not None and hours > 0 else None
        self.interval_text = show(hours) if hours is not None else None
        self.denomination = to_decimal(data.get("denomination"))
        if self.denomination is None and _number_like(data.get("denomination")):
            self._pending.append(self._tool(F.SHAPE_INVALID, "/denomination", f"`denomination` is "
                                            f"{brief(show(data['denomination']))}, no amount casino-audit can read; "
                                            "the most units a game may stake is not known"))
        self.period = self._period(data.get("period"))
        self.files: dict[str, Any] = {}  # a homologation file named in the header -> its data (None: unreadable)
        self.conflicts: set[tuple] = set()  # capacities the header and a homologation file give differently
        self.machines: dict[str, _Machine] = {}
        self.work = theories.Budget()  # the slot engine's work for every machine's theory, shared
        self.spellings: dict[str, _Machine] = {}  # a machine name without its spaces, case and Unicode form
        self.entry_spellings: dict[str, str] | None = None  # the same of the header's `machines` entries
        self.aware: bool | None = None  # whether the log's times carry a UTC offset (set by its first reading)
        self.start_time: datetime | None = None  # the earliest and latest reading used
        self.end_time: datetime | None = None
        if isinstance(data.get("machine"), str):
            self._machine_file(data["machine"], "/machine")

    # --- findings ------------------------------------------------------------------------------------------

    def _tool(self, rule_id: str, pointer: str, message: str, record=None, severity=Severity.ERROR) -> Finding:
        record = record or self.header
        line, column = record.position(pointer) or (None, None)
        return Finding(rule_id, severity, message, self.file, line, column, pointer, record.index, self.jurisdiction)

    def _breach(self, rules, record, pointer: str, message: str) -> Iterator[Finding]:
        self.hit = self.hit or bool(rules)
        for rule, _ in rules:
            if self.admit(self.file, rule.id, rule.severity):
                line, column = record.position(pointer) or (None, None)
                yield Finding(rule.id, rule.severity, message, self.file, line, column, pointer, record.index,
                              self.jurisdiction, rule.citation)

    def _not_checked(self, rules, record, pointer: str, why: str) -> Iterator[Finding]:
        """A rule that could not judge what it reads: said, never passed (an error under --require-params)."""
        severity = Severity.ERROR if self.require_params else Severity.INFO
        for rule, _ in rules:
            if self.admit(self.file, rule.id, severity):
                line, column = record.position(pointer) or (None, None)
                yield Finding(rule.id, severity, f"not checked: {why}", self.file, line, column, pointer,
                              record.index, self.jurisdiction, rule.citation)

    def _said(self, rules, record, message: str) -> Iterator[Finding]:
        """How a rule's judgement was narrowed (what it set aside, what it assumed): an info, never silence."""
        for rule, _ in rules:
            if self.admit(self.file, rule.id, Severity.INFO):
                line, column = record.position("") or (None, None)
                yield Finding(rule.id, Severity.INFO, message, self.file, line, column, "", record.index,
                              self.jurisdiction, rule.citation)

    # --- the header ----------------------------------------------------------------------------------------

    def _period(self, given) -> tuple[datetime, datetime] | None:
        if not isinstance(given, dict) or not isinstance(given.get("from"), str) or \
                not isinstance(given.get("to"), str):
            return None  # the header's shape check says what is wrong with it
        try:
            first = date.fromisoformat(given["from"])
            last = date.fromisoformat(given["to"])
        except ValueError:
            self._pending.append(self._tool(F.LOG_TIME, "/period", f"the period {brief(show(given))} is not two "
                                            "ISO 8601 dates; gaps at the log's start and end are measured from its "
                                            "first and last readings"))
            return None
        if last < first:
            self._pending.append(self._tool(F.LOG_TIME, "/period", f"the period {brief(show(given))} ends before it "
                                            "starts; gaps at the log's start and end are measured from its first and "
                                            "last readings"))
            return None
        # The day after the last, or the last moment a time can have where the last day is 9999-12-31.
        end = datetime.max if last == date.max else datetime.combine(last + timedelta(days=1), datetime.min.time())
        return datetime.combine(first, datetime.min.time()), end

    def _machine_file(self, named: str, pointer: str) -> Any:
        """The homologation file a header names, read once (None, with a finding at the header, if it cannot be)."""
        if named in self.files:
            return self.files[named]
        from casino_audit.read.loader import NotOneDocument, load_single_document, named_file

        path, outside = named_file(self.file, named, "the homologation file")
        if outside is not None:  # never opened: nothing of it is quoted
            self._pending.append(self._tool(F.LOAD_UNREADABLE, pointer, f"{outside}; the machines it is named for "
                                            "are judged by the header alone"))
            self.files[named] = None
            return None
        data = None
        try:
            data = load_single_document(path, "a homologation file").data
        except NotOneDocument as error:
            why = f"cannot be read ({brief(error.problems[0], 200)})"
        else:
            why = None if isinstance(data, dict) and data.get("kind") == "machine" else \
                "is not a homologation file (kind: machine)"
        if why is not None:
            data = None
            self._pending.append(self._tool(F.LOAD_UNREADABLE, pointer, f"the homologation file it names {why}; "
                                            "the machines it is named for are judged by the header alone"))
        elif data.get("jurisdiction") not in (None, self.data.get("jurisdiction")):
            self._pending.append(self._tool(F.LOAD_UNREADABLE, pointer, f"the homologation file it names is filed "
                                            f"under {brief(show(data.get('jurisdiction')))}, the log under "
                                            f"{brief(show(self.data.get('jurisdiction')))}"))
        self.files[named] = data
        return data

    def _new_machine(self, name: str) -> _Machine:
        own = self.data.get("machines")
        if isinstance(own, dict) and name not in own:
            self._misnamed(own, name)
        own = own.get(name) if isinstance(own, dict) else None
        own = own if isinstance(own, dict) else {}
        if isinstance(own.get("machine"), str):
            pointer = f"/machines/{_escape(name)}/machine"
            filed = self._machine_file(own["machine"], pointer)
        else:
            pointer = "/machine"
            filed = self.files.get(self.data.get("machine")) if isinstance(self.data.get("machine"), str) else None
        named = own.get("machine") or self.data.get("machine")
        capacity = self._capacities(name, own, filed, pointer)
        theory = theories.theory_of(filed, self.work) if filed is not None else None
        if not isinstance(named, str):
            why = "the header names no homologation file (`machine:`) to give the theoretical return"
        elif filed is None:
            why = "the homologation file named cannot be read"
        elif theory is None and not isinstance(filed.get("par"), dict):
            why = ("the homologation file gives no PAR data (`par:`), from which alone the standard deviation per "
                   "game, or the top award bounding it, is known (a declared `standard_deviation_per_spin` is not "
                   "taken on trust)")
        elif theory is None and to_decimal(filed.get("redistribution_rate"), "percent") is None:
            why = "the homologation file declares no redistribution rate (with a % sign)"
        elif theory is None:
            why = ("the homologation file's PAR data can neither be counted exactly nor bound one game's pay (free "
                   "spins, or data the slot engine cannot evaluate)")
        else:
            why = None
        if theory is not None and theory.declared_too_large() and ("/sd", named) not in self.conflicts:
            self.conflicts.add(("/sd", named))
            allowed = ("its PAR data give" if theory.source == theories.PAR else
                       f"any machine returning {_percent(theory.rtp)} and paying at most {_decimal(theory.top)} per "
                       "unit staked in one game can have")
            self._pending.append(self._tool(
                F.LOAD_AMBIGUOUS, pointer, f"the homologation file ({brief(show(named))}) declares a standard "
                f"deviation per game of {show(theory.declared_sd)}, more than the {_decimal(theory.variance_root)} "
                f"{allowed}: the declaration is not used"))
        filed_digits = {meter: homologated_digits(filed, meter) for meter in METERS}
        return _Machine(name, capacity, filed_digits, theory, why, self._max_bet(filed, named))

    def _filed_machine(self, name: str) -> tuple[_Machine | None, str | None]:
        """The machine a new name reads, where it is one already read under its other filed id (its location
        number and its serial number name one machine: its readings continue, never a new machine), and why the
        name is no filed machine's (None where it is): no homologation file is named for it, or the name is neither
        the location number nor the serial number the one named gives (or it gives neither)."""
        own = self.data.get("machines")
        own = own.get(name) if isinstance(own, dict) else None
        named = own.get("machine") if isinstance(own, dict) and isinstance(own.get("machine"), str) else \
            self.data.get("machine") if isinstance(self.data.get("machine"), str) else None
        if named is None:
            return None, (f"machine {show(brief(name))} has no homologation file: the header names none for it "
                          "(`machine:`, or its entry in `machines`)")
        pointer = f"/machines/{_escape(name)}/machine" if isinstance(own, dict) and own.get("machine") == named \
            else "/machine"
        filed = self._machine_file(named, pointer)
        if not isinstance(filed, dict):
            return None, None  # said at the header: the file cannot be read
        ids = _filed_ids(filed)
        if not any(ids.values()):
            return None, (f"machine {show(brief(name))} is tied to no machine: its homologation file "
                          f"({brief(show(named))}) gives neither a location number nor a serial number")
        if same_name(name) not in {same_name(value) for value in ids.values() if value is not None}:
            # a file filed for one machine: a reading under another name (one file shared by several machines,
            # or a serial number's file read as M-001) is no reading of it
            filed_for = ", ".join(f"{what} {show(brief(ids[key]))}" for key, what in
                                  (("location", "location number"), ("serial", "serial number")) if ids[key])
            return None, (f"machine {show(brief(name))} is not the machine its homologation file "
                          f"({brief(show(named))}) is filed for: {filed_for}")
        key = (named, "filed")
        other = self.machines.get(key)
        if other is not None:
            self.machines[name] = other
            return other, None
        machine = self.machines[name] = self._new_machine(name)
        self.machines[key] = machine
        return machine, None

    def _misnamed(self, entries: dict, name: str) -> None:
        """A header entry (`machines`) for a name that differs from a machine read only in spaces, case or Unicode
        form: said, and not applied to it, as two readings' names are (its capacities and file would otherwise be
        dropped in silence)."""
        if self.entry_spellings is None:  # read once: a header may list thousands of machines
            self.entry_spellings = {}
            for key in entries:
                if isinstance(key, str):
                    self.entry_spellings.setdefault(_spelling(key), key)
        other = self.entry_spellings.get(_spelling(name))
        if other is not None:
            self._pending.append(self._tool(F.LOAD_AMBIGUOUS, f"/machines/{_escape(other)}", f"the header's entry "
                                            f"for machine {show(brief(other))} differs from machine "
                                            f"{show(brief(name))}, read in the log, only in spaces, case or Unicode "
                                            "form: it is not applied to it"))

    def _capacities(self, name: str, own: dict, filed, pointer: str) -> dict:
        """Each meter's capacity in digits: the header's (for this machine, else for the log), the homologation
        file's; where both say and differ, a finding, and the homologation file's is used."""
        found: dict[str, int | None] = {}
        for meter in METERS:
            said = _digits(own.get("capacity_digits"), meter)
            where = f"/machines/{_escape(name)}/capacity_digits"
            if said is None:
                said, where = _digits(self.data.get("capacity_digits"), meter), "/capacity_digits"
            homologated = homologated_digits(filed, meter)
            named = own.get("machine") or self.data.get("machine")
            if said is not None and homologated is not None and said != homologated and \
                    (where, meter, named) not in self.conflicts:  # said once, not for every machine sharing them
                self.conflicts.add((where, meter, named))
                self._pending.append(self._tool(
                    F.LOAD_AMBIGUOUS, where, f"the header gives the {meter} meter {said} digits (machine {brief(name)}), "
                    f"its homologation file ({brief(show(named))}) {homologated}; the homologation file's capacity "
                    "is used"))
            found[meter] = homologated if homologated is not None else said
        return found

    def _max_bet(self, filed, named=None) -> int | None:
        """The most units one game may stake: the homologation file's maximum stake over the log's denomination; a
        denomination over the maximum stake (no game could stake one unit) is a finding, said once per file."""
        if not isinstance(filed, dict):
            return None
        stakes = filed.get("stakes")
        maximum = to_decimal(stakes.get("maximum_eur")) if isinstance(stakes, dict) else None
        denomination = self.denomination
        currency = self.data.get("currency", "EUR")
        if denomination is not None and denomination > 0 and currency == "EUR":
            denomination = self._filed_denomination(filed, named, denomination)
        elif maximum is not None:  # no denomination in EUR: never fewer units than the smallest the machine counts
            given = _denominations(filed)
            denomination = min(given) if given else None
            if ("/denomination/none", named) not in self.conflicts and \
                    (currency != "EUR" or self.data.get("denomination") is None):  # else said as unreadable
                self.conflicts.add(("/denomination/none", named))
                pointer, what = ("/currency", f"the log's currency is {brief(show(currency))}, not the EUR its "
                                 "homologation file gives its stakes in") if currency != "EUR" else \
                    ("/denomination", "the log gives no denomination")
                self._pending.append(self._tool(
                    F.LOAD_AMBIGUOUS, pointer, f"{what}: " + (f"the smallest unit the file ({brief(show(named))}) "
                    f"gives, {show(min(given))} EUR, bounds the units a game may stake" if given else
                    "the units a game may stake are not bounded"),
                    severity=Severity.WARNING if currency != "EUR" else Severity.INFO))
        if maximum is None or denomination is None or denomination <= 0:
            return None
        units = int(Fraction(maximum) / Fraction(denomination))  # floored exactly, never rounded up
        if units < 1 and ("/denomination", named) not in self.conflicts:
            self.conflicts.add(("/denomination", named))
            self._pending.append(self._tool(
                F.LOAD_AMBIGUOUS, "/denomination", f"the log's denomination of {show(self.denomination)} is more "
                f"than the maximum stake of {show(maximum)} EUR its homologation file ({brief(show(named))}) allows: "
                "no game could stake one unit; the realised return is judged with every game staking the same"))
        return units if units >= 1 else None

    def _filed_denomination(self, filed: dict, named, denomination: Decimal) -> Decimal | None:
        """The log's denomination where its homologation file gives it (a coin, the token or a paytable's credit);
        else a finding, said once per file, and the smallest the file gives bounds the units a game stakes (the
        most units, the widest interval: a filer's denomination never narrows what a legal machine may stake)."""
        given = _denominations(filed)
        if denomination in given:
            return denomination
        if ("/denomination/filed", named) not in self.conflicts:
            self.conflicts.add(("/denomination/filed", named))
            if given:
                listed = ", ".join(show(value) for value in sorted(given))
                then = f"the smallest of them, {show(min(given))}, bounds the units a game may stake"
            else:
                listed, then = "none", "the units a game may stake are not bounded"
            self._pending.append(self._tool(
                F.LOAD_AMBIGUOUS, "/denomination", f"the log's denomination of {show(denomination)} is none its "
                f"homologation file ({brief(show(named))}) gives (coins, token, paytable credits: {listed}): {then}"))
        return min(given) if given else None

    # --- the stream ----------------------------------------------------------------------------------------

    def start(self) -> Iterator[Finding]:
        yield from self._pending
        self._pending = []

    def coup(self, record) -> list[Finding]:
        """The findings of one reading."""
        found = list(record.findings)
        found.extend(self._reading(record))
        self.counts.checked += 1
        self.counts.with_findings += bool(found) or self.hit
        self.hit = False
        found.extend(self._pending)  # about the header: a homologation file first named for this machine, read now
        self._pending = []
        return found

    def _reading(self, record) -> Iterator[Finding]:
        data = record.data
        if not self.validator.is_valid(data):
            for rule_id, pointer, message in self.validator.errors(data):
                yield self._tool(rule_id, pointer, f"reading: {message}; the reading is not used", record)
            return
        when = _time(data["time"])
        if when is None:
            yield self._tool(F.LOG_TIME, "/time", f"`time` is {brief(show(data['time']))}, not an ISO 8601 time; "
                                                  "the reading is not used", record)
            return
        aware = when.tzinfo is not None
        if self.aware is None:
            self.aware = aware
        elif aware != self.aware:
            yield self._tool(F.LOG_TIME, "/time", f"`time` is {data['time']}, {'with' if aware else 'without'} a UTC "
                                                  f"offset where the log's first reading is "
                                                  f"{'with' if self.aware else 'without'} one; the reading is not "
                                                  "used", record)
            return
        name = data["machine"]
        if not _spelling(name):  # spaces or invisible characters only: no machine a reader could find
            yield self._tool(F.SHAPE_INVALID, "/machine", f"`machine` is {brief(show(name))}, which names no machine; "
                                                          "the reading is not used", record)
            return
        machine = self.machines.get(name)
        if machine is None:
            machine, unfiled = self._filed_machine(name)
            if unfiled is not None:
                yield self._tool(F.LOG_UNFILED, "/machine", unfiled, record)
        if machine is None:
            machine = self.machines[name] = self._new_machine(name)
            same = self.spellings.setdefault(_spelling(name), machine)
            if same is not machine:  # "M-1 " after "M-1": a reset or a gap would hide behind the second name
                yield self._tool(F.LOAD_AMBIGUOUS, "/machine", f"machine {show(machine.label)} differs from machine "
                                 f"{show(same.label)}{f' (line {same.first_record.line})' if same.first_record else ''}"
                                 " only in spaces, case or Unicode form: read as two machines, their readings are not "
                                 "compared with each other", record)
        if machine.time is not None and when <= machine.time:
            what = "the same time as" if when == machine.time else "before"
            yield self._tool(F.LOG_TIME, "/time", f"machine {machine.label} read at {data['time']}, {what} its previous "
                                                  f"reading (line {machine.record.line}, {machine.time.isoformat()}); "
                                                  "the reading is not used", record)
            return
        if machine.time is not None and self.interval is not None and when - machine.time > self.interval:
            yield self._tool(F.LOG_GAP, "/time", f"machine {machine.label} not read from {machine.time.isoformat()} (line "
                                                 f"{machine.record.line}) to {when.isoformat()}: {_hours(when - machine.time)}"
                                                 f" hours, more than the log's reading interval of "
                                                 f"{self.interval_text} hours", record, Severity.WARNING)
        self.start_time = when if self.start_time is None or when < self.start_time else self.start_time
        self.end_time = when if self.end_time is None or when > self.end_time else self.end_time
        # JSON Schema takes 500300.0 for a whole number: it is one, read as the int it is
        meters = {meter: data[meter] if type(data[meter]) is int else int(data[meter]) for meter in METERS
                  if meter in data}
        beyond = set()
        for meter, count in meters.items():
            digits = machine.capacity.get(meter)
            if digits is not None and count >= 10 ** digits:
                beyond.add(meter)
                yield from self._breach(self.reset_rules[meter], record, f"/{meter}",
                                        f"machine {machine.label}: {meter} reads {count:,}, beyond its capacity of {digits} "
                                        f"digits (at most {10 ** digits - 1:,}): it should have rolled over to 0")
        if "coin_in_agree" in self.by_aspect:
            yield from self._agreement(machine, meters, record)
        increments = None
        if machine.meters is not None:
            increments = yield from self._increments(machine, meters, beyond, record)
            self._add(machine, increments, record)
        if "drop_counted" in self.by_aspect:
            yield from self._count(machine, when, data.get("drop_box_counted") is True, record)
        if machine.first_time is None:
            machine.first_time, machine.first_record = when, record
        machine.meters, machine.time, machine.record = meters, when, record

    def _agreement(self, machine: _Machine, meters: dict, record) -> Iterator[Finding]:
        """The two coin-in meters count the same coins: they read the same, modulo the smaller capacity where
        both are known (an 8-digit meter shows the last 8 digits of a 10-digit one). A difference is reported
        where it appears or changes, not again at every reading it stays the same."""
        first, second = meters["coin_in_1"], meters["coin_in_2"]
        digits = [machine.capacity.get(meter) for meter in COIN_IN]
        modulus = 10 ** min(digits) if None not in digits else None
        difference = (first - second) % modulus if modulus else first - second
        if difference and difference != machine.difference:
            since = "" if not machine.difference else \
                f" (they differed otherwise since line {machine.difference_line})"
            shown = f" modulo 10^{min(digits)}" if modulus and max(digits) != min(digits) else ""
            yield from self._breach(self.by_aspect["coin_in_agree"], record, "/coin_in_2",
                                    f"machine {machine.label}: coin_in_1 reads {first:,} and coin_in_2 {second:,}: "
                                    f"they differ by {_signed(difference, modulus)}{shown}{since}")
            machine.difference_line = record.line
        machine.difference = difference

    def _increments(self, machine: _Machine, meters: dict, beyond: set, record):
        """Each meter's increment since the machine's previous reading (modulo its capacity over a rollover), or
        None where it is not known (a meter that went back by hand, read beyond its capacity, or went down with
        no capacity known). A generator: the findings are yielded, the increments returned."""
        previous = machine.meters
        raw: dict[str, int | None] = {}
        back: dict[str, tuple[int, int, int]] = {}  # meter -> (before, after, what a rollover would have counted)
        cleared = _ram_clear(previous, meters)
        for meter, after in meters.items():
            before = previous.get(meter)
            digits = machine.filed.get(meter)  # a meter rolls over at the capacity filed, never at one merely said
            if before is None or meter in beyond or (digits is not None and before >= 10 ** digits):
                raw[meter] = None
            elif after >= before:
                raw[meter] = after - before
            elif cleared:
                raw[meter] = None
                yield from self._breach(self.reset_rules[meter], record, f"/{meter}",
                                        f"machine {machine.label}: {meter} goes back from {before:,} to 0 with every "
                                        f"other meter ({', '.join(cleared)}) since the last reading (line "
                                        f"{machine.record.line}): a RAM clear, a reset, not a rollover")
            elif digits is None:
                raw[meter] = None
                yield from self._breach(self.reset_rules[meter], record, f"/{meter}",
                                        f"machine {machine.label}: {meter} goes back from {before:,} to {after:,} "
                                        f"since the last reading (line {machine.record.line}): reset by hand, not "
                                        "rolled over, for its homologation file gives it no capacity to roll over "
                                        "at" + ("" if machine.capacity.get(meter) is None else
                                                f" (the header's {machine.capacity[meter]} digits are not the "
                                                "file's)"))
            else:
                back[meter] = (before, after, 10 ** digits - before + after)
                raw[meter] = back[meter][2]
        # A rollover is taken only where nothing says otherwise: it counts less than half the meter's capacity (a
        # meter read that seldom could not be told going forward from going back), the other coin-in meter counted
        # as much, coins staked fit the games played at the maximum stake, the drop does not exceed the coins in.
        for meter in [m for m in (*COIN_IN, *(m for m in METERS if m not in COIN_IN)) if m in back]:
            before, after, counted = back[meter]
            capacity = 10 ** machine.filed[meter]
            why = None
            if 2 * counted >= capacity:
                why = f"more than half the meter's capacity of {machine.filed[meter]} digits"
            elif meter in COIN_IN:
                other = COIN_IN[1 - COIN_IN.index(meter)]
                games = raw.get("games_played") if "games_played" not in back else None
                if other in back and back[other][2] != counted:
                    why = f"where the other coin-in meter, going back too, would have counted {back[other][2]:,}"
                elif other not in back and raw.get(other) is not None and raw[other] != counted:
                    why = f"where the other coin-in meter counted {raw[other]:,}"
                elif machine.max_bet is not None and games is not None and counted > machine.max_bet * games:
                    why = f"more than {games:,} games can stake at the most of {machine.max_bet} units a game"
            elif meter == "drop":
                staked = _staked(raw)
                if staked is not None and counted > staked:
                    why = f"more than the {staked:,} coins put in"
            if why is not None:
                raw[meter] = None
                yield from self._breach(self.reset_rules[meter], record, f"/{meter}",
                                        f"machine {machine.label}: {meter} goes back from {before:,} to {after:,}: "
                                        f"reset by hand, not rolled over, for a rollover would mean {counted:,} "
                                        f"counted since the last reading (line {machine.record.line}), {why}")
        return raw

    def _add(self, machine: _Machine, increments: dict, record) -> None:
        """The period since the machine's previous reading joins its realised return if every increment it needs is
        known and the two coin-in meters counted alike."""
        sums = machine.sums
        # The games played only bound the squared stakes; where the maximum stake bounds each of them, a period whose
        # games_played meter went back (or cannot be read) still counts what was staked and paid: never a meter no
        # law rule reads that takes a low return out of the judgement.
        needed = (*COIN_IN, "coin_out", "hand_paid_jackpots", *(("games_played",) if machine.max_bet is None else ()))
        unknown = [meter for meter in needed if increments.get(meter) is None]
        if unknown:
            why = f"{', '.join(unknown)} not known"
        elif increments["coin_in_1"] != increments["coin_in_2"]:
            why = "the coin-in meters counted differently"
        else:
            sums.staked += increments["coin_in_1"]
            sums.paid += increments["coin_out"] + increments["hand_paid_jackpots"]
            if increments.get("games_played") is None:
                sums.ungamed += increments["coin_in_1"]
                sums.ungamed_periods += 1
            else:
                sums.games += increments["games_played"]
            sums.periods += 1
            sums.first_line = sums.first_line or machine.record.line
            sums.last_line = record.line
            return
        sums.left_out[why] = sums.left_out.get(why, 0) + 1

    def _count(self, machine: _Machine, when: datetime, counted: bool, record) -> Iterator[Finding]:
        """Calendar months without a drop-box count, each judged once the machine's readings have passed it and
        only if they cover it whole (read on its 1st or before, and again after its last day)."""
        month = (when.year, when.month)
        if machine.month is None:
            machine.month, machine.month_whole, machine.counted = month, self._from_start(when), counted
            return
        if month == machine.month:
            machine.counted = machine.counted or counted
            return
        if machine.month_whole and not machine.counted:
            yield from self._uncounted(machine, machine.month, machine.record, "its last reading that month")
        skipped = _next_month(machine.month)
        while skipped != month:  # months with no reading at all, between two readings
            yield from self._uncounted(machine, skipped, record, "no reading in it")
            skipped = _next_month(skipped)
        machine.month, machine.month_whole, machine.counted = month, True, counted

    def _from_start(self, when: datetime) -> bool:
        """A machine's first reading covers its month from the start: read on the 1st, or the log's period begins
        on the 1st or before, or the 1st is within one reading interval before it (a machine read every third day
        is read as often as its log says: its month is judged, whatever the interval)."""
        start = datetime(when.year, when.month, 1, tzinfo=when.tzinfo)
        if when.day == 1 or (self.interval is not None and when - start <= self.interval):
            return True
        return self.period is not None and self.period[0].replace(tzinfo=when.tzinfo) <= start

    def _to_end(self, when: datetime) -> bool:
        """A machine's last reading covers its month to the end: read on its last day, or the log's period ends
        with the month or after it, or the month ends within one reading interval after it."""
        if _month_ends(when):
            return True
        if (when.year, when.month) == (9999, 12):  # no month after it: the period's end is the last moment
            return self.period is not None and self.period[1] == datetime.max
        following = datetime(when.year + when.month // 12, when.month % 12 + 1, 1, tzinfo=when.tzinfo)
        if self.interval is not None and following - when <= self.interval:
            return True
        return self.period is not None and self.period[1].replace(tzinfo=when.tzinfo) >= following

    def _uncounted(self, machine: _Machine, month: tuple[int, int], record, what: str) -> Iterator[Finding]:
        yield from self._breach(self.by_aspect["drop_counted"], record, "", f"machine {machine.label}: no drop-box "
                                f"count in {month[0]}-{month[1]:02d} ({what}; a count is a reading with "
                                "`drop_box_counted: true`)")

    def close(self) -> Iterator[Finding]:
        if not self.counts.checked:  # a header alone: an export cut short proves nothing about any machine
            yield self._tool(F.LOAD_EMPTY, "", "the meter log holds no reading")
        start = self.period[0] if self.period else self.start_time
        end = self.period[1] if self.period else self.end_time
        unknown: dict[tuple[str, str], list[str]] = {}  # (aspect, why) -> machines
        narrowed: dict[tuple[str, str], list[str]] = {}  # (aspect, how) -> machines whose return passed so
        denied: dict[str, list[str]] = {}  # aspect -> machines on the bound for the work other machines spent
        for machine in {id(m): m for m in self.machines.values()}.values():  # a machine read under two ids once
            if machine.record is None:
                continue  # no reading of it was used: each was reported
            if self.period and self.aware:  # the period's days in the log's own time, at its readings' offset
                start, end = (bound.replace(tzinfo=machine.time.tzinfo) for bound in self.period)
            if self.interval is not None and start is not None and _comparable(start, machine.first_time) and \
                    machine.first_time - start > self.interval:
                yield self._tool(F.LOG_GAP, "/time", f"machine {machine.label} first read at "
                                 f"{machine.first_time.isoformat()}, {_hours(machine.first_time - start)} hours after "
                                 f"the log's start ({start.isoformat()}), more than its reading interval of "
                                 f"{self.interval_text} hours", machine.first_record, Severity.WARNING)
            if self.interval is not None and end is not None and _comparable(end, machine.time) and \
                    end - machine.time > self.interval:
                yield self._tool(F.LOG_GAP, "/time", f"machine {machine.label} last read at {machine.time.isoformat()}, "
                                 f"{_hours(end - machine.time)} hours before the log's end ({end.isoformat()}), more "
                                 f"than its reading interval of {self.interval_text} hours", machine.record,
                                 Severity.WARNING)
            if "drop_counted" in self.by_aspect and machine.month_whole and not machine.counted and \
                    self._to_end(machine.time):
                yield from self._uncounted(machine, machine.month, machine.record, "its last reading that month")
            judged = [aspect for aspect in ("return_departure", "return_minimum", "rate_changed")
                      if aspect in self.by_aspect] or [None]
            for aspect in ("return_departure", "return_minimum", "rate_changed"):
                if aspect not in self.by_aspect:
                    continue
                why = machine.unknown_theory
                sums = machine.sums
                if why is None and sums.staked and not sums.games and machine.max_bet is None:
                    why = "coins were staked but its games_played meter did not move"
                if why is None and aspect == "rate_changed" and machine.max_bet is None:
                    why = ("no maximum stake is known (give the log's `denomination` and the homologation file's "
                           "`stakes.maximum_eur`): an error is never found on stakes assumed equal")
                if why is None and not sums.staked and sums.left_out:  # played, maybe: nothing says it was not
                    why = "no period between its readings in which coins were staked could be counted" + \
                        _left_out(sums.left_out)
                if why is not None:
                    if sums.staked or sums.left_out:  # a machine nobody played has no return to judge
                        unknown.setdefault((aspect, why), []).append(machine.label)
                    continue
                if sums.staked:
                    found = list(self._return(aspect, machine))
                    yield from found
                    if not found and machine.max_bet is None and aspect != "rate_changed":  # an assumption: said
                        unknown.setdefault((aspect, EQUAL_STAKES), []).append(machine.label)
                    if not found and machine.theory.source == theories.BOUND:
                        if machine.theory.denied and sums.paid < machine.theory.rtp * sums.staked:
                            denied.setdefault(aspect, []).append(machine.label)  # the filer's order: never a pass
                        else:
                            narrowed.setdefault((aspect, ON_THE_BOUND), []).append(machine.label)
                    if sums.left_out and aspect == judged[0]:  # set aside, never in silence: said once
                        reasons = "; ".join(f"{why}: {count}" for why, count in sums.left_out.items())
                        yield self._tool(F.LOG_SET_ASIDE, "", f"machine {machine.label}: "
                                         f"{sum(sums.left_out.values())} period(s) between readings set aside from "
                                         f"its realised return ({reasons}); it is judged over the periods that "
                                         "remain", self.header, Severity.INFO)
        for (aspect, why), names in unknown.items():
            shown = ", ".join(names[:SHOWN_MACHINES]) + (f" and {len(names) - SHOWN_MACHINES} more"
                                                          if len(names) > SHOWN_MACHINES else "")
            yield from self._not_checked(self.by_aspect[aspect], self.header, "",
                                         f"the realised return of {shown}: {why}")
        for (aspect, how), names in narrowed.items():
            shown = ", ".join(names[:SHOWN_MACHINES]) + (f" and {len(names) - SHOWN_MACHINES} more"
                                                          if len(names) > SHOWN_MACHINES else "")
            yield from self._said(self.by_aspect[aspect], self.header, f"the realised return of {shown}: {how}")
        severity = Severity.ERROR if self.require_params else Severity.WARNING
        for aspect, names in denied.items():
            shown = ", ".join(names[:SHOWN_MACHINES]) + (f" and {len(names) - SHOWN_MACHINES} more"
                                                          if len(names) > SHOWN_MACHINES else "")
            for rule, _ in self.by_aspect[aspect]:
                if self.admit(self.file, rule.id, severity):
                    line, column = self.header.position("") or (None, None)
                    yield Finding(rule.id, severity, f"not judged: the realised return of {shown}: {ON_BUDGET}",
                                  self.file, line, column, "", self.header.index, self.jurisdiction, rule.citation)

    def _return(self, aspect: str, machine: _Machine) -> Iterator[Finding]:
        """The realised return against the theory's interval: a departure either way (return_departure), or a
        return significantly under the law's minimum (return_minimum). Squares are compared exactly."""
        sums, theory = machine.sums, machine.theory
        realised = Fraction(sums.paid, sums.staked)
        squares = bet_squares(sums.staked - sums.ungamed, sums.games, machine.max_bet) + \
            (machine.max_bet * sums.ungamed if sums.ungamed else 0)
        variance = theory.variance * squares / sums.staked ** 2
        stakes = (f"stakes of 1 to {machine.max_bet} units a game, the worst case" if machine.max_bet is not None
                  else "every game staking the same (the maximum stake, from the homologation file and the log's "
                       "`denomination`, would bound them)")
        over = (f"{sums.staked:,} units staked and {sums.games:,} games from line {sums.first_line} to line "
                f"{sums.last_line}" + _left_out(sums.left_out) +
                (f"; games_played not known over {sums.ungamed_periods} period(s) staking {sums.ungamed:,} units, each "
                 f"game taken to stake the maximum" if sums.ungamed_periods else ""))
        theory_said = f"{_theory_said(theory)}; {stakes}"
        for rule, spec in self.by_aspect[aspect]:
            if aspect == "rate_changed":
                yield from self._rate_changed(rule, spec, machine, realised, squares, over, theory_said)
                continue
            confidence = to_decimal(spec.get("confidence", DEFAULT_CONFIDENCE))
            if confidence is None or not 50 < confidence < 100:  # a house parameter of another kind
                yield from self._not_checked([(rule, spec)], machine.record, "", f"the rule's confidence "
                                             f"{brief(show(spec.get('confidence')))} is no percentage over 50 and "
                                             "under 100")
                continue
            confidence = Fraction(confidence) / 100
            if aspect == "return_departure":
                z = normal_quantile((1 + confidence) / 2)
                centre = min(max(realised, theory.rtp), theory.high or theory.rtp)  # the nearest paytable's rate
                gap = realised - centre
                if gap * gap <= z * z * variance:
                    continue
                half = root(z * z * variance)
                side = "above" if gap > 0 else "below"
                message = (f"machine {machine.label}: realised return {_percent(realised)} over {over}, {side} the "
                           f"{_percent(confidence, 6)} interval {_percent(centre)} ± {_percent(half)} "
                           f"({_percent(centre - Fraction(half))} to {_percent(centre + Fraction(half))}) "
                           f"around its theory ({theory_said})")
            else:
                minimum = Fraction(to_decimal(spec["minimum_percent"])) / 100
                z = normal_quantile(confidence)
                short = minimum - realised
                if short <= 0 or short * short <= z * z * variance:
                    continue
                half = root(z * z * variance)
                message = (f"machine {machine.label}: realised return {_percent(realised)} over {over}: below "
                           f"{_percent(minimum, 6)} with {_percent(confidence, 6)} confidence (its one-sided upper "
                           f"bound is {_percent(realised + Fraction(half))}, by its theory: {theory_said})")
            yield from self._breach([(rule, spec)], machine.record, "", message)


    def _rate_changed(self, rule, spec, machine: _Machine, realised: Fraction, squares: Fraction, over: str,
                      theory_said: str) -> Iterator[Finding]:
        """The realised pay so far short of the theory's that a machine paying at its rate falls as short with a
        probability of `false_alarm` at most, by the bound on the lower tail of non-negative pays (stats.py):
        t^2 > 2 ln(1/alpha) E[X^2] sum b_i^2, exactly (ln rounded up)."""
        sums, theory = machine.sums, machine.theory
        alarm = _probability(spec.get("false_alarm"))
        if alarm is None:
            yield from self._not_checked([(rule, spec)], machine.record, "", f"the rule's false_alarm "
                                         f"{brief(show(spec.get('false_alarm')))} is no probability between 0 and 1")
            return
        short = theory.rtp * sums.staked - sums.paid
        second = theory.variance + theory.rtp ** 2  # E[X^2] of one game's return per unit staked
        limit = 2 * log_inverse(alarm) * second * squares
        if short <= 0 or short * short <= limit:
            return
        sigmas = root(short * short / (second * squares))
        message = (f"machine {machine.label}: realised return {_percent(realised)} over {over}: "
                   f"{_percent(theory.rtp - realised)} below its theory, {_decimal(Fraction(sigmas), 2)} times the "
                   f"root mean square of its pay (a machine paying at that rate falls as far with a probability under "
                   f"{format(to_decimal(spec['false_alarm']), 'f')}, whatever its pay table's shape): another rate than the one "
                   f"filed is applied ({theory_said})")
        yield from self._breach([(rule, spec)], machine.record, "", message)


# --- helpers ------------------------------------------------------------------------------------------------

def _probability(value) -> Fraction | None:
    """A false-alarm probability as the rule gives it (text of a decimal), strictly between 0 and 1."""
    number = to_decimal(value) if isinstance(value, str) else None
    if number is None or not 0 < number < 1:
        return None
    return Fraction(number)


def _theory_said(theory) -> str:
    """Where the theory a return is judged against comes from, as a finding says it."""
    if theory.source == theories.PAR and theory.tables > 1:
        rates = _percent(theory.rtp) + (f" to {_percent(theory.high)}" if theory.high is not None else "")
        return (f"par return {rates} over its {theory.tables} paytables (a meter does not say which one a game "
                f"is of), standard deviation per game at most {_decimal(theory.variance_root)}, computed from its "
                "PAR data")
    if theory.source == theories.PAR:
        return (f"par return {_percent(theory.rtp)}, standard deviation per game {_decimal(theory.variance_root)}, "
                "computed from its PAR data")
    return (f"declared return {_percent(theory.rtp)}, standard deviation per game at most "
            f"{_decimal(theory.variance_root)}, the largest a machine of that rate paying at most "
            f"{_decimal(theory.top)} per unit staked in one game can have ({theory.why})")


def _filed_ids(filed: dict) -> dict:
    """The ids a homologation file gives its machine: its location number and its serial number (None where not)."""
    def text(value):
        return value if isinstance(value, str) and value.strip() else None

    location = filed.get("location_number")
    plate = filed.get("identification_plate") if isinstance(filed.get("identification_plate"), dict) else {}
    machine = filed.get("machine") if isinstance(filed.get("machine"), dict) else {}
    return {"location": text(location.get("number")) if isinstance(location, dict) else text(plate.get("location_number")),
            "plate_location": text(plate.get("location_number")),
            "serial": text(machine.get("serial_number")) or text(plate.get("serial_number")),
            "plate_serial": text(plate.get("serial_number"))}


def _ram_clear(previous: dict, meters: dict) -> list[str]:
    """The meters that went back to 0 where every meter of the reading reads 0 (games_played among them) and one
    at least went back: a RAM clear, whatever a rollover of each could have counted. Else []."""
    if "games_played" not in meters or any(meters.values()):
        return []
    return [meter for meter, count in previous.items() if meter in meters and count]


def _denominations(filed: dict) -> set[Decimal]:
    """The values one unit may have on the machine, in euros: its coins, its token, its paytables' credits."""
    found: set[Decimal] = set()
    acceptor = filed.get("coin_acceptor")
    if isinstance(acceptor, dict):
        coins = acceptor.get("coin_denominations_eur")
        for value in (*(coins if isinstance(coins, list) else ()), acceptor.get("token_value_eur")):
            found.add(to_decimal(value))
    par = filed.get("par")
    tables = par.get("paytables") if isinstance(par, dict) else None
    for table in tables if isinstance(tables, list) else ():
        if isinstance(table, dict):
            found.add(to_decimal(table.get("denomination")))
    return {value for value in found if isinstance(value, Decimal) and value.is_finite() and value > 0}


def _validator():
    global _VALIDATOR
    if _VALIDATOR is None:
        from casino_audit.documents.shape import ShapeValidator

        _VALIDATOR = ShapeValidator(READING_SCHEMA)
    return _VALIDATOR


_VALIDATOR = None


# A return judged with every game staking the same passes a games_played meter that barely moves (a few games
# staking every coin make the interval as wide as one likes): where it passed so, it is said, never passed unseen.
EQUAL_STAKES = ("judged only as if every game staked the same, for no maximum stake is known (give the log's "
                "`denomination` and the homologation file's `stakes.maximum_eur`): a return within that interval may "
                "still be outside the worst case's")


# A machine whose PAR data went uncounted because the log's work was spent on the machines read before it (a filer
# decides their order) and whose return is off its rate would pass on the bound: never a pass, for two decoy sheets
# read first would otherwise let a machine paying 75 % of a 92.5 % rate through.
ON_BUDGET = ("below its declared rate, it is within only the widest interval a machine of its rate and top award can "
             "have, for the slot engine's work for this log's PAR data (at most "
             f"{theories.EXACT_SHEETS} distinct sheets counted exactly) was spent on machines read before it: give "
             "its readings in a log of their own, where its PAR data are counted exactly")


# A return judged against the top award's bound passes whatever is within the widest interval a machine of its rate
# could have: said, for the machine's own (from PAR data counted exactly) may be much narrower.
ON_THE_BOUND = ("passed, judged only against the largest standard deviation a machine of its declared rate and top award "
                "can have, for its PAR data were not counted exactly: a return within that interval may still be "
                "outside the machine's own")


def _spelling(name: str) -> str:
    """What is left of a machine's name without spaces, case, Unicode compatibility form (NFKC) or invisible format
    characters: names that differ only there name one machine to a reader."""
    return same_name(name).replace(" ", "")


def _number_like(value) -> bool:
    """A value the header's schema takes for a number (a number, or text of digits), whatever its size: one
    `to_decimal` cannot read (1 followed by 40 zeros, 24.000... of 70 digits) is said, never taken for none given."""
    if isinstance(value, bool):
        return False
    return isinstance(value, (int, Decimal)) or (isinstance(value, str) and bool(_DIGITS.match(value)))


_DIGITS = re.compile(r"^[0-9]+(\.[0-9]+)?$")


def _time(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def _duration(hours: Decimal) -> timedelta:
    """Hours as a timedelta, exactly to the microsecond (no float); past timedelta's range, its largest."""
    try:
        return timedelta(microseconds=int(Fraction(hours) * 3_600_000_000))
    except OverflowError:
        return timedelta.max


def _comparable(a: datetime, b: datetime) -> bool:
    return (a.tzinfo is None) == (b.tzinfo is None)


def _digits(given, meter: str) -> int | None:
    """A capacity the header gives for a meter: one number for every meter, or one per meter."""
    value = given.get(meter) if isinstance(given, dict) else given
    return value if type(value) is int and 1 <= value <= 30 else None


def _staked(raw: dict) -> int | None:
    """The coins put in over the period, where the two coin-in meters give it alike."""
    first, second = raw.get("coin_in_1"), raw.get("coin_in_2")
    return first if first is not None and first == second else None


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _signed(difference: int, modulus: int | None) -> str:
    if modulus and difference > modulus // 2:
        difference -= modulus
    return f"{difference:+,}"


def _next_month(month: tuple[int, int]) -> tuple[int, int]:
    return (month[0] + 1, 1) if month[1] == 12 else (month[0], month[1] + 1)


def _month_ends(when: datetime) -> bool:
    """`when` is on its month's last day (9999-12-31, the last day a date can be, is one: no day after it)."""
    return when.date() == date.max or (when.date() + timedelta(days=1)).month != when.month


def _hours(delta: timedelta) -> str:
    seconds = Fraction(delta.days * 86400 + delta.seconds) + Fraction(delta.microseconds, 1_000_000)
    return _decimal(seconds / 3600, 2)


def _decimal(value: Fraction, places: int = 4) -> str:
    number = Decimal(value.numerator) / Decimal(value.denominator)
    return format(number.quantize(Decimal(10) ** -places).normalize(), "f")


def _percent(value, places: int = 2) -> str:
    """A rate as a percentage, to `places` decimals (trailing zeros kept at 2, dropped past them)."""
    value = Fraction(value) * 100
    number = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal(10) ** -places)
    text = format(number, "f")
    if places > 2:
        text = format(number.normalize(), "f")
    return f"{text} %"


def _left_out(left_out: dict) -> str:
    if not left_out:
        return ""
    total = sum(left_out.values())
    reasons = "; ".join(f"{why}: {count}" for why, count in left_out.items())
    return f" ({total} period(s) between readings left out: {reasons})"
