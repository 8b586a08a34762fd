"""`kind: value`: each value the target reaches satisfies the predicates (`equals`, `differs`, `one_of`, `min`,
`max`, `multiple_of`, `contains`); with `per: POINTER` the value is first divided by the one there (a stake's
maximum in times its minimum), exactly."""

from __future__ import annotations

from fractions import Fraction

from casino_audit.core import pointers
from casino_audit.law.checks.common import (MISSING_SCHEMA, PLAIN_POINTER, CompiledCheck, check_schema,
                                        compiled_targets, describe_missing, judging, missing_is_breach, name,
                                        names, target_list, under)
from casino_audit.law.checks.predicates import NUMBER_READ, PREDICATES, read
from casino_audit.core.pointers import MISSING
from casino_audit.core.values import show, show_quotient, to_decimal

NAME = "value"
_USED = ("equals", "differs", "one_of", "min", "max", "multiple_of", "contains")
_WITH_PER = ("one_of", "min", "max")  # what a quotient can be compared with
PARAMETERS = check_schema(
    NAME,
    {**{n: PREDICATES[n].schema for n in _USED},
     "unit": {"enum": ["number", "percent"], "description": "percent: the value is a rate written with a % sign"},
     "per": {**PLAIN_POINTER, "description": "the divisor: the predicates apply to the value divided by it"},
     "missing": MISSING_SCHEMA},
    anyOf=[{"required": [n]} for n in _USED],
    dependentSchemas={"per": {"properties": {n: False for n in _USED if n not in _WITH_PER}}})


def targets(spec):
    return target_list((spec["target"], None), (spec.get("per"), None))


def _predicates(spec, prepared: bool = True):
    """(predicate, its parameter — as `holds` takes it when `prepared`, as written otherwise —, why a value fails)
    for each predicate the check names. A rule is compiled with its parameters bound; it is described as written."""
    unit = spec.get("unit", "number")
    return [(PREDICATES[n], PREDICATES[n].prepare(spec[n]) if prepared else spec[n],
             PREDICATES[n].failure(spec[n], unit)) for n in _USED if n in spec]


def compile(spec) -> CompiledCheck:
    compiled, unit, breach = compiled_targets(spec), spec.get("unit", "number"), missing_is_breach(spec)
    predicates = _predicates(spec)
    wanted = _requirement(predicates, unit)
    if spec.get("per"):
        return _per(spec, predicates, breach)

    # `equals: true` (most rules): the value that passes is the one boolean, known without reading it.
    passing = predicates[0][1] if len(predicates) == 1 and predicates[0][0].name == "equals" and type(
        predicates[0][1]) is bool else None

    def judge(pointer: str, value) -> tuple[str, str] | None:
        if value is passing:
            return None
        if value is MISSING:
            return (pointer, f"`{name(pointer)}` is missing ({under(pointer, compiled)} {wanted})") if breach else None
        for predicate, parameter, failure in predicates:
            subject = read(predicate, value, unit)
            if subject is None:
                return pointer, f"`{name(pointer)}` is {show(value)}, not {_readable(predicate, unit)}"
            if not predicate.holds(subject, parameter):
                shown = show(subject, unit) if predicate.reads == NUMBER_READ else show(value)
                return pointer, f"`{name(pointer)}` is {shown}, {failure}"
        return None

    check = judging(compiled, judge)
    if passing is not None and compiled.plain:  # the engine's shortcut where every path is clear: nothing to say
        check.passes = _all_are(tuple(segments for _, segments in compiled), passing)
    return check


def _all_are(paths: tuple, wanted: bool):
    """Whether the value at each path is `wanted` (a missing value, or any other, is not)."""
    reads = tuple(map(pointers.follower, paths))
    if len(reads) == 1:
        (read_one,) = reads
        return lambda data: read_one(data) is wanted
    return lambda data: all(read_one(data) is wanted for read_one in reads)


def _readable(predicate, unit: str) -> str:
    if predicate.reads == NUMBER_READ:
        return "a percentage written with a % sign" if unit == "percent" else "a number"
    return "a list"


def _per(spec, predicates, breach: bool) -> CompiledCheck:
    numerator, denominator = pointers.split(spec["target"]), spec["per"]

    def check(data):
        bottom = pointers.get(data, denominator)  # one divisor for every value the wildcard may reach
        for top_pointer, top in pointers.resolve(data, numerator):
            if top is MISSING or bottom is MISSING:
                if breach:
                    pointer = top_pointer if top is MISSING else denominator
                    yield pointer, f"`{name(pointer)}` is missing"
                continue
            a, b = to_decimal(top), to_decimal(bottom)
            if a is None or b is None or b == 0:
                yield top_pointer, f"`{name(top_pointer)}` / `{name(denominator)}` is not a ratio of numbers"
                continue
            ratio = Fraction(a) / Fraction(b)  # exact: a 28-digit quotient would round a breach away
            for predicate, parameter, failure in predicates:
                if not predicate.holds(ratio, parameter):
                    times = " times" if predicate.name == "one_of" else ""
                    yield top_pointer, (f"`{name(top_pointer)}` is {show_quotient(ratio)} times "
                                        f"`{name(denominator)}`, {failure}{times}")
                    break
    return check


def describe(spec) -> str:
    unit = spec.get("unit", "number")
    what = f"{names(spec['target'])} divided by `{name(spec['per'])}`" if spec.get("per") else names(spec["target"])
    return f"{what} {_requirement(_predicates(spec, prepared=False), unit)}{describe_missing(spec)}"


def _requirement(predicates, unit: str) -> str:
    """"must be at least 7 and at most 9": the predicates' requirements, the repeated "must be" said once."""
    phrases = [predicate.says(parameter, unit)[1] for predicate, parameter, _ in predicates]
    return " and ".join([phrases[0], *(p.removeprefix("must be ") for p in phrases[1:])])


EXAMPLES = [
    ({"kind": NAME, "target": "/redistribution_rate", "unit": "percent", "min": "85"},
     {"redistribution_rate": "85 %"}, {"redistribution_rate": "84.999 %"},
     [("/redistribution_rate", "`redistribution_rate` is 84.999 %, below the minimum of 85 %")]),
    ({"kind": NAME, "target": "/machine/type", "one_of": ["reel", "video"]},
     {"machine": {"type": "video"}}, {"machine": {"type": "Video"}},
     [("/machine/type", "`machine/type` is 'Video', must be one of 'reel', 'video'")]),
    ({"kind": NAME, "target": "/stakes/maximum_eur", "per": "/stakes/minimum_eur", "one_of": [10, 20, 30]},
     {"stakes": {"minimum_eur": 5, "maximum_eur": 150}}, {"stakes": {"minimum_eur": 5, "maximum_eur": 125}},
     [("/stakes/maximum_eur", "`stakes/maximum_eur` is 25 times `stakes/minimum_eur`, must be one of 10, 20, 30 "
                              "times")]),
    ({"kind": NAME, "target": ["/d/a", "/d/b"], "equals": True},
     {"d": {"a": True, "b": True}}, {},
     [("/d", "`d` is missing (`a`, `b` must be true)")]),
]
