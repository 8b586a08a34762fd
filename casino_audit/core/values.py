"""Reading numbers from filings: Decimal from the text as written, never float.

Arithmetic on them is exact (fractions.Fraction): Decimal's 28-digit context would round a quotient
(1000.0000000000000000000000001 / 5 reads as 200) and refuse a remainder of 30 digits.
"""

from __future__ import annotations

import re
from decimal import Decimal, Inexact, InvalidOperation, localcontext
from fractions import Fraction
from typing import Any

PERCENT_PATTERN = r"^\s*[0-9]+(\.[0-9]+)?\s*%\s*$"
_PERCENT = re.compile(PERCENT_PATTERN)


MAX_DIGITS = 30  # no amount, rate or count in a filing needs more
# An amount written with a point before three digits (4.000, 12.500): four euros to a parser, four thousand to a
# reader in Luxembourg or Portugal, where a point separates thousands. 0.050 is no thousands: read as written.
THOUSANDS_POINT = re.compile(r"-?[1-9][0-9]{0,2}(\.[0-9]{3})+")


def thousands_point(field: str, value: str) -> str:
    """Why an amount written as `THOUSANDS_POINT` matches is ambiguous, and how to write it."""
    return (f"`{field}` is written {value}: a thousands point ({value.replace('.', '')}) or a decimal point? An "
            "amount has its cents after the point (2020.00 or 2.02)")


def bounded_decimal(text: str) -> Decimal | None:
    """The number a text states, exactly; None for NaN, infinities, and numbers too large or too small to be
    amounts (1e999999999 would take gigabytes to print in a message), or with more than 2 * MAX_DIGITS
    digits (1.000...0001 with a million zeros would be quoted whole in every message about it)."""
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    if len(text) > 2 * MAX_DIGITS and len(number.as_tuple().digits) > 2 * MAX_DIGITS:
        return None  # a text this short cannot have that many digits: the common case skips the count
    if _reasonable(number):
        return number
    return Decimal(0) if number.is_zero() else None  # 0E-40 is zero, whatever its exponent


def _reasonable(number: Decimal) -> bool:
    # The magnitude is what can explode; the digits were bounded when the number was read.
    return number.is_finite() and -MAX_DIGITS <= number.adjusted() <= MAX_DIGITS


class OutOfRange:
    """A number written in a log that no amount can be (1E-40, 1E+400): kept as written, and neither a number nor
    text to a schema, which therefore refuses it wherever a value is due; never a Decimal some check cannot read
    and skips."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __str__(self) -> str:
        return self.text if len(self.text) <= SHOWN_CHARACTERS else f"{self.text[:SHOWN_CHARACTERS]}..."

    __repr__ = __str__

    def __eq__(self, other) -> bool:
        return isinstance(other, OutOfRange) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


def log_number(text: str) -> Decimal | int | OutOfRange:
    """A JSON number with a fraction or an exponent, as a log's reader reads it: exactly, if it is one an amount
    can be (as `bounded_decimal` bounds them), a whole one as an int (a die's 5.0, a box's 3.0 or a capacity's
    1E+1 is what the schema's integer takes, and what every check of it reads), else as an OutOfRange."""
    number = bounded_decimal(text)
    if number is None:
        return OutOfRange(text)
    return int(number) if number == number.to_integral_value() else number


def to_decimal(value: Any, unit: str = "number") -> Decimal | None:
    """The number a value states, or None if it states none.

    With unit "percent" only text with a percent sign counts ("85 %", "85%"): a bare 0.85 or 85 is
    ambiguous, and an ambiguous rate is not read as either.
    """
    if isinstance(value, bool):
        return None
    if unit == "percent":
        if isinstance(value, str) and _PERCENT.match(value):
            return bounded_decimal(value.strip().rstrip("%").strip())
        return None
    if isinstance(value, Decimal):
        return value if _reasonable(value) else None
    if isinstance(value, int):
        return bounded_decimal(str(value))
    if isinstance(value, str):
        return bounded_decimal(value.strip())
    return None  # floats never reach here from our loader; refuse to guess at one that does


def show_quotient(value: Fraction) -> str:
    """An exact quotient in a message: as a decimal when one of 28 digits is exact, else 'about' the rounded one."""
    with localcontext() as context:
        context.prec = 28
        context.clear_flags()
        number = (Decimal(value.numerator) / Decimal(value.denominator)).normalize()
        rounded = context.flags[Inexact]
    return f"about {show(number)}" if rounded else show(number)


SHOWN_CHARACTERS = 80  # a value quoted in a message; a 5 MB value quoted 2,000 times would be 10 GB


def show(value: Any, unit: str = "number") -> str:
    """A value as a person reads it in a message, cut short past SHOWN_CHARACTERS saying how much is left out."""
    if isinstance(value, Decimal):
        text = format(value, "f")
        return f"{text} %" if unit == "percent" else text
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        if len(value) > SHOWN_CHARACTERS:
            return f"{value[:SHOWN_CHARACTERS]!r}... ({len(value) - SHOWN_CHARACTERS:,} more characters)"
        return repr(value)
    if isinstance(value, (list, dict)):
        return _short_container(value)
    return str(value)


def _short_container(value) -> str:
    # Never str() a whole container: it may hold a million values, or the same 5 MB text many times.
    if not value:
        return str(value)
    items = list(value.items())[:3] if isinstance(value, dict) else value[:3]
    if isinstance(value, dict):
        inner = ", ".join(f"{show(k)}: {_shallow(v)}" for k, v in items)
        opening, closing = "{", "}"
    else:
        inner = ", ".join(_shallow(v) for v in items)
        opening, closing = "[", "]"
    more = f", ... ({len(value) - 3:,} more)" if len(value) > 3 else ""
    return f"{opening}{inner}{more}{closing}"


def _shallow(value) -> str:
    if isinstance(value, dict):
        return "{...}" if value else "{}"
    if isinstance(value, list):
        return "[...]" if value else "[]"
    return show(value)
