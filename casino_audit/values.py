"""Reading numbers from filings: Decimal from the text as written, never float."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

PERCENT_PATTERN = r"^\s*[0-9]+(\.[0-9]+)?\s*%\s*$"
_PERCENT = re.compile(PERCENT_PATTERN)


def to_decimal(value: Any, unit: str = "number") -> Decimal | None:
    """The number a value states, or None if it states none.

    With unit "percent" only text with a percent sign counts ("85 %", "85%"): a bare 0.85 or 85 is
    ambiguous, and an ambiguous rate is not read as either.
    """
    if isinstance(value, bool):
        return None
    if unit == "percent":
        if isinstance(value, str) and _PERCENT.match(value):
            return Decimal(value.strip().rstrip("%").strip())
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, Decimal):
        return value if value.is_finite() else None
    if isinstance(value, str):
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            return None
        return number if number.is_finite() else None
    return None  # floats never reach here from our loader; refuse to guess at one that does


def show(value: Any, unit: str = "number") -> str:
    """A value as a person reads it in a message."""
    if isinstance(value, Decimal):
        text = format(value, "f")
        return f"{text} %" if unit == "percent" else text
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value)
    return str(value)
