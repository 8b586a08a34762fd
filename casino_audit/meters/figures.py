"""Numbers as the meter log's findings write them: exact decimals, percentages, hours, the periods left out."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from fractions import Fraction


def hours(delta: timedelta) -> str:
    seconds = Fraction(delta.days * 86400 + delta.seconds) + Fraction(delta.microseconds, 1_000_000)
    return exact_decimal(seconds / 3600, 2)


def exact_decimal(value: Fraction, places: int = 4) -> str:
    number = Decimal(value.numerator) / Decimal(value.denominator)
    return format(number.quantize(Decimal(10) ** -places).normalize(), "f")


def percent(value, places: int = 2) -> str:
    """A rate as a percentage, to `places` decimals (trailing zeros kept at 2, dropped past them)."""
    value = Fraction(value) * 100
    number = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal(10) ** -places)
    text = format(number, "f")
    if places > 2:
        text = format(number.normalize(), "f")
    return f"{text} %"


def left_out_said(left_out: dict) -> str:
    if not left_out:
        return ""
    total = sum(left_out.values())
    reasons = "; ".join(f"{why}: {count}" for why, count in left_out.items())
    return f" ({total} period(s) between readings left out: {reasons})"
