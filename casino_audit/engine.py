"""Run a jurisdiction's rules over a document's plain data and turn violations into findings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from casino_audit import checks
from casino_audit.findings import Finding, Severity
from casino_audit.kinds import KINDS
from casino_audit.loader import Document
from casino_audit.rulesets import Rule, Ruleset


class CheckCrashed(Exception):
    """A check raised: the run must fail loudly (exit 2), naming the rule, never pass quietly."""

    def __init__(self, rule: Rule, file: str, error: BaseException):
        super().__init__(f"internal error in rule {rule.id} ({rule.source}) while checking {file}: "
                         f"{type(error).__name__}: {error}")
        self.rule = rule


def selected(rule_id: str, select: Iterable[str] | None, ignore: Iterable[str] | None) -> bool:
    """ruff-style selection: an id matches a code equal to it or a prefix ending at a dash boundary."""
    def matches(code: str) -> bool:
        return rule_id == code or rule_id.startswith(code.rstrip("-") + "-")
    if select and not any(matches(code) for code in select):
        return False
    return not (ignore and any(matches(code) for code in ignore))


@dataclass
class _Bound:
    rule: Rule
    run: Callable[[Any], Iterable[tuple[str, str]]] | None  # None: a parameter is missing
    conditions: tuple[Callable[[Any], bool], ...]
    missing_params: tuple[str, ...]


class Checker:
    """Holds the rulesets bound to this run's parameter values, ready to check documents."""

    def __init__(self, rulesets: dict[str, Ruleset], param_values: dict[str, dict[str, Any]] | None = None,
                 select: list[str] | None = None, ignore: list[str] | None = None):
        self.rulesets = rulesets
        self.select, self.ignore = select, ignore
        self._bound: dict[tuple[str, str], list[_Bound]] = {}
        self._reported_params: set[str] = set()
        # What each ruleset has rules for, before --select/--ignore: (code, kind) -> games, "*" meaning all.
        self._coverage: dict[tuple[str, str], set] = {}
        for code, ruleset in rulesets.items():
            for rule in ruleset.rules:
                self._coverage.setdefault((code, rule.kind), set()).update(rule.games or ("*",))
        for code, ruleset in rulesets.items():
            values = (param_values or {}).get(code, {})
            for rule in ruleset.rules:
                if not selected(rule.id, select, ignore):
                    continue
                missing = tuple(name for name in rule.params if name not in values)
                run = None if missing else rule.compile(values)
                conditions = tuple(checks.compile_condition(c) for c in rule.when)
                self._bound.setdefault((code, rule.kind), []).append(_Bound(rule, run, conditions, missing))

    def covers(self, jurisdiction: str, kind: str, game: str | None) -> bool:
        games = self._coverage.get((jurisdiction, kind), set())
        return "*" in games or game in games

    def check(self, document: Document, kind: str, jurisdiction: str) -> list[Finding]:
        found: list[Finding] = []
        data = document.data
        game = KINDS[kind].game_of(data)
        for bound in self._bound.get((jurisdiction, kind), ()):
            rule = bound.rule
            if rule.games and game not in rule.games:
                continue
            if bound.run is None:
                if rule.id not in self._reported_params:
                    self._reported_params.add(rule.id)
                    found.append(self._param_finding(rule, bound.missing_params))
                continue
            try:
                if not all(condition(data) for condition in bound.conditions):
                    continue
                violations = list(bound.run(data))
            except Exception as error:
                raise CheckCrashed(rule, document.file, error) from error
            for pointer, message in violations:
                line, column = document.position(pointer) or (None, None)
                found.append(Finding(rule.id, rule.severity, message, document.file, line, column, pointer,
                                     document.index, jurisdiction, rule.citation))
        return found

    def _param_finding(self, rule: Rule, missing: tuple[str, ...]) -> Finding:
        ruleset = self.rulesets[rule.jurisdiction]
        described = "; ".join(f"{name} ({ruleset.params[name].description})" for name in missing)
        return Finding(rule.id, Severity.INFO,
                       f"not applied: no value for {described}; give it with --param {missing[0]}=VALUE "
                       "or under `params:` in casino-audit.yaml",
                       jurisdiction=rule.jurisdiction, citation=rule.citation)
