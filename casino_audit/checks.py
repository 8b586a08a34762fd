"""The vocabulary of check kinds rulesets are written in.

One check kind = one small function plus the JSON Schema of its parameters. A kind's `compile` turns a
rule's validated `check:` mapping (parameters already bound) into a function from a document's data to
its violations, so pointers are parsed once per run, not once per document. The registry `CHECK_KINDS`
is the single list of kinds; nothing registers itself on import.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Iterable, Iterator

from casino_audit import pointers
from casino_audit.pointers import MISSING
from casino_audit.values import show, to_decimal

Violation = tuple[str, str]  # (JSON pointer, message)
CompiledCheck = Callable[[Any], Iterable[Violation]]

_POINTER = {"type": "string", "pattern": "^(/[^/]*)*$"}
_PLAIN_POINTER = {"type": "string", "pattern": r"^(/([^/*][^/]*|\*[^/]+)?)*$",
                  "description": "a JSON pointer without a `*` wildcard segment"}
_POINTERS = {"oneOf": [_POINTER, {"type": "array", "items": _POINTER, "minItems": 1}]}
_NUMBER = {"oneOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$"}]}
_SCALAR = {"type": ["string", "number", "boolean", "null"]}
_REQUIRED = {"type": "boolean", "description": "a missing value is a breach (default true)"}
_PROPERTIES = {"type": "object", "additionalProperties": _SCALAR, "minProperties": 1}


def _fields(spec) -> list[tuple[str, tuple[str, ...]]]:
    raw = spec.get("fields", spec.get("field"))
    raw = [raw] if isinstance(raw, str) else raw
    return [(pointer, pointers.split(pointer)) for pointer in raw]


def _values(data, compiled_fields) -> Iterator[tuple[str, Any]]:
    """Every (pointer, value) the fields reach; a missing container shared by several fields comes once."""
    reported_missing = set()
    for _, segments in compiled_fields:
        for pointer, value in pointers.resolve(data, segments):
            if value is MISSING:
                if pointer in reported_missing:
                    continue
                reported_missing.add(pointer)
            yield pointer, value


def _name(pointer: str) -> str:
    return pointer.lstrip("/") or "the document"


def _under(missing: str, compiled_fields) -> str:
    """The fields a missing pointer stands for: itself, or those of the fields that lie below it."""
    below = [f"`{p[len(missing) + 1:]}`" for p, _ in compiled_fields if p.startswith(missing + "/")]
    return ", ".join(below) if below else "it"


def _missing(pointer: str) -> Violation:
    return pointer, f"`{_name(pointer)}` is missing"


# --- present ----------------------------------------------------------------------------------------

def compile_present(spec) -> CompiledCheck:
    fields = _fields(spec)

    def check(data):
        for pointer, value in _values(data, fields):
            if value is MISSING:
                yield _missing(pointer)
            elif value is None or value == "" or value == [] or value == {} or (
                    isinstance(value, str) and not value.strip()):
                yield pointer, f"`{_name(pointer)}` is empty"
    return check


# --- equals -----------------------------------------------------------------------------------------

def compile_equals(spec) -> CompiledCheck:
    fields, expected, required = _fields(spec), spec["value"], spec.get("required", True)

    def check(data):
        for pointer, value in _values(data, fields):
            if value is MISSING:
                if required:
                    yield pointer, f"`{_name(pointer)}` is not declared ({_under(pointer, fields)} must be {show(expected)})"
            elif not _same(value, expected):
                yield pointer, f"`{_name(pointer)}` is {show(value)}, must be {show(expected)}"
    return check


def _same(value, expected) -> bool:
    """Equality as a filing means it: booleans are never numbers, numbers compare by value (0.50 == 0.5),
    and text compares as text ("2" is not 2)."""
    if isinstance(value, bool) or isinstance(expected, bool):
        return type(value) is type(expected) and value == expected
    if isinstance(value, (int, Decimal)):
        if isinstance(expected, str) and expected[:1] not in _NUMERIC_START:
            return False  # "blue" is never a number; skip parsing it
        wanted = to_decimal(expected)
        return wanted is not None and to_decimal(value) == wanted
    return value == expected


_NUMERIC_START = frozenset("+-.0123456789")


# --- one_of -----------------------------------------------------------------------------------------

def compile_one_of(spec) -> CompiledCheck:
    fields, allowed, required = _fields(spec), spec["values"], spec.get("required", True)
    listed = ", ".join(show(v) for v in allowed)

    def check(data):
        for pointer, value in _values(data, fields):
            if value is MISSING:
                if required:
                    yield pointer, f"`{_name(pointer)}` is missing (one of {listed})"
            elif not any(_same(value, option) for option in allowed):
                yield pointer, f"`{_name(pointer)}` is {show(value)}, must be one of {listed}"
    return check


def _numbers(data, fields, required: bool, unit: str = "number") -> Iterator[tuple[str, Decimal | None, str | None]]:
    """(pointer, number, None) for each value that states a number; (pointer, None, problem) otherwise."""
    for pointer, value in _values(data, fields):
        if value is MISSING:
            if required:
                yield pointer, None, _missing(pointer)[1]
            continue
        number = to_decimal(value, unit)
        if number is None:
            wanted = "a percentage written with a % sign" if unit == "percent" else "a number"
            yield pointer, None, f"`{_name(pointer)}` is {show(value)}, not {wanted}"
        else:
            yield pointer, number, None


# --- range ------------------------------------------------------------------------------------------

def compile_range(spec) -> CompiledCheck:
    fields, unit, required = _fields(spec), spec.get("unit", "number"), spec.get("required", True)
    low, high = _bound(spec, "min"), _bound(spec, "max")

    def check(data):
        for pointer, number, problem in _numbers(data, fields, required, unit):
            if problem:
                yield pointer, problem
            elif outside := _outside(number, low, high, unit):
                yield pointer, f"`{_name(pointer)}` is {show(number, unit)}, {outside}"
    return check


def _bound(spec, key) -> Decimal | None:
    return None if spec.get(key) is None else to_decimal(spec[key])


def _outside(number: Decimal, low: Decimal | None, high: Decimal | None, unit: str = "number") -> str | None:
    if low is not None and number < low:
        return f"below the minimum of {show(low, unit)}"
    if high is not None and number > high:
        return f"above the maximum of {show(high, unit)}"
    return None


# --- multiple_of ------------------------------------------------------------------------------------

def compile_multiple_of(spec) -> CompiledCheck:
    fields, required = _fields(spec), spec.get("required", True)
    step = to_decimal(spec["of"])

    def check(data):
        for pointer, number, problem in _numbers(data, fields, required):
            if problem:
                yield pointer, problem
            elif number % step != 0:
                yield pointer, f"`{_name(pointer)}` is {show(number)}, not a multiple of {show(step)}"
    return check


# --- ratio ------------------------------------------------------------------------------------------

def compile_ratio(spec) -> CompiledCheck:
    numerator, denominator = pointers.split(spec["numerator"]), spec["denominator"]
    allowed = [to_decimal(v) for v in spec.get("in", [])]
    low, high = _bound(spec, "min"), _bound(spec, "max")
    required = spec.get("required", True)

    def check(data):
        bottom = pointers.get(data, denominator)  # one divisor for every numerator the wildcard may reach
        for top_pointer, top in pointers.resolve(data, numerator):
            if top is MISSING or bottom is MISSING:
                if required:
                    yield _missing(top_pointer if top is MISSING else denominator)
                continue
            a, b = to_decimal(top), to_decimal(bottom)
            if a is None or b is None or b == 0:
                yield top_pointer, f"`{_name(top_pointer)}` / `{_name(spec['denominator'])}` is not a ratio of numbers"
                continue
            ratio = a / b
            text = f"`{_name(top_pointer)}` is {show(ratio.normalize())} times `{_name(spec['denominator'])}`"
            if allowed and ratio not in allowed:
                yield top_pointer, f"{text}, must be one of {', '.join(show(v) for v in allowed)} times"
            elif outside := _outside(ratio, low, high):
                yield top_pointer, f"{text}, {outside}"
    return check


# --- items ------------------------------------------------------------------------------------------

def compile_items(spec) -> CompiledCheck:
    array_pointer = spec["array"]
    segments = pointers.split(array_pointer)
    where = spec.get("where", {})
    require = spec.get("require", {})
    low, high = spec.get("min_count"), spec.get("max_count")
    described = _describe_where(where)

    def check(data):
        array = pointers.get(data, array_pointer) if segments else data
        if array is MISSING or not isinstance(array, list):
            array = []
        matched = [(position, item) for position, item in enumerate(array)
                   if isinstance(item, dict) and all(_same(item.get(k, MISSING), v) for k, v in where.items())]
        count = len(matched)
        if low is not None and count < low:
            yield array_pointer, (f"`{_name(array_pointer)}` has {count} item(s){described}, "
                                  f"at least {low} required")
        if high is not None and count > high:
            yield array_pointer, (f"`{_name(array_pointer)}` has {count} item(s){described}, "
                                  f"at most {high} allowed")
        for position, item in matched:
            for key, expected in require.items():
                value = item.get(key, MISSING)
                pointer = pointers.child(pointers.child(array_pointer, position), key)
                if value is MISSING:
                    yield pointer, f"`{_name(pointer)}` is not declared (must be {show(expected)})"
                elif not _same(value, expected):
                    yield pointer, f"`{_name(pointer)}` is {show(value)}, must be {show(expected)}"
    return check


def _describe_where(where: dict) -> str:
    if not where:
        return ""
    return " with " + ", ".join(f"{k} = {show(v)}" for k, v in where.items())


# --- values (a schedule: payouts, maxima) --------------------------------------------------------------

def compile_values(spec) -> CompiledCheck:
    at, expected = spec["at"], spec["expected"]
    closed, required = spec.get("closed", False), spec.get("required", True)
    ceiling = spec.get("at_most", False)  # "até N vezes": N is a ceiling, not the value
    per = spec.get("per")
    divisors = [per] if isinstance(per, str) else list(per or [])
    permitted = set(expected) | set(spec.get("also_allowed", ()))
    allowed = ", ".join([*expected, *spec.get("also_allowed", ())])

    def inspect(data, schedule):
        unusable: set[str] = set()
        for key, wanted in expected.items():
            pointer = pointers.child(at, key)
            if key not in schedule:
                yield pointer, f"`{_name(pointer)}` is not declared (must be {_times(wanted, divisors, ceiling)})"
                continue
            value = schedule[key]
            if not divisors:
                if ceiling:
                    number = to_decimal(value)
                    if number is None or number > to_decimal(wanted):
                        yield pointer, f"`{_name(pointer)}` is {show(value)}, must be at most {show(wanted)}"
                elif not _same(value, wanted):
                    yield pointer, f"`{_name(pointer)}` is {show(value)}, must be {show(wanted)}"
                continue
            divisor_pointer, divisor = _divisor(data, divisors, key)
            number = to_decimal(value)
            if divisor is None:
                if divisor_pointer not in unusable:  # say it once, not once per entry it divides
                    unusable.add(divisor_pointer)
                    yield divisor_pointer, (f"`{_name(divisor_pointer)}` is missing or not a number, so "
                                            f"`{_name(at)}` cannot be checked")
            elif number is None:
                yield pointer, f"`{_name(pointer)}` is {show(value)}, not a number"
            else:
                ratio, limit = number / divisor, to_decimal(wanted)
                if ratio > limit if ceiling else ratio != limit:
                    yield pointer, (f"`{_name(pointer)}` is {show(number)} ({show(ratio.normalize())} times "
                                    f"`{_name(divisor_pointer)}`), must be {_times(wanted, [divisor_pointer], ceiling)}")
        if closed:
            yield from _unlisted(at, schedule, permitted, allowed)
    return _on_schedule(at, required, f"must give {', '.join(expected)}", inspect)


def _on_schedule(at: str, required: bool, wanted: str, inspect) -> CompiledCheck:
    """Run `inspect(data, mapping)` on the mapping at `at`; a missing one is a breach when required."""
    def check(data):
        schedule = pointers.get(data, at)
        if isinstance(schedule, dict):
            yield from inspect(data, schedule)
        elif required:
            yield at, f"`{_name(at)}` is not declared ({wanted})"
    return check


def _unlisted(at: str, schedule: dict, permitted, allowed: str) -> Iterator[Violation]:
    """Entries of a closed schedule that the law does not list."""
    for key in schedule:
        if key not in permitted:
            pointer = pointers.child(at, key)
            yield pointer, f"`{_name(pointer)}` is not one the law allows (only {allowed})"


def _divisor(data, divisors: list[str], key: str) -> tuple[str, Decimal | None]:
    """The first divisor that applies: a mapping gives the entry of the same key, a number itself."""
    for pointer in divisors:
        value = pointers.get(data, pointer)
        if isinstance(value, dict):
            if key in value:
                number = to_decimal(value[key])
                return pointers.child(pointer, key), (number if number else None)
            continue
        if value is not MISSING:
            number = to_decimal(value)
            return pointer, (number if number else None)
    return divisors[-1], None


def _times(wanted, divisors: list[str], ceiling: bool = False) -> str:
    bound = "at most " if ceiling else ""
    if divisors:
        return f"{bound}{show(to_decimal(wanted))} times `{_name(divisors[0])}`"
    return f"{bound}{show(wanted)}"


# --- keys (which entries a schedule may and must have, where the law gives no values) --------------------

def compile_keys(spec) -> CompiledCheck:
    at, allowed, needed = spec["at"], spec["allowed"], spec.get("required_keys", [])
    required = spec.get("required", True)

    def inspect(data, schedule):
        for key in needed:
            if key not in schedule:
                yield pointers.child(at, key), f"`{_name(pointers.child(at, key))}` is not declared"
        yield from _unlisted(at, schedule, set(allowed), ", ".join(allowed))
    return _on_schedule(at, required, f"allowed: {', '.join(allowed)}", inspect)


# --- sequence (an exact order: a wheel's pockets) -------------------------------------------------------

def compile_sequence(spec) -> CompiledCheck:
    fields, required = _fields(spec), spec.get("required", True)
    options = [list(option) for option in spec["sequences"]]

    def check(data):
        for pointer, value in _values(data, fields):
            if value is MISSING:
                if required:
                    yield _missing(pointer)
                continue
            if not isinstance(value, list):
                yield pointer, f"`{_name(pointer)}` is {show(value)}, not a list"
                continue
            if any(_same_list(value, option) for option in options):
                continue
            closest = max(options, key=lambda option: _common_prefix(value, option))
            at = _common_prefix(value, closest)
            if at < min(len(value), len(closest)):
                yield (pointers.child(pointer, at), f"`{_name(pointer)}` differs from the law at position {at + 1}: "
                       f"{show(value[at])} where the law has {show(closest[at])}")
            else:
                yield pointer, f"`{_name(pointer)}` has {len(value)} entries, the law {len(closest)}"
    return check


def _same_list(value: list, option: list) -> bool:
    return len(value) == len(option) and all(_same(a, b) for a, b in zip(value, option))


def _common_prefix(value: list, option: list) -> int:
    count = 0
    for a, b in zip(value, option):
        if not _same(a, b):
            break
        count += 1
    return count


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
    return ", ".join(f"`{_name(f)}`" for f in ([fields] if isinstance(fields, str) else fields))


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
    what = f"`{_name(spec['numerator'])}` divided by `{_name(spec['denominator'])}` must be"
    if spec.get("in"):
        return f"{what} one of {', '.join(show(to_decimal(v)) for v in spec['in'])}"
    bits = [f"at least {_shown_bound(spec, 'min')}"] if spec.get("min") is not None else []
    bits += [f"at most {_shown_bound(spec, 'max')}"] if spec.get("max") is not None else []
    return f"{what} {' and '.join(bits)}"


def _describe_items(spec) -> str:
    text = f"items of `{_name(spec['array'])}`{_describe_where(spec.get('where', {}))}"
    bits = []
    if spec.get("min_count") is not None:
        bits.append(f"at least {spec['min_count']} such items")
    if spec.get("max_count") is not None:
        bits.append(f"at most {spec['max_count']} such items")
    if spec.get("require"):
        bits.append("each with " + ", ".join(f"{k} = {show(v)}" for k, v in spec["require"].items()))
    return f"{text}: {'; '.join(bits)}"


def _describe_values(spec) -> str:
    divisor = spec.get("per")
    divisor = divisor[0] if isinstance(divisor, list) else divisor
    per = f" times `{_name(divisor)}`" if divisor else ""
    bound = "at most " if spec.get("at_most") else ""
    listed = ", ".join(f"{key} {bound}{show(to_decimal(value) if per else value)}{per}"
                       for key, value in spec["expected"].items())
    closed = "; no other entry is allowed" if spec.get("closed") else ""
    return f"`{_name(spec['at'])}` must give {listed}{closed}"


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
              _describe_values),
    CheckKind("keys", compile_keys,
              _obj({"at": _POINTER, "allowed": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                    "required_keys": {"type": "array", "items": {"type": "string"}}, "required": _REQUIRED},
                   ["at", "allowed"]),
              lambda s: f"`{_name(s['at'])}` may only give {', '.join(s['allowed'])}" + (
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
              _describe_items),
)}


# --- conditions (`when:` on a rule) -----------------------------------------------------------------

CONDITION_SCHEMA = {
    "type": "object",
    "properties": {"field": _POINTER, "equals": _SCALAR, "differs": _SCALAR, "present": {"type": "boolean"},
                   "contains": _SCALAR, "at_least": _NUMBER, "at_most": _NUMBER},
    "required": ["field"], "additionalProperties": False,
    "oneOf": [{"required": [test]} for test in ("equals", "differs", "present", "contains", "at_least", "at_most")],
}


def compile_condition(condition: dict) -> Callable[[Any], bool]:
    pointer = condition["field"]
    if "equals" in condition:
        expected = condition["equals"]
        return lambda data: _same(pointers.get(data, pointer), expected)
    if "differs" in condition:  # true when the value is anything else, or missing
        other = condition["differs"]
        return lambda data: not _same(pointers.get(data, pointer), other)
    if "contains" in condition:
        item = condition["contains"]
        return lambda data: any(_same(v, item) for v in _as_list(pointers.get(data, pointer)))
    if "at_least" in condition or "at_most" in condition:
        low, high = _bound(condition, "at_least"), _bound(condition, "at_most")

        def within(data) -> bool:
            value = pointers.get(data, pointer)
            number = None if isinstance(value, str) else to_decimal(value)
            return number is not None and _outside(number, low, high) is None
        return within
    wanted = condition["present"]
    return lambda data: (pointers.get(data, pointer) is not MISSING) == wanted


def describe_condition(condition: dict) -> str:
    name = f"`{_name(condition['field'])}`"
    if "equals" in condition:
        return f"{name} is {show(condition['equals'])}"
    if "differs" in condition:
        return f"{name} is not {show(condition['differs'])}"
    if "contains" in condition:
        return f"{name} includes {show(condition['contains'])}"
    if "at_least" in condition:
        return f"{name} is at least {show(to_decimal(condition['at_least']))}"
    if "at_most" in condition:
        return f"{name} is at most {show(to_decimal(condition['at_most']))}"
    return f"{name} is {'given' if condition['present'] else 'not given'}"


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
