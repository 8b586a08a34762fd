"""`kind: count`: how many items of a list match `where` (at least `min`, at most `max`), and what `each` of
them must say (the meters of a slot machine)."""

from __future__ import annotations

from casino_audit.core import pointers
from casino_audit.law.checks.common import (NUMERIC_START, POINTER, SCALAR, CompiledCheck, check_schema, name, same,
                                        target_list)
from casino_audit.core.pointers import MISSING
from casino_audit.core.values import show

NAME = "count"
_PROPERTIES = {"type": "object", "additionalProperties": SCALAR, "minProperties": 1}
_COUNT = {"type": "integer", "minimum": 0}
PARAMETERS = check_schema(
    NAME,
    {"target": {**POINTER, "description": "the list"},
     "where": {**_PROPERTIES, "description": "the items counted: those with these properties"},
     "min": {**_COUNT, "description": "at least this many such items"},
     "max": {**_COUNT, "description": "at most this many such items"},
     "each": {**_PROPERTIES, "description": "properties every such item must have"}},
    anyOf=[{"required": ["min"]}, {"required": ["max"]}, {"required": ["each"]}])


def targets(spec):
    return target_list((spec["target"], list))


def compile(spec) -> CompiledCheck:
    array_pointer = spec["target"]
    segments = pointers.split(array_pointer)
    array_at = pointers.getter(array_pointer)
    where, each = spec.get("where", {}), spec.get("each", {})
    low, high = spec.get("min"), spec.get("max")
    described = _where(where)
    # `where: {role: coin_in}`: a word no number reads as, which `same` compares as plain text.
    textual = next(iter(where.items())) if len(where) == 1 and all(
        type(v) is str and v[:1] not in NUMERIC_START for v in where.values()) else None

    def check(data):
        array = array_at(data) if segments else data
        if array is MISSING or not isinstance(array, list):
            array = []
        if textual is not None:  # one key compared with a word: `same` is plain equality there
            key, word = textual
            matched = [(position, item) for position, item in enumerate(array)
                       if type(item) is dict and item.get(key, MISSING) == word]
        else:
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
            for key, expected in each.items():
                value = item.get(key, MISSING)
                if value is MISSING:
                    pointer = pointers.child(pointers.child(array_pointer, position), key)
                    yield pointer, f"`{name(pointer)}` is not declared (must be {show(expected)})"
                elif not same(value, expected):
                    pointer = pointers.child(pointers.child(array_pointer, position), key)
                    yield pointer, f"`{name(pointer)}` is {show(value)}, must be {show(expected)}"
    return check


def _where(where: dict) -> str:
    if not where:
        return ""
    return " with " + ", ".join(f"{k} = {show(v)}" for k, v in where.items())


def describe(spec) -> str:
    bits = []
    if spec.get("min") is not None:
        bits.append(f"at least {spec['min']} such items")
    if spec.get("max") is not None:
        bits.append(f"at most {spec['max']} such items")
    if spec.get("each"):
        bits.append("each with " + ", ".join(f"{k} = {show(v)}" for k, v in spec["each"].items()))
    return f"items of `{name(spec['target'])}`{_where(spec.get('where', {}))}: {'; '.join(bits)}"


EXAMPLES = [
    ({"kind": NAME, "target": "/meters", "where": {"role": "coin_in"}, "min": 2, "each": {"locked": True}},
     {"meters": [{"role": "coin_in", "locked": True}, {"role": "coin_in", "locked": True}, {"role": "drop"}]},
     {"meters": [{"role": "coin_in", "locked": False}, {"role": "drop"}]},
     [("/meters", "`meters` has 1 item(s) with role = 'coin_in', at least 2 required"),
      ("/meters/0/locked", "`meters/0/locked` is false, must be true")]),
]
