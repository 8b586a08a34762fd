"""A PAR sheet's values read one at a time (casino_audit.slots.par_read reads the whole): the bounds that keep a
hostile sheet's cost small, the list of problems found, and the checked reading of a list, a whole number, an
amount, a choice; every value is looked at for its type and bounds before it is used, a value of the wrong kind a
problem at its place, never a traceback."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from casino_audit.core import pointers
from casino_audit.core.values import show, to_decimal

MAX_REELS, MAX_ROWS, MAX_STOPS, MAX_WEIGHT = 9, 10, 10_000, 10 ** 9
MAX_LINES, MAX_ENTRIES, MAX_SYMBOLS, MAX_PAYTABLES, MAX_SCATTERS = 500, 2_000, 500, 50, 100
MAX_PAY, MAX_MULTIPLIER, MAX_CREDITS, MAX_SPINS = 10 ** 12, 10 ** 6, 10 ** 6, 10 ** 4
SECTION_KEYS = ("symbols", "rows", "stop_row", "reels", "lines", "ways", "line_wins", "groups", "wilds",
                "wild_multipliers", "paytables")
_DECIMAL = r"^[0-9]{1,15}(\.[0-9]{1,12})?$"


class Problems(list):
    def add(self, pointer: str, message: str) -> None:
        self.append((pointer, message))



def listed(value: Any, at: str, problems: Problems, missing: str, not_a_list: str, most: int,
            too_many: str) -> list | None:
    """`value` if it is a list of 1 to `most` items; else None, the problem added: `missing` if it is not given,
    `not_a_list` ({type}: what it is instead) if it is no such list, `too_many` ({count}: its length) if longer."""
    if value is pointers.MISSING:
        problems.add(at, missing)
        return None
    if not isinstance(value, list) or not value:
        problems.add(at, not_a_list.format(type=type_of(value)))
        return None
    if len(value) > most:
        problems.add(at, too_many.format(count=len(value)))
        return None
    return value



def whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def amount(value: Any, at: str, problems: Problems, low: Fraction, high: int, what: str,
            positive: bool = False) -> Fraction | None:
    """A whole number or a decimal written as text ("0.5"), exactly."""
    if value is pointers.MISSING:
        problems.add(at, f"{what} is missing")
        return None
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = Fraction(value)
    elif isinstance(value, str):
        if re.fullmatch(_DECIMAL, value.strip()):
            number = Fraction(Decimal(value.strip()))
    if number is None:
        problems.add(at, f"{what} is {show(value)}, not a whole number or a decimal written as text (\"0.5\")")
        return None
    if number < low or number > high or (positive and number == 0):
        bound = "above 0" if positive else f"at least {show(Decimal(low.numerator) / low.denominator)}"
        problems.add(at, f"{what} is {show(value)}, must be {bound} and at most {high:,}")
        return None
    return number


def euros(value: Any, at: str, problems: Problems) -> Decimal | None:
    number = to_decimal(value) if isinstance(value, str) else None
    if number is None or number <= 0:
        problems.add(at, f"`denomination` is {show(value)}, not an amount in euros written as text (\"0.25\")")
        return None
    return number


def integer(par: dict, key: str, at: str, problems: Problems, low: int, high: int, default: int) -> int | None:
    value = par.get(key, default)
    if not whole(value, low, high):
        problems.add(pointers.child(at, key), f"`{key}` is {show(value)}, not a whole number from {low} to {high}")
        return None
    return value


def choice(par: dict, key: str, at: str, options: tuple, default: str, problems: Problems) -> str | None:
    value = par.get(key, default)
    if value not in options:
        problems.add(pointers.child(at, key), f"`{key}` is {show(value)}, not one of {', '.join(options)}")
        return None
    return value


def type_of(value: Any) -> str:
    if value is pointers.MISSING:
        return "missing"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, Decimal)):
        return f"the number {show(value)}"
    if isinstance(value, str):
        return f"the text {show(value)}"
    if isinstance(value, list):
        return "an empty list" if not value else "a list"
    if isinstance(value, dict):
        return "an empty mapping" if not value else "a mapping"
    return "null" if value is None else type(value).__name__

