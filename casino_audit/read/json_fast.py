"""The fast path of reading JSON: a filing read by the C decoder, its positions found only if a finding asks for
one (LazyPositions). Anything the decoder would read differently from the tokenizer (casino_audit/read/json_reader.py:
a key twice, a lone surrogate escape, a number too long, NaN, nesting or size past the limits, broken JSON) sends
the text to the tokenizer, which says what and where."""

from __future__ import annotations

import json
import re
from json.decoder import scanstring
from typing import Any

from casino_audit.core.pointers import list_index, split
from casino_audit.core.values import MAX_DIGITS, bounded_decimal
from casino_audit.read.json_reader import JsonReader, line_column
from casino_audit.read.positions import Positions


class _Fallback(Exception):
    pass


def _pairs(pairs: list) -> dict:
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        raise _Fallback
    return mapping


def _fraction(token: str):
    number = bounded_decimal(token)
    if number is None:
        raise _Fallback
    return number


def _constant(name: str):
    raise _Fallback


_FAST = None
# A digit read as "0", an opening bracket as "(", a colon or comma as ",", anything else as " ": one translation
# tells the longest run of digits, the brackets to measure, and a bound on the keys and values written.
_MARKING = bytes(48 if byte in b"0123456789" else 40 if byte in b"{[" else 44 if byte in b":," else 32
                     for byte in range(256))
_TOO_MANY_DIGITS = b"0" * (MAX_DIGITS + 1)
_BOUND_BY_LENGTH = 5_000
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class LazyPositions(Positions):
    """Positions in a text the C decoder read: a finding's pointer is found by walking the text along it (a key
    written once searched for, else each value passed over by the C scanner), with the data the decoder read
    saying where the path stops; the whole table (the tokenizer's) only if someone lists it."""

    def __init__(self, text: str, path: str, max_nodes: int, max_depth: int, data: Any):
        self._source = (text, path, max_nodes, max_depth)
        self._data = data
        self._found = None

    def _positions(self) -> Positions:
        if self._found is None:
            text, path, max_nodes, max_depth = self._source
            self._found = JsonReader(text, path, max_nodes, max_depth).read()[1]
        return self._found

    def nearest(self, pointer):
        if pointer is None:
            return None
        text = self._source[0]
        try:
            offset = _walk(text, split(pointer) if pointer else (), self._data)
        except (ValueError, IndexError):  # pragma: no cover - the text was read whole by the decoder
            return self._positions().nearest(pointer)
        return line_column(text, offset)

    def __getitem__(self, pointer):
        return self._positions()[pointer]

    def __iter__(self):
        return iter(self._positions())

    def __len__(self):
        return len(self._positions())


def read_fast(text: str, path: str, max_nodes: int, max_depth: int):
    """(data, lazy positions, at least as many as its keys and values) when the C decoder reads the text exactly
    as the tokenizer would; else None. Each key is followed by a colon and each value but the first of a list or
    the document's by a colon or a comma: past its length's bound, every colon, comma and opening bracket is
    counted twice."""
    global _FAST
    if len(text) > max_nodes:
        return None  # past the limit on nodes, or near it: the tokenizer counts
    if "\\" in text and "\\u" in text and _SURROGATE_ESCAPE.search(text):  # one character is found faster
        return None
    raw = text.encode("utf-8", "surrogatepass")
    marked = raw.translate(_MARKING)
    if marked.find(_TOO_MANY_DIGITS) >= 0:
        return None  # a number too long (or digits in a text as long): the tokenizer says which
    if _FAST is None:
        _FAST = json.JSONDecoder(object_pairs_hook=_pairs, parse_float=_fraction, parse_constant=_constant)
    try:
        data = _FAST.decode(text)
    except (_Fallback, ValueError, RecursionError):
        return None
    # Fewer brackets than the limit cannot nest past it; otherwise the text's brackets, else the data, are measured.
    openings = marked.count(b"(")
    if openings > max_depth:
        within = _brackets_nest_within(raw, max_depth)
        if not (within if within is not None else _nests_within(data, max_depth)):
            return None
    # Each key and value takes two characters or more, with its separator (a scalar one, a key `"":`, a
    # container two, and a comma each but the first): (length + 1) / 2 bounds them. A text long enough for that
    # to reach the number whose shape errors jsonschema-rs lists (5,000) is bounded by its marks as well.
    bound = (len(text) + 1) // 2
    if bound > _BOUND_BY_LENGTH:
        bound = min(bound, 1 + 2 * (openings + marked.count(b",")))
    return data, LazyPositions(text, path, max_nodes, max_depth, data), bound


_MARKS = b'[]{}"\\'
_NOT_MARKS = bytes(byte for byte in range(256) if byte not in _MARKS)
_PARENTHESES = bytes.maketrans(b"[{]}", b"(())")


def _brackets_nest_within(raw: bytes, limit: int) -> bool | None:
    """Whether the brackets of a JSON text (one the decoder read) nest no deeper than `limit`, from the text
    alone; None when a backslash or a bracket inside a string makes the text unfit for this reading.
    Kept are brackets and quotes: with no backslash, each string is then `""` unless it holds a bracket, and
    removing the `""` pairs leaves a quote exactly when some string does (the first such string's opening
    quote ends a run of an odd number of quotes). Each pass then removes the innermost pairs: one level."""
    marks = raw.translate(None, _NOT_MARKS)
    if b"\\" in marks:
        return None
    brackets = marks.replace(b'""', b"")
    if b'"' in brackets:
        return None
    brackets = brackets.translate(_PARENTHESES)
    for _ in range(limit):
        if not brackets:
            return True
        brackets = brackets.replace(b"()", b"")
    return not brackets


def _nests_within(value, limit: int) -> bool:
    """Whether no chain of containers in `value` is longer than `limit`, as the tokenizer counts them."""
    level = [value] if type(value) is dict or type(value) is list else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return False
        deeper = []
        for container in level:
            deeper.extend(item for item in (container.values() if type(container) is dict else container)
                          if type(item) is dict or type(item) is list)
        level = deeper
    return True


_WS = re.compile(r"[ \t\n\r]*")
_SKIP = None


def _skipping():
    """A decoder with no hooks, to pass over values (no Decimal or duplicate test for what is skipped)."""
    global _SKIP
    if _SKIP is None:
        _SKIP = json.JSONDecoder()
    return _SKIP


def _walk(text: str, segments, data: Any) -> int:
    """The offset where the value at `segments` is written (a mapping member: where its key is), or that of its
    nearest ancestor written in the text. The text has been read by the decoder: it is JSON, with no key twice.
    `data`, what the decoder read from it, tells where a path stops without passing over the rest of its
    container, and lets a key be found by searching the text: with no backslash in it, a key is written
    exactly as it reads, so a key written once from where its mapping starts is the one sought."""
    scan = _skipping().scan_once  # (value, end) of the value at an offset, without raw_decode's wrapper
    plain = "\\" not in text
    at = _past_space(text, 0)
    found = at
    node = data
    for segment in segments:
        opening = text[at]
        if opening == "{":
            if plain:
                if segment not in node:
                    return found
                node = node[segment]
                key_at, colon = _only_key(text, '"' + segment + '"', at)
                if key_at >= 0:
                    found, at = key_at, _past_space(text, colon + 1)
                    continue
            at = _past_space(text, at + 1)
            while text[at] == '"':
                key_at = at
                key, at = scanstring(text, at + 1)
                at = _past_space(text, _past_space(text, at) + 1)  # past the colon
                if key == segment:
                    break
                at = _past_space(text, scan(text, at)[1])
                if text[at] == ",":
                    at = _past_space(text, at + 1)
            else:
                return found
            found = key_at
        elif opening == "[":
            wanted, index = list_index(segment), 0  # as Spots.member reads an index
            if wanted is None:
                return found
            if plain:
                if wanted >= len(node):
                    return found
                node = node[wanted]
            at = _past_space(text, at + 1)
            while text[at] != "]" and index < wanted:
                at = _past_space(text, scan(text, at)[1])
                if text[at] == ",":
                    at = _past_space(text, at + 1)
                index += 1
            if text[at] == "]":
                return found
            found = at
        else:
            return found
    return found


def _only_key(text: str, quoted: str, start: int) -> tuple[int, int]:
    """(where, colon) of the one key written `quoted` from `start` on, in a text with no backslash: a quoted
    text followed by a colon is a key (a string value is followed by a comma or a bracket); (-1, -1) when
    there are none or several."""
    only = colon = -1
    at = text.find(quoted, start)
    while at >= 0:
        after = _past_space(text, at + len(quoted))
        if after < len(text) and text[after] == ":":
            if only >= 0:
                return -1, -1
            only, colon = at, after
        at = text.find(quoted, at + 1)
    return only, colon


def _past_space(text: str, at: int) -> int:
    """The offset past any whitespace at `at`: none or one space (as json.dumps writes) without the regex."""
    if at < len(text) and text[at] in " \t\n\r":
        at += 1
        if at < len(text) and text[at] in " \t\n\r":
            at = _WS.match(text, at).end()
    return at
