"""`kind: sequence`: a list equal, item by item, to `one_of` the lists given (a wheel's pockets, clockwise)."""

from __future__ import annotations

from casino_audit.core import pointers
from casino_audit.law.checks.common import (MISSING_SCHEMA, SCALAR, CompiledCheck, check_schema, compiled_targets,
                                        describe_missing, given, missing_is_breach, name, names, same, target_list)
from casino_audit.core.values import show

NAME = "sequence"
PARAMETERS = check_schema(
    NAME,
    {"one_of": {"type": "array", "minItems": 1, "items": {"type": "array", "items": SCALAR, "minItems": 1},
                "description": "the lists it may be, in order"},
     "missing": MISSING_SCHEMA},
    required=["one_of"])


def targets(spec):
    return target_list((spec["target"], None))


def compile(spec) -> CompiledCheck:
    compiled, breach = compiled_targets(spec), missing_is_breach(spec)
    options = [list(option) for option in spec["one_of"]]

    def check(data):
        for pointer, value, missing in given(data, compiled, breach, lambda p: f"`{name(p)}` is missing"):
            if missing:
                yield missing
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


def describe(spec) -> str:
    orders = " or ".join("-".join(str(v) for v in option) for option in spec["one_of"])
    return f"{names(spec['target'])} must be, in order, {orders}{describe_missing(spec)}"


EXAMPLES = [
    ({"kind": NAME, "target": "/wheel/sequence", "one_of": [[0, 32, 15, 19], [0, 28, 9, 26]]},
     {"wheel": {"sequence": [0, 28, 9, 26]}}, {"wheel": {"sequence": [0, 32, 19, 15]}},
     [("/wheel/sequence/2", "`wheel/sequence` differs from the law at position 3: 19 where the law has 15")]),
]
