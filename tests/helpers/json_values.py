"""JSON values for the tests of the JSON readers: the limits they are read under, a Hypothesis strategy of
values, and equality that also compares types."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import strategies as st


LIMITS = (1_000_000, 100)


def same(a, b) -> bool:
    """Equal, and of the same types throughout (1 is not 1.0, True is not 1, Decimal('1.0') keeps its zero)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, Decimal):
        return str(a) == str(b)
    return a == b


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.decimals(allow_nan=False, allow_infinity=False).map(str)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20)
