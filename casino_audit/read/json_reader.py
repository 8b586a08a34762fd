"""JSON to plain data and positions in one pass of a small tokenizer, with no YAML reader involved (the C decoder's
fast path, which falls back here: casino_audit/read/json_fast.py).

Positions, duplicate keys and lone surrogates come from the JSON text itself: a DEL, a C1 control character
or a `\\ud800` escape, all valid JSON, cannot switch any of them off. Numbers are exact (int or Decimal).
"""

from __future__ import annotations

import re
from json.decoder import scanstring

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Location, Related, Severity
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
        # The loop runs once per token of every filing the fast path sends back: its state is kept in locals.
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
                if token == "," and state == _COMMA_OR_CLOSE:
                    state = _KEY if top.closing == "}" else _VALUE
                elif token == ":" and state == _COLON:
                    state = _VALUE
                elif token in "]}":  # a closing bracket ends the container: it becomes the value of its parent
                    top = self._close(top, stack, token, start, state)
                    state = _COMMA_OR_CLOSE if top is not None else _END
                else:
                    raise self._unexpected(start, state, top)
                continue
            if state == _KEY or state == _KEY_OR_CLOSE:
                if kind != "string":
                    raise self._unexpected(start, state, top)
                nodes += 1  # keys count, as in YAML
                key = self._string(token, start)
                line, column = lines.at(start)
                if key in top.spots.at:
                    self.findings.append(self._duplicate(key, top.spots.at[key], start))
                top.key, top.key_position = key, line << 32 | column
                state = _COLON
                continue
            if state != _VALUE and state != _VALUE_OR_CLOSE:
                raise self._unexpected(start, state, top)
            nodes += 1
            if nodes > self.max_nodes:
                raise self._too_many(start)
            line, column = lines.at(start)
            position = line << 32 | column
            if kind == "punctuation":  # an opening bracket
                top = self._open(token == "{", position, stack, start)
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
        self._nothing_after(offset)
        self.nodes = nodes
        return self.root

    root: tuple | None = None

    def _open(self, mapping: bool, position: int, stack: list[_Frame], offset: int) -> _Frame:
        """The container an opening bracket starts, on top of the stack."""
        if len(stack) >= self.max_depth:
            raise JsonProblem(F.LOAD_UNSUPPORTED, f"the document nests deeper than {self.max_depth} levels", offset)
        frame = _Frame({} if mapping else [], Spots(mapping), "}" if mapping else "]", position,
                       _KEY_OR_CLOSE if mapping else _VALUE_OR_CLOSE)
        stack.append(frame)
        return frame

    def _close(self, top: _Frame | None, stack: list[_Frame], token: str, offset: int, state: int) -> _Frame | None:
        """The container `top` ends, placed as its parent's value: the parent (None at the top)."""
        if top is None or token != top.closing or state not in (_COMMA_OR_CLOSE, _VALUE_OR_CLOSE, _KEY_OR_CLOSE):
            raise self._unexpected(offset, state, top)
        stack.pop()
        parent = stack[-1] if stack else None
        self._place(parent, top.data, top.spots, top.position)
        return parent

    def _too_many(self, offset: int) -> JsonProblem:
        return JsonProblem(F.LOAD_TOO_LARGE, f"the file holds more than {self.max_nodes:,} keys and values", offset)

    def _nothing_after(self, offset: int) -> None:
        """Only whitespace may follow the document's value."""
        end = _SPACE.match(self.text, offset).end()
        if end != len(self.text):
            raise self._unexpected(end, _END, None)

    def _duplicate(self, key: str, first: int, offset: int) -> Finding:
        duplicate = self._finding(
            F.LOAD_DUPLICATE_KEY, f"duplicate key {show(key)} (first given at line {first >> 32}, column "
            f"{first & 0xFFFFFFFF}); a reader keeps only one of the two values, so the filing is ambiguous", offset)
        duplicate.related = (Related("the key given first", Location(
            self.path, first >> 32, first & 0xFFFFFFFF, document=0)),)
        return duplicate

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
