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

import re
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Iterator, Mapping
from zoneinfo import ZoneInfo

from casino_audit.core import findings as F
from casino_audit.core.display import brief
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.values import show, to_decimal
from casino_audit.documents.shape import ShapeValidator
from casino_audit.law.checks import bind_params
from casino_audit.law.model import Rule, Ruleset
from casino_audit.logs.clock import written_time
from casino_audit.logs.session import Counts
from casino_audit.meters import theory as theories
from casino_audit.meters.clock import ReadingClock
from casino_audit.meters.figures import hours
from casino_audit.meters.increments import MeterIncrements
from casino_audit.meters.judged import JudgedReturns
from casino_audit.meters.machines import FiledMachines, Machine, spelling
from casino_audit.meters.months import DropMonths
from casino_audit.meters.records import METERS, READING_SCHEMA

Admit = Callable[[str, str, Severity], bool]


class MeterSession(ReadingClock, FiledMachines, MeterIncrements, DropMonths, JudgedReturns):
    """One meter log under one jurisdiction's `meters` rules. The same interface as a game log's LogSession:
    start(), coup(record) for each reading, close(), counts. Its parts: the machines (machines.py), the increments
    between readings (increments.py), the drop-box months (months.py), the return judged at close (judged.py)."""
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
        # the jurisdiction's clock, on which a drop-box month is read (months.py: DropMonths.local_time)
        self.zone = ZoneInfo(ruleset.time_zones[0]) if ruleset.time_zones else None
        self.files: dict[str, Any] = {}  # a homologation file named in the header -> its data (None: unreadable)
        self.filings: list[str] = []  # the paths of those read
        self.conflicts: set[tuple] = set()  # capacities the header and a homologation file give differently
        # months a machine's readings cover only in part, no drop-box count in that part: "M-1 (2026-01, from
        # 2026-01-10 on)", said together at the close (DropMonths.partly_covered)
        self.part_months: list[str] = []
        self.machines: dict[str, Machine] = {}
        self.work = theories.Budget()  # the slot engine's work for every machine's theory, shared
        self.spellings: dict[str, Machine] = {}  # a machine name without its spaces, case and Unicode form
        self.entry_spellings: dict[str, str] | None = None  # the same of the header's `machines` entries
        self.outside = (0, None)  # the readings outside the header's period: how many, the first's line
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
        when = yield from self._reading_time(data, record)
        if when is None:
            return
        name = data["machine"]
        if not spelling(name):  # spaces or invisible characters only: no machine a reader could find
            yield self._tool(F.SHAPE_INVALID, "/machine", f"`machine` is {brief(show(name))}, which names no machine; "
                                                          "the reading is not used", record)
            return
        machine = yield from self._machine_read(name, record)
        before = machine.time
        # most readings come later as written, after a first pass: no clock work for them (`_second_pass`, `_after`)
        unusual = before is not None and (when <= before or before.fold)
        if unusual:
            when = self._second_pass(before, when)
        if unusual and not self._after(before, when):
            what = "the same time as" if when == machine.time else "before"
            yield self._tool(F.LOG_TIME, "/time", f"machine {machine.label} read at {data['time']}, {what} its previous "
                                                  f"reading (line {machine.record.line}, {machine.time.isoformat()}); "
                                                  "the reading is not used", record)
            return
        if machine.time is not None and self.interval is not None and self._gap(machine.time, when) > self.interval:
            yield self._tool(F.LOG_GAP, "/time", f"machine {machine.label} not read from {machine.time.isoformat()} (line "
                                                 f"{machine.record.line}) to {when.isoformat()}: {hours(self._gap(machine.time, when))}"
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

    def _reading_time(self, data, record):
        """The reading's time, held to the log's zone and period; None, said, where the reading is not used (no
        ISO 8601 time, or a UTC offset where the first reading has none, or the other way). A generator: the
        findings are yielded, the time returned."""
        when = written_time(data["time"])  # a string: the shape check held it to one
        if when is None:
            yield self._tool(F.LOG_TIME, "/time", f"`time` is {brief(show(data['time']))}, not an ISO 8601 time; "
                                                  "the reading is not used", record)
            return None
        aware = when.tzinfo is not None
        if self.aware is None:
            self.aware = aware
        elif aware != self.aware:
            yield self._tool(F.LOG_TIME, "/time", f"`time` is {data['time']}, {'with' if aware else 'without'} a UTC "
                                                  f"offset where the log's first reading is "
                                                  f"{'with' if self.aware else 'without'} one; the reading is not "
                                                  "used", record)
            return None
        if aware and self.zone is not None:
            yield from self._offset_held(when, data, record)
        yield from self._in_period(when, record)
        return when

    def _machine_read(self, name: str, record):
        """The machine a reading names: the one read under that name before, the one filed under its other id, or a
        new one. A generator: the findings are yielded, the machine returned."""
        machine = self.machines.get(name)
        if machine is None:
            machine, unfiled = self._filed_machine(name)
            if unfiled is not None:
                yield self._tool(F.LOG_UNFILED, "/machine", unfiled, record)
            elif machine is not None and name != machine.name and spelling(name) == spelling(machine.name):
                # one machine, as a reader sees it: its readings go on; the name written otherwise is said
                yield self._tool(F.LOAD_AMBIGUOUS, "/machine", f"machine {show(brief(name))} is machine "
                                 f"{show(machine.label)} written otherwise (spaces, case or Unicode form): read as "
                                 "that machine, its readings compared with that machine's", record, Severity.WARNING)
        if machine is None:
            machine = self.machines[name] = self._new_machine(name)
            same = self.spellings.setdefault(spelling(name), machine)
            if same is not machine:  # "M-1 " after "M-1": a reset or a gap would hide behind the second name
                yield self._tool(F.LOAD_AMBIGUOUS, "/machine", f"machine {show(machine.label)} differs from machine "
                                 f"{show(same.label)}{f' (line {same.first_record.line})' if same.first_record else ''}"
                                 " only in spaces, case or Unicode form: read as two machines, their readings are not "
                                 "compared with each other", record)
        return machine


def _validator():
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = ShapeValidator(READING_SCHEMA)
    return _VALIDATOR


_VALIDATOR = None


def _number_like(value) -> bool:
    """A value the header's schema takes for a number (a number, or text of digits), whatever its size: one
    `to_decimal` cannot read (1 followed by 40 zeros, 24.000... of 70 digits) is said, never taken for none given."""
    if isinstance(value, bool):
        return False
    return isinstance(value, (int, Decimal)) or (isinstance(value, str) and bool(_DIGITS.match(value)))


_DIGITS = re.compile(r"^[0-9]+(\.[0-9]+)?$")


def _duration(hours: Decimal) -> timedelta:
    """Hours as a timedelta, exactly to the microsecond (no float); past timedelta's range, its largest."""
    try:
        return timedelta(microseconds=int(Fraction(hours) * 3_600_000_000))
    except OverflowError:
        return timedelta.max
