"""The period a log's header declares it covers (`period: {from, to}`, ISO 8601 dates), read the same way for a
game log and a meter log: a period that cannot be read is said, never taken as no period in silence."""

from __future__ import annotations

from datetime import date
from typing import Any

from casino_audit.core.display import brief
from casino_audit.core.values import show


def declared_period(given: Any) -> tuple[date, date] | str | None:
    """The first and last days of the period `given`; a text: why it is no period (not two ISO 8601 dates, or
    ending before it starts); None where it is not two texts (the header's shape check says what is wrong)."""
    if not isinstance(given, dict):
        return None  # absent, or of another type than a mapping: the header's shape check says which
    if not isinstance(given.get("from"), str) or not isinstance(given.get("to"), str):
        return f"the period {brief(show(given))} is not two ISO 8601 dates (`from` and `to`)"
    try:
        first, last = date.fromisoformat(given["from"]), date.fromisoformat(given["to"])
    except ValueError:
        return f"the period {brief(show(given))} is not two ISO 8601 dates"
    if last < first:
        return f"the period {brief(show(given))} ends before it starts"
    return first, last
