"""The words of the earlier check vocabulary, each refused with the word that replaced it (a house ruleset
written before the change is told what to write, at the place to write it, and is never half-read)."""

from __future__ import annotations

from typing import Any, Iterator

from casino_audit.core.pointers import child

_KINDS = {
    "equals": "`kind: value` with `equals:`",
    "one_of": "`kind: value` with `one_of:`",
    "range": "`kind: value` with `min:` and/or `max:`",
    "multiple_of": "`kind: value` with `multiple_of:`",
    "ratio": "`kind: value` with `target:` (the numerator), `per:` (the denominator) and `one_of:`, `min:` or `max:`",
    "values": "`kind: schedule` with `equals:` (or `max:` where the values are ceilings)",
    "keys": "`kind: entries`",
    "items": "`kind: count`",
}
_CHECK_WORDS = {
    "field": "`target:`", "fields": "`target:` (a pointer or a list of them)", "at": "`target:`",
    "array": "`target:`", "numerator": "`target:`", "denominator": "`per:`", "value": "`equals:`",
    "values": "`one_of:`", "expected": "`equals:` (or `max:` where the values are ceilings)",
    "at_most": "`max:` in place of `expected:`", "in": "`one_of:`", "of": "`multiple_of:`",
    "required_keys": "`required:`", "min_count": "`min:`", "max_count": "`max:`", "require": "`each:`",
    "sequences": "`one_of:`",
}
_REQUIRED = ("`missing: allowed` (the law does not require the value) or `missing: {reported_by: RULE-ID}` "
             "(another rule reports the omission); by default a missing value is a breach")
_CONDITION_WORDS = {"field": "`target:`", "at_least": "`min:`", "at_most": "`max:`"}


def old_words(ruleset: Any) -> Iterator[tuple[str, str]]:
    """(pointer, message) for each word of the earlier vocabulary in a ruleset's checks and conditions."""
    rules = ruleset.get("rules") if isinstance(ruleset, dict) else None
    for number, rule in enumerate(rules if isinstance(rules, list) else ()):
        if not isinstance(rule, dict):
            continue
        pointer = f"/rules/{number}"
        check = rule.get("check")
        if isinstance(check, dict):
            yield from _in_check(check, child(pointer, "check"))
        when = rule.get("when")
        for index, condition in enumerate(when if isinstance(when, list) else ()):
            yield from _in_condition(condition, f"{pointer}/when/{index}")


def _in_check(check: dict, pointer: str) -> Iterator[tuple[str, str]]:
    kind = check.get("kind")
    if isinstance(kind, str) and kind in _KINDS:
        yield child(pointer, "kind"), f"`kind: {kind}` is now {_KINDS[kind]}"
    for key in check:
        if key == "required" and isinstance(check[key], bool):
            yield child(pointer, key), f"`required: {str(check[key]).lower()}` is now {_REQUIRED}"
        elif key in _CHECK_WORDS:
            yield child(pointer, key), f"`{key}:` is now {_CHECK_WORDS[key]}"


def _in_condition(condition: Any, pointer: str) -> Iterator[tuple[str, str]]:
    if not isinstance(condition, dict):
        return
    alternatives = condition.get("any")
    for index, alternative in enumerate(alternatives if isinstance(alternatives, list) else ()):
        yield from _in_condition(alternative, f"{pointer}/any/{index}")
    for key in condition:
        if key in _CONDITION_WORDS:
            yield child(pointer, key), f"`{key}:` is now {_CONDITION_WORDS[key]}"
