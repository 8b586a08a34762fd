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
        return (F.SHAPE_INVALID, pointer, f"{where} is {show(error.instance)}{_nearest_option(error.instance, options)}"
                                          f"; expected one of {', '.join(show(o) for o in options)}")
    if error.validator == "pattern" and isinstance(error.instance, str):
        pattern = error.validator_value
        near = _nearest_match(error.instance, pattern)
        return (F.SHAPE_INVALID, pointer, f"{where} is {show(error.instance)}, not {_pattern_words(pattern)}"
                                          + (f": did you mean {show(near)}?" if near is not None else ""))
    message = error.message
    if len(message) > _MESSAGE_CHARACTERS:
        message = f"{message[:_MESSAGE_CHARACTERS]}... ({len(message) - _MESSAGE_CHARACTERS:,} more characters)"
    return F.SHAPE_INVALID, pointer, f"{where}: {message}"


# The patterns of the shipped schemas in words, with an example (a raw regular expression says nothing to a filer).
PATTERN_WORDS = {
    "^[A-Z]{2}$": "two capital letters (LU, PT, MC)",
    "^[a-z]{2}$": "two small letters (fr, pt)",
    "\\S": "text that is not blank",
    "^\\d{4}-\\d{2}-\\d{2}$": "a date written year-month-day (2026-11-02)",
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}$": "a date written year-month-day (2026-11-02)",
    "^[a-z][a-z0-9_]*$": "a name of small letters, digits and underscores, starting with a letter (punto_banco)",
    "^[a-z][a-z0-9_.]*$": "a name of small letters, digits, underscores and points, starting with a letter",
    "^[a-z0-9][a-z0-9_.-]*$": "a name of small letters, digits, underscores, points and hyphens",
    "^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$": "a rule id: capital letters and digits in parts joined by hyphens (LU-SLOT-RTP-MIN)",
    "^[0-9]+(\\.[0-9]+)?$": "a number written in digits, maybe with a point and decimals (12.5)",
    "^-?[0-9]{1,30}(\\.[0-9]{1,30})?$": "a number written in digits, maybe signed, with a point and decimals (-12.5)",
    "^[0-9]{1,15}(\\.[0-9]{1,12})?$": "an amount in digits, maybe with a point and decimals (0.50; no thousands "
                                      "separator, no currency sign)",
    "^\\s*[0-9]+(\\.[0-9]+)?\\s*%\\s*$": "a percentage (92.5 %)",
    "^[A2-9TJQK][cdhs]$": "a card: its rank (A, 2 to 9, T, J, Q, K) then its suit in small letters (c, d, h, s), as Td or 4c",
    "^(/[^/]*)*$": "a JSON pointer (/stakes/minimum_eur)",
    "^(/([^/*][^/]*|\\*[^/]+)?)*$": "a JSON pointer, `*` for every member (/payouts/*)",
    "^[0-9]$": "one digit",
    "^[0-9]{1,2}$": "one or two digits",
    "^[A-Z]{3}$": "three capital letters, an ISO 4217 currency code (EUR)",
    "^\\s*[0-9]+(\\.[0-9]+)?\\s*$": "a number in digits, maybe with a point and decimals (92.5)",
    "^[0-9]{1,9}(\\.[0-9]{1,6})?$": "a number in digits, maybe with a point and decimals (12.5)",
    "^([0-9]*[1-9][0-9]*(\\.[0-9]+)?|[0-9]+\\.[0-9]*[1-9][0-9]*)$": "a number above zero in digits, maybe with a "
                                                                    "point and decimals (24, 0.5)",
    "^-?[0-9]{1,18}(\\.[0-9]{1,30})?$": "an amount in digits, maybe signed, with a point and decimals (-12.50; no "
                                        "thousands separator, no currency sign)",
    "^(?=[0-9.]*[1-9])[0-9]{1,18}(\\.[0-9]{1,30})?$": "an amount above zero in digits, maybe with a point and "
                                                       "decimals (12.50; no thousands separator, no currency sign)",
}


def _pattern_words(pattern: str) -> str:
    return PATTERN_WORDS.get(pattern, "written as this field takes it (`casino-audit schema` shows its form)")


def _nearest_match(value: str, pattern: str) -> str | None:
    """The value as it was likely meant, where an obvious change makes it match: its case (`lu`, `4C`: rank and
    suit each in its own case), its spaces, a comma for the decimal point."""
    candidates = [value.strip(), value.upper(), value.lower(), value.strip().replace(",", "."),
                  value.strip().replace(" ", "_").lower(), value[:1].upper() + value[1:].lower()]
    for candidate in candidates:
        if candidate != value and candidate:
            try:
                if re.search(pattern, candidate):
                    return candidate
            except re.error:
                return None
    return None


def _nearest_option(value: Any, options: list) -> str:
    """` (did you mean X?)` for the option a value names in another case or spacing (`Punto Banco`), or is the
    closest spelling of (`baccarat`), else nothing."""
    if not isinstance(value, str) or not value.strip():
        return ""
    names = [option for option in options if isinstance(option, str)]
    folded = {re.sub(r"[\s\-]+", "_", name.strip().casefold()): name for name in names}
    key = re.sub(r"[\s\-]+", "_", value.strip().casefold())
    if key in folded and folded[key] != value:
        return f" (did you mean {show(folded[key])}?)"
    close = difflib.get_close_matches(key, list(folded), n=3, cutoff=0.6)
    if not close:
        return ""
    return f" (did you mean {' or '.join(show(folded[name]) for name in close)}?)"


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
