"""`kind: schedule`: each listed entry of a mapping (payouts, maxima per chance) `equals` its value, or is at
`max` that (a ceiling: "até N vezes"); with `per`, that many times a divisor. `closed` rejects other entries."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Iterator

from casino_audit.core import pointers
from casino_audit.law.checks.common import (MISSING_SCHEMA, POINTER, POINTERS, SCALAR, CompiledCheck, Violation, check_schema,
                                        describe_missing, missing_is_breach, name, pointer_list, same, target_list)
from casino_audit.core.values import show, show_quotient, to_decimal

NAME = "schedule"
_ENTRIES = {"type": "object", "additionalProperties": SCALAR, "minProperties": 1}
PARAMETERS = check_schema(
    NAME,
    {"target": {**POINTER, "description": "the mapping"},
     "equals": {**_ENTRIES, "description": "each entry and the value it must have"},
     "max": {**_ENTRIES, "description": "each entry and the most it may be"},
     "per": {**POINTERS, "description": "the divisor of every entry: a number, or a mapping giving each entry's "
                                        "own; the first given is used"},
     "closed": {"type": "boolean", "description": "entries other than the listed ones are breaches"},
     "also_allowed": {"type": "array", "items": {"type": "string"},
                      "description": "with closed: further entries allowed without a value to check"},
     "where_given": {**_ENTRIES, "description": "further entries held like the listed ones (equals or max) where "
                                                "the mapping gives them, and not required (a simple chance's own "
                                                "maximum beside the simple chances')"},
     "missing": MISSING_SCHEMA},
    oneOf=[{"required": ["equals"]}, {"required": ["max"]}])


def targets(spec):
    return target_list((spec["target"], dict), (spec.get("per"), None))


def compile(spec) -> CompiledCheck:
    at = spec["target"]
    ceiling = "max" in spec
    required = spec["max"] if ceiling else spec["equals"]
    expected = {**spec.get("where_given", {}), **required}
    closed = spec.get("closed", False)
    divisors = pointer_list(spec.get("per"))
    permitted = set(expected) | set(spec.get("also_allowed", ()))
    allowed = ", ".join([*expected, *spec.get("also_allowed", ())])

    def inspect(data, schedule):
        unusable: set[str] = set()
        for key, wanted in expected.items():
            pointer = pointers.child(at, key)
            if key not in schedule:
                if key in required:
                    yield pointer, f"`{name(pointer)}` is not declared (must be {_times(wanted, divisors, ceiling)})"
                continue
            value = schedule[key]
            if not divisors:
                if ceiling:
                    number, limit = to_decimal(value), to_decimal(wanted)
                    if number is None or limit is None or number > limit:  # Decimals compare exactly
                        yield pointer, f"`{name(pointer)}` is {show(value)}, must be at most {show(wanted)}"
                elif not same(value, wanted):
                    yield pointer, f"`{name(pointer)}` is {show(value)}, must be {show(wanted)}"
                continue
            divisor_pointer, divisor = _divisor(data, divisors, key)
            number = to_decimal(value)
            if divisor is None:
                if divisor_pointer not in unusable:  # say it once, not once per entry it divides
                    unusable.add(divisor_pointer)
                    yield divisor_pointer, (f"`{name(divisor_pointer)}` is missing or not a number, so "
                                            f"`{name(at)}` cannot be checked")
            elif number is None:
                yield pointer, f"`{name(pointer)}` is {show(value)}, not a number"
            else:
                ratio, limit = Fraction(number) / Fraction(divisor), to_decimal(wanted)  # exact, never rounded
                if limit is None or (ratio > Fraction(limit) if ceiling else ratio != Fraction(limit)):
                    yield pointer, (f"`{name(pointer)}` is {show(number)} ({show_quotient(ratio)} times "
                                    f"`{name(divisor_pointer)}`), must be {_times(wanted, [divisor_pointer], ceiling)}")
        if closed:
            yield from unlisted(at, schedule, permitted, allowed)
    return on_mapping(at, missing_is_breach(spec), f"must give {', '.join(required)}", inspect)


def on_mapping(at: str, breach: bool, wanted: str, inspect) -> CompiledCheck:
    """Run `inspect(data, mapping)` on the mapping at `at`; a missing one is a breach unless `missing:` says."""
    def check(data):
        mapping = pointers.get(data, at)
        if isinstance(mapping, dict):
            yield from inspect(data, mapping)
        elif breach:
            yield at, f"`{name(at)}` is not declared ({wanted})"
    return check


def unlisted(at: str, mapping: dict, permitted, allowed: str) -> Iterator[Violation]:
    """Entries of a closed mapping that the law does not list."""
    for key in mapping:
        if key not in permitted:
            pointer = pointers.child(at, key)
            yield pointer, f"`{name(pointer)}` is not one the law allows (only {allowed})"


def _divisor(data, divisors: list[str], key: str) -> tuple[str, Decimal | None]:
    """The first divisor that applies: a mapping gives the entry of the same key, a number itself."""
    for pointer in divisors:
        value = pointers.get(data, pointer)
        if isinstance(value, dict):
            if key in value:
                number = to_decimal(value[key])
                return pointers.child(pointer, key), (number if number else None)
            continue
        if value is not pointers.MISSING:
            number = to_decimal(value)
            return pointer, (number if number else None)
    return divisors[-1], None


def _times(wanted, divisors: list[str], ceiling: bool = False) -> str:
    bound = "at most " if ceiling else ""
    if divisors:
        return f"{bound}{show(to_decimal(wanted))} times `{name(divisors[0])}`"
    return f"{bound}{show(wanted)}"


def describe(spec) -> str:
    divisors = pointer_list(spec.get("per"))
    per = f" times `{name(divisors[0])}`" if divisors else ""
    bound = "at most " if "max" in spec else ""

    def value(wanted) -> str:
        return f"{bound}{show(to_decimal(wanted) if per else wanted)}{per}"

    listed = ", ".join(f"{key} {value(wanted)}" for key, wanted in (spec["max"] if "max" in spec else spec["equals"]).items())
    given = spec.get("where_given") or {}
    if len({str(wanted) for wanted in given.values()}) == 1:  # one value for all (a simple chance under any name)
        listed += f"; where given, {', '.join(given)}, each {value(next(iter(given.values())))}"
    elif given:
        listed += f"; where given, {', '.join(f'{key} {value(wanted)}' for key, wanted in given.items())}"
    closed = "; no other entry is allowed" if spec.get("closed") else ""
    return f"`{name(spec['target'])}` must give {listed}{closed}{describe_missing(spec)}"


EXAMPLES = [
    ({"kind": NAME, "target": "/payouts", "equals": {"plein": 35, "cheval": 17}, "closed": True},
     {"payouts": {"plein": 35, "cheval": Decimal("17.0")}}, {"payouts": {"plein": 36, "cheval": 17, "zero": 11}},
     [("/payouts/plein", "`payouts/plein` is 36, must be 35"),
      ("/payouts/zero", "`payouts/zero` is not one the law allows (only plein, cheval)")]),
    ({"kind": NAME, "target": "/stakes/maxima_eur", "per": "/stakes/minimum_eur", "max": {"plein": 40}},
     {"stakes": {"minimum_eur": 5, "maxima_eur": {"plein": 200}}},
     {"stakes": {"minimum_eur": 5, "maxima_eur": {"plein": 205}}},
     [("/stakes/maxima_eur/plein", "`stakes/maxima_eur/plein` is 205 (41 times `stakes/minimum_eur`), must be "
                                   "at most 40 times `stakes/minimum_eur`")]),
]
