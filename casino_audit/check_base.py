"""What every check kind shares: reaching the fields a rule names, equality as a filing means it, numbers."""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator

from casino_audit import pointers
from casino_audit.pointers import MISSING
from casino_audit.values import show, to_decimal

Violation = tuple[str, str]  # (JSON pointer, message)
CompiledCheck = Callable[[Any], Iterable[Violation]]


def fields_of(spec) -> list[tuple[str, tuple[str, ...]]]:
    raw = spec.get("fields", spec.get("field"))
    raw = [raw] if isinstance(raw, str) else raw
    return [(pointer, pointers.split(pointer)) for pointer in raw]


def reached(data, compiled_fields) -> Iterator[tuple[str, Any]]:
    """Every (pointer, value) the fields reach; a missing container shared by several fields comes once."""
    reported_missing = set()
    for _, segments in compiled_fields:
        for pointer, value in pointers.resolve(data, segments):
            if value is MISSING:
                if pointer in reported_missing:
                    continue
                reported_missing.add(pointer)
            yield pointer, value


def name(pointer: str) -> str:
    return pointer.lstrip("/") or "the document"


def under(missing: str, compiled_fields) -> str:
    """The fields a missing pointer stands for: itself, or those of the fields that lie below it."""
    below = [f"`{p[len(missing) + 1:]}`" for p, _ in compiled_fields if p.startswith(missing + "/")]
    return ", ".join(below) if below else "it"


def missing(pointer: str) -> Violation:
    return pointer, f"`{name(pointer)}` is missing"


def same(value, expected) -> bool:
    """Equality as a filing means it: booleans are never numbers, numbers compare by value (0.50 == 0.5),
    and text compares as text ("2" is not 2)."""
    if isinstance(value, bool) or isinstance(expected, bool):
        return type(value) is type(expected) and value == expected
    if isinstance(value, (int, Decimal)):
        if isinstance(expected, str) and expected[:1] not in NUMERIC_START:
            return False  # "blue" is never a number; skip parsing it
        wanted = to_decimal(expected)
        return wanted is not None and to_decimal(value) == wanted
    return value == expected


NUMERIC_START = frozenset("+-.0123456789")


def numbers(data, fields, required: bool, unit: str = "number") -> Iterator[tuple[str, Decimal | None, str | None]]:
    """(pointer, number, None) for each value that states a number; (pointer, None, problem) otherwise."""
    for pointer, value in reached(data, fields):
        if value is MISSING:
            if required:
                yield pointer, None, missing(pointer)[1]
            continue
        number = to_decimal(value, unit)
        if number is None:
            wanted = "a percentage written with a % sign" if unit == "percent" else "a number"
            yield pointer, None, f"`{name(pointer)}` is {show(value)}, not {wanted}"
        else:
            yield pointer, number, None



def bound(spec, key) -> Decimal | None:
    return None if spec.get(key) is None else to_decimal(spec[key])


def outside(number: Decimal | Fraction, low: Decimal | None, high: Decimal | None,
            unit: str = "number") -> str | None:
    """Why a number is out of bounds, compared exactly (Decimals compare exactly; a Fraction is compared as
    one), or None."""
    exact = number.__class__ is Fraction
    if low is not None and (number < Fraction(low) if exact else number < low):
        return _beyond("below the minimum", low, unit)
    if high is not None and (number > Fraction(high) if exact else number > high):
        return _beyond("above the maximum", high, unit)
    return None


@lru_cache(maxsize=1024)  # 900,000 values below one minimum say it 900,000 times
def _beyond(where: str, limit: Decimal, unit: str) -> str:
    return f"{where} of {show(limit, unit)}"

