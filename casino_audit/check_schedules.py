"""Check kinds over a list or a mapping as a whole: items, schedules (values, keys), sequences."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Iterator

from casino_audit import pointers
from casino_audit.check_base import CompiledCheck, Violation, fields_of, missing, name, reached, same
from casino_audit.pointers import MISSING
from casino_audit.values import show, show_quotient, to_decimal


# --- items ------------------------------------------------------------------------------------------

def compile_items(spec) -> CompiledCheck:
    array_pointer = spec["array"]
    segments = pointers.split(array_pointer)
    where = spec.get("where", {})
    require = spec.get("require", {})
    low, high = spec.get("min_count"), spec.get("max_count")
    described = describe_where(where)

    def check(data):
        array = pointers.get(data, array_pointer) if segments else data
        if array is MISSING or not isinstance(array, list):
            array = []
        matched = [(position, item) for position, item in enumerate(array)
                   if isinstance(item, dict) and all(same(item.get(k, MISSING), v) for k, v in where.items())]
        count = len(matched)
        if low is not None and count < low:
            yield array_pointer, (f"`{name(array_pointer)}` has {count} item(s){described}, "
                                  f"at least {low} required")
        if high is not None and count > high:
            yield array_pointer, (f"`{name(array_pointer)}` has {count} item(s){described}, "
                                  f"at most {high} allowed")
        for position, item in matched:
            for key, expected in require.items():
                value = item.get(key, MISSING)
                pointer = pointers.child(pointers.child(array_pointer, position), key)
                if value is MISSING:
                    yield pointer, f"`{name(pointer)}` is not declared (must be {show(expected)})"
                elif not same(value, expected):
                    yield pointer, f"`{name(pointer)}` is {show(value)}, must be {show(expected)}"
    return check


def describe_where(where: dict) -> str:
    if not where:
        return ""
    return " with " + ", ".join(f"{k} = {show(v)}" for k, v in where.items())


# --- values (a schedule: payouts, maxima) --------------------------------------------------------------

def compile_values(spec) -> CompiledCheck:
    at, expected = spec["at"], spec["expected"]
    closed, required = spec.get("closed", False), spec.get("required", True)
    ceiling = spec.get("at_most", False)  # "até N vezes": N is a ceiling, not the value
    per = spec.get("per")
    divisors = [per] if isinstance(per, str) else list(per or [])
    permitted = set(expected) | set(spec.get("also_allowed", ()))
    allowed = ", ".join([*expected, *spec.get("also_allowed", ())])

    def inspect(data, schedule):
        unusable: set[str] = set()
        for key, wanted in expected.items():
            pointer = pointers.child(at, key)
            if key not in schedule:
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
            yield from _unlisted(at, schedule, permitted, allowed)
    return _on_schedule(at, required, f"must give {', '.join(expected)}", inspect)


def _on_schedule(at: str, required: bool, wanted: str, inspect) -> CompiledCheck:
    """Run `inspect(data, mapping)` on the mapping at `at`; a missing one is a breach when required."""
    def check(data):
        schedule = pointers.get(data, at)
        if isinstance(schedule, dict):
            yield from inspect(data, schedule)
        elif required:
            yield at, f"`{name(at)}` is not declared ({wanted})"
    return check


def _unlisted(at: str, schedule: dict, permitted, allowed: str) -> Iterator[Violation]:
    """Entries of a closed schedule that the law does not list."""
    for key in schedule:
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
        if value is not MISSING:
            number = to_decimal(value)
            return pointer, (number if number else None)
    return divisors[-1], None


def _times(wanted, divisors: list[str], ceiling: bool = False) -> str:
    bound = "at most " if ceiling else ""
    if divisors:
        return f"{bound}{show(to_decimal(wanted))} times `{name(divisors[0])}`"
    return f"{bound}{show(wanted)}"


# --- keys (which entries a schedule may and must have, where the law gives no values) --------------------

def compile_keys(spec) -> CompiledCheck:
    at, allowed, needed = spec["at"], spec["allowed"], spec.get("required_keys", [])
    required = spec.get("required", True)

    def inspect(data, schedule):
        for key in needed:
            if key not in schedule:
                yield pointers.child(at, key), f"`{name(pointers.child(at, key))}` is not declared"
        yield from _unlisted(at, schedule, set(allowed), ", ".join(allowed))
    return _on_schedule(at, required, f"allowed: {', '.join(allowed)}", inspect)


# --- sequence (an exact order: a wheel's pockets) -------------------------------------------------------

def compile_sequence(spec) -> CompiledCheck:
    fields, required = fields_of(spec), spec.get("required", True)
    options = [list(option) for option in spec["sequences"]]

    def check(data):
        for pointer, value in reached(data, fields):
            if value is MISSING:
                if required:
                    yield missing(pointer)
                continue
            if not isinstance(value, list):
                yield pointer, f"`{name(pointer)}` is {show(value)}, not a list"
                continue
            if any(_same_list(value, option) for option in options):
                continue
            closest = max(options, key=lambda option: _common_prefix(value, option))
            at = _common_prefix(value, closest)
            if at < min(len(value), len(closest)):
                yield (pointers.child(pointer, at), f"`{name(pointer)}` differs from the law at position {at + 1}: "
                       f"{show(value[at])} where the law has {show(closest[at])}")
            else:
                yield pointer, f"`{name(pointer)}` has {len(value)} entries, the law {len(closest)}"
    return check


def _same_list(value: list, option: list) -> bool:
    return len(value) == len(option) and all(same(a, b) for a, b in zip(value, option))


def _common_prefix(value: list, option: list) -> int:
    count = 0
    for a, b in zip(value, option):
        if not same(a, b):
            break
        count += 1
    return count


def describe_items(spec) -> str:
    text = f"items of `{name(spec['array'])}`{describe_where(spec.get('where', {}))}"
    bits = []
    if spec.get("min_count") is not None:
        bits.append(f"at least {spec['min_count']} such items")
    if spec.get("max_count") is not None:
        bits.append(f"at most {spec['max_count']} such items")
    if spec.get("require"):
        bits.append("each with " + ", ".join(f"{k} = {show(v)}" for k, v in spec["require"].items()))
    return f"{text}: {'; '.join(bits)}"


def describe_values(spec) -> str:
    divisor = spec.get("per")
    divisor = divisor[0] if isinstance(divisor, list) else divisor
    per = f" times `{name(divisor)}`" if divisor else ""
    bound = "at most " if spec.get("at_most") else ""
    listed = ", ".join(f"{key} {bound}{show(to_decimal(value) if per else value)}{per}"
                       for key, value in spec["expected"].items())
    closed = "; no other entry is allowed" if spec.get("closed") else ""
    return f"`{name(spec['at'])}` must give {listed}{closed}"
