"""Run a jurisdiction's rules over a document's plain data and turn violations into findings.

The checker holds no run state: what a run has seen (a parameter already reported, counts) is the pipeline's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from casino_audit import checks, pointers
from casino_audit.findings import Finding, Severity
from casino_audit.kinds import KINDS
from casino_audit.loader import Document
from casino_audit.rulesets import Rule, Ruleset

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


def _targets(spec: dict) -> tuple[tuple[str, ...], ...]:
    """The places a check reads values at. `present` asks only whether a value is there, whatever its shape."""
    if spec.get("kind") == "present":
        return ()
    found = []
    for key in _TARGET_KEYS:
        value = spec.get(key)
        for pointer in ([value] if isinstance(value, str) else value if isinstance(value, list) else []):
            if isinstance(pointer, str) and pointer.startswith("/"):
                found.append(pointers.split(pointer))
    return tuple(found)


def _encloses(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    """`outer` is `inner` or one of its containers; a `*` in `inner` stands for any key."""
    return len(outer) <= len(inner) and all(b == pointers.WILDCARD or a == b for a, b in zip(outer, inner))


def _related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


@dataclass
class _Bound:
    rule: Rule
    run: Callable[[Any], Iterable[tuple[str, str]]] | None  # None: a parameter is missing
    conditions: tuple[Callable[[Any], bool], ...]
    condition_fields: tuple[tuple[str, ...], ...]
    targets: tuple[tuple[str, ...], ...]
    missing_params: tuple[str, ...]


class Checker:
    """The rulesets bound to this run's parameter values, ready to check documents."""

    def __init__(self, rulesets: dict[str, Ruleset], param_values: dict[str, dict[str, Any]] | None = None,
                 select: list[str] | None = None, ignore: list[str] | None = None, require_params: bool = False):
        self.rulesets = rulesets
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
                fields = tuple(pointers.split(c["field"]) for c in rule.when)
                self._bound.setdefault((code, rule.kind), []).append(
                    _Bound(rule, run, conditions, fields, _targets(rule.check), missing))

    def covers(self, jurisdiction: str, kind: str, game: Any) -> bool:
        games = self._coverage.get((jurisdiction, kind), set())
        return "*" in games or (isinstance(game, str) and game in games)

    def check(self, document: Document, kind: str, jurisdiction: str,
              misshapen: Iterable[str] = ()) -> list[Finding]:
        """Findings of every rule that applies. A rule whose condition or target reads a value of the wrong
        shape is not passed: if it reports nothing there, it says it could not be checked."""
        found: list[Finding] = []
        data = document.data
        game = KINDS[kind].game_of(data)
        wrong = _Places(misshapen)

        def finding(rule: Rule, pointer: str, message: str) -> Finding:
            line, column = document.position(pointer) or (None, None)
            return Finding(rule.id, rule.severity, message, document.file, line, column, pointer,
                           document.index, jurisdiction, rule.citation)

        for bound in self._bound.get((jurisdiction, kind), ()):
            rule = bound.rule
            if rule.games and game not in rule.games:
                continue
            if bound.run is None:
                found.append(self._param_finding(rule, bound.missing_params))
                continue
            undecided = wrong.enclosing(bound.condition_fields)
            if undecided is not None:
                found.append(finding(rule, undecided, f"not checked: whether this rule applies depends on "
                                                      f"`{_name(undecided)}`, which has the wrong shape"))
                continue
            try:
                if not all(condition(data) for condition in bound.conditions):
                    continue
                violations = list(bound.run(data))
            except Exception as error:
                raise CheckCrashed(rule, document.file, error) from error
            for pointer, message in violations:
                found.append(finding(rule, pointer, message))
            unreadable = wrong.enclosing(bound.targets)
            if unreadable is not None and not any(_related(p, unreadable) for p, _ in violations):
                found.append(finding(rule, unreadable, f"not checked: `{_name(unreadable)}` has the wrong shape"))
        return found

    def _param_finding(self, rule: Rule, missing: tuple[str, ...]) -> Finding:
        ruleset = self.rulesets[rule.jurisdiction]
        described = "; ".join(f"{name} ({ruleset.params[name].description})" for name in missing)
        demanded = " (--require-params: a rule not applied fails the run)" if self.require_params else ""
        return Finding(rule.id, Severity.ERROR if self.require_params else Severity.INFO,
                       f"not applied: no value for {described}; give it with --param {missing[0]}=VALUE "
                       f"or under `params:` in casino-audit.yaml{demanded}",
                       jurisdiction=rule.jurisdiction, citation=rule.citation)


class _Places:
    """Pointers (the misshapen values of a document) in a trie, to ask fast whether one of them is a place or one
    of its containers: a document with 900,000 misshapen items must not cost rules x items."""

    _END = object()

    def __init__(self, pointer_list: Iterable[str]):
        self.root: dict = {}
        for pointer in pointer_list:
            node = self.root
            for segment in pointers.split(pointer):
                node = node.setdefault(segment, {})
            node.setdefault(self._END, pointer)

    def enclosing(self, places: tuple[tuple[str, ...], ...]) -> str | None:
        """A stored pointer that is one of the places or contains it (`*` in a place matches any key)."""
        if not self.root:
            return None
        for place in places:
            found = self._walk(self.root, place, 0)
            if found is not None:
                return found
        return None

    def _walk(self, node: dict, place: tuple[str, ...], depth: int) -> str | None:
        while True:
            if self._END in node:
                return node[self._END]
            if depth == len(place):
                return None
            segment = place[depth]
            if segment == pointers.WILDCARD:
                for key, child in node.items():
                    if key is not self._END:
                        found = self._walk(child, place, depth + 1)
                        if found is not None:
                            return found
                return None
            node = node.get(segment)
            if node is None:
                return None
            depth += 1


def _name(pointer: str) -> str:
    return pointer.lstrip("/") or "the document"
