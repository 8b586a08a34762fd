"""What a YAML scalar means: YAML 1.1's reading (PyYAML's), refused where it differs from what a person reads.

YAML 1.1 reads `0310` as the octal number 200, `5:10` as 310 (base 60), `1__0` as 10, and keeps `1e5` as text
while YAML 1.2 and a person read 100000. Each such scalar is kept as the text written, with a message saying
why (the loader makes it a LOAD-AMBIGUOUS finding at the scalar): a filing must not pass, or fail, on a
reading its author did not see. Numbers are exact (int or Decimal), never float.
"""

from __future__ import annotations

import re
from decimal import Decimal

import yaml

from casino_audit.core.values import MAX_DIGITS, bounded_decimal, show

TAG = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = TAG + "str", TAG + "int", TAG + "float", TAG + "bool", TAG + "null"
TIMESTAMP, MAP, SEQ, MERGE, VALUE = TAG + "timestamp", TAG + "map", TAG + "seq", TAG + "merge", TAG + "value"
SCALAR_TAGS = frozenset((STR, INT, FLOAT, BOOL, NULL, TIMESTAMP))

_BOOLS = {word: True for word in ("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")}
_BOOLS.update({word: False for word in ("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")})
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_WORDS = {**_BOOLS, **{word: None for word in _NULLS}}
_NUMERIC_FIRST = frozenset("-+.0123456789")

# PyYAML's own implicit resolvers, by first character: the reading YAML 1.1 gives a plain scalar.
_RESOLVERS = {first: tuple(pairs) for first, pairs in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}

_SIMPLE_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+")  # YAML 1.1 and a person read it alike
_CLEAN_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*(?:_[0-9]+)*)")
_CLEAN_FLOAT = re.compile(r"[-+]?(?:[0-9]+(?:_[0-9]+)*\.(?:[0-9]+(?:_[0-9]+)*)?|\.[0-9]+(?:_[0-9]+)*)"
                          r"(?:[eE][-+][0-9]+)?")
_RADIX = re.compile(r"([-+]?)0([xb])([0-9a-fA-F_]*)")
_LEADING_ZERO = re.compile(r"[-+]?0[0-9_]+")
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
_SPECIAL_FLOAT = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
# YAML 1.2 core schema numbers: what a YAML 1.2 reader (and a person) takes for a number.
_YAML12_NUMBER = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)"
                            r"(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_RADIX_DIGITS = {"x": 25, "b": 100}  # at most ~30 decimal digits, like every other number
# Numbers no filing needs (and whose printing could explode): kept as text, which fails its schema.
_TOO_LARGE = (f"{{}} is a number too large, too small or too long (over {MAX_DIGITS} digits) for an amount, a rate or a "
              "count")


def yaml11_tag(text: str) -> str:
    """The tag YAML 1.1 (PyYAML) resolves a plain scalar to."""
    for tag, pattern in _RESOLVERS.get(text[:1], ()):
        if pattern.match(text):
            return tag
    return STR


def read_plain(text: str):
    """(value, problem): the value of an untagged plain scalar, and why it is kept as text if it is."""
    if text in _WORDS:
        return _WORDS[text], None
    if text[:1] not in _NUMERIC_FIRST:
        return text, None
    if text.isdigit() and text.isascii() and (text[0] != "0" or len(text) == 1):  # the common cases
        return (int(text), None) if len(text) <= MAX_DIGITS else (text, _TOO_LARGE.format(show(text)))
    if len(text) <= MAX_DIGITS and _SIMPLE_DECIMAL.fullmatch(text):
        return Decimal(text), None
    return _read_number(text)


def _read_number(text: str):
    tag = yaml11_tag(text)
    if tag == INT:
        if _CLEAN_INT.fullmatch(text):
            digits = text.replace("_", "")
            if len(digits.lstrip("+-")) > MAX_DIGITS:
                return text, _TOO_LARGE.format(show(text))
            return int(digits), None
        radix = _RADIX.fullmatch(text)
        if radix:
            sign, base, digits = radix.group(1), radix.group(2), radix.group(3).replace("_", "")
            if not digits:
                return text, f"{show(text)} reads as a {'hexadecimal' if base == 'x' else 'binary'} number without digits"
            if len(digits) > _RADIX_DIGITS[base]:
                return text, _TOO_LARGE.format(show(text))
            number = int(digits, 16 if base == "x" else 2)
            return (-number if sign == "-" else number), None
        if _LEADING_ZERO.fullmatch(text):
            octal = int(text.replace("_", ""), 8)
            return text, (f"{show(text)} has a leading zero: YAML 1.1 reads it as the octal number {octal}; write "
                          f"the number without the zero, or quote it if it is a code")
        return text, _sexagesimal_or_underscores(text)
    if tag == FLOAT:
        if _CLEAN_FLOAT.fullmatch(text):
            number = bounded_decimal(text.replace("_", ""))
            return (text, _TOO_LARGE.format(show(text))) if number is None else (number, None)
        if _SPECIAL_FLOAT.fullmatch(text):
            return text, f"{show(text)} is infinity or not-a-number, which no amount is"
        return text, _sexagesimal_or_underscores(text)
    if tag == STR and _LEADING_ZERO.fullmatch(text):
        return text, (f"{show(text)} has a leading zero: YAML 1.1 reads it as text, YAML 1.2 as a number; write the "
                      "number without the zero, or quote it if it is a code")
    if tag == STR and _YAML12_NUMBER.fullmatch(text):
        return text, (f"{show(text)} reads as a number in YAML 1.2 but as text in YAML 1.1, which casino-audit "
                      "reads; write the number as a plain decimal (like 100000 or 0.5), or quote it if it is text")
    return text, None  # a date, or text that merely starts like a number


def _sexagesimal_or_underscores(text: str) -> str:
    try:  # YAML 1.1's own reading, to show it
        reading = yaml.load(text, Loader=yaml.SafeLoader) if len(text) < 100 else None
    except (yaml.YAMLError, ValueError):
        reading = None
    shown = f" ({reading})" if isinstance(reading, (int, float)) and not isinstance(reading, bool) else ""
    if _SEXAGESIMAL.fullmatch(text):
        return (f"{show(text)} is a base-60 number in YAML 1.1{shown}; quote it if it is a time or a ratio, or "
                "write the number")
    return f"{show(text)} has underscores YAML 1.1 drops{shown}; write the number without them"


def read_tagged(tag: str, text: str):
    """(value, problem) for a scalar with an explicit standard tag (`!!int 5`); the text as written and the
    reason when it does not fit the tag. Other tags are the caller's to refuse."""
    if tag == STR:
        return text, None
    if tag == BOOL:
        if text in _BOOLS:
            return _BOOLS[text], None
        return text, f"{show(text)} is tagged !!bool but is not true or false (YAML 1.1 would read it as false)"
    if tag == NULL:
        if text in _NULLS:
            return None, None
        return text, f"{show(text)} is tagged !!null but is not null"
    if tag == TIMESTAMP:
        if yaml11_tag(text) == TIMESTAMP:
            return text, None  # dates stay as written; schemas check their format
        return text, f"{show(text)} is tagged !!timestamp but is not a date"
    value, problem = _read_number(text) if text[:1] in _NUMERIC_FIRST else (text, None)
    if problem:
        return text, problem
    if tag == INT and type(value) is int:
        return value, None
    if tag == FLOAT and type(value) in (int, Decimal):
        return Decimal(value), None
    what = "a whole number" if tag == INT else "a number"
    return text, f"{show(text)} is tagged !!{tag[len(TAG):]} but is not {what} casino-audit can read"
