"""The predicates a rule says what passes with, shared by `kind: value` checks and `when:` conditions: one
implementation of `equals`, `differs`, `one_of`, `min`, `max`, `multiple_of`, `contains` and `present`.

A check applies its predicates to each value it reaches and reports the first that does not hold; a condition
applies one to the value at its target. A predicate reads a value of one type (a number, a list, the type of
the value it compares with): a condition on a value of another type cannot be decided (`undecidable`), and
the rule says so instead of passing."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

from casino_audit.core import pointers
from casino_audit.law.checks.common import (NUMBER_OR_PARAM, POINTER, SCALAR, blocked, kind_of, outside, same,
                                        shown_number, type_name)
from casino_audit.core.pointers import MISSING
from casino_audit.core.values import show, to_decimal

NUMBER_READ, LIST_READ, ANY_READ = "number", "list", "any"


@dataclass(frozen=True)
class Predicate:
    name: str
    schema: dict  # JSON Schema of its parameter
    reads: str  # NUMBER_READ, LIST_READ or ANY_READ: what a value must be for it to be compared
    holds: Callable[[Any, Any], bool]  # (value as read, parameter) -> it holds
    failure: Callable[[Any, str], str]  # (parameter, unit) -> why a value fails, after "`x` is V, "
    says: Callable[[Any, str], tuple[str, str]]  # (parameter, unit) -> ("is at least 85 %", "must be at least 85 %")
    if_missing: Callable[[Any], bool] = lambda parameter: False  # what it says of a missing value, in a condition
    # The parameter as `holds` takes it, made once when a rule is compiled (a bound read as a number once, not
    # once per value: 900,000 values below one minimum).
    prepare: Callable[[Any], Any] = lambda parameter: parameter


def _one_of(value, options) -> bool:
    if isinstance(value, Fraction):  # a ratio: compared exactly with each option as a number
        return any(o is not None and value == Fraction(o) for o in map(to_decimal, options))
    return any(same(value, option) for option in options)


def limit(value) -> Decimal:
    """A bound or step a rule compares with. The meta-schema admits only numbers `to_decimal` reads; one it
    cannot read must never become "no bound" (a check that passes everything), so it stops the check loudly."""
    number = to_decimal(value)
    if number is None:
        raise ValueError(f"{value!r} is not a number a rule can compare with")
    return number


def _multiple(number, step: Decimal) -> bool:
    exact = Fraction(step)  # exact: Decimal's `%` refuses a quotient past 28 digits
    return Fraction(number) % exact == 0 if exact else number == 0


def _listed(options) -> str:
    return ", ".join(show(o) for o in options)


PREDICATES: dict[str, Predicate] = {p.name: p for p in (
    Predicate("equals", SCALAR, ANY_READ, same,
              lambda v, u: f"must be {show(v)}",
              lambda v, u: (f"is {show(v)}", f"must be {show(v)}")),
    Predicate("differs", SCALAR, ANY_READ, lambda value, other: not same(value, other),
              lambda v, u: f"must not be {show(v)}",
              lambda v, u: (f"is not {show(v)}", f"must not be {show(v)}"),
              if_missing=lambda other: True),  # "is not false" holds of a value never given
    Predicate("one_of", {"type": "array", "items": SCALAR, "minItems": 1}, ANY_READ, _one_of,
              lambda v, u: f"must be one of {_listed(v)}",
              lambda v, u: (f"is one of {_listed(v)}", f"must be one of {_listed(v)}")),
    Predicate("min", NUMBER_OR_PARAM, NUMBER_READ,
              lambda number, low: outside(number, low, None) is None,
              lambda v, u: f"below the minimum of {shown_number(v, u)}",
              lambda v, u: (f"is at least {shown_number(v, u)}", f"must be at least {shown_number(v, u)}"),
              prepare=limit),
    Predicate("max", NUMBER_OR_PARAM, NUMBER_READ,
              lambda number, high: outside(number, None, high) is None,
              lambda v, u: f"above the maximum of {shown_number(v, u)}",
              lambda v, u: (f"is at most {shown_number(v, u)}", f"must be at most {shown_number(v, u)}"),
              prepare=limit),
    Predicate("multiple_of", NUMBER_OR_PARAM, NUMBER_READ, _multiple,
              lambda v, u: f"not a multiple of {shown_number(v)}",
              lambda v, u: (f"is a multiple of {shown_number(v)}", f"must be a multiple of {shown_number(v)}"),
              prepare=limit),
    Predicate("contains", SCALAR, LIST_READ, lambda items, item: any(same(v, item) for v in items),
              lambda v, u: f"must include {show(v)}",
              lambda v, u: (f"includes {show(v)}", f"must include {show(v)}")),
    Predicate("present", {"type": "boolean"}, ANY_READ, lambda value, wanted: wanted,
              lambda v, u: "must not be given",
              lambda v, u: ("is given" if v else "is not given", "must be given" if v else "must not be given"),
              if_missing=lambda wanted: not wanted),
)}


def read(predicate: Predicate, value: Any, unit: str = "number", text_is_number: bool = True):
    """The value as the predicate compares it, or None where it cannot: a number (exactly), or a list."""
    if predicate.reads == NUMBER_READ:
        if isinstance(value, Fraction):
            return value
        if isinstance(value, str) and unit == "number" and not text_is_number:
            return None
        return to_decimal(value, unit)
    if predicate.reads == LIST_READ:
        return value if isinstance(value, list) else None
    return value


def _reads_type(predicate: Predicate, parameter) -> set[type]:
    if predicate.reads == NUMBER_READ:
        return {Decimal}
    if predicate.reads == LIST_READ:
        return {list}
    return {kind_of(option) for option in (parameter if predicate.name == "one_of" else [parameter])}


# --- conditions (`when:` on a rule) -----------------------------------------------------------------

CONDITION_PREDICATES = ("equals", "differs", "one_of", "min", "max", "multiple_of", "contains", "present")
_SIMPLE_CONDITION = {
    "type": "object", "additionalProperties": False, "required": ["target"],
    "properties": {"target": POINTER, **{n: PREDICATES[n].schema for n in CONDITION_PREDICATES}},
    "oneOf": [{"required": [n]} for n in CONDITION_PREDICATES],
    "description": "the value at `target` and one predicate it must satisfy for the rule to apply",
}
CONDITION_SCHEMA = {
    "oneOf": [
        _SIMPLE_CONDITION,
        {"type": "object", "additionalProperties": False, "required": ["any"],
         "properties": {"any": {"type": "array", "items": _SIMPLE_CONDITION, "minItems": 2,
                                "description": "true when one of these holds"}}},
    ],
}


def _predicate_of(condition: dict) -> tuple[Predicate, Any]:
    [name] = [n for n in CONDITION_PREDICATES if n in condition]
    return PREDICATES[name], condition[name]


def compile_condition(condition: dict) -> Callable[[Any], bool]:
    if "any" in condition:
        alternatives = [compile_condition(c) for c in condition["any"]]
        return lambda data: any(holds(data) for holds in alternatives)
    value_at = pointers.getter(condition["target"])
    predicate, parameter = _predicate_of(condition)
    prepared = predicate.prepare(parameter)

    def holds(data) -> bool:
        value = value_at(data)
        if value is MISSING:
            return predicate.if_missing(parameter)
        subject = read(predicate, value, text_is_number=False)  # in a condition, text is never a number
        return subject is not None and predicate.holds(subject, prepared)
    return holds


def describe_condition(condition: dict) -> str:
    if "any" in condition:
        return "(" + " or ".join(describe_condition(c) for c in condition["any"]) + ")"
    predicate, parameter = _predicate_of(condition)
    return f"`{condition['target'].lstrip('/') or 'the document'}` {predicate.says(parameter, 'number')[0]}"


def undecidable(condition: dict, data: Any) -> tuple[str, str] | None:
    """(pointer, why) when a `when:` condition cannot be read on this data: its value is of another type than
    the condition compares it with (`offered: "yes"` against `false`), or its path is blocked. One alternative
    of an `any` that can be read and holds decides it."""
    return compile_undecidable(condition)(data)


def condition_targets(condition: dict) -> list[str]:
    """The pointers a `when:` condition reads."""
    if "any" in condition:
        return [target for alternative in condition["any"] for target in condition_targets(alternative)]
    return [condition["target"]]


def compile_undecidable(condition: dict) -> Callable[..., tuple[str, str] | None]:
    """`undecidable` for one condition, its parts read once (a rule's conditions are asked of every document).
    Called with `clear=True` by a caller that knows no path it reads is blocked on the way (the engine's test of
    every rule's paths), it only reads the values' types."""
    if "any" in condition:
        alternatives = [(compile_undecidable(c), compile_condition(c)) for c in condition["any"]]

        def any_undecidable(data, clear: bool = False):
            unread = [unreadable(data, clear) for unreadable, _ in alternatives]
            if any(u is None and holds(data) for (_, holds), u in zip(alternatives, unread)):
                return None
            return next(filter(None, unread), None)
        return any_undecidable
    target = condition["target"]
    segments, value_at = pointers.split(target), pointers.getter(target)
    predicate, parameter = _predicate_of(condition)
    wanted = _reads_type(predicate, parameter)
    example = " or ".join(sorted(type_name(_EXAMPLE[t]) for t in wanted))

    def simple_undecidable(data, clear: bool = False):
        found = None if clear else blocked(data, segments)
        if found is not None or predicate.name == "present":
            return found
        value = value_at(data)
        if value is None or value is MISSING:
            return None
        if kind_of(value) not in wanted:
            return target, f"is {type_name(value)}, where the rule compares {example}"
        return None
    return simple_undecidable


_EXAMPLE = {bool: True, Decimal: Decimal(0), str: "", list: [], dict: {}, type(None): None}
