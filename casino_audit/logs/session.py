"""One game log replayed: its coups, one at a time, against the rules that verify each aspect.

The header chose the game and the law; `Terms` gathers what the coups are replayed under (the table
configuration the header names, else the header's own limits and the law's schedule). Per coup: the coup's
shape (the family's COUP_SCHEMA), whether the log is whole (numbering, times: always), then the core aspects the
ruleset asks for (limits, multiples, the minimum kept through a session, staff turns), then the family engine's
replay; each breach goes to the rules verifying its aspect. The state is one log's and is dropped with it: memory stays flat.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from typing import Any, Callable, Iterator, Mapping
from zoneinfo import ZoneInfo

from casino_audit.core import findings as F
from casino_audit.core.display import brief, nameless
from casino_audit.core.findings import Citation, Finding, Severity
from casino_audit.core.values import show
from casino_audit.documents.shape import ShapeValidator
from casino_audit.law.checks import bind_params
from casino_audit.law.checks.replay import CORE_ASPECTS
from casino_audit.law.citations import provision_citation
from casino_audit.law.model import Rule, Ruleset, known_zone, zone_read_as
from casino_audit.replay import UNTRACKED, Unavailable, families
from casino_audit.logs.order import SESSION_BREAK, _minutes
from casino_audit.logs.period import declared_period
from casino_audit.logs.aspects import CoreAspects
from casino_audit.logs.terms import terms_for

Admit = Callable[[str, str, Severity], bool]


@dataclass
class Counts:
    """What the summary says of a log: records read, coups checked, coups with a finding, lines unreadable."""

    checked: int = 0
    with_findings: int = 0


class LogSession:
    """The replay of one log under one jurisdiction's record rules for its game."""

    def __init__(self, header, game: str, jurisdiction: str, ruleset: Ruleset, rules: list[Rule],
                 params: Mapping[str, Any], admit: Admit, require_params: bool = False,
                 param_finding: Callable[[Rule, tuple[str, ...]], Finding] | None = None):
        self.header, self.game, self.jurisdiction = header, game, jurisdiction
        self.file = header.file
        self.admit = admit
        self.require_params = require_params
        self.counts = Counts()
        self.hit = False  # the coup being replayed has a breach, shown or only counted
        # what a provision of the rules of play cites: the instruments of the ruleset that gave the game's play
        # (a house ruleset's own instrument is not the law its inherited rules of play quote)
        own_play = ruleset.play.get(game)
        self.instruments = own_play.instruments if own_play is not None else ruleset.instruments
        self._citations: dict[tuple, Citation | None] = {}
        self._pending: list[Finding] = []
        self.currency = _foreign_currency(header.data)
        in_euros, withheld, params = self._withhold_euros(ruleset, params)
        declared = self._read_terms(ruleset, params)
        self.zone = self._zone(header.data, ruleset)
        self.period = self._period(header.data)  # (first day, last day) the log covers
        self._names_saying_nothing(header.data)
        self.module = families.for_game(game)
        self.validator = None
        if self.module is not None:
            self.validator = _validator(self.module)
        # aspect -> [(rule, its check with parameters bound)]; rules missing a parameter say so once
        self.by_aspect: dict[str, list[tuple[Rule, dict]]] = self._bind_rules(rules, params, in_euros, param_finding)
        self.prepared = None
        self._prepare_engine(withheld)
        self.engine = self.prepared is not None and any(a not in CORE_ASPECTS for a in self.by_aspect)
        # the family's breaches with the provision each breaks (`cited`), else as `replay` gives them
        self.replay = getattr(self.module, "cited", None) or getattr(self.module, "replay", None)
        self._header_unchecked(declared)
        # a new séance begins only after such a pause (a parameter of this ruleset's, not another jurisdiction's)
        self.session_break = _minutes(params.get(SESSION_BREAK)) if SESSION_BREAK in ruleset.params else None
        self.core = CoreAspects(self)
        self._param_finding = param_finding

    def _withhold_euros(self, ruleset: Ruleset, params: Mapping[str, Any]) -> tuple[set, list, Mapping]:
        """(the ruleset's parameters in euros, those of them given, the parameters the log is held to): the
        amounts in euros (a parameter whose unit is EUR) bind a log in euros only, withheld from another's."""
        in_euros = {name for name, param in ruleset.params.items() if param.unit == "EUR"} if self.currency else set()
        withheld = sorted(name for name in params if name in in_euros)
        if self.currency is not None:
            # a declaration that would loosen the law is never a pass: the amounts the law fixes are in euros
            also = f"; the parameters {', '.join(withheld)}, in euros, are not applied to it" if withheld else ""
            self._pending.append(self._tool(F.LOG_CURRENCY, "/currency", f"the log's amounts are in {self.currency}, "
                                            f"the law's in euros ({self.jurisdiction}'s tables deal in euros): what "
                                            "compares them with an amount in euros is not checked, each said" + also))
            params = {name: value for name, value in params.items() if name not in in_euros}
        return in_euros, withheld, params

    def _read_terms(self, ruleset: Ruleset, params: Mapping[str, Any]) -> list[tuple]:
        """`terms` from the header; each problem found reading them pending, but the declarations the law does
        not allow, returned as (pointer, message, the table rule) for the rules that break them to say."""
        problems: list[tuple] = []
        self.terms = terms_for(self.header.data, ruleset, self.game, params, self.file, problems, self.currency)
        declared = []
        for pointer, message, *rule_id in problems:  # a problem is the named configuration's unless it says
            if len(rule_id) > 1 and rule_id[1] is not None:
                declared.append((pointer, message, rule_id[1]))
                continue
            self._pending.append(self._tool(rule_id[0] if rule_id else F.LOAD_UNREADABLE, pointer, message,
                                            severity=rule_id[2] if len(rule_id) > 2 else Severity.ERROR))
        return declared

    def _period(self, data) -> tuple | None:
        """The header's `period` as (first day, last day), else None; one that cannot be read is said."""
        period = declared_period(data.get("period") if isinstance(data, Mapping) else None)
        if isinstance(period, str):
            self._pending.append(self._tool(F.LOG_TIME, "/period", f"{period}: the coups' days are not held to it"))
        return period if isinstance(period, tuple) else None

    def _names_saying_nothing(self, data) -> None:
        """A casino or table name that says nothing names no table (compared with a configuration's): said."""
        for key in ("casino", "table"):
            value = data.get(key) if isinstance(data, Mapping) else None
            if isinstance(value, str) and nameless(value):
                self._pending.append(self._tool(F.SHAPE_INVALID if not value.strip() else F.LOAD_AMBIGUOUS, f"/{key}",
                                                f"the {key} is named {brief(show(value))}, which {nameless(value)}: "
                                                "a name no reader can tell from another"))

    def _bind_rules(self, rules: list[Rule], params: Mapping[str, Any], in_euros: set,
                    param_finding) -> dict[str, list[tuple[Rule, dict]]]:
        """aspect -> [(rule, its check with parameters bound)]; a rule in euros on a log in another currency is
        said not checked, one missing a parameter says so once for the run (as a document rule does)."""
        by_aspect: dict[str, list[tuple[Rule, dict]]] = {}
        for rule in rules:
            if in_euros.intersection(rule.params) or (self.currency and rule.check.get("verify") == "stake_multiple"
                                                      and rule.check.get("unit") != "minimum"):
                self._in_euros(rule)  # a parameter in euros, or a multiple of so many euros
                continue
            missing = tuple(name for name in rule.params if name not in params)
            if missing:
                if param_finding is not None:
                    self._pending.append(param_finding(rule, missing))
                continue
            by_aspect.setdefault(rule.check["verify"], []).append((rule, bind_params(rule.check, params)))
        return by_aspect

    def _prepare_engine(self, withheld: list[str]) -> None:
        """The family engine prepared for the aspects it replays (`prepared`, `state`); the aspects it cannot check
        dropped from `by_aspect`, each rule said not applied (or applied in part) once."""
        engine_aspects = [a for a in self.by_aspect if a not in CORE_ASPECTS]
        if engine_aspects and self.module is None:
            for aspect in engine_aspects:
                for rule, _ in self.by_aspect.pop(aspect):
                    self._not_applied(rule, f"no replay engine for {self.game} yet")
        elif engine_aspects:
            self.terms = replace(self.terms, aspects=frozenset(self.by_aspect))
            try:
                self.prepared = self.module.prepare(self.game, self.terms)
            except Unavailable as unavailable:
                self.prepared = unavailable.prepared
                unchecked = unavailable.aspects if self.prepared is not None else engine_aspects
                for aspect in unchecked:
                    for rule, _ in self.by_aspect.pop(aspect, ()):
                        self._not_applied(rule, *self._withheld(unavailable.reason(aspect), withheld,
                                                                Severity.ERROR if unavailable.unreadable_for(aspect)
                                                                else None))
                if self.prepared is not None:  # replayed, but a part of it is not checked: said once
                    for aspect, why in unavailable.partial.items():
                        for rule, _ in self.by_aspect.get(aspect, ()):
                            self._not_applied(rule, *self._withheld(why, withheld))
            self.state = self.module.start(self.prepared) if self.prepared is not None else None

    def _header_unchecked(self, declared: list[tuple]) -> None:
        """What the header makes the rules say before any coup: a start burn in another log, the declarations the
        law does not allow (`declared`), the law's least minimum in euros on a log in another currency."""
        if self.terms.continues and self.engine:  # what the log could not record: said, not passed in silence
            for rule, _ in self.by_aspect.get("burn", ()):
                self._not_applied(rule, "the log continues a shoe another log began (`shoe_continues`, from coup "
                                        f"{self.header.data.get('first_coup')}): that shoe's start burn is in the "
                                        "other log; the log's later shoes are held to it", Severity.INFO)
        for pointer, message, law in declared:  # the log's deal rules say it (they read the same article), else
            deal = self.by_aspect.get("deal") or [(law, None)]  # the table rule it breaks
            self._pending.extend(self._breach("", self.header, pointer, message, deal))
        self.hit = False
        if self.currency is not None and self.terms.limits.pop("law_minimum", None) is not None:
            for rule, _ in self.by_aspect.get("stake_limits", ()):  # the law's least minimum is in euros
                self._not_applied(rule, f"the least minimum the law allows is in euros, the log's amounts in "
                                        f"{self.currency} (`currency`): a stake is held to the limits the log "
                                        "declares alone", Severity.WARNING, "/currency")

    def _zone(self, data, ruleset: Ruleset) -> ZoneInfo | None:
        """The table's time zone: the header's `timezone`, one of the jurisdiction's (a zone the law's tables are
        not in would move its days and its clock changes), else the jurisdiction's first; None where the ruleset
        names none."""
        zones = ruleset.time_zones
        given = data.get("timezone") if isinstance(data, Mapping) else None
        if given is not None and given not in zones and zone_read_as(given, zones) is not None:
            given = zone_read_as(given, zones)  # another name of the table's zone (`Portugal`): its clock
        if given is not None and given not in zones:
            what = "is not the zone of a table in" if known_zone(given) else "is no IANA time zone, nor one of"
            read = f"the coups' times are read in {zones[0]}" if zones else "times without an offset are compared as written"
            self._pending.append(self._tool(F.SHAPE_INVALID, "/timezone", f"`timezone` {brief(show(given))} {what} "
                                            f"{self.jurisdiction} ({', '.join(zones) or 'no zone is known'}): {read}"))
            given = None
        name = given or (zones[0] if zones else None)
        return ZoneInfo(name) if name else None

    def hold_limits(self, bounds) -> list[Rule]:
        """The limits the coups are played under (the table configuration's, else the header's) held to the
        game's table rules on stake limits (`bounds`: the engine's, with parameters bound), as a table
        configuration is, now and at each change: a log declaring maxima the law does not allow (PT n.º 24, b):
        simple chances at most 540 times the minimum) is a breach, whatever its coups stake within them.
        Returns the rules applied."""
        applied = []
        for bound in bounds:
            if self.currency is not None and "per" not in bound.rule.check:  # an amount in euros, not a ratio
                self._in_euros(bound.rule)
                continue
            if bound.run is None:
                if self._param_finding is not None:
                    self._pending.append(self._param_finding(bound.rule, bound.missing_params))
                continue
            applied.append(bound.rule)
            self.core.law_limits.append(bound)
        self.core.ceilings_from(self.core.law_limits)
        if self.core.law_limits:
            self._pending.extend(self.core.held_to_law(self.header))
        self.hit = False  # said of the header, not of the first coup
        return applied

    # --- findings ------------------------------------------------------------------------------------------

    def _tool(self, rule_id: str, pointer: str, message: str, record=None,
              severity: Severity = Severity.ERROR) -> Finding:
        record = record or self.header
        line, column = record.position(pointer) or (None, None)
        return Finding(rule_id, severity, message, self.file, line, column, pointer, record.index,
                       self.jurisdiction)

    def _not_applied(self, rule: Rule, why: str, severity: Severity | None = None, pointer: str = "") -> None:
        """A rule this log cannot be checked by: an info note (an error under --require-params), or `severity`;
        at the header's field that stopped it (`pointer`), else at the header."""
        severity = severity or (Severity.ERROR if self.require_params else Severity.INFO)
        if self.admit(self.file, rule.id, severity):
            line, column = self.header.position(pointer) or self.header.position("") or (None, None)
            self._pending.append(Finding(rule.id, severity, f"not checked in this log: {why}", self.file, line,
                                         column, pointer, self.header.index, self.jurisdiction, rule.citation))

    def _withheld(self, why: str, withheld: list[str], severity: Severity | None = None) -> tuple:
        """An engine's reason for not checking an aspect, where the parameter it lacks was given in euros and
        withheld from a log in another currency: said so, a warning at `currency`."""
        names = [name for name in withheld if name in why]
        if not names:
            return why, severity
        return (f"{why}; {', '.join(names)} was given, in euros, and the log's amounts are in {self.currency}",
                severity or Severity.WARNING, "/currency")

    def _in_euros(self, rule: Rule) -> None:
        """A rule that compares the log's amounts with the law's, in euros, where the log's are in another
        currency: no rate converts them, so it is not checked, and that is a warning at `currency`."""
        self._not_applied(rule, f"the log's amounts are in {self.currency} (`currency`), the law's in euros, and "
                                "no rate converts them", Severity.WARNING, "/currency")

    def _narrowed(self, rule: Rule, why: str) -> None:
        """A rule checked in this log, but less than the law asks, for want of a parameter: an info note (an
        error under --require-params)."""
        severity = Severity.ERROR if self.require_params else Severity.INFO
        if self.admit(self.file, rule.id, severity):
            line, column = self.header.position("") or (None, None)
            self._pending.append(Finding(rule.id, severity, f"narrowed in this log: {why}", self.file, line,
                                         column, "", self.header.index, self.jurisdiction, rule.citation))

    def _breach(self, aspect: str, record, pointer: str, message: str, rules=None,
                provision=()) -> Iterator[Finding]:
        """The finding of each rule verifying the aspect (or of `rules` alone: the ones whose scope matched),
        citing the provision of the rules of play the engine named (`provision`: (its citation mapping,) as the
        replay yielded it), else the rule's own citation."""
        rules = self.by_aspect.get(aspect, ()) if rules is None else rules
        self.hit = self.hit or bool(rules)  # a breach counted past --max-per-rule still marks its coup
        cited = self._cited(provision[0]) if provision and provision[0] is not None and rules else None
        for rule, _ in rules:
            if self.admit(self.file, rule.id, rule.severity):
                line, column = record.position(pointer) or (None, None)
                yield Finding(rule.id, rule.severity, message, self.file, line, column, pointer, record.index,
                              self.jurisdiction, cited or rule.citation)

    def _cited(self, provision: Mapping) -> Citation | None:
        """The Citation of a provision of the rules of play (a mapping {article, text[, instrument]}), read once."""
        key = (provision.get("instrument", ""), provision.get("article"), provision.get("text"))
        found = self._citations.get(key)
        if found is None:
            found = self._citations[key] = provision_citation(provision, self.instruments)
        return found

    # --- the stream ----------------------------------------------------------------------------------------

    def named_filings(self) -> list[str]:
        """The table configuration the coups were replayed under, where the header names one (checked with the
        log)."""
        return [self.terms.table_path] if self.terms.table_path is not None else []

    def start(self) -> Iterator[Finding]:
        yield from self._pending
        self._pending = []

    def coup(self, record) -> Iterator[Finding]:
        """The findings of one coup record (its shape, then each aspect)."""
        found = list(record.findings)
        data = record.data
        if self.validator is not None and not self.validator.is_valid(data):
            for rule_id, pointer, message in self.validator.errors(data):
                found.append(self._tool(rule_id, pointer, f"coup: {message}; the coup is not replayed", record))
            if isinstance(data, dict):  # not replayed, but it is in the log: its number and time still count
                found.extend(self.core.order(record, data, refused=True))
        elif self.validator is None and not isinstance(data, dict):
            found.append(self._tool(F.SHAPE_INVALID, "", "a coup record is a JSON object", record))
        else:
            found.extend(self.core.coup(record))
            if self.engine:
                for aspect, pointer, message, *provision in self.replay(self.prepared, self.state, data):
                    if aspect == UNTRACKED:
                        found.append(self._tool(F.LOG_UNTRACKED, pointer, message, record, Severity.WARNING))
                        continue
                    found.extend(self._breach(aspect, record, pointer, message, provision=provision))
        self.counts.checked += 1
        self.counts.with_findings += bool(found) or self.hit
        self.hit = False
        if self._pending:  # of the log, not of this coup (a rule found not applicable here): not counted on it
            found.extend(self._pending)
            self._pending = []
        return found

    def close(self) -> Iterator[Finding]:
        if not self.counts.checked:  # a header alone: an export cut short proves nothing about any coup
            yield self._tool(F.LOAD_EMPTY, "", "the game log holds no coup")
        yield from self.core.close()
        finish = getattr(self.module, "finish", None)
        if self.engine and finish is not None:
            for aspect, pointer, message, *provision in finish(self.prepared, self.state):
                yield from self._breach(aspect, self.header, pointer, message, provision=provision)


def _validator(module):
    cached = getattr(module, "_shape_validator", None)
    if cached is None:
        cached = module._shape_validator = ShapeValidator(module.COUP_SCHEMA)
    return cached


def _foreign_currency(data) -> str | None:
    """The currency the log's amounts are in, where it is not the euro the law's amounts are in (LU, PT and MC
    alike): the header's `currency` (EUR where it gives none)."""
    given = data.get("currency") if isinstance(data, Mapping) else None
    if given is None or given == "EUR":
        return None
    return given if isinstance(given, str) and given.isascii() and given.isalpha() and len(given) == 3 \
        else brief(show(given))
