"""Which rulesets a run used, from which files (with a content hash), and how a house ruleset changed the law.

A house ruleset may add rules and tighten the law's. Whatever it does to a rule of the built-in ruleset of its
jurisdiction (replaces it, lowers its severity, loosens it, or drops the law altogether by not extending it) is
listed, with both citations, so an inspector reading the report sees what was checked against what.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from decimal import Decimal

from casino_audit import __version__
from casino_audit.core.display import shown_path
from casino_audit.law.model import Rule, Ruleset

from casino_audit.law.rulesets import builtin_names, is_builtin_file, load_builtin, rulesets_dir
from casino_audit.core.values import to_decimal

REMOVED, LOOSENED, SEVERITY_LOWERED, REPLACED, TIGHTENED = (
    "removed", "loosened", "severity lowered", "replaced", "tightened")


def shown_source(source: str) -> str:
    """A ruleset file (or `file:line` of a rule in it) as a report names it, carrying no absolute path of the
    inspector's machine: a built-in one as `lu.yaml:239 (built-in, casino-audit 0.1.0)`, one under the working
    directory relative to it, any other as given."""
    shipped = str(rulesets_dir()).rstrip(os.sep) + os.sep
    if source.startswith(shipped):
        return f"{source[len(shipped):]} (built-in, casino-audit {__version__})"
    return shown_path(source)


@dataclass(frozen=True)
class LawChange:
    rule_id: str
    change: str  # removed | loosened | severity lowered | replaced | tightened
    reasons: tuple[str, ...]
    law: Rule
    house: Rule | None


@dataclass(frozen=True)
class RulesetFile:
    name: str
    path: str
    sha256: str | None  # None when the file cannot be read again


@dataclass
class RulesetInUse:
    ruleset: Ruleset
    builtin: bool
    files: list[RulesetFile]  # this ruleset's file, then those it extends
    changes: list[LawChange] = field(default_factory=list)

    @property
    def weakens_law(self) -> bool:
        return any(change.change != TIGHTENED for change in self.changes)


def _files(ruleset: Ruleset) -> list[RulesetFile]:
    chain, current = [], ruleset
    while current is not None:
        chain.append(RulesetFile(current.name, str(current.path), current.digest or None))
        current = current.parent
    return chain


def _is_builtin(ruleset: Ruleset) -> bool:
    """Shipped with casino-audit, as shipped: the built-in file itself or a byte-for-byte copy of it."""
    return is_builtin_file(ruleset.path, ruleset.name, ruleset.digest)


def in_use(rulesets: dict[str, Ruleset], param_values: dict[str, dict] | None = None,
           used: list[str] | None = None) -> list[RulesetInUse]:
    """The rulesets of a run: those some document was checked against (`used`), and every custom one given;
    `param_values` (jurisdiction -> name -> value) lets a bound given by a parameter be compared with a house
    rule's constant."""
    loaded = rulesets.loaded() if hasattr(rulesets, "loaded") else rulesets  # only those the run read
    if used is not None:
        loaded = {code: ruleset for code, ruleset in loaded.items() if code in used or not _is_builtin(ruleset)}
    names = {name.upper(): name for name in builtin_names()}
    used = []
    for code in sorted(loaded):
        ruleset = loaded[code]
        builtin = _is_builtin(ruleset)
        changes = [] if builtin or code not in names else law_changes(load_builtin(names[code]), ruleset,
                                                                      (param_values or {}).get(code))
        used.append(RulesetInUse(ruleset, builtin, _files(ruleset), changes))
    return used


def law_changes(law: Ruleset, effective: Ruleset, params: dict | None = None) -> list[LawChange]:
    by_id = {rule.id: rule for rule in effective.rules}
    played = _play_changes(law, effective)
    changes = []
    for rule in law.rules:
        house = by_id.get(rule.id)
        if house is None:
            changes.append(LawChange(rule.id, REMOVED, (f"the ruleset {effective.name} does not extend "
                                                        f"{law.name} and has no rule {rule.id}",), rule, None))
            continue
        # A replay settles coups by the ruleset's rules of play: other ones change the rule, its words unchanged.
        play = tuple(reason for game, reason in played.items() if _replays(rule, game))
        if not _same_rule(rule, house):
            change = classify(rule, house, params)
            if play:  # looser stays looser; what was tightened cannot be told any more
                kind = LOOSENED if change.change in (LOOSENED, SEVERITY_LOWERED) else REPLACED
                change = LawChange(rule.id, kind, change.reasons + play, rule, house)
            changes.append(change)
        elif play:
            changes.append(LawChange(rule.id, REPLACED, play, rule, house))
    return changes


def _replays(rule: Rule, game: str) -> bool:
    return rule.check.get("kind") == "replay" and (not rule.games or game in rule.games)


def _play_changes(law: Ruleset, effective: Ruleset) -> dict[str, str]:
    """Each game whose rules of play (`play:`, what the replays of its logs read) differ from the law's: why."""
    changed = {}
    for game in sorted(set(law.play) | set(effective.play)):
        before, after = law.play.get(game), effective.play.get(game)
        if after is None:
            changed[game] = f"the ruleset {effective.name} has none of the law's rules of play for {game} (`play:`)"
        elif before is None:
            changed[game] = (f"replayed under rules of play for {game} that the ruleset {effective.name} adds "
                             "(`play:`); the law gives none")
        elif before.data != after.data:
            keys = sorted(key for key in set(before.data) | set(after.data) if before.data.get(key) != after.data.get(key))
            changed[game] = (f"replayed under the ruleset {effective.name}'s rules of play for {game} "
                             f"(`play:` {', '.join(keys)}), not the law's")
    return changed


def _same_rule(a: Rule, b: Rule) -> bool:
    return (a.severity, a.kind, a.games, a.check, a.when, a.citation) == (b.severity, b.kind, b.games, b.check,
                                                                          b.when, b.citation)


def classify(law: Rule, house: Rule, params: dict | None = None) -> LawChange:
    """What a house rule of the same id does to the law's rule; `loosened` wherever the house rule can pass
    something the law's fails, `replaced` where that cannot be told from the rule's words."""
    params = params or {}
    looser, tighter = [], []
    if house.severity < law.severity:
        looser.append(f"severity {law.severity.label} -> {house.severity.label}")
    elif house.severity > law.severity:
        tighter.append(f"severity {law.severity.label} -> {house.severity.label}")
    if house.kind != law.kind:
        looser.append(f"applies to {house.kind} documents, the law's rule to {law.kind}")
    elif house.games and (not law.games or not set(house.games) >= set(law.games)):
        looser.append(f"applies to fewer games ({', '.join(house.games)})")
    extra = [c for c in house.when if c not in law.when]
    dropped = [c for c in law.when if c not in house.when]
    if extra:
        looser.append("applies only under further conditions (`when:`)")
    elif dropped:
        tighter.append("applies in more cases (fewer `when:` conditions)")
    accounted = _compare_checks(law.check, house.check, looser, tighter, params)
    if not accounted and looser:  # a check changed past telling, beside what is provably looser: both said
        looser.append("the check differs; compare the two")
    if any(reason.startswith("severity") for reason in looser) and len(looser) == 1:
        change = SEVERITY_LOWERED
    elif looser:
        change = LOOSENED
    elif tighter and accounted:
        change = TIGHTENED
    else:
        change = REPLACED
    return LawChange(law.id, change, tuple(looser or tighter or ["the check differs; compare the two"]), law, house)


def _compare_checks(law: dict, house: dict, looser: list[str], tighter: list[str], params: dict) -> bool:
    """Adds what provably loosens or tightens; True when that accounts for every difference of the checks."""
    if law == house:
        return True
    if law.get("kind") != house.get("kind"):
        return False  # another vocabulary: nothing provable, reported as replaced
    targets = ("target", "per")
    if any(law.get(key) != house.get(key) for key in targets):
        return False
    if "missing" not in law and "missing" in house:
        looser.append("a missing value is no longer a breach (`missing:`)")
    elif "missing" in law and "missing" in house and law["missing"] != house["missing"]:
        if house["missing"] != "allowed":
            return False  # another rule reports it: whether that one does as the law's did is not told here
        looser.append("a missing value passes (`missing: allowed`); the law's rule leaves it to "
                      f"{law['missing']['reported_by']}")
    others = {key for key in set(law) | set(house) if key not in (*targets, "kind", "missing", "min", "max")}
    if any(law.get(key) != house.get(key) for key in others):
        return False  # other parameters changed too: the bounds alone prove nothing either way
    bounds = [(key, word, lower_is_looser, law.get(key), house.get(key))
              for key, word, lower_is_looser in (("min", "minimum", True), ("max", "maximum", False))
              if law.get(key) != house.get(key)]
    for key, word, lower_is_looser, before, after in bounds:
        before_number, after_number = _number(before, params), _number(after, params)
        if (before is not None and before_number is None) or (after is not None and after_number is None):
            return False  # a bound given by a parameter (a minister's order) with no value in this run
        if before_number == after_number:
            continue  # the same bound written otherwise ("85", "85.0")
        text = f"{word} {_shown(before, before_number)} -> {_shown(after, after_number)}"
        before, after = before_number, after_number
        if before is None:
            tighter.append(text)
        elif after is None or (after < before) == lower_is_looser:
            looser.append(text)
        else:
            tighter.append(text)
    return True


def _number(value, params: dict) -> Decimal | None:
    """A bound as a number; a `{param: NAME}` bound is the value this run gives the parameter, if any."""
    if isinstance(value, dict):
        value = params.get(value.get("param"))
    return None if value is None else to_decimal(value)


def _shown(raw, number: Decimal | None) -> str:
    if isinstance(raw, dict):
        return f"{raw.get('param')} ({_show(number)} in this run)"
    return _show(number)


def _show(number: Decimal | None) -> str:
    return "none" if number is None else format(number, "f")
