"""Run a jurisdiction's rules over a document's plain data and turn violations into findings.

The checker holds no run state: what a run has seen (a parameter already reported, counts) is the pipeline's.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Iterable, Iterator

from casino_audit import checks, pointers
from casino_audit.findings import Finding, Severity
from casino_audit.kinds import KINDS
from casino_audit.loader import Document
from casino_audit.rulesets import Rule, Ruleset
from casino_audit.scopes import DOSSIER, RECORD, Dossier, ScopedCheck, Session

# The parameters of a check kind that name the places it reads.
_TARGET_KEYS = ("field", "fields", "at", "array", "numerator", "denominator", "per")


class CheckCrashed(Exception):
    """A check raised: the file's verdict is an internal error (exit 2), naming the rule, never a pass."""

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


# What a check kind expects to find at its target, where it would otherwise pass a value of another type silently.
_CONTAINER_AT_TARGET = {"values": dict, "keys": dict, "items": list}


def _targets(spec: dict) -> tuple[tuple[tuple[str, ...], type | None], ...]:
    """The places a check reads values at, each with the container type expected there (or None)."""
    expected = _CONTAINER_AT_TARGET.get(spec.get("kind"))
    found = []
    for key in _TARGET_KEYS:
        value = spec.get(key)
        for pointer in ([value] if isinstance(value, str) else value if isinstance(value, list) else []):
            if isinstance(pointer, str) and pointer.startswith("/"):
                found.append((pointers.split(pointer), expected if key in ("at", "array") else None))
    return tuple(found)


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, Decimal)):
        return "a number"
    return {str: "text", dict: "a mapping", list: "a list"}.get(type(value), type(value).__name__)


def blocked(data: Any, segments: tuple[str, ...], expected: type | None = None) -> tuple[str, str] | None:
    """(pointer, why) where a path cannot be followed because a value there is of the wrong type: a scalar where
    the path goes on, or not the container a check expects at its end. Missing and null values block nothing
    (rules say what a missing value means)."""
    found = _blocked(data, segments, expected)
    if found is None:
        return None
    keys, why = found
    return pointers.join(tuple(reversed(keys))), why


def _blocked(node: Any, segments: tuple[str, ...], expected: type | None) -> tuple[list, str] | None:
    """As `blocked`, with the path as keys in reverse (built only for the one path that is blocked)."""
    for depth, segment in enumerate(segments):
        if node is None or node is pointers.MISSING:
            return None
        if segment == pointers.WILDCARD:
            rest = segments[depth + 1:]
            if isinstance(node, dict):
                children = node.items()
            elif isinstance(node, list):
                children = enumerate(node)
            else:
                return _at(segments[:depth], f"is {_type_name(node)}, not a list or mapping")
            if not rest and expected is None:
                return None  # every item is read as it is: none of them blocks the path
            for key, child in children:
                found = _blocked(child, rest, expected)
                if found is not None:
                    found[0].append(str(key))
                    found[0].extend(reversed(segments[:depth]))
                    return found
            return None
        if isinstance(node, dict):
            node = node.get(segment, pointers.MISSING)
        elif isinstance(node, list):
            node = node[int(segment)] if segment.isdigit() and int(segment) < len(node) else pointers.MISSING
        else:
            return _at(segments[:depth], f"is {_type_name(node)}, not a mapping")
    if expected is not None and node is not None and node is not pointers.MISSING and not isinstance(node, expected):
        return _at(segments, f"is {_type_name(node)}, not {_type_name(expected())}")
    return None


def _at(segments: tuple[str, ...], why: str) -> tuple[list, str]:
    return list(reversed(segments)), why


def undecidable(condition: dict, data: Any) -> tuple[str, str] | None:
    """(pointer, why) when a `when:` condition cannot be read on this data: its value is of another type than
    the condition compares it with (`offered: "yes"` against `false`), or its path is blocked. One alternative
    of an `any` that can be read and holds decides it."""
    if "any" in condition:
        unread = [undecidable(c, data) for c in condition["any"]]
        if any(u is None and checks.compile_condition(c)(data) for c, u in zip(condition["any"], unread)):
            return None
        return next(filter(None, unread), None)
    segments = pointers.split(condition["field"])
    found = blocked(data, segments)
    if found is not None or condition.keys() & {"present"}:
        return found
    value = pointers.get(data, condition["field"])
    if value is None or value is pointers.MISSING:
        return None
    if "contains" in condition:
        wanted = list
    elif condition.keys() & {"at_least", "at_most"}:
        wanted = Decimal
    else:
        wanted = _kind_of(condition.get("equals", condition.get("differs")))
    if _kind_of(value) is not wanted:
        return condition["field"], f"is {_type_name(value)}, where the rule compares {_type_name(_EXAMPLE[wanted])}"
    return None


_EXAMPLE = {bool: True, Decimal: Decimal(0), str: "", list: [], dict: {}, type(None): None}


def _kind_of(value: Any) -> type:
    if isinstance(value, bool):
        return bool
    if isinstance(value, (int, Decimal)):
        return Decimal
    return type(value)


def _related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


@dataclass
class _Bound:
    rule: Rule
    run: Callable[[Any], Iterable[tuple[str, str]]] | None  # None: a parameter is missing
    conditions: tuple[Callable[[Any], bool], ...]
    targets: tuple[tuple[tuple[str, ...], type | None], ...]
    missing_params: tuple[str, ...]


class Checker:
    """The rulesets bound to this run's parameter values, ready to check documents."""

    def __init__(self, rulesets: dict[str, Ruleset], param_values: dict[str, dict[str, Any]] | None = None,
                 select: list[str] | None = None, ignore: list[str] | None = None, require_params: bool = False,
                 scoped: Iterable[tuple[str, str, ScopedCheck]] = ()):
        """`scoped`: (jurisdiction, scope, check) for the record and dossier rules of the run."""
        self.rulesets = rulesets
        self._scoped: dict[tuple[str, str], list[ScopedCheck]] = {}
        for code, scope, check in scoped:
            self._scoped.setdefault((code, scope), []).append(check)
        self.select, self.ignore = select, ignore
        self.require_params = require_params
        self._bound: dict[tuple[str, str], list[_Bound]] = {}
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
                self._bound.setdefault((code, rule.kind), []).append(
                    _Bound(rule, run, conditions, _targets(rule.check), missing))

    def session(self, file: str, jurisdiction: str) -> Session:
        """A fresh state for the record rules of one stream."""
        return Session(file, self._scoped.get((jurisdiction, RECORD), []))

    def dossier(self) -> Dossier:
        """A fresh dossier for the run's dossier rules, all jurisdictions together."""
        return Dossier([check for (_, scope), checks in self._scoped.items() if scope == DOSSIER for check in checks])

    def covers(self, jurisdiction: str, kind: str, game: Any) -> bool:
        games = self._coverage.get((jurisdiction, kind), set())
        return "*" in games or (isinstance(game, str) and game in games)

    def check(self, document: Document, kind: str, jurisdiction: str,
              admit: Callable[[str, str, Severity], bool] = lambda file, rule_id, severity: True) -> Iterator[Finding]:
        """Findings of every rule that applies, made one at a time. `admit(file, rule id, severity)` counts each
        violation and says whether it is kept, so 900,000 violations of one rule cost a count, not 900,000
        findings. A rule whose condition or target reads a value of another type than it can read is never
        passed in silence: if it reports nothing there, it says it could not check."""
        data = document.data
        game = KINDS[kind].game_of(data)

        def finding(rule: Rule, pointer: str, message: str) -> Finding:
            line, column = document.position(pointer) or (None, None)
            return Finding(rule.id, rule.severity, message, document.file, line, column, pointer,
                           document.index, jurisdiction, rule.citation)

        for bound in self._bound.get((jurisdiction, kind), ()):
            rule = bound.rule
            if rule.games and game not in rule.games:
                continue
            if bound.run is None:
                yield self._param_finding(rule, bound.missing_params)
                continue
            undecided = next(filter(None, (undecidable(c, data) for c in rule.when)), None)
            if undecided is not None:
                pointer, why = undecided
                if admit(document.file, rule.id, rule.severity):
                    yield finding(rule, pointer, f"not checked: whether this rule applies depends on "
                                                 f"`{_name(pointer)}`, which {why}")
                continue
            unreadable = [found for found in (blocked(data, segments, expected) for segments, expected in bound.targets)
                          if found is not None]
            try:
                if not all(condition(data) for condition in bound.conditions):
                    continue
                for pointer, message in bound.run(data):
                    if unreadable:  # the rule did say something there: no "not checked" on top
                        unreadable = [u for u in unreadable if not _related(pointer, u[0])]
                    if admit(document.file, rule.id, rule.severity):
                        yield finding(rule, pointer, message)
            except Exception as error:
                raise CheckCrashed(rule, document.file, error) from error
            if unreadable and admit(document.file, rule.id, rule.severity):
                pointer, why = unreadable[0]
                yield finding(rule, pointer, f"not checked: `{_name(pointer)}` {why}")

    def _param_finding(self, rule: Rule, missing: tuple[str, ...]) -> Finding:
        ruleset = self.rulesets[rule.jurisdiction]
        described = "; ".join(f"{name} ({ruleset.params[name].description})" for name in missing)
        demanded = " (--require-params: a rule not applied fails the run)" if self.require_params else ""
        return Finding(rule.id, Severity.ERROR if self.require_params else Severity.INFO,
                       f"not applied: no value for {described}; give it with --param {missing[0]}=VALUE "
                       f"or under `params:` in casino-audit.yaml{demanded}",
                       jurisdiction=rule.jurisdiction, citation=rule.citation)


def _name(pointer: str) -> str:
    return pointer.lstrip("/") or "the document"
