"""A CSV cell read as its column says (a game log's, a meter log's, a `#` header value), and the amounts a
thousands point makes ambiguous: the one reading every CSV part shares.
"""

from __future__ import annotations

import re

from casino_audit.replay import MONEY_PATTERN, money


_MAX_CELL_DIGITS = 1000  # int() refuses over 4,300 digits; no count or number of a log has a thousand


def _cell(value: str, reader: str):
    """A cell read as its column says: text, int, money (Decimal as written), count (ASCII digits, leading zeros
    allowed), bool (true or false), cards or ints (space-separated). What cannot be read stays text, so the record's shape check reports it at its column."""
    if reader == "text":
        return value
    if reader == "bool":
        return {"true": True, "false": False}.get(value.strip().lower(), value)
    if reader in ("cards", "ints", "words"):
        items = value.split()
        if reader == "ints":  # "00" (the American wheel's pocket) is not 0: a leading zero stays text
            return [int(item) if item.isascii() and item.isdigit() and len(item) <= _MAX_CELL_DIGITS
                    and (item == "0" or item[0] != "0") else item for item in items]
        return items
    stripped = value.strip()
    # ASCII digits only ("²" is a digit to str.isdigit and no number to int), and few enough for int() to read.
    digits = stripped.isascii() and stripped.isdigit() and len(stripped) <= _MAX_CELL_DIGITS
    if reader == "int":
        return int(stripped) if digits and (stripped == "0" or stripped[0] != "0") else value
    if reader == "count":  # a meter's display: leading zeros are its empty digits (00012345 is 12345)
        return int(stripped) if digits else value
    if reader == "money":  # NaN, infinities and absurd magnitudes stay text: no amount, and no comparing them
        # written as a JSON text amount is ("２０", "2_020", "+20", "2e3" stay text, for the shape check to refuse)
        number = money(stripped) if stripped and _MONEY.match(stripped) else None  # each text is read once
        return value if number is None else number
    raise ValueError(f"unknown CSV reader {reader!r}")



_MONEY = re.compile(MONEY_PATTERN)
