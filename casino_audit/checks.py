"""The vocabulary of check kinds rulesets are written in.

One check kind = one small function plus the JSON Schema of its parameters. A kind's `compile` turns a
rule's validated `check:` mapping (parameters already bound) into a function from a document's data to
its violations, so pointers are parsed once per run, not once per document. The registry `CHECK_KINDS`
is the single list of kinds; nothing registers itself on import.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Iterator

from casino_audit import pointers
from casino_audit.check_base import (CompiledCheck, bound, fields_of, missing, name, numbers, outside,
                                     reached, same, under)
from casino_audit.check_schedules import (compile_items, compile_keys, compile_sequence, compile_values,
                                          describe_items, describe_values)
from casino_audit.pointers import MISSING
from casino_audit.values import show, show_quotient, to_decimal

_POINTER = {"type": "string", "pattern": "^(/[^/]*)*$"}
_PLAIN_POINTER = {"type": "string", "pattern": r"^(/([^/*][^/]*|\*[^/]+)?)*$",
                  "description": "a JSON pointer without a `*` wildcard segment"}
_POINTERS = {"oneOf": [_POINTER, {"type": "array", "items": _POINTER, "minItems": 1}]}
_NUMBER = {"oneOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$"}]}
_SCALAR = {"type": ["string", "number", "boolean", "null"]}
_REQUIRED = {"type": "boolean", "description": "a missing value is a breach (default true)"}
_PROPERTIES = {"type": "object", "additionalProperties": _SCALAR, "minProperties": 1}


# --- present ----------------------------------------------------------------------------------------

def compile_present(spec) -> CompiledCheck:
    fields = fields_of(spec)

    def check(data):
        for pointer, value in reached(data, fields):
            if value is MISSING:
                yield missing(pointer)
            elif value is None or value == "" or value == [] or value == {} or (
                    isinstance(value, str) and not value.strip()):
                yield pointer, f"`{name(pointer)}` is empty"
    return check


# --- equals -----------------------------------------------------------------------------------------

def compile_equals(spec) -> CompiledCheck:
    fields, expected, required = fields_of(spec), spec["value"], spec.get("required", True)

    def check(data):
        for pointer, value in reached(data, fields):
            if value is MISSING:
                if required:
                    yield pointer, f"`{name(pointer)}` is not declared ({under(pointer, fields)} must be {show(expected)})"
            elif not same(value, expected):
                yield pointer, f"`{name(pointer)}` is {show(value)}, must be {show(expected)}"
    return check


# --- one_of -----------------------------------------------------------------------------------------

def compile_one_of(spec) -> CompiledCheck:
    fields, allowed, required = fields_of(spec), spec["values"], spec.get("required", True)
    listed = ", ".join(show(v) for v in allowed)

    def check(data):
        for pointer, value in reached(data, fields):
            if value is MISSING:
                if required:
                    yield pointer, f"`{name(pointer)}` is missing (one of {listed})"
            elif not any(same(value, option) for option in allowed):
                yield pointer, f"`{name(pointer)}` is {show(value)}, must be one of {listed}"
    return check


# --- range ------------------------------------------------------------------------------------------

def compile_range(spec) -> CompiledCheck:
    fields, unit, required = fields_of(spec), spec.get("unit", "number"), spec.get("required", True)
    low, high = bound(spec, "min"), bound(spec, "max")

    def check(data):
        for pointer, number, problem in numbers(data, fields, required, unit):
            if problem:
                yield pointer, problem
            elif beyond := outside(number, low, high, unit):
                yield pointer, f"`{name(pointer)}` is {show(number, unit)}, {beyond}"
    return check


# --- multiple_of ------------------------------------------------------------------------------------

def compile_multiple_of(spec) -> CompiledCheck:
    fields, required = fields_of(spec), spec.get("required", True)
    step = to_decimal(spec["of"])
    exact_step = Fraction(step)  # exact: Decimal's `%` refuses a quotient past 28 digits

    def check(data):
        for pointer, number, problem in numbers(data, fields, required):
            if problem:
                yield pointer, problem
            elif (Fraction(number) % exact_step != 0) if exact_step else number != 0:
                yield pointer, f"`{name(pointer)}` is {show(number)}, not a multiple of {show(step)}"
    return check


# --- ratio ------------------------------------------------------------------------------------------

def compile_ratio(spec) -> CompiledCheck:
    numerator, denominator = pointers.split(spec["numerator"]), spec["denominator"]
    allowed = [to_decimal(v) for v in spec.get("in", [])]
    exact_allowed = frozenset(Fraction(v) for v in allowed)
    low, high = bound(spec, "min"), bound(spec, "max")
    required = spec.get("required", True)

    def check(data):
        bottom = pointers.get(data, denominator)  # one divisor for every numerator the wildcard may reach
        for top_pointer, top in pointers.resolve(data, numerator):
            if top is MISSING or bottom is MISSING:
                if required:
                    yield missing(top_pointer if top is MISSING else denominator)
                continue
            a, b = to_decimal(top), to_decimal(bottom)
            if a is None or b is None or b == 0:
                yield top_pointer, f"`{name(top_pointer)}` / `{name(spec['denominator'])}` is not a ratio of numbers"
                continue
            ratio = Fraction(a) / Fraction(b)  # exact: a 28-digit quotient would round a breach away
            text = f"`{name(top_pointer)}` is {show_quotient(ratio)} times `{name(spec['denominator'])}`"
            if allowed and ratio not in exact_allowed:
                yield top_pointer, f"{text}, must be one of {', '.join(show(v) for v in allowed)} times"
            elif beyond := outside(ratio, low, high):
                yield top_pointer, f"{text}, {beyond}"
    return check


# --- the registry -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class CheckKind:
    name: str
    compile: Callable[[dict], CompiledCheck]
    parameters: dict  # JSON Schema of the `check:` mapping, less its `kind`
    describe: Callable[[dict], str]  # what passes, in words, for `rules explain`


def _obj(properties: dict, required: list[str], **extra) -> dict:
    return {"type": "object", "properties": {"kind": {"type": "string"}, **properties},
            "required": ["kind", *required], "additionalProperties": False, **extra}


def _field_list(spec) -> str:
    fields = spec.get("fields", spec.get("field"))
    return ", ".join(f"`{name(f)}`" for f in ([fields] if isinstance(fields, str) else fields))


def _shown_bound(spec, key) -> str:
    value = spec[key]
    if isinstance(value, dict):
        return f"the parameter `{value['param']}`"
    return show(to_decimal(value), spec.get("unit", "number"))


def _describe_range(spec) -> str:
    parts = []
    if spec.get("min") is not None:
        parts.append(f"at least {_shown_bound(spec, 'min')}")
    if spec.get("max") is not None:
        parts.append(f"at most {_shown_bound(spec, 'max')}")
    return f"{_field_list(spec)} must be {' and '.join(parts)}"


def _describe_ratio(spec) -> str:
    what = f"`{name(spec['numerator'])}` divided by `{name(spec['denominator'])}` must be"
    if spec.get("in"):
        return f"{what} one of {', '.join(show(to_decimal(v)) for v in spec['in'])}"
    bits = [f"at least {_shown_bound(spec, 'min')}"] if spec.get("min") is not None else []
    bits += [f"at most {_shown_bound(spec, 'max')}"] if spec.get("max") is not None else []
    return f"{what} {' and '.join(bits)}"



_FIELDS_ONE_OF = [{"required": ["field"]}, {"required": ["fields"]}]
_MAYBE_PARAM = {"oneOf": [_NUMBER, {"type": "object", "properties": {"param": {"type": "string"}},
                                     "required": ["param"], "additionalProperties": False}]}

CHECK_KINDS: dict[str, CheckKind] = {kind.name: kind for kind in (
    CheckKind("present", compile_present,
              _obj({"field": _POINTER, "fields": _POINTERS}, [], oneOf=_FIELDS_ONE_OF),
              lambda s: f"{_field_list(s)} must be given and not empty"),
    CheckKind("equals", compile_equals,
              _obj({"field": _POINTER, "fields": _POINTERS, "value": _SCALAR, "required": _REQUIRED},
                   ["value"], oneOf=_FIELDS_ONE_OF),
              lambda s: f"{_field_list(s)} must be {show(s['value'])}"),
    CheckKind("one_of", compile_one_of,
              _obj({"field": _POINTER, "fields": _POINTERS, "required": _REQUIRED,
                    "values": {"type": "array", "items": _SCALAR, "minItems": 1}}, ["values"], oneOf=_FIELDS_ONE_OF),
              lambda s: f"{_field_list(s)} must be one of {', '.join(show(v) for v in s['values'])}"),
    CheckKind("range", compile_range,
              _obj({"field": _POINTER, "fields": _POINTERS, "min": _MAYBE_PARAM, "max": _MAYBE_PARAM,
                    "unit": {"enum": ["number", "percent"]}, "required": _REQUIRED}, [],
                   oneOf=_FIELDS_ONE_OF, anyOf=[{"required": ["min"]}, {"required": ["max"]}]),
              _describe_range),
    CheckKind("multiple_of", compile_multiple_of,
              _obj({"field": _POINTER, "fields": _POINTERS, "of": _MAYBE_PARAM, "required": _REQUIRED}, ["of"],
                   oneOf=_FIELDS_ONE_OF),
              lambda s: f"{_field_list(s)} must be a multiple of {_shown_bound(s, 'of')}"),
    CheckKind("ratio", compile_ratio,
              _obj({"numerator": _POINTER, "denominator": _PLAIN_POINTER, "required": _REQUIRED,
                    "in": {"type": "array", "items": _NUMBER, "minItems": 1}, "min": _MAYBE_PARAM,
                    "max": _MAYBE_PARAM}, ["numerator", "denominator"],
                   anyOf=[{"required": ["in"]}, {"required": ["min"]}, {"required": ["max"]}]),
              _describe_ratio),
    CheckKind("values", compile_values,
              _obj({"at": _POINTER, "expected": {"type": "object", "additionalProperties": _SCALAR, "minProperties": 1},
                    "closed": {"type": "boolean", "description": "keys other than the expected ones are breaches"},
                    "also_allowed": {"type": "array", "items": {"type": "string"},
                                     "description": "with closed: further keys allowed without a value to check"},
                    "at_most": {"type": "boolean", "description": "the expected values are ceilings"},
                    "per": _POINTERS, "required": _REQUIRED}, ["at", "expected"]),
              describe_values),
    CheckKind("keys", compile_keys,
              _obj({"at": _POINTER, "allowed": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                    "required_keys": {"type": "array", "items": {"type": "string"}}, "required": _REQUIRED},
                   ["at", "allowed"]),
              lambda s: f"`{name(s['at'])}` may only give {', '.join(s['allowed'])}" + (
                  f", and must give {', '.join(s['required_keys'])}" if s.get("required_keys") else "")),
    CheckKind("sequence", compile_sequence,
              _obj({"field": _POINTER, "fields": _POINTERS, "required": _REQUIRED,
                    "sequences": {"type": "array", "minItems": 1,
                                  "items": {"type": "array", "items": _SCALAR, "minItems": 1}}},
                   ["sequences"], oneOf=_FIELDS_ONE_OF),
              lambda s: f"{_field_list(s)} must be, in order, " + " or ".join(
                  "-".join(str(v) for v in option) for option in s["sequences"])),
    CheckKind("items", compile_items,
              _obj({"array": _POINTER, "where": _PROPERTIES, "require": _PROPERTIES,
                    "min_count": {"type": "integer", "minimum": 0}, "max_count": {"type": "integer", "minimum": 0}},
                   ["array"], anyOf=[{"required": ["min_count"]}, {"required": ["max_count"]},
                                     {"required": ["require"]}]),
              describe_items),
)}


# --- conditions (`when:` on a rule) -----------------------------------------------------------------

_SIMPLE_CONDITION = {
    "type": "object",
    "properties": {"field": _POINTER, "equals": _SCALAR, "differs": _SCALAR, "present": {"type": "boolean"},
                   "contains": _SCALAR, "at_least": _NUMBER, "at_most": _NUMBER},
    "required": ["field"], "additionalProperties": False,
    "oneOf": [{"required": [test]} for test in ("equals", "differs", "present", "contains", "at_least", "at_most")],
}
CONDITION_SCHEMA = {
    "oneOf": [
        _SIMPLE_CONDITION,
        {"type": "object", "additionalProperties": False, "required": ["any"],
         "properties": {"any": {"type": "array", "items": _SIMPLE_CONDITION, "minItems": 2,
                                "description": "true when one of these holds"}}},
    ],
}


def compile_condition(condition: dict) -> Callable[[Any], bool]:
    if "any" in condition:
        alternatives = [compile_condition(c) for c in condition["any"]]
        return lambda data: any(holds(data) for holds in alternatives)
    pointer = condition["field"]
    if "equals" in condition:
        expected = condition["equals"]
        return lambda data: same(pointers.get(data, pointer), expected)
    if "differs" in condition:  # true when the value is anything else, or missing
        other = condition["differs"]
        return lambda data: not same(pointers.get(data, pointer), other)
    if "contains" in condition:
        item = condition["contains"]
        return lambda data: any(same(v, item) for v in _as_list(pointers.get(data, pointer)))
    if "at_least" in condition or "at_most" in condition:
        low, high = bound(condition, "at_least"), bound(condition, "at_most")

        def within(data) -> bool:
            value = pointers.get(data, pointer)
            number = None if isinstance(value, str) else to_decimal(value)
            return number is not None and outside(number, low, high) is None
        return within
    wanted = condition["present"]
    return lambda data: (pointers.get(data, pointer) is not MISSING) == wanted


def describe_condition(condition: dict) -> str:
    if "any" in condition:
        return "(" + " or ".join(describe_condition(c) for c in condition["any"]) + ")"
    field = f"`{name(condition['field'])}`"
    if "equals" in condition:
        return f"{field} is {show(condition['equals'])}"
    if "differs" in condition:
        return f"{field} is not {show(condition['differs'])}"
    if "contains" in condition:
        return f"{field} includes {show(condition['contains'])}"
    if "at_least" in condition:
        return f"{field} is at least {show(to_decimal(condition['at_least']))}"
    if "at_most" in condition:
        return f"{field} is at most {show(to_decimal(condition['at_most']))}"
    return f"{field} is {'given' if condition['present'] else 'not given'}"


def _as_list(value) -> list:
    return value if isinstance(value, list) else []


def param_names(spec: Any) -> Iterator[str]:
    """Names of the parameters (`{param: NAME}`) a check mapping refers to."""
    if isinstance(spec, dict):
        if set(spec) == {"param"}:
            yield spec["param"]
        else:
            for value in spec.values():
                yield from param_names(value)
    elif isinstance(spec, list):
        for value in spec:
            yield from param_names(value)


def bind_params(spec: Any, params: dict[str, Decimal | str | int]) -> Any:
    if isinstance(spec, dict):
        if set(spec) == {"param"}:
            return params[spec["param"]]
        return {key: bind_params(value, params) for key, value in spec.items()}
    if isinstance(spec, list):
        return [bind_params(value, params) for value in spec]
    return spec
