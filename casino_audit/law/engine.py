"""Run a jurisdiction's rules over a document's plain data and turn violations into findings.

The checker holds no run state: what a run has seen (a parameter already reported, counts) is the pipeline's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Iterator

from casino_audit.law import checks
from casino_audit.core import pointers
from casino_audit.law.checks import blocked, compile_undecidable, condition_targets, targets as _targets
from casino_audit.law.checks.common import NotChecked, close_document_memo, open_document_memo
from casino_audit.core.findings import Finding, Severity
from casino_audit.documents.kinds import KINDS
from casino_audit.read.loader import Document
from casino_audit.core.pointers import MISSING
from casino_audit.law.model import Rule, Ruleset
from casino_audit.law.scopes import DOCUMENT, DOSSIER, RECORD, Dossier, ScopedCheck


def _log_session() -> type:
    from casino_audit.logs.session import LogSession  # start-up: a check of filings alone loads no replay engine
    return LogSession


def _meter_session() -> type:
    from casino_audit.meters.session import MeterSession  # start-up: nor the meters' statistics
    return MeterSession


# A stream kind's records are checked by its session class, loaded when a stream of the kind comes.
SESSIONS: dict[str, Callable[[], type]] = {"game-log": _log_session, "meter-log": _meter_session}


class CheckCrashed(Exception):
    """A check raised: the file's verdict is an internal error (exit 2), naming the rule, never a pass."""

    def __init__(self, rule: Rule, file: str, error: BaseException):
        super().__init__(f"internal error in rule {rule.id} ({rule.source}) while checking {file}: "
                         f"{type(error).__name__}: {error}")


def selected(rule_id: str, select: Iterable[str] | None, ignore: Iterable[str] | None) -> bool:
    """ruff-style selection: an id matches a code equal to it or a prefix ending at a dash boundary."""
    def matches(code: str) -> bool:
        return rule_id == code or rule_id.startswith(code.rstrip("-") + "-")
    if select and not any(matches(code) for code in select):
        return False
    return not (ignore and any(matches(code) for code in ignore))


def _reporting_its_omission(rule: Rule, ruleset: Ruleset, values: dict, select, ignore) -> Callable:
    """The rule's check. A rule leaves a missing value to the rule its `missing: {reported_by: ID}` names, so that
    it is said once; with that rule switched off (--select/--ignore), it says so itself wherever that rule would
    have applied (its kind, games and `when:`), never passes a value it could not read."""
    run = rule.compile(values)
    wanted = rule.check.get("missing")
    if not isinstance(wanted, dict) or selected(wanted["reported_by"], select, ignore):
        return run
    reporter = next(other for other in ruleset.rules if other.id == wanted["reported_by"])
    if reporter.kind != rule.kind:
        return run
    strict = replace(rule, check={key: value for key, value in rule.check.items() if key != "missing"}).compile(values)
    conditions = tuple(checks.compile_condition(c) for c in reporter.when)
    game_of = KINDS[reporter.kind].game_of

    def check(data):
        applies = (not reporter.games or game_of(data) in reporter.games) and all(holds(data) for holds in conditions)
        return (strict if applies else run)(data)
    return check


def _related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


@dataclass
class _Bound:
    rule: Rule
    run: Callable[[Any], Iterable[tuple[str, str]]] | None  # None: a parameter is missing
    conditions: tuple[Callable[[Any], bool], ...]
    undecidable: tuple[Callable[[Any], tuple[str, str] | None], ...]  # one per condition, asked first
    targets: tuple[tuple[tuple[str, ...], type | None], ...]
    missing_params: tuple[str, ...]
    # The targets that the kind's shared prefix test (_Steps) does not cover: a wildcard, or a type expected at
    # the end. The others are blocked only where one of their prefixes holds a scalar.
    own_targets: tuple[tuple[tuple[str, ...], type | None], ...] = ()
    # The paths its conditions read, as targets; `conditions_clear`: none has a wildcard, so that where the kind's
    # prefix test finds every path clear, the conditions need not follow theirs to learn so.
    condition_paths: tuple[tuple[tuple[str, ...], type | None], ...] = ()
    conditions_clear: bool = False


_PLANS_KEPT = 256  # (jurisdiction, kind, game) plans kept: games are few, a batch of made-up ones is not kept


class _Steps:
    """The distinct proper prefixes of a kind's plain rule targets, parents first, so that one walk per document
    tells whether any of those paths is blocked (a scalar where it goes on); usually none is, and no rule need
    follow its own path to find so."""

    def __init__(self, bound: list[_Bound]):
        prefixes = {segments[:end] for b in bound for segments, expected in b.targets + b.condition_paths
                    if expected is None and pointers.WILDCARD not in segments for end in range(1, len(segments))}
        self.steps = tuple((prefix[:-1], prefix[-1], prefix) for prefix in sorted(prefixes, key=len))
        # The same prefixes as a tree of keys, each mapping's keys looked up at once (see _mappings_clear).
        tree: dict = {}
        for prefix in sorted(prefixes, key=len):
            node = tree
            for segment in prefix:
                node = node.setdefault(segment, {})
        self.tree_keys = _tree_keys(tree)

    def clear(self, data: Any) -> bool:
        """Whether every prefix reaches a mapping, a list, null or nothing: then no plain target is blocked."""
        if type(data) is dict:
            found = _mappings_clear(data, self.tree_keys)
            if found is not None:
                return found
        return self._clear_stepwise(data)

    def _clear_stepwise(self, data: Any) -> bool:
        if not isinstance(data, dict):
            return False
        reached: dict[tuple, Any] = {(): data}
        for parent_prefix, segment, prefix in self.steps:
            node = reached[parent_prefix]
            if isinstance(node, dict):
                node = node.get(segment, MISSING)
            elif isinstance(node, list):
                node = pointers.step(node, segment)
            elif node is None or node is MISSING:
                node = MISSING
            else:
                return False
            if node is not MISSING and node is not None and not isinstance(node, (dict, list)):
                return False
            reached[prefix] = node
        return True


_CLEAR_TYPES = frozenset((dict, list, type(None)))


def _tree_keys(tree: dict) -> tuple:
    """(keys of this level, ((key, its own level), ...) for the keys with prefixes below them)."""
    return tuple(tree), tuple((key, _tree_keys(below)) for key, below in tree.items() if below)


def _mappings_clear(node: dict, level: tuple) -> bool | None:
    """True where every prefix reaches a plain mapping, a list, null or nothing, and each with more below it a
    mapping or nothing: each level's values looked up and their types tested at once. None otherwise: the
    step-by-step walk, which also reads list indexes, answers."""
    keys, deeper = level
    if not _CLEAR_TYPES.issuperset(map(type, map(node.get, keys))):
        return None  # a scalar where a path goes on (or a subclass): the walk says which
    for key, below in deeper:
        value = node.get(key)
        if type(value) is dict:
            found = _mappings_clear(value, below)
            if found is not True:
                return found
        elif value is not None:
            return None
    return True


class Checker:
    """The rulesets bound to this run's parameter values, ready to check documents."""

    def __init__(self, rulesets: Mapping[str, Ruleset], param_values: dict[str, dict[str, Any]] | None = None,
                 select: list[str] | None = None, ignore: list[str] | None = None, require_params: bool = False,
                 scoped: Iterable[tuple[str, str, ScopedCheck]] = ()):
        """`scoped`: (jurisdiction, scope, check) for the dossier rules of the run (a game log's record rules are
        replayed by its LogSession)."""
        self.rulesets = rulesets
        self._scoped: dict[tuple[str, str], list[ScopedCheck]] = {}
        for code, scope, check in scoped:
            self._scoped.setdefault((code, scope), []).append(check)
        self.select, self.ignore = select, ignore
        self.require_params = require_params
        self.param_values = param_values or {}
        self._bound: dict[tuple[str, str], list[_Bound]] = {}
        self._steps: dict[tuple[str, str], _Steps] = {}
        self._plans: dict[tuple, tuple] = {}
        self._param_findings: dict[tuple, Finding] = {}
        # What each ruleset has rules for, before --select/--ignore: (code, kind) -> games, "*" meaning all.
        self._coverage: dict[tuple[str, str], set] = {}
        self._ready: set[str] = set()
        # Ids of the rules checked against some document or log of the run (their kind, game and `when:` held):
        # a rule with no finding passed only if it is here; the report says why the others were not applied.
        self.applied: set[str] = set()
        self._used_elsewhere: set[str] = set()  # jurisdictions a worker process used (see absorb)

    @property
    def used(self) -> list[str]:
        """The jurisdictions whose rules some document of the run was checked against."""
        return sorted(self._ready | self._used_elsewhere)

    def _bind(self, code: str) -> None:
        """Compile a jurisdiction's rules when its first document comes (a run over Luxembourg filings never
        reads the Portuguese ruleset)."""
        if code in self._ready:
            return
        self._ready.add(code)
        ruleset = self.rulesets[code]
        values = self.param_values.get(code, {})
        for rule in ruleset.rules:
            self._coverage.setdefault((code, rule.kind), set()).update(rule.games or ("*",))
            if rule.scope != DOCUMENT or not selected(rule.id, self.select, self.ignore):
                continue  # record and dossier rules reach the run as ScopedChecks
            missing = tuple(name for name in rule.params if name not in values)
            run = None if missing else _reporting_its_omission(rule, ruleset, values, self.select, self.ignore)
            conditions = tuple(checks.compile_condition(c) for c in rule.when)
            targets = _targets(rule.check)
            own = tuple((segments, expected) for segments, expected in targets
                        if expected is not None or pointers.WILDCARD in segments)
            condition_paths = tuple((pointers.split(target), None) for c in rule.when for target in condition_targets(c))
            self._bound.setdefault((code, rule.kind), []).append(_Bound(
                rule, run, conditions, tuple(compile_undecidable(c) for c in rule.when), targets, missing, own,
                condition_paths, all(pointers.WILDCARD not in segments for segments, _ in condition_paths)))
        for key, bound in self._bound.items():
            if key[0] == code:
                self._steps[key] = _Steps(bound)

    def _plan(self, jurisdiction: str, kind: str, game: Any) -> tuple:
        """The rules a document of this kind and game meets, each as the tuple the loop unpacks (made once per
        game: the loop is run for every document)."""
        key = (jurisdiction, kind, game) if isinstance(game, str) or game is None else None
        plan = self._plans.get(key) if key is not None else None
        if plan is None:
            plan = tuple((b.rule, b.run, getattr(b.run, "passes", None), b.undecidable, b.conditions_clear,
                          b.targets, b.own_targets, b.conditions, b.missing_params)
                         for b in self._bound.get((jurisdiction, kind), ()) if not b.rule.games or game in b.rule.games)
            if key is not None and len(self._plans) < _PLANS_KEPT:  # a game written as a list is planned anew
                self._plans[key] = plan
        return plan

    def log_session(self, header, jurisdiction: str, admit: Callable[[str, str, Severity], bool]):
        """The check of one record stream (a game log replayed, a meter log read) under the jurisdiction's record
        rules for its kind and game (selected ones only), by its kind's session class."""
        self._bind(jurisdiction)
        ruleset = self.rulesets[jurisdiction]
        kind = header.data.get("kind")
        game = KINDS[kind].game_of(header.data)
        rules = [rule for rule in ruleset.rules if rule.scope == RECORD and rule.kind == kind
                 and (not rule.games or game in rule.games) and selected(rule.id, self.select, self.ignore)]
        session = SESSIONS[kind]()(
            header, game, jurisdiction, ruleset, rules, self.param_values.get(jurisdiction, {}), admit,
            self.require_params, self._param_finding)
        self.applied.update(rule.id for bound in session.by_aspect.values() for rule, _ in bound)
        hold = getattr(session, "hold_limits", None)
        if hold is not None:
            self.applied.update(rule.id for rule in hold(self._stake_rules(jurisdiction, game)))
        return session

    def _stake_rules(self, jurisdiction: str, game: Any) -> list[_Bound]:
        """The game's table rules on stake limits alone (every path they read under /stakes, no `when:`): the
        limits a log's coups are played under are held to them as a table configuration's are, but for an
        article a game-log rule of the game already holds the limits to (LU-PB-MAXIMUM and LU-PB-LOG-COEFFICIENT
        both read Art. 37-5, al. 4: one finding, the log's). Only a rule holding the limits to the law's ratio
        does (a coefficient, or maxima fixed in times the minimum): PT-BF-LOG-LIMITS holds each stake to the
        limits declared, under the article whose proportions PT-BF-MAXIMA holds those limits to."""
        logged = {rule.citation.article for rule in self.rulesets[jurisdiction].rules
                  if rule.kind == "game-log" and (not rule.games or game in rule.games)
                  and (rule.check.get("verify") == "maximum_coefficient"
                       or (rule.check.get("verify") == "stake_limits" and rule.check.get("maxima_per_minimum")))}
        return [bound for bound in self._bound.get((jurisdiction, "table"), ())
                if (not bound.rule.games or game in bound.rule.games) and not bound.conditions and bound.targets
                and all(segments[:1] == ("stakes",) for segments, _ in bound.targets)
                and bound.rule.citation.article not in logged]

    def absorb(self, applied: set[str], used: list[str]) -> None:
        """What a worker process's copy of this checker learnt: the rules it applied, the rulesets it used."""
        self.applied |= applied
        self._used_elsewhere.update(used)
        for code in used:  # read here too, so that the report can name and hash them
            self.rulesets[code]

    def dossier(self) -> Dossier:
        """A fresh dossier for the run's dossier rules, all jurisdictions together."""
        return Dossier([check for (_, scope), checks in self._scoped.items() if scope == DOSSIER for check in checks])

    def covers(self, jurisdiction: str, kind: str, game: Any) -> bool:
        self._bind(jurisdiction)
        games = self._coverage.get((jurisdiction, kind), set())
        return "*" in games or (isinstance(game, str) and game in games)

    def check(self, document: Document, kind: str, jurisdiction: str,
              admit: Callable[[str, str, Severity], bool] = lambda file, rule_id, severity: True) -> Iterator[Finding]:
        """Findings of every rule that applies, made one at a time. `admit(file, rule id, severity)` counts each
        violation and says whether it is kept, so 900,000 violations of one rule cost a count, not 900,000
        findings. A rule whose condition or target reads a value of another type than it can read is never
        passed in silence: if it reports nothing there, it says it could not check."""
        self._bind(jurisdiction)
        data = document.data
        game = KINDS[kind].game_of(data)

        def finding(rule: Rule, pointer: str, message: str, severity: Severity | None = None) -> Finding:
            line, column = document.position(pointer) or (None, None)
            return Finding(rule.id, severity or rule.severity, message, document.file, line, column, pointer,
                           document.index, jurisdiction, rule.citation)

        steps = self._steps.get((jurisdiction, kind))
        clear = steps is not None and steps.clear(data)
        open_document_memo(document.file)
        try:
            yield from self._rules(document, data, kind, jurisdiction, game, clear, admit, finding)
        finally:
            close_document_memo()

    def _rules(self, document: Document, data: Any, kind: str, jurisdiction: str, game: Any, clear: bool,
               admit: Callable[[str, str, Severity], bool], finding) -> Iterator[Finding]:
        applied = self.applied
        for rule, run, passes, undecidable, conditions_clear, targets, own_targets, conditions, missing_params in self._plan(
                jurisdiction, kind, game):
            if run is None:
                yield self._param_finding(rule, missing_params)
                continue
            if undecidable:
                told = clear and conditions_clear
                undecided = next(filter(None, (unreadable(data, told) for unreadable in undecidable)), None)
                if undecided is not None:
                    pointer, why = undecided
                    if admit(document.file, rule.id, rule.severity):
                        yield finding(rule, pointer, f"not checked: whether this rule applies depends on "
                                                     f"`{_name(pointer)}`, which {why}")
                    continue
            followed = own_targets if clear else targets
            unreadable = [found for found in (blocked(data, segments, expected) for segments, expected in followed)
                          if found is not None] if followed else followed
            try:
                if conditions and not all(condition(data) for condition in conditions):
                    continue
                if passes is not None and clear and not own_targets and passes(data):
                    applied.add(rule.id)  # every value is the one that passes, on paths nothing blocks
                    continue
                checked = True  # a rule that only said "not checked" (NotChecked) was not applied here
                for violation in run(data):
                    pointer, message = violation
                    if unreadable:  # the rule did say something there: no "not checked" on top
                        unreadable = [u for u in unreadable if not _related(pointer, u[0])]
                    # A rule with nothing to check (optional data left out) says so as info, not as a breach.
                    severity = rule.severity
                    if type(violation) is NotChecked:
                        severity, checked = Severity.INFO, False
                    if admit(document.file, rule.id, severity):
                        yield finding(rule, pointer, message, severity)
                if checked:
                    applied.add(rule.id)
            except Exception as error:
                raise CheckCrashed(rule, document.file, error) from error
            if unreadable and admit(document.file, rule.id, rule.severity):
                pointer, why = unreadable[0]
                yield finding(rule, pointer, f"not checked: `{_name(pointer)}` {why}")

    def _param_finding(self, rule: Rule, missing: tuple[str, ...]) -> Finding:
        """The run-level finding of a rule not applied for want of a parameter: made once, for it is said once
        (the sink keeps one per rule and message) and nothing changes a finding with no file."""
        key = (rule.jurisdiction, rule.id, rule.source, missing)
        made = self._param_findings.get(key)
        if made is None:
            made = self._param_findings[key] = self._make_param_finding(rule, missing)
        return made

    def _make_param_finding(self, rule: Rule, missing: tuple[str, ...]) -> Finding:
        ruleset = self.rulesets[rule.jurisdiction]
        described = "; ".join(f"{name} ({ruleset.params[name].description})" for name in missing)
        demanded = " (--require-params: a rule not applied fails the run)" if self.require_params else ""
        return Finding(rule.id, Severity.ERROR if self.require_params else Severity.INFO,
                       f"not applied: no value for {described}; give it with --param {missing[0]}=VALUE "
                       f"or under `params:` in casino-audit.yaml{demanded}",
                       jurisdiction=rule.jurisdiction, citation=rule.citation)


def _name(pointer: str) -> str:
    return pointer.lstrip("/") or "the document"
