"""A JSON Schema error explained in plain words: the alternative of a choice that came closest, each unknown field
with the known one it is likely a typo of, a value's type and the bound it misses (for documents/shape.py)."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Any

from casino_audit.core import findings as F
from casino_audit.core.pointers import child, join
from casino_audit.core.values import OutOfRange, show

ShapeError = tuple[str, str, str]  # (rule id, JSON pointer, message)
_MESSAGE_CHARACTERS = 300  # jsonschema's own messages quote the whole value


def weight(error) -> int:
    """How many findings an error explains to: one per unknown field, else one."""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        return max(1, len(_unknown_fields(error)))
    return 1


def _unknown_fields(error) -> list[str]:
    schema = error.schema if isinstance(error.schema, dict) else {}
    known = schema.get("properties", {})
    return [name for name in error.instance if name not in known and not _matches_pattern_properties(schema, name)]


def explain(error, room: int) -> tuple[list[ShapeError], int]:
    """At most `room` explained errors, and how many more this error stands for."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        from jsonschema.exceptions import best_match, relevance  # jsonschema loads only for a choice to explain

        # Explain the alternative that came closest, with everything wrong in it, not every alternative: the one
        # the value's type fits, if one alone does (0 against "a number above 0, or such text" fails the number's
        # bound, not the text's type).
        branches = _branches(error)
        fitting = [errors for errors in branches.values() if not _type_refused(errors)]
        if not fitting and _typed_alternatives(error) and len(branches) == len(error.validator_value):
            pointer = join(tuple(error.absolute_path))
            wanted = " or ".join(_article(alternative["type"]) for alternative in error.validator_value)
            return [(F.SHAPE_INVALID, pointer, f"{_where(pointer)} is {show(error.instance)} "
                                               f"({_type_name(error.instance)}); expected {wanted}")], 0
        closest = best_match(fitting[0]) if len(fitting) == 1 else best_match(error.context)
        branch = closest.relative_schema_path[0] if closest.relative_schema_path else None
        same_branch = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == branch]
        results, more = [], 0
        for alternative in sorted(same_branch or [closest], key=relevance):
            explained, left = explain(alternative, room - len(results))
            results.extend(explained)
            more += left
        return results, more
    if room <= 0:
        return [], weight(error)
    pointer = join(tuple(error.absolute_path))
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        unknown = _unknown_fields(error)
        known = list(schema.get("properties", {}))
        results = []
        for name in unknown[:room]:
            hint = _closest(name, tuple(known)) if len(name) < 200 else []
            suggestion = f"; did you mean `{hint[0]}`?" if hint else (
                f"; known fields: {', '.join(known)}" if known else "")
            results.append((F.SHAPE_UNKNOWN_FIELD, child(pointer, name), f"unknown field {_field(name)}{suggestion}"))
        if results:
            return results, len(unknown) - len(results)
    return [_explain_one(error, pointer, schema)], 0


def _branches(error) -> dict:
    """A choice's errors by the alternative they come from."""
    branches: dict = {}
    for one in error.context:
        branches.setdefault(one.relative_schema_path[0] if one.relative_schema_path else None, []).append(one)
    return branches


def _type_refused(errors) -> bool:
    """Whether an alternative refused the value's type itself (not a value inside it)."""
    return any(e.validator == "type" and not e.relative_path for e in errors)


def _typed_alternatives(error) -> bool:
    """Every alternative of the choice names one type (an amount: a number or text)."""
    alternatives = error.validator_value if isinstance(error.validator_value, list) else []
    return bool(alternatives) and all(isinstance(a, dict) and isinstance(a.get("type"), str) for a in alternatives)


@lru_cache(maxsize=1024)  # the same misspelt field in a batch of filings is looked up once
def _closest(name: str, known: tuple[str, ...]) -> list[str]:
    return difflib.get_close_matches(name, known, n=1)


def _field(name: str) -> str:
    return f"`{name}`" if len(name) <= 80 else show(name)


def _where(pointer: str) -> str:
    """Where a value is, as a message names it."""
    if not pointer:
        return "the document"
    return f"`{pointer.lstrip('/')}`" if len(pointer) <= 200 else show(pointer)


def _explain_one(error, pointer: str, schema: dict) -> ShapeError:
    where = _where(pointer)
    # a schema's own words for a value that fails it: kept in `$comment`, which every validator accepts (ajv's
    # strict mode refuses a keyword it does not know, as `x-message` was)
    custom = schema.get("$comment")
    if custom:
        return F.SHAPE_INVALID, pointer, f"{where} is {show(error.instance)}: {custom}"
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return F.SHAPE_INVALID, child(pointer, missing), f"`{child(pointer, missing).lstrip('/')}` is required"
    if error.validator == "type":
        wanted = error.validator_value
        wanted = " or ".join(wanted) if isinstance(wanted, list) else wanted
        return (F.SHAPE_INVALID, pointer, f"{where} is {show(error.instance)} ({_type_name(error.instance)}); "
                                          f"expected {_article(wanted)}")
    if error.validator in ("enum", "const"):
        options = error.validator_value if error.validator == "enum" else [error.validator_value]
        return (F.SHAPE_INVALID, pointer, f"{where} is {show(error.instance)}; expected one of "
                                          f"{', '.join(show(o) for o in options)}")
    message = error.message
    if len(message) > _MESSAGE_CHARACTERS:
        message = f"{message[:_MESSAGE_CHARACTERS]}... ({len(message) - _MESSAGE_CHARACTERS:,} more characters)"
    return F.SHAPE_INVALID, pointer, f"{where}: {message}"


def _matches_pattern_properties(schema: dict, name: str) -> bool:
    return any(re.search(pattern, name) for pattern in schema.get("patternProperties", {}))


def _type_name(value: Any) -> str:
    if isinstance(value, OutOfRange):
        return "a number too large or too small to be an amount"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)) or type(value).__name__ == "Decimal":
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "null" if value is None else type(value).__name__


def _article(type_name: str) -> str:
    words = {"string": "text", "object": "a mapping", "array": "a list", "number": "a number",
             "integer": "a whole number", "boolean": "true or false", "null": "null"}
    return " or ".join(words.get(part.strip(), part) for part in type_name.split(" or "))
