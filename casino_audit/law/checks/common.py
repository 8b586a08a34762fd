"""What every check kind and condition shares: reaching the places a rule names, equality as a filing means
it, numbers, what a missing value means, and the JSON Schema pieces of the vocabulary."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import starmap
from typing import Any, Callable, Iterable, Iterator

from casino_audit.core import pointers
from casino_audit.core.pointers import MISSING
from casino_audit.core.values import show, to_decimal

Violation = tuple[str, str]  # (JSON pointer, message)


class NotChecked(tuple):
    """A violation that is no breach: the rule had nothing to check (optional data the filing leaves out, such as
    PAR data). The engine reports it as an info finding, so that the rule says it did not apply, never in silence."""

    def __new__(cls, pointer: str, message: str):
        return super().__new__(cls, (pointer, message))

CompiledCheck = Callable[[Any], Iterable[Violation]]
Target = tuple[tuple[str, ...], type | None]  # (pointer segments, the container expected there or None)

# --- JSON Schema pieces -------------------------------------------------------------------------------

POINTER = {"type": "string", "pattern": "^(/[^/]*)*$", "description": "a JSON pointer; `*` matches every item"}
PLAIN_POINTER = {"type": "string", "pattern": r"^(/([^/*][^/]*|\*[^/]+)?)*$",
                 "description": "a JSON pointer without a `*` wildcard segment"}
POINTERS = {"oneOf": [POINTER, {"type": "array", "items": POINTER, "minItems": 1}]}
# At most 30 digits on each side of the point: what values.to_decimal reads (a longer bound would read as none).
NUMBER = {"oneOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?[0-9]{1,30}(\.[0-9]{1,30})?$"}]}
PARAM = {"type": "object", "properties": {"param": {"type": "string"}}, "required": ["param"],
         "additionalProperties": False, "description": "a value the law leaves to a later decision"}
NUMBER_OR_PARAM = {"oneOf": [NUMBER, PARAM]}
SCALAR = {"type": ["string", "number", "boolean", "null"]}
RULE_ID = {"type": "string", "pattern": "^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$"}
MISSING_SCHEMA = {
    "description": "what a missing value means; by default it is a breach",
    "oneOf": [{"const": "allowed", "description": "the law does not require the value: its absence passes"},
              {"type": "object", "additionalProperties": False, "required": ["reported_by"],
               "properties": {"reported_by": {**RULE_ID, "description": "the rule that reports the omission, "
                                                                        "so that it is reported once"}}}]}


def check_schema(kind: str, properties: dict, required: Iterable[str] = (), **extra) -> dict:
    """The parameter schema of a check kind: `kind`, `target` and its own parameters, nothing else."""
    return {"type": "object", "additionalProperties": False, "required": ["kind", "target", *required],
            "properties": {"kind": {"const": kind}, "target": POINTERS, **properties}, **extra}


# --- targets --------------------------------------------------------------------------------------------

def pointer_list(raw) -> list[str]:
    return [raw] if isinstance(raw, str) else list(raw or ())


class Targets(list):
    """A check's targets as (pointer, segments); `plain` when none has a wildcard (each reaches one value)."""

    def __init__(self, pairs):
        super().__init__(pairs)
        self.plain = all(pointers.WILDCARD not in segments for _, segments in self)


def compiled_targets(spec) -> Targets:
    return Targets((pointer, pointers.split(pointer)) for pointer in pointer_list(spec["target"]))


def target_list(*groups: tuple[Any, type | None]) -> tuple[Target, ...]:
    """(segments, container) for each pointer of each (pointers, container) group; the document itself (``)
    is never blocked."""
    return tuple((pointers.split(p), container) for raw, container in groups for p in pointer_list(raw)
                 if isinstance(p, str) and p.startswith("/"))


def reached(data, compiled: Targets) -> Iterable[tuple[str, Any]]:
    """Every (pointer, value) the targets reach; a missing container shared by several targets comes once.
    Plain targets are followed at once (a list: the common case, a few lookups); a wildcard's values come one
    at a time, however many items it meets."""
    if not compiled.plain:
        return _reached(data, compiled)
    found, missing = [], None
    for pointer, segments in compiled:
        missing_at, node = pointers.locate(data, segments)
        if missing_at is None:
            found.append((pointer, node))
        elif missing is None or missing_at not in missing:
            missing = missing or set()
            missing.add(missing_at)
            found.append((missing_at, MISSING))
    return found


def judging(compiled: Targets, judge: Callable[[str, Any], tuple[str, str] | None]) -> CompiledCheck:
    """A check that judges each (pointer, value) the targets reach, `judge` giving a violation or None: at once,
    as a list, where each target reaches one value; one at a time where a wildcard may reach many."""
    if compiled.plain:
        def check(data):
            return [found for found in starmap(judge, reached(data, compiled)) if found is not None]
        return check

    def check_each(data):
        for pointer, value in reached(data, compiled):
            found = judge(pointer, value)
            if found is not None:
                yield found
    return check_each


def _reached(data, compiled) -> Iterator[tuple[str, Any]]:
    reported_missing = set()
    for _, segments in compiled:
        for pointer, value in pointers.resolve(data, segments):
            if value is MISSING:
                if pointer in reported_missing:
                    continue
                reported_missing.add(pointer)
            yield pointer, value


def given(data, compiled, breach: bool, missing_message: Callable[[str], str]) -> Iterator[tuple[str, Any, Any]]:
    """(pointer, value, None) for each value the targets reach, and (pointer, MISSING, violation) for each missing
    one where a missing value is a breach (`missing:` says otherwise); the caller reports the violation."""
    for pointer, value in reached(data, compiled):
        if value is not MISSING:
            yield pointer, value, None
        elif breach:
            yield pointer, value, (pointer, missing_message(pointer))


def name(pointer: str) -> str:
    return pointer.lstrip("/") or "the document"


def names(raw) -> str:
    return ", ".join(f"`{name(p)}`" for p in pointer_list(raw))


def under(missing: str, compiled) -> str:
    """The targets a missing pointer stands for: itself, or those of the targets that lie below it."""
    below = [f"`{p[len(missing) + 1:]}`" for p, _ in compiled if p.startswith(missing + "/")]
    return ", ".join(below) if below else "it"


# --- a missing value --------------------------------------------------------------------------------------

def missing_is_breach(spec) -> bool:
    """Only `missing: allowed` or `missing: {reported_by: RULE}` let a missing value pass this rule."""
    return "missing" not in spec


def describe_missing(spec) -> str:
    wanted = spec.get("missing")
    if wanted is None:
        return ""
    if wanted == "allowed":
        return " (where given)"
    return f" (where given; {wanted['reported_by']} reports it missing)"


# --- equality and numbers -----------------------------------------------------------------------------------

NUMERIC_START = frozenset("+-.0123456789")


def same(value, expected) -> bool:
    """Equality as a filing means it: booleans are never numbers, numbers compare by value (0.50 == 0.5),
    and text compares as text ("2" is not 2)."""
    if type(value) is str:  # the common case: text is equal only to the same text
        return value == expected
    if isinstance(value, bool) or isinstance(expected, bool):
        return type(value) is type(expected) and value == expected
    if isinstance(value, (int, Decimal)):
        if isinstance(expected, str) and expected[:1] not in NUMERIC_START:
            return False  # "blue" is never a number; skip parsing it
        wanted = to_decimal(expected)
        return wanted is not None and to_decimal(value) == wanted
    return value == expected


def outside(number: Decimal | Fraction, low: Decimal | None, high: Decimal | None,
            unit: str = "number") -> str | None:
    """Why a number is out of bounds, compared exactly (Decimals compare exactly; a Fraction is compared as
    one), or None."""
    exact = number.__class__ is Fraction
    if low is not None and (number < Fraction(low) if exact else number < low):
        return _beyond("below the minimum", low, unit)
    if high is not None and (number > Fraction(high) if exact else number > high):
        return _beyond("above the maximum", high, unit)
    return None


@lru_cache(maxsize=1024)  # 900,000 values below one minimum say it 900,000 times
def _beyond(where: str, limit: Decimal, unit: str) -> str:
    return f"{where} of {show(limit, unit)}"


def shown_number(value, unit: str = "number") -> str:
    """A bound as `rules explain` says it: a number, or the parameter that will give it."""
    if isinstance(value, dict):
        return f"the parameter `{value['param']}`"
    return show(to_decimal(value), unit)


# --- what the engine asks before it believes a pass ------------------------------------------------------------

def type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, Decimal)):
        return "a number"
    return {str: "text", dict: "a mapping", list: "a list"}.get(type(value), type(value).__name__)


def kind_of(value: Any) -> type:
    if isinstance(value, bool):
        return bool
    if isinstance(value, (int, Decimal)):
        return Decimal
    return type(value)


def blocked(data: Any, segments: tuple[str, ...], expected: type | None = None) -> tuple[str, str] | None:
    """(pointer, why) where a path cannot be followed because a value there is of the wrong type: a scalar where
    the path goes on, or not the container a check expects at its end. Missing and null values block nothing
    (rules say what a missing value means)."""
    found = _blocked(data, segments, expected)
    if found is None:
        return None
    keys, why = found
    return pointers.join(tuple(reversed(keys))), why


def _blocked(node: Any, segments: tuple[str, ...], expected: type | None) -> tuple[list, str] | None:
    """As `blocked`, with the path as keys in reverse (built only for the one path that is blocked)."""
    for depth, segment in enumerate(segments):
        if node is None or node is MISSING:
            return None
        if segment == pointers.WILDCARD:
            rest = segments[depth + 1:]
            if isinstance(node, dict):
                children = node.items()
            elif isinstance(node, list):
                children = enumerate(node)
            else:
                return _at(segments[:depth], f"is {type_name(node)}, not a list or mapping")
            if not rest and expected is None:
                return None  # every item is read as it is: none of them blocks the path
            for key, child in children:
                found = _blocked(child, rest, expected)
                if found is not None:
                    found[0].append(str(key))
                    found[0].extend(reversed(segments[:depth]))
                    return found
            return None
        if isinstance(node, dict):
            node = node.get(segment, MISSING)
        elif isinstance(node, list):
            node = pointers.step(node, segment)
        else:
            return _at(segments[:depth], f"is {type_name(node)}, not a mapping")
    if expected is not None and node is not None and node is not MISSING and not isinstance(node, expected):
        return _at(segments, f"is {type_name(node)}, not {type_name(expected())}")
    return None


def _at(segments: tuple[str, ...], why: str) -> tuple[list, str]:
    return list(reversed(segments)), why


# --- parameters: `{param: NAME}` ---------------------------------------------------------------------------------

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


# --- what several rules derive from one document ------------------------------------------------------------

_DOCUMENT_MEMO: list = [None]


def document_memo() -> dict:
    """A memo for what several rules derive from the same values of one document (PAR data read and computed
    once for three rules): the engine opens one per document it checks; a check run by itself gets a fresh one
    each time. Entries keep the object they are about, so an identity is never taken for another's."""
    memo = _DOCUMENT_MEMO[0]
    return memo if memo is not None else {}


def open_document_memo(file: Any = None) -> None:
    """`file`: the file the document is read from; the memo of what its documents share (file_memo) is kept
    until a document of another file comes."""
    _DOCUMENT_MEMO[0] = {}
    if file is None or _FILE_MEMO[0] != file:
        _FILE_MEMO[:] = [file, {}]


_FILE_MEMO: list = [None, {}]


def file_memo() -> dict:
    """What every document of one file shares (the work budget of its PAR data's returns): a check run by itself,
    outside a file, gets a fresh one each time."""
    return _FILE_MEMO[1] if _FILE_MEMO[0] is not None and _DOCUMENT_MEMO[0] is not None else {}


def close_document_memo() -> None:
    _DOCUMENT_MEMO[0] = None
