"""One game log replayed: its coups, one at a time, against the rules that verify each aspect.

The header chose the game and the law; `Terms` gathers what the coups are replayed under (the table
configuration the header names, else the header's own limits and the law's schedule). Per coup: the coup's
shape (the family's COUP_SCHEMA), whether the log is whole (numbering, times: always), then the core aspects the
ruleset asks for (limits, multiples, the minimum kept through a session, staff turns), then the family engine's
replay; each breach goes to the rules verifying its aspect. The state is one log's and is dropped with it: memory stays flat.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from decimal import MAX_PREC, Context, Decimal
from functools import lru_cache
from fractions import Fraction
from typing import Any, Callable, Iterator, Mapping
from zoneinfo import ZoneInfo

from casino_audit.core import findings as F
from casino_audit.core import pointers
from casino_audit.law.checks import bind_params
from casino_audit.law.checks.replay import CORE_ASPECTS
from casino_audit.core.display import brief, nameless, same_name
from casino_audit.core.findings import Citation, Finding, Severity
from casino_audit.replay import UNTRACKED, Returns, Terms, Unavailable, cents, families, is_multiple, money
from casino_audit.law.citations import provision_citation
from casino_audit.law.model import Rule, Ruleset, known_zone
from casino_audit.core.values import show, to_decimal

Admit = Callable[[str, str, Severity], bool]
_EXACT = Context(prec=MAX_PREC)  # a product of two amounts, exact (the default 28 digits would round one)
SESSIONS_KEPT = 100_000  # the sessions of one log remembered, to find one that comes back
# the parameter naming the least pause between two séances of a table: a session label changed after less is the
# séance going on (LOG-SESSION), never a new one that starts again what the law keeps through a séance
SESSION_BREAK = "session_break_minutes"
SAME_SECOND = 10  # coups stamped with one second: no table plays so many so fast (a roulette spin takes a minute)
NAMES_SAID = 10_000  # the names that say nothing remembered, each said once (memory stays flat past that)


@dataclass
class Counts:
    """What the summary says of a log: records read, coups checked, coups with a finding, lines unreadable."""

    checked: int = 0
    with_findings: int = 0


def terms_for(header: Mapping, ruleset: Ruleset, game: str, params: Mapping, log_path: str,
              problems: list[tuple]) -> Terms:
    """What the coups are replayed under. A table configuration the header names gives the payouts, decks and
    limits; what it cannot give comes from the header, then from the law's schedule. Problems with the named
    configuration are (pointer, message) in `problems`, never a silent fallback."""
    from casino_audit.law.schedules import law_schedule

    table: Mapping = {}
    named = header.get("table_config")
    if isinstance(named, str):
        table = _table_config(log_path, named, header, game, problems)
    stakes = table.get("stakes") if isinstance(table.get("stakes"), Mapping) else {}
    own = header.get("limits") if isinstance(header.get("limits"), Mapping) else {}
    # the table's limits, each the header's where the table gives none (a table without its maximum held the
    # coups to none, the header's maximum set aside)
    limits = {key: stakes.get(f"{key}_eur") if stakes.get(f"{key}_eur") not in (None, {}) else own.get(key)
              for key in ("minimum", "maximum", "maxima", "minima")}
    limits["maxima"], limits["minima"] = limits["maxima"] or {}, limits["minima"] or {}
    floor = law_minimum(ruleset, game, params)
    if floor is not None:  # the least minimum the law allows the table: a stake under it is under any minimum
        limits["law_minimum"] = floor
    for key in ("minimum", "maximum"):  # two limits for one: the configuration's is taken, and that is said
        theirs, ours = money(stakes.get(f"{key}_eur")), money(own.get(key))
        if theirs is not None and ours is not None and theirs != ours:
            problems.append((f"/limits/{key}", f"the header's {key} {cents(ours)} is not the table configuration's "
                                               f"{cents(theirs)}: the coups are held to the configuration's",
                             F.LOAD_AMBIGUOUS))
    decks = _held_decks(ruleset, game, table, header, problems)
    table = _held_commission(ruleset, game, table, problems)
    play = ruleset.play.get(game)
    law = law_schedule(ruleset, game, "/payouts")
    payouts = table.get("payouts") or law
    if table.get("payouts") and law and isinstance(payouts, Mapping):
        # every family: a payout the law fixes is the law's, whatever the table says (LU stud's deux paires 1:1)
        payouts = _law_fixed(payouts, law, getattr(families.for_game(game), "payout_aliases", None), problems)
    return Terms(play=play.data if play else None,
                 payouts=payouts,
                 decks=decks,
                 # a parameter another jurisdiction declares is not this ruleset's (LU's roulette_zero_rule
                 # given in a run never settles a PT roulette's zero)
                 limits=limits, params={k: v for k, v in params.items() if k in ruleset.params},
                 declared=frozenset(ruleset.params), table=table,
                 continues=_continues(header, problems),
                 table_path=os.path.join(os.path.dirname(log_path), named) if table and isinstance(named, str)
                 else None)


def _held_commission(ruleset: Ruleset, game: str, table: Mapping, problems: list) -> Mapping:
    """The table configuration with its `commission` as the law allows it: a commission the game's table rules on
    `/commission` refuse (PT bacará n.º 20: an option «comunicada antecipadamente à Inspecção-Geral de Jogos», not
    communicated) is its own breach, and the coups are settled without it, said."""
    from casino_audit.law.checks import CHECK_KINDS, compile_condition, param_names
    from casino_audit.law.checks.common import NotChecked

    if not isinstance(table.get("commission"), Mapping):
        return table
    for rule in ruleset.rules:
        check = rule.check
        if rule.kind != "table" or game not in rule.games or not str(check.get("target", "")).startswith(
                "/commission") or check.get("kind") not in CHECK_KINDS or any(param_names(check)):
            continue
        try:
            if not all(compile_condition(condition)(table) for condition in rule.when):
                continue
            broken = [v for v in CHECK_KINDS[check["kind"]].compile(check)(table) if type(v) is not NotChecked]
        except Exception:  # a configuration this rule cannot read: its own check says so
            continue
        if broken:
            problems.append(("/table_config", f"the commission of the table configuration it names is not one the "
                                              f"law allows ({rule.id}, {rule.citation.article}: {broken[0][1]}): the "
                                              "coups are settled without it", F.LOAD_AMBIGUOUS, None,
                             Severity.WARNING))
            return {**table, "commission": {"mode": "none"}}
    return table


def _continues(header: Mapping, problems: list) -> bool:
    """Whether the log's first coup continues a shoe another log began (`shoe_continues: true`): only a log that
    continues another (`first_coup` over 1) can; a log of coup 1 saying so is held to its shoe's start burn, said."""
    if header.get("shoe_continues") is not True:
        return False
    first = header.get("first_coup")
    if type(first) is int and first > 1:
        return True
    problems.append(("/shoe_continues", "`shoe_continues: true` says the log's first coup continues a shoe another "
                                        "log began, but the log starts at coup 1 (no `first_coup` over 1): its "
                                        "first shoe starts here, and is held to its burn", F.LOAD_AMBIGUOUS))
    return False


def law_minimum(ruleset: Ruleset, game: str, params: Mapping) -> Decimal | None:
    """The least minimum stake the law allows the game's tables, where it fixes one (a table rule holding
    `/stakes/minimum_eur` to a `min`, a number or a parameter given: LU roulette's ministerial order, punto
    banco's floor ...): the highest of them. None where the law fixes none, or its parameter is not given."""
    found = None
    for rule in ruleset.rules:
        check = rule.check
        if rule.kind != "table" or game not in rule.games or rule.when or check.get("kind") != "value" \
                or check.get("target") != "/stakes/minimum_eur" or "min" not in check:
            continue
        bound = check["min"]
        if isinstance(bound, Mapping):
            if set(bound) != {"param"} or bound["param"] not in params:
                continue
            bound = params[bound["param"]]
        value = to_decimal(str(bound) if isinstance(bound, float) else bound)
        if value is not None and value > 0 and (found is None or value > found):
            found = value
    return found


def _is_count(value) -> bool:
    return type(value) is int and value > 0


def law_decks(ruleset: Ruleset, game: str, table: Mapping | None = None) -> tuple[frozenset, list[Rule]]:
    """The deck counts the law allows a game's shoe, and the table rules that say so (LU Art. 37-4: six; PT
    blackjack n.º 3: four or six; PT bacará n.º 1: six, or eight at a double table ...): each table rule on
    `/cards/decks` (a value's `equals`/`one_of`, a `/cards` schedule's `decks`) whose `when:` holds for the table
    configuration (or, with none, for a table that says nothing: every reading the law allows). Empty where the
    law fixes no count (LU blackjack)."""
    from casino_audit.law.checks import compile_condition

    document = table if isinstance(table, Mapping) and table else {"kind": "table", "game": game}
    counts: set = set()
    rules: list[Rule] = []
    for rule in ruleset.rules:
        check = rule.check
        if rule.kind != "table" or game not in rule.games:
            continue
        if check.get("target") == "/cards/decks" and check.get("kind") == "value":
            given = [check["equals"]] if "equals" in check else list(check.get("one_of") or ())
        elif check.get("target") == "/cards" and check.get("kind") == "schedule" and \
                isinstance(check.get("equals"), Mapping) and "decks" in check["equals"]:
            given = [check["equals"]["decks"]]
        else:
            continue
        given = [value for value in given if _is_count(value)]
        try:
            holds = all(compile_condition(condition)(document) for condition in rule.when)
        except Exception:  # a condition this document cannot be read by: the rule's count is taken all the same
            holds = True
        if given and holds:
            counts.update(given)
            rules.append(rule)
    return frozenset(counts), rules


def _held_decks(ruleset: Ruleset, game: str, table: Mapping, header: Mapping, problems: list) -> int | None:
    """The decks the shoe's cards are counted against: the table configuration's `cards/decks`, else the header's
    `decks`, held to the law first (`law_decks`). A count the law does not allow is an error of its deck rule at
    the place declaring it, and the cards are counted against the most the law allows (no legal shoe is then
    flagged), said; none declared, against the law's one count, or the most of several, said."""
    cards = table.get("cards") if isinstance(table.get("cards"), Mapping) else {}
    declared, where = (cards.get("decks"), "/table_config") if cards.get("decks") is not None else \
        (header.get("decks"), "/decks")
    if where == "/table_config" and header.get("decks") is not None and header.get("decks") != declared:
        problems.append(("/decks", f"the header's decks {brief(show(header.get('decks')))} are not the table "
                                   f"configuration's {brief(show(declared))}: the shoe's cards are counted against "
                                   "the configuration's", F.LOAD_AMBIGUOUS))
    legal, rules = law_decks(ruleset, game, table)
    if not legal:
        return declared if _is_count(declared) else None
    allowed = " or ".join(str(n) for n in sorted(legal))
    most = max(legal)
    if declared is None:
        if len(legal) > 1:
            problems.append(("/decks" if not cards else "/table_config",
                             f"no number of decks is declared (the table configuration's `cards/decks` or the "
                             f"header's `decks`); the law allows {allowed}: the shoe's cards are counted against "
                             f"{most}, and a card seen more often than a smaller shoe holds it passes",
                             F.LOAD_AMBIGUOUS, None, Severity.INFO))
        return most
    if _is_count(declared) and declared in legal:
        return declared
    said = "the table configuration it names declares" if where == "/table_config" else "the header declares"
    for rule in rules[:1] if len(rules) == 1 else [r for r in rules if declared not in _rule_counts(r)][:1]:
        problems.append((where, f"{said} {brief(show(declared))} deck(s); the law allows {allowed}: the shoe's "
                                f"cards are counted against {most}", rule.id, rule))
    return most


def _rule_counts(rule: Rule) -> frozenset:
    check = rule.check
    if check.get("kind") == "schedule":
        return frozenset([check["equals"]["decks"]])
    return frozenset([check["equals"]] if "equals" in check else check.get("one_of") or ())


def _law_fixed(table: Mapping, law: Mapping, aliases: Callable[[str], tuple] | None = None,
               problems: list | None = None) -> dict:
    """The table's schedule with every payout the law fixes (a closed `equals` schedule: LU Art. 37-2, 37-4, 37-7;
    PT n.º 27, 13 ...) at the law's value, and any it leaves out added: a coup is settled as the law pays, whatever
    the configuration says (the configuration's own breach is its rule's, LU-STUD-PAYOUTS and the like: the
    configuration is checked with the log). A payout the law does not fix (a side bet the concessionaire's
    schedule sets, a place bet the source leaves out) is the table's. Each payout set aside is said in `problems`."""
    from casino_audit.games.dice import payout_value

    def exact(value):
        try:
            return payout_value(str(value) if isinstance(value, float) else value)
        except (TypeError, ValueError, ArithmeticError):
            return value

    merged = dict(table)
    differ = []
    for key, value in law.items():
        names = [name for name in (aliases(key) if aliases is not None else ()) or (key,) if name in merged]
        for name in names:  # a schedule may name it otherwise
            if exact(merged[name]) != exact(value):
                differ.append(f"{brief(show(name))} {show(merged[name])} (the law: {show(value)})")
                merged[name] = value
        if not names:
            merged[key] = value
    if differ and problems is not None:
        problems.append(("/table_config", f"the table configuration it names pays {', '.join(differ[:8])}"
                                          f"{f' and {len(differ) - 8} more' if len(differ) > 8 else ''}: the coups "
                                          "are settled as the law pays (the configuration's own breach is reported "
                                          "with it)", F.LOAD_AMBIGUOUS, None, Severity.WARNING))
    return merged


def _table_config(log_path: str, named: str, header: Mapping, game: str, problems: list[tuple[str, str]]) -> Mapping:
    from casino_audit.documents.kinds import misshapen
    from casino_audit.read.loader import NotOneDocument, load_single_document, named_file

    path, outside = named_file(log_path, named, "the table configuration")
    if outside is not None:  # never opened: nothing of it is quoted
        problems.append(("/table_config", f"{outside}; the coups are replayed under the header's limits and the law's "
                                          "schedule"))
        return {}
    try:
        document = load_single_document(path, "a table configuration")
        data = document.data
    except NotOneDocument as error:
        problems.append(("/table_config", f"the table configuration it names cannot be read ({brief(error.problems[0], 200)}); "
                                          "the coups are replayed under the header's limits and the law's schedule"))
        return {}
    if not isinstance(data, dict) or data.get("kind") != "table" or data.get("game") != game:
        problems.append(("/table_config", f"the file it names is not a {game} table configuration; the coups are "
                                          "replayed under the header's limits and the law's schedule"))
        return {}
    wrong = misshapen(document, "table")
    if wrong:  # its payouts and limits are not what the table says, or not at all: never replayed under them
        more = f" and {len(wrong) - 1} more" if len(wrong) > 1 else ""
        problems.append(("/table_config", f"the table configuration it names is not well-formed ({brief(wrong[0], 300)}"
                                          f"{more}); the coups are replayed under the header's limits and the law's "
                                          "schedule"))
        return {}
    if header.get("jurisdiction") and data.get("jurisdiction") not in (None, header.get("jurisdiction")):
        problems.append(("/table_config", f"the table configuration it names is filed under "
                                          f"{show(data.get('jurisdiction'))}, the log under {show(header.get('jurisdiction'))}"))
    # another table's or casino's configuration (a legal one, say) is not this table's: said, never taken in silence
    table, filing = data.get("table"), data.get("filing")
    for what, theirs, ours in (("table", table.get("number") if isinstance(table, Mapping) else None, header.get("table")),
                               ("casino", filing.get("casino") if isinstance(filing, Mapping) else None,
                                header.get("casino"))):
        if theirs is not None and ours is not None and _same_name(str(theirs)) != _same_name(str(ours)):
            problems.append(("/table_config", f"the table configuration it names is of {what} {brief(show(theirs))}, "
                                              f"the log of {what} {brief(show(ours))}: the coups are replayed under "
                                              "another table's configuration"))
    return data


# A table's stakes -> where a log's header gives them
_HEADER_PLACES = {"/stakes/minimum_eur": "/limits/minimum", "/stakes/maximum_eur": "/limits/maximum",
                  "/stakes/maxima_eur": "/limits/maxima", "/stakes/minima_eur": "/limits/minima"}


@dataclass
class _Limits:
    minimum: Decimal | None
    maximum: Decimal | None
    since: dict = field(default_factory=dict)  # "minimum"/"maximum" -> (period key by `per`, coup) when set


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
        problems: list[tuple] = []
        self.terms = terms_for(header.data, ruleset, game, params, header.file, problems)
        declared = []  # (pointer, message, the table rule) of a declaration the law does not allow
        for pointer, message, *rule_id in problems:  # a problem is the named configuration's unless it says
            if len(rule_id) > 1 and rule_id[1] is not None:
                declared.append((pointer, message, rule_id[1]))
                continue
            self._pending.append(self._tool(rule_id[0] if rule_id else F.LOAD_UNREADABLE, pointer, message,
                                            severity=rule_id[2] if len(rule_id) > 2 else Severity.ERROR))
        self.zone = self._zone(header.data, ruleset)
        for key in ("casino", "table"):  # a name that says nothing names no table (compared with a configuration's)
            value = header.data.get(key) if isinstance(header.data, Mapping) else None
            if isinstance(value, str) and nameless(value):
                self._pending.append(self._tool(F.SHAPE_INVALID if not value.strip() else F.LOAD_AMBIGUOUS, f"/{key}",
                                                f"the {key} is named {brief(show(value))}, which {nameless(value)}: "
                                                "a name no reader can tell from another"))
        self.module = families.for_game(game)
        self.validator = None
        if self.module is not None:
            self.validator = _validator(self.module)
        # aspect -> [(rule, its check with parameters bound)]; rules missing a parameter say so once
        self.by_aspect: dict[str, list[tuple[Rule, dict]]] = {}
        for rule in rules:
            missing = tuple(name for name in rule.params if name not in params)
            if missing:  # said once for the run, as for a document rule
                if param_finding is not None:
                    self._pending.append(param_finding(rule, missing))
                continue
            self.by_aspect.setdefault(rule.check["verify"], []).append((rule, bind_params(rule.check, params)))
        self.prepared = None
        engine_aspects = [a for a in self.by_aspect if a not in CORE_ASPECTS]
        if engine_aspects and self.module is None:
            for aspect in engine_aspects:
                for rule, _ in self.by_aspect.pop(aspect):
                    self._not_applied(rule, f"no replay engine for {game} yet")
        elif engine_aspects:
            self.terms = replace(self.terms, aspects=frozenset(self.by_aspect))
            try:
                self.prepared = self.module.prepare(game, self.terms)
            except Unavailable as unavailable:
                self.prepared = unavailable.prepared
                unchecked = unavailable.aspects if self.prepared is not None else engine_aspects
                for aspect in unchecked:
                    for rule, _ in self.by_aspect.pop(aspect, ()):
                        self._not_applied(rule, unavailable.reason(aspect),
                                          Severity.ERROR if unavailable.unreadable_for(aspect) else None)
                if self.prepared is not None:  # replayed, but a part of it is not checked: said once
                    for aspect, why in unavailable.partial.items():
                        for rule, _ in self.by_aspect.get(aspect, ()):
                            self._not_applied(rule, why)
            self.state = self.module.start(self.prepared) if self.prepared is not None else None
        self.engine = self.prepared is not None and any(a not in CORE_ASPECTS for a in self.by_aspect)
        # the family's breaches with the provision each breaks (`cited`), else as `replay` gives them
        self.replay = getattr(self.module, "cited", None) or getattr(self.module, "replay", None)
        if self.terms.continues and self.engine:  # what the log could not record: said, not passed in silence
            for rule, _ in self.by_aspect.get("burn", ()):
                self._not_applied(rule, "the log continues a shoe another log began (`shoe_continues`, from coup "
                                        f"{header.data.get('first_coup')}): that shoe's start burn is in the other "
                                        "log; the log's later shoes are held to it", Severity.INFO)
        for pointer, message, law in declared:  # the log's deal rules say it (they read the same article), else
            deal = self.by_aspect.get("deal") or [(law, None)]  # the table rule it breaks
            self._pending.extend(self._breach("", header, pointer, message, deal))
        self.hit = False
        # a new séance begins only after such a pause (a parameter of this ruleset's, not another jurisdiction's)
        self.session_break = _minutes(params.get(SESSION_BREAK)) if SESSION_BREAK in ruleset.params else None
        self.core = _Core(self)
        self._param_finding = param_finding

    def _zone(self, data, ruleset: Ruleset) -> ZoneInfo | None:
        """The table's time zone: the header's `timezone`, one of the jurisdiction's (a zone the law's tables are
        not in would move its days and its clock changes), else the jurisdiction's first; None where the ruleset
        names none."""
        zones = ruleset.time_zones
        given = data.get("timezone") if isinstance(data, Mapping) else None
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

    def _not_applied(self, rule: Rule, why: str, severity: Severity | None = None) -> None:
        """A rule this log cannot be checked by: an info note (an error under --require-params), or `severity`."""
        severity = severity or (Severity.ERROR if self.require_params else Severity.INFO)
        if self.admit(self.file, rule.id, severity):
            line, column = self.header.position("") or (None, None)
            self._pending.append(Finding(rule.id, severity, f"not checked in this log: {why}", self.file, line,
                                         column, "", self.header.index, self.jurisdiction, rule.citation))

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
    from casino_audit.documents.shape import ShapeValidator

    cached = getattr(module, "_shape_validator", None)
    if cached is None:
        cached = module._shape_validator = ShapeValidator(module.COUP_SCHEMA)
    return cached


class _Core:
    """The core's aspects over the stream: each runs only if a rule verifies it."""

    def __init__(self, session: LogSession):
        self.session = session
        wanted = session.by_aspect
        self.wanted = wanted
        limits = session.terms.limits
        self.limits = _Limits(money(limits.get("minimum")), money(limits.get("maximum")))
        self.law_minimum = limits.get("law_minimum")  # the least minimum the law allows (law_minimum), if known
        self.maxima = {k: money(v) for k, v in (limits.get("maxima") or {}).items()}
        self.minima = {k: money(v) for k, v in (limits.get("minima") or {}).items()}
        self.last_coup: int | None = None
        first = session.header.data.get("first_coup") if isinstance(session.header.data, dict) else None
        self.first_coup = first if type(first) is int else 1  # a log that continues another says where it starts
        self.last_time: datetime | None = None  # the previous coup's instant (UTC; as written where no zone is known)
        self.last_written: datetime | None = None  # its time as written
        self.zone = session.zone
        self.stamp: tuple | None = None  # (the second the last coups are stamped with, how many, the first's number)
        self.began = None  # the table's local day the session in force began on (`per: session_day`)
        self.unnamed: set = set()  # (place, name) of the names that say nothing, said already
        # Between the previous coup and this one: how long the table was idle, and whether a session or a day began
        self.idle: timedelta | None = None
        self.new_session = self.new_day = False
        self.sessions = Returns()  # the session of the last coup, and the ones that ended before it (by _same_name)
        self.session_shown = None  # the last session as written
        # the séance in force: the label that began it, kept through a label changed while play went on
        self.seance = None
        self.relabel_said = False  # a run without session_break_minutes: the session rules narrowed, said once
        self.shuffled = session.engine and bool((getattr(session.prepared, "burn", None) or {}).get("shuffled"))
        # role -> (who, since, first coup, reported, since as written)
        self.turns: dict[str, tuple[str, datetime, int, bool, str]] = {}
        self.named: set[str] = set()  # the roles some coup names, for the turn rules: one never named is said
        self.misnamed: set[str] = set()  # the turn rules' roles some coup wrote otherwise (`Spinner`), said once
        self.stakes = getattr(session.module, "stakes", None)
        self.limits_said = False
        self.started = False  # the first coup sets the limits in force: the coefficient is judged there
        if ("stake_limits" in wanted or "stake_multiple" in wanted) and self.stakes is None:
            for aspect in ("stake_limits", "stake_multiple"):
                for rule, _ in wanted.pop(aspect, ()):
                    session._not_applied(rule, f"no replay engine reads the stakes of {session.game} yet")
        self.bounds: dict[tuple, tuple] = {}  # names of a stake -> (minimum, maximum) under the limits in force
        self.law_limits: list = []  # the table rules on stake limits the limits in force are held to
        self.law_said: set[tuple] = set()  # (rule, place, message) said already: a limit set back is said once
        self.law_ceilings: list = []  # (rule, {chance: at most so many times its minimum}) of the law's maxima
        self.ceilings: dict[tuple, list] = {}  # names of a stake -> its law ceilings under the limits in force
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

    def order(self, record, data, refused: bool = False) -> Iterator[Finding]:
        """Whether the log is whole and in order, always checked (a gap is coups nobody can replay), for a coup
        whose shape is `refused` too (a time that is no text is then the shape's finding alone); returns the
        coup's time, if it is one."""
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
        written = _time(data.get("time"))
        when = None
        self.idle, self.new_day = None, False
        if written is None:
            if refused and not isinstance(data.get("time"), str):
                return None
            yield tool(F.LOG_TIME, "/time", f"`time` is {brief(show(data.get('time')))}, not an ISO 8601 time", record)
        elif self.last_written is not None and not _comparable(written, self.last_written):
            # which came first is unknowable: said, never skipped
            yield tool(F.LOG_TIME, "/time", f"the coup is at {data['time']}, "
                                            f"{'with' if written.tzinfo else 'without'} a time zone, the previous "
                                            f"coup at {self.last_written.isoformat()}, "
                                            f"{'with' if self.last_written.tzinfo else 'without'}: the two cannot be "
                                            "put in order (a log's times all give a zone, or none does)", record)
            when = self._instant(written)
            self.last_written, self.last_time = written, when
        else:
            when = self._instant(written)
            last = self.last_time
            if when is None:
                yield tool(F.LOG_TIME, "/time", f"the coup is at {data['time']}, a time the clock of "
                                                f"{self.zone.key} never shows (it goes forward an hour that night)",
                           record)
            elif last is None:
                pass
            elif when < last:
                yield tool(F.LOG_TIME, "/time", f"the coup is at {data['time']}, before the previous coup "
                                                f"({self.last_written.isoformat()})", record)
            elif written.tzinfo is not None and written.utcoffset() != self.last_written.utcoffset() \
                    and written.utcoffset() - self.last_written.utcoffset() != self._shift(self.last_written, written):
                # an offset drifting from coup to coup makes every coup one instant, and no turn is ever long
                yield tool(F.LOG_TIME, "/time", f"the coup is at {data['time']}, the previous coup at "
                                                f"{self.last_written.isoformat()}: the clock's offset from UTC changes "
                                                "only when summer time starts or ends (one hour, at 01:00 UTC on the "
                                                "last Sunday of March or October"
                                                + (f", as {self.zone.key} keeps it)" if self.zone else ")"), record)
            if when is not None:
                yield from self._stamped(record, data, when)
                self.idle = when - last if last is not None and _comparable(when, last) and when >= last else None
                self.new_day = last is not None and self._day(when) != self._day(last)
                self.last_written, self.last_time = written, when
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
                self.seance = self.sessions.current
                self.began = self._day(when)
                self.new_session = True
            if back:
                yield tool(F.LOG_SESSION, "/session", f"session {brief(show(session))} comes back after session "
                                                      f"{brief(show(before))} began: a session's coups are logged "
                                                      "together, and what is kept through a session (its minimum) "
                                                      "would start again", record)
            if full:  # memory stays flat: said, not dropped unseen
                yield tool(F.LOG_UNTRACKED, "/session", f"more than {SESSIONS_KEPT:,} sessions in one log: from this "
                                                      "coup on, a session that comes back is not looked for",
                           record, Severity.WARNING)
        if self.shuffled:  # a shuffling shoe's burn starts with the séance, as the core reads it
            self.session.state["seance"] = self.seance
        if self.began is None and self.seance is not None:
            # a session whose first time could not be read began no later than its first time that can
            self.began = self._day(when)
        staff = data.get("staff")
        if isinstance(staff, dict):
            for role, who in staff.items():
                if isinstance(who, str) and nameless(who):
                    yield from self._nameless(record, pointers.child("/staff", role), who, f"the {role}",
                                              "read as no one named (whoever held the place before holds it on)")
        return when

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

    def _period(self, per: str, when: datetime | None):
        """The period a coup's limits are kept through: its session, its local day, or the day its session began
        (`session_day`: kept «avant la séance du lendemain», LU Art. 37-8)."""
        if per == "session":
            return self.seance
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
        yield session._tool(F.LOG_SESSION, "/session",
                            f"session {brief(show(label))} begins {_pause(idle)} after the previous coup, of session "
                            f"{brief(show(before))}: less than the {SESSION_BREAK} given, so the table played on; "
                            "the séance goes on through the new label (what it keeps, its minimum and maximum, "
                            "is kept)", record)
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

    def _limits(self, record, data, when) -> Iterator[Finding]:
        given = data.get("limits")
        current = self.limits
        first, self.started = not self.started, True
        changes = {}
        if isinstance(given, dict):
            for key in ("minimum", "maximum"):
                if key in given:
                    value = money(given[key])
                    if value is not None and value != getattr(current, key):
                        changes[key] = value
        for key in ("minimum", "maximum"):
            for rule, spec in self.wanted.get(f"{key}_unchanged", ()):
                period = self._period(spec["per"], when)
                was = current.since.get((key, spec["per"]))
                if key in changes and was is not None and was[0] == period and period is not None:
                    yield from self.session._breach(f"{key}_unchanged", record, f"/limits/{key}",
                                          f"the table's {key} changes from {cents(getattr(current, key))} to "
                                          f"{cents(changes[key])} {self._within(spec['per'], period)} "
                                          f"(set at coup {was[1]})")
                if key in changes or was is None or was[0] != period:
                    current.since[(key, spec["per"])] = (period, data.get("coup"))
        if "coefficient_unchanged" in self.wanted:
            yield from self._coefficient_kept(record, data, when, changes)
        for key, value in changes.items():
            setattr(current, key, value)
        if changes:
            self.bounds.clear()
            self.ceilings.clear()
            if self.law_limits:
                yield from self.held_to_law(record)
        if (changes or first) and "maximum_coefficient" in self.wanted:
            ratio = _ratio(current.minimum, current.maximum)
            if ratio:
                for rule, spec in self.wanted["maximum_coefficient"]:
                    allowed = [Fraction(money(v) or 0) for v in spec["one_of"]]
                    if ratio not in allowed:
                        shown = ", ".join(str(money(v)) for v in spec["one_of"])
                        yield from self.session._breach("maximum_coefficient", record, "/limits" if changes else "/coup",
                                              f"the maximum {cents(current.maximum)} is {_times(ratio)} times the "
                                              f"minimum {cents(current.minimum)}; the law allows {shown} times")

    def held_to_law(self, record) -> Iterator[Finding]:
        """The limits in force, as a table configuration's `stakes`, through the law's table rules on them; each
        breach at the place that declares it (the header's `limits`, the named table configuration, or the coup
        whose `limits` changed them)."""
        from casino_audit.law.checks.common import NotChecked

        session = self.session
        maxima = {name: value for name, value in self.maxima.items() if value is not None}
        minima = {name: value for name, value in self.minima.items() if value is not None}
        stakes = {key: value for key, value in (("minimum_eur", self.limits.minimum), ("maximum_eur", self.limits.maximum),
                                                ("maxima_eur", maxima), ("minima_eur", minima)) if value}
        if not stakes:
            return
        document = {"kind": "table", "jurisdiction": session.jurisdiction, "game": session.game, "stakes": stakes}
        table = session.terms.table
        from_table = record is session.header and isinstance(table, Mapping) and bool(table.get("stakes"))
        lowest = self._lowest_minima(maxima, minima, self._chance_names())
        for bound in self.law_limits:
            found = []  # (pointer, message, where a header's limits give it)
            for violation in bound.run(document):
                pointer, message = violation
                # a limit left out is the table's business, not the log's: the coups' stakes are held to what is
                if type(violation) is NotChecked or pointers.get(document, pointer) is pointers.MISSING:
                    continue
                segments = pointers.split(pointer)  # stakes, maxima_eur, a chance -> limits, maxima, the chance
                head = _HEADER_PLACES.get(pointers.join(segments[:2]))
                found.append((pointer, message, pointers.join((*pointers.split(head), *segments[2:])) if head
                              else "/limits"))
            if lowest:  # each maximum again, over the lowest minimum of a stake it limits
                said = {pointer for pointer, *_ in found}
                again = {**document, "stakes": {**stakes, "minima_eur": {
                    **minima, **{key: value for key, (value, _) in lowest.items()}}}}
                for pointer, message in bound.run(again):
                    segments = pointers.split(pointer)
                    key = segments[2] if segments[:2] == ("stakes", "maxima_eur") and len(segments) == 3 else None
                    if pointer in said or key not in lowest:
                        continue
                    value, where = lowest[key]
                    found.append((pointer, f"it limits the stakes on {', '.join(where)}, held to a minimum of "
                                           f"{cents(value)}: {message}", pointers.child("/limits/maxima", key)))
            for pointer, message, given in found:
                key = (bound.rule.id, pointer, message)
                if key in self.law_said:
                    continue
                self.law_said.add(key)
                if record is not session.header:
                    place, said = "/limits", "the limits from this coup on"
                elif from_table and pointers.get({"stakes": table["stakes"]}, pointer) is not pointers.MISSING:
                    if session.terms.table_path is not None:
                        continue  # the configuration is checked with the log: its own breach, at its line, once
                    place = "/table_config"
                    said = f"the table configuration it names ({brief(show(session.header.data.get('table_config')))})"
                else:
                    place, said = given, "the log's `limits`, read as a table's `stakes`"
                yield from session._breach("", record, place, f"{said}: {message}", [(bound.rule, None)])

    def _chance_names(self) -> list[tuple[str, ...]]:
        """The names a stake on each of the game's chances is limited under (`_bounds`): a roulette chance's in
        every language and its group's, another game's chance by its own name."""
        module = self.session.module
        if getattr(module, "stake_names", None) is not None:
            return module.stake_names(self.session.terms)
        names = getattr(module, "limit_names", None)
        return [(name,) for name in names(self.session.terms)] if names is not None else []

    def _lowest_minima(self, maxima: dict, minima: dict, chances: list[tuple[str, ...]]) -> dict:
        """Each per-chance maximum whose stakes are held to a lower minimum than the one the law's ratio is read
        from (its own entry in the minima, else the table's) -> (that lowest minimum, the chances staked at it). A
        chance is limited by the first of its names the limits give (`_bounds`): over minima {chances_simples:
        200, encarnado: 5} a maximum of 100,000 on chances_simples is 500 times its own minimum, and 20,000 times
        the 5 a stake on encarnado is held to."""
        lowest: dict = {}
        for names in chances if maxima else ():
            high = next((name for name in names if name in maxima), None)
            low = next((name for name in names if name in minima), None)
            value = minima[low] if low is not None else self.limits.minimum
            if high is None or value is None:
                continue
            if high not in lowest or value < lowest[high][0]:
                lowest[high] = (value, [names[0]])
            elif value == lowest[high][0] and names[0] not in lowest[high][1]:
                lowest[high][1].append(names[0])
        read = {key: minima.get(key) or self.limits.minimum for key in lowest}  # the divisor the ratio reads
        return {key: found for key, found in lowest.items() if read[key] is None or found[0] < read[key]}

    def _coefficient_kept(self, record, data, when, changes) -> Iterator[Finding]:
        """The maximum in times the minimum kept within a period (LU Art. 37-5, al. 4: «Le coefficient choisi ne peut
        pas être changé»): a maximum and a minimum changed in proportion keep it, a maximum changed alone does not."""
        current = self.limits
        before = after = None
        if changes:  # the ratios only where a limit changes: most coups change none
            before = _ratio(current.minimum, current.maximum)
            after = _ratio(changes.get("minimum", current.minimum), changes.get("maximum", current.maximum))
        changed = after != before and before is not None and after is not None
        for rule, spec in self.wanted["coefficient_unchanged"]:
            period = self._period(spec["per"], when)
            was = current.since.get(("coefficient", spec["per"]))
            if changed and was is not None and was[0] == period and period is not None:
                yield from self.session._breach(
                    "coefficient_unchanged", record, "/limits/maximum" if "maximum" in changes else "/limits/minimum",
                    f"the table's maximum changes from {_times(before)} to {_times(after)} times its minimum within "
                    f"{spec['per']} {period} (set at coup {was[1]})")
            if changed or was is None or was[0] != period:
                current.since[("coefficient", spec["per"])] = (period, data.get("coup"))

    def _turns(self, record, data, when) -> Iterator[Finding]:
        staff = data.get("staff") if isinstance(data.get("staff"), dict) else {}
        for rule, spec in self.wanted["staff_turn"]:
            role = spec["role"]
            # the role as the law names it, where a coup does (PT n.º 18's «deitador de dados»), before the staff
            # role that holds it otherwise (the croupier who throws)
            key = next((name for name in spec.get("named_as", ()) if name in staff), role)
            who = staff.get(key)
            held = self.turns.get(role)
            if held is not None and self._turn_ended(spec):
                del self.turns[role]
                held = None
            if not isinstance(who, str) or nameless(who):  # a name that says nothing names no one (said in `order`)
                if staff and role not in staff and role not in self.misnamed:
                    yield from self._misnamed(record, staff, role)
                # not recorded at this coup: nobody is seen relieving anyone, the turn runs on (and is measured:
                # a spinner named once and then left out of the coups holds the ball as long as they go on)
                if held is None:
                    continue
                who, unnamed = held[0], True
            else:
                self.named.add(role)
                unnamed = False
                if held is None or _same_name(held[0]) != _same_name(who):
                    self.turns[role] = (who, when, data.get("coup"), False, data.get("time"))
                    continue
            limit = spec["max_minutes"]
            longest = _minutes(limit)
            if longest is not None and not held[3] and _comparable(when, held[1]) and _longer(when - held[1], longest):
                self.turns[role] = (*held[:3], True, held[4])
                yield from self.session._breach("staff_turn", record, "/staff" if unnamed else f"/staff/{key}",
                                      f"{who} has held the {key}'s place since coup {held[2]} "
                                      f"({held[4]}): more than {limit} minutes"
                                      + (f", no one named relieving {who} since" if unnamed else ""))

    def _turn_ended(self, spec) -> bool:
        """Whether a turn ends between the previous coup and this one: a new session or a new day began, after the
        table stood idle longer than the longest turn (PT n.º 18, 25, 33: «permanência na banca»: the same spinner at
        the next evening's session, or the afternoon's and the evening's, holds two turns). A session relabelled
        with the ball still in play ends nothing, else a new label every 50 minutes would pass any turn."""
        if not (self.new_session or self.new_day) or self.idle is None:
            return False
        longest = _minutes(spec["max_minutes"])
        return longest is not None and _longer(self.idle, longest)

    def _misnamed(self, record, staff: dict, role: str) -> Iterator[Finding]:
        """A role a turn rule reads, written otherwise only in case, spaces or Unicode form (`Spinner`): said once,
        not guessed at, for the rule would never see whose turn it was."""
        other = next((key for key in staff if _same_name(key) == _same_name(role)), None)
        if other is not None:
            self.misnamed.add(role)
            yield self.session._tool(F.LOAD_AMBIGUOUS, pointers.child("/staff", other), f"the staff role "
                                     f"{brief(show(other))} differs from {role!r} only in case, spaces or Unicode "
                                     f"form: it is not read as the {role}, whose turns are not measured where it is "
                                     "named so", record)

    def _stakes(self, record, data) -> Iterator[Finding]:
        """Each stake against every limits and multiples rule whose `chances` take it. A family names a stake's
        chance, or several names from the most specific (`rouge`, then `chances_simples`): a limit filed under
        any of them applies."""
        if self.limit_rules and not self.limits_said and self.limits.minimum is None:
            self.limits_said = True
            unknown = self.limits.maximum is None and not self.maxima
            for rule, spec, _ in self.limit_rules:
                if unknown or id(spec) in self.law_maxima:  # the law's maxima are times the minimum
                    floor = f" (each stake is held to the least minimum the law allows, {cents(self.law_minimum)})" \
                        if self.law_minimum is not None and id(spec) not in self.law_maxima else ""
                    self.session._not_applied(rule, f"no stake limits are known{floor}: name the table configuration "
                                                    "in the header (`table_config`) or give `limits` there"
                                              if unknown else "no minimum stake is known, of which the law's "
                                              "maxima are multiples: give `limits/minimum` in the header")
        breach = self.session._breach
        totals: dict = {}  # one player's bet, written as several records -> its stakes so far in this coup
        for pointer, chance, raw, *placed in self.stakes(data):
            amount = raw if type(raw) is int else money(raw)  # an int is exact as it is: no Decimal made
            names = chance if type(chance) is tuple else (chance,)
            # A family may name the bet a stake is part of (a seat's chance on its numbers): a stake split over
            # several records of one bet is one stake against the maximum (PT roulette n.º 32, d): «para cada
            # jogador»), each record still against the minimum and the multiple.
            group = placed[0] if placed else None
            total = None
            if group is not None and amount is not None:
                total = totals[group] = totals.get(group, 0) + amount
                total = total if total != amount else None  # the first record alone: judged as it is
            if amount is None:  # the shape check bounds amounts; one past what `money` reads is said, not skipped
                if self._bounds(names) != (None, None):  # (with no limits known, the rule says it is not checked)
                    yield from breach("stake_limits", record, pointer, f"a stake of {brief(show(raw))} on "
                                      f"{names[0]} is no amount that can be judged against the limits",
                                      [(rule, spec) for rule, spec, chances in self.limit_rules
                                       if chances is None or not chances.isdisjoint(names)])
                continue
            for rule, spec, chances in self.limit_rules:
                if chances is not None and chances.isdisjoint(names):
                    continue
                law = self.law_maxima.get(id(spec))
                low, high = self._bounds(names) if law is None else self._law_bounds(names, law)
                if high is None and (law is None or self.limits.minimum is None) and not (
                        self.law_ceilings and self._law_ceilings(names)):
                    # held to no maximum, neither the limits' nor one the law fixes (for want of the minimum its
                # times are of; a chance the law gives none is no chance of the game, its rule's): named at the end
                    held = self.unheld.setdefault(rule.id, (rule, {}))[1]
                    held[names[0]] = held.get(names[0], 0) + 1
                if high is None and law is not None:
                    continue  # a chance the law gives no maximum; no minimum known at all is said at the first stake
                if law is None and low is not None and high is None:
                    pass  # the stakes held to no maximum are named at the log's end (`_held_to_no_maximum`)
                elif law is None and (low is None) != (high is None) and (rule.id, low is None) not in self.unbounded:
                    # one bound unknown for this stake: said once, never passed as if held to it (a table
                    # configuration or header limits giving the minimum alone let a stake of any size through in
                    # silence); with no limits known at all, the rule said so at the first stake
                    self.unbounded.add((rule.id, low is None))
                    which, key, other = ("minimum", "minimum", "maximum") if low is None else \
                        ("maximum", "maximum", "minimum")
                    self.session._not_applied(rule, f"no {which} stake is known for {names[0]} (the table "
                                                    f"configuration's `stakes/{key}_eur` or the header's "
                                                    f"`limits/{key}`): its stakes are held to the {other} only")
                if low is not None and amount < low:
                    yield from breach("stake_limits", record, pointer, f"a stake of {cents(amount)} on {names[0]}, "
                                      f"under the minimum of {cents(low)}", [(rule, spec)])
                elif low is None and self.law_minimum is not None and amount < self.law_minimum and law is None:
                    yield from breach("stake_limits", record, pointer, f"a stake of {cents(amount)} on {names[0]}, "
                                      f"under {cents(self.law_minimum)}: the limits give no minimum, and the law "
                                      "allows none lower", [(rule, spec)])
                elif high is not None and amount > high:
                    fixed = "" if law is None else f" the law fixes ({self._law_times(names, law)} times the minimum)"
                    yield from breach("stake_limits", record, pointer, f"a stake of {cents(amount)} on {names[0]}, "
                                      f"over the maximum of {cents(high)}{fixed}", [(rule, spec)])
                elif high is not None and total is not None and total > high and total - amount <= high:
                    yield from breach("stake_limits", record, pointer, f"a stake of {cents(amount)} on {names[0]} "
                                      f"brings the same player's stakes on that bet in this coup to {cents(total)}, "
                                      f"over the maximum of {cents(high)}", [(rule, spec)])
            for rule, ceiling, times, low in self._law_ceilings(names) if self.law_ceilings else ():
                if amount > ceiling or total is not None and total > ceiling >= total - amount:
                    # one player's stakes on one bet are one stake (PT n.º 32, d): «para cada jogador»)
                    over = f" brings the same player's stakes on that bet to {cents(total)}," if amount <= ceiling \
                        else ","
                    yield from breach("", record, pointer, f"a stake of {cents(amount)} on {names[0]}{over} over "
                                      f"{cents(ceiling)}: " + ("whatever maximum the limits give it, " if
                                                               self._bounds(names)[1] is not None else
                                                               "the limits give it no maximum of its own, and ")
                                      + f"the law's is at most {show(times)} times its minimum of {cents(low)}",
                                      [(rule, None)])
            for rule, spec, chances, unit in self.multiple_rules:
                if chances is not None and chances.isdisjoint(names):
                    continue
                by = self.limits.minimum if unit == "minimum" else unit
                if by and not is_multiple(amount, by):
                    what = f"the table's minimum ({cents(by)})" if unit == "minimum" else cents(by)
                    yield from breach("stake_multiple", record, pointer, f"a stake of {cents(amount)} on {names[0]} "
                                      f"is not a whole multiple of {what}", [(rule, spec)])

    def ceilings_from(self, bounds) -> None:
        """The law's maxima in times the minimum, chance by chance (a table rule's schedule of `/stakes/maxima_eur`
        per the minimum): a stake on a chance the limits give no maximum of its own is held to the table's
        maximum by the log's rules, and to the law's ceiling by these (a plein of 1,000 under a table maximum of
        1,000 at a minimum of 5 is 200 times it, PT n.º 32, a) allows 30)."""
        for bound in bounds:
            spec = bound.rule.check
            if spec.get("kind") == "value" and spec.get("target") == "/stakes/maximum_eur" \
                    and spec.get("per") == "/stakes/minimum_eur":
                # the table's maximum at most so many times its minimum (PT blackjack n.º 37: 30; LU Art. 33: 50,
                # 100 or 200): with no maximum of its own a stake is held to the most the law allows ("*")
                most = [to_decimal(value) for value in ([spec["max"]] if "max" in spec else spec.get("one_of") or [])]
                most = max((value for value in most if value is not None and value > 0), default=None)
                if most is not None:
                    self.law_ceilings.append((bound.rule, {"*": most}))
                continue
            if spec.get("kind") != "schedule" or spec.get("target") != "/stakes/maxima_eur" or not spec.get("per"):
                continue
            entries = {**spec.get("where_given", {}), **(spec.get("max") or spec.get("equals") or {})}
            ratios = {name: to_decimal(times) for name, times in entries.items()}
            ratios = {name: times for name, times in ratios.items() if times is not None and times > 0}
            if ratios:
                self.law_ceilings.append((bound.rule, ratios))

    def _law_ceilings(self, names: tuple) -> list:
        """(rule, ceiling, times, minimum) for a stake of these names on a chance with no maximum of its own."""
        found = self.ceilings.get(names)
        if found is None:
            found = []
            own = any(name in self.maxima for name in names)
            if self.law_ceilings:
                low, high = self._bounds(names)
                limited = any(chances is None or not chances.isdisjoint(names) for _, _, chances in self.limit_rules)
                for rule, ratios in self.law_ceilings if low else ():
                    # a ceiling on the table's maximum ("*") holds the stakes the log's limit rules hold to it, a
                    # chance's own maximum or minimum never lifting it (LU Art. 37-5, al. 4: «le maximum des
                    # mises est, pour chaque table, fixé ... à 50, 100 ou 200 fois le minimum des mises», the
                    # table's); a chance's own ratio (a schedule of maxima) holds a chance with no maximum of its
                    # own (its own maximum is held to the schedule at the limits, `held_to_law`)
                    named = [ratios[name] for name in names if name in ratios]
                    if own and named:
                        continue
                    times = min(named, default=ratios.get("*") if limited else None)
                    if not named and self.limits.minimum is not None:
                        low = min(low, self.limits.minimum)
                    ceiling = _EXACT.multiply(times, low) if times is not None else None
                    if ceiling is not None and (high is None or high > ceiling):  # else the table's maximum holds
                        found.append((rule, ceiling, times, low))
            self.ceilings[names] = found
        return found

    @staticmethod
    def _law_times(names: tuple, law: dict):
        """What the law fixes a stake of these names' maximum at, in times the minimum (its first name it names)."""
        return next((law[n] for n in names if n in law), None)

    def _law_bounds(self, names: tuple, law: dict) -> tuple:
        """(None, maximum) for a stake of these names where the law fixes its chance's maximum in times the table's
        minimum in force, whatever maximum the table or the log states (theirs is the table's own rule)."""
        times = self._law_times(names, law)
        minimum = self.limits.minimum
        if times is None or minimum is None:
            return None, None
        return None, _EXACT.multiply(times, minimum)  # two finite decimals: their product, never rounded

    def _bounds(self, names: tuple) -> tuple:
        """(minimum, maximum) for a stake of these names: a chance's own, else the table's; kept until the
        limits change."""
        found = self.bounds.get(names)
        if found is None:
            low = next((n for n in names if n in self.minima), None)
            high = next((n for n in names if n in self.maxima), None)
            self.held.update(name for name in (low, high) if name is not None)
            found = self.bounds[names] = (self.minima[low] if low is not None else self.limits.minimum,
                                          self.maxima[high] if high is not None else self.limits.maximum)
        return found

    def close(self) -> Iterator[Finding]:
        yield from self._limits_under_no_chance()
        self._held_to_no_maximum()
        yield from self._roles_never_named()

    def _held_to_no_maximum(self) -> None:
        """Each limit rule's stakes that no maximum held (the limits give none, and no maximum the law fixes could
        be worked out, for want of a minimum): named by chance, a note (an error under --require-params), never
        passed in silence as if within a maximum."""
        for rule, held in self.unheld.values():
            shown = ", ".join(f"{brief(show(name))} ({count:,} stake{'s' if count > 1 else ''})"
                              for name, count in list(held.items())[:12])
            more = f" and {len(held) - 12} more chances" if len(held) > 12 else ""
            self.session._not_applied(rule, f"these stakes were held to no maximum: {shown}{more}; neither the table "
                                            "configuration (`stakes/maximum_eur`) nor the header (`limits/maximum`) "
                                            "gives one, and no maximum the law fixes in times the minimum could be "
                                            "worked out without the minimum")

    def _limits_under_no_chance(self) -> Iterator[Finding]:
        """A per-chance limit filed under a name that is no chance of the game is said: a chance spelt otherwise
        (`Preto`, `preto `) limits nothing, and the table's limit held its stakes in silence."""
        session = self.session
        names = getattr(session.module, "limit_names", None)
        known = names(session.terms) if self.limit_rules and names is not None else None
        if not known:
            return
        table = session.terms.table
        stakes = table.get("stakes") if isinstance(table, Mapping) else None
        for kind, limits in (("minima", self.minima), ("maxima", self.maxima)):
            from_table = isinstance(stakes, Mapping) and bool(stakes.get(f"{kind}_eur"))  # else the header's
            for name in limits:
                if name in self.held or name in known:
                    continue
                where = f"the table configuration's `stakes/{kind}_eur`" if from_table else f"`limits/{kind}`"
                yield session._tool(
                    F.LOAD_AMBIGUOUS, "/table_config" if from_table else pointers.child(f"/limits/{kind}", name),
                    f"{where} names {brief(show(name))}, no chance of {session.game}: a chance spelt otherwise is "
                    f"not limited by it (the table's {kind[:-1]}um held its stakes instead)")

    def _roles_never_named(self) -> Iterator[Finding]:
        """A turn rule whose role no coup of the log names was never applied: said, not passed in silence (a log
        that leaves out `staff` would otherwise pass PT-ROUL-LOG-SPINNER whatever the turns were)."""
        session = self.session
        if not session.counts.checked:
            return
        for rule, spec in self.wanted.get("staff_turn", ()):
            if spec["role"] not in self.named:
                session._not_applied(rule, f"no coup names the {spec['role']} (`staff/{spec['role']}`): whose turn "
                                           "it was, and for how long, cannot be told")
        yield from session.start()


def _time(value) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


@lru_cache(maxsize=4096)
def _same_name(name: str) -> str:
    """A staff member's, a session's or a table's name as compared: "C-1 " and "c-1", or "José" composed and not,
    are one person, not a relief; "S1" and "S1 " one session, whose minimum is kept; "t1" and "T1" one table
    (else a name written otherwise from a coup on would start a new turn, or a new session, that no reader of the
    log sees)."""
    return same_name(name)


def _chances(spec: dict) -> frozenset | None:
    return frozenset(spec["chances"]) if spec.get("chances") else None


def _whole(amount: Decimal | None):
    """An integral amount as an int (stakes are mostly ints: % on ints is the fast path), else as it is."""
    return int(amount) if amount is not None and amount == amount.to_integral_value() else amount


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


def _pause(idle: timedelta) -> str:
    """A pause as a reader says it."""
    seconds = int(idle.total_seconds())
    if seconds < 120:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    return f"{seconds // 60} minutes"


def _comparable(a: datetime, b: datetime) -> bool:
    return (a.tzinfo is None) == (b.tzinfo is None)


def _ratio(minimum: Decimal | None, maximum: Decimal | None) -> Fraction | None:
    """The maximum in times the minimum, exactly, where both are known."""
    return Fraction(maximum) / Fraction(minimum) if minimum and maximum is not None else None


def _times(ratio: Fraction) -> str:
    return str(ratio.numerator) if ratio.denominator == 1 else f"{float(ratio):.4g}"
