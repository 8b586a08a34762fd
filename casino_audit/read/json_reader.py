"""JSON to plain data and positions in one pass of a small tokenizer, with no YAML reader involved.

Positions, duplicate keys and lone surrogates come from the JSON text itself: a DEL, a C1 control character
or a `\\ud800` escape, all valid JSON, cannot switch any of them off. Numbers are exact (int or Decimal).
"""

from __future__ import annotations

import re
from json.decoder import scanstring
from typing import Any

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Location, Related, Severity
from casino_audit.core.pointers import list_index, split
from casino_audit.read.positions import Positions, Spots
from casino_audit.core.values import MAX_DIGITS, bounded_decimal, show

# One token after optional whitespace: a string, a number, a literal, or punctuation.
_TOKEN = re.compile(r"""[ \t\n\r]*(?:
    (?P<string>"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*")
  | (?P<number>-?(?:0|[1-9][0-9]*)(?P<fraction>(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?))
  | (?P<punctuation>[{}\[\],:])
  | (?P<literal>true|false|null)
)""", re.X)
_SPACE = re.compile(r"[ \t\n\r]*")
_SURROGATE = re.compile("[\ud800-\udfff]")
_LITERALS = {"true": True, "false": False, "null": None}
_CLOSE = {"{": "}", "[": "]"}


class JsonProblem(Exception):
    def __init__(self, rule_id: str, message: str, offset: int):
        super().__init__(message)
        self.rule_id, self.message, self.offset = rule_id, message, offset


class _Lines:
    """Offset -> (line, column), moving forward only: each newline is counted once."""

    def __init__(self, text: str):
        self.text, self.offset, self.line, self.line_start = text, 0, 1, 0

    def at(self, offset: int) -> tuple[int, int]:
        text = self.text
        if offset < self.offset:  # a step back (an error message): count from the start
            self.offset, self.line, self.line_start = 0, 1, 0
        newlines = text.count("\n", self.offset, offset)
        if newlines:
            self.line += newlines
            self.line_start = text.rfind("\n", self.offset, offset) + 1
        self.offset = offset
        return self.line, offset - self.line_start + 1


def line_column(text: str, offset: int) -> tuple[int, int]:
    return _Lines(text).at(offset)


# What may come next in a container (or at the top, for the document itself).
_VALUE, _VALUE_OR_CLOSE, _KEY, _KEY_OR_CLOSE, _COLON, _COMMA_OR_CLOSE, _END = range(7)
_EXPECTED = {_VALUE: "a value", _VALUE_OR_CLOSE: "a value or `]`", _KEY: "a key (text in double quotes)",
             _KEY_OR_CLOSE: "a key (text in double quotes) or `}`", _COLON: "`:` after the key",
             _END: "nothing more (the document has ended)"}


class _Frame:
    __slots__ = ("data", "spots", "closing", "position", "key", "key_position", "state")

    def __init__(self, data, spots, closing, position, state):
        self.data, self.spots, self.closing, self.position, self.state = data, spots, closing, position, state
        self.key, self.key_position = None, 0


class JsonReader:
    def __init__(self, text: str, path: str, max_nodes: int, max_depth: int):
        self.text, self.path, self.max_nodes, self.max_depth = text, path, max_nodes, max_depth
        self.findings: list[Finding] = []  # load-time findings that do not stop checking
        self.lines = _Lines(text)

    def _finding(self, rule_id: str, message: str, offset: int) -> Finding:
        line, column = self.lines.at(offset)
        return Finding(rule_id, Severity.ERROR, message, self.path, line, column, document=0)

    def read(self):
        """(data, positions) of the one JSON value the text holds; JsonProblem if it is not JSON we accept."""
        text, match_token, lines = self.text, _TOKEN.match, self.lines
        nodes, offset, state = 0, 0, _VALUE
        stack: list[_Frame] = []
        top: _Frame | None = None
        while state != _END:
            match = match_token(text, offset)
            if match is None:
                raise self._unexpected(_SPACE.match(text, offset).end(), state, top)
            kind = match.lastgroup
            start = match.start(kind)
            token = match.group(kind)
            offset = match.end()
            if kind == "punctuation" and token in ",:]}":
                if token == ",":
                    if state != _COMMA_OR_CLOSE:
                        raise self._unexpected(start, state, top)
                    state = _KEY if top.closing == "}" else _VALUE
                elif token == ":":
                    if state != _COLON:
                        raise self._unexpected(start, state, top)
                    state = _VALUE
                else:  # a closing bracket ends the container: it becomes the value of its parent
                    if top is None or token != top.closing or state not in (_COMMA_OR_CLOSE, _VALUE_OR_CLOSE,
                                                                             _KEY_OR_CLOSE):
                        raise self._unexpected(start, state, top)
                    frame = stack.pop()
                    top = stack[-1] if stack else None
                    self._place(top, frame.data, frame.spots, frame.position)
                    state = _COMMA_OR_CLOSE if top is not None else _END
                continue
            if state == _KEY or state == _KEY_OR_CLOSE:
                if kind != "string":
                    raise self._unexpected(start, state, top)
                nodes += 1  # keys count, as in YAML
                key = self._string(token, start)
                line, column = lines.at(start)
                at = top.spots.at
                if key in at:
                    first = at[key]
                    duplicate = self._finding(
                        F.LOAD_DUPLICATE_KEY, f"duplicate key {show(key)} (first given at line {first >> 32}, "
                        f"column {first & 0xFFFFFFFF}); a reader keeps only one of the two values, so the filing "
                        "is ambiguous", start)
                    duplicate.related = (Related("the key given first", Location(
                        self.path, first >> 32, first & 0xFFFFFFFF, document=0)),)
                    self.findings.append(duplicate)
                top.key, top.key_position = key, line << 32 | column
                state = _COLON
                continue
            if state != _VALUE and state != _VALUE_OR_CLOSE:
                raise self._unexpected(start, state, top)
            nodes += 1
            if nodes > self.max_nodes:
                raise JsonProblem(F.LOAD_TOO_LARGE, f"the file holds more than {self.max_nodes:,} keys and values",
                                  start)
            line, column = lines.at(start)
            position = line << 32 | column
            if kind == "punctuation":  # an opening bracket
                if len(stack) >= self.max_depth:
                    raise JsonProblem(F.LOAD_UNSUPPORTED, f"the document nests deeper than {self.max_depth} levels",
                                      start)
                mapping = token == "{"
                top = _Frame({} if mapping else [], Spots(mapping), "}" if mapping else "]", position,
                             _KEY_OR_CLOSE if mapping else _VALUE_OR_CLOSE)
                stack.append(top)
                state = top.state
                continue
            if kind == "string":
                value = self._string(token, start)
            elif kind == "number":
                value = self._number(token, match.group("fraction"), start)
            else:
                value = _LITERALS[token]
            self._place(top, value, None, position)
            state = _COMMA_OR_CLOSE if top is not None else _END
        end = _SPACE.match(text, offset).end()
        if end != len(text):
            raise self._unexpected(end, _END, None)
        self.nodes = nodes
        return self.root

    root: tuple | None = None

    def _place(self, top: _Frame | None, value, spots: Spots | None, position: int) -> None:
        if top is None:
            self.root = (value, Positions(position, spots))
            return
        if top.closing == "}":
            key = top.key
            top.data[key] = value  # a duplicate key: the last value, as every JSON reader keeps it
            top.spots.at[key] = top.key_position
            if spots is not None:
                top.spots.set_inner(key, spots)
            elif top.spots.inner and key in top.spots.inner:
                del top.spots.inner[key]
        else:
            if spots is not None:
                top.spots.set_inner(len(top.data), spots)
            top.data.append(value)
            top.spots.at.append(position)

    def _string(self, token: str, offset: int) -> str:
        if "\\" not in token:
            return token[1:-1]
        value = scanstring(token, 1)[0]
        if _SURROGATE.search(value):  # `\ud800` without its pair: not a character, and every output would break
            self.findings.append(self._finding(
                F.LOAD_ENCODING, "a \\u escape names half of a surrogate pair without the other half, which is "
                "not a character; the text is kept with the escape as written", offset))
            value = _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", value)
        return value

    def _number(self, token: str, fraction: str, offset: int):
        if not fraction:
            if len(token.lstrip("-")) <= MAX_DIGITS:
                return int(token)
        else:
            number = bounded_decimal(token)
            if number is not None:
                return number
        shown = token[:40] + ("..." if len(token) > 40 else "")
        raise JsonProblem(F.LOAD_SYNTAX, f"broken JSON: the number {shown} is too long or too large for an amount",
                          offset)

    def _unexpected(self, offset: int, state: int, top: _Frame | None) -> JsonProblem:
        text = self.text
        if state == _COMMA_OR_CLOSE:
            expected = f"`,` or `{top.closing}`"
        else:
            expected = _EXPECTED[state]
        if offset >= len(text):
            return JsonProblem(F.LOAD_SYNTAX, f"broken JSON: the text ends where {expected} was expected", offset)
        found = text[offset]
        for word in ("NaN", "Infinity", "-Infinity"):
            if text.startswith(word, offset):
                return JsonProblem(F.LOAD_SYNTAX, f"broken JSON: {word} is not a number a filing may use", offset)
        if found == '"':
            return JsonProblem(F.LOAD_SYNTAX, "broken JSON: text in quotes that does not end, or holds a control "
                                              "character (write it as \\n, \\t...) or a bad \\ escape", offset)
        if found == "'":
            return JsonProblem(F.LOAD_SYNTAX, "broken JSON: text takes double quotes, not single", offset)
        shown = show(re.match(r'[^\s,:\[\]{}"]{1,20}|.', text[offset:offset + 20], re.S).group())
        return JsonProblem(F.LOAD_SYNTAX, f"broken JSON: expected {expected}, found {shown}", offset)


# --- the fast path --------------------------------------------------------------------------------------------
# A filing read by the C decoder, its positions found only if a finding asks for one. Anything the decoder
# would read differently from the tokenizer above (a key twice, a lone surrogate escape, a number too long, NaN,
# nesting or size past the limits, broken JSON) sends the text to the tokenizer, which says what and where.


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
        import json

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
        import json

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
