"""Record streams read one record at a time, in flat memory: the file opened and cut into lines (plain or
gzip-compressed), and JSON Lines read from them (CSV logs: csv_reader.py, on the same lines).

A JSON line is parsed by the json module (amounts with a point are read as Decimal, exactly as written); its
positions are found only if a finding is about it, by reading that line again with the position-aware loader (once
per line, however many findings it has).
A line that is not a record (broken JSON, not UTF-8, a key given twice, over the size of one record) is a
finding at its line, and the stream goes on: nothing is dropped in silence.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import stat
import zlib
from contextlib import ExitStack
from typing import Any, Callable, Iterator

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.values import log_number
from casino_audit.read.json_fast import LazyPositions
from casino_audit.read.json_reader import JsonProblem, JsonReader
from casino_audit.read import loader  # loader.load_text looked up when called: the tests count its calls
from casino_audit.read.loader import MAX_DEPTH, MAX_NODES, OPEN_FLAGS
from casino_audit.read.positions import Positions

MAX_RECORD_BYTES = 1024 * 1024  # one log line; a longer one is a finding, the stream goes on


class LogRecord:
    """One record of a stream: its data, the line it starts on, and how to find a JSON pointer's position."""

    __slots__ = ("file", "index", "data", "line", "findings", "_text", "_where", "_positions", "_asked")

    def __init__(self, file: str, index: int, data: Any, line: int, text: str | None = None,
                 where: Callable[[str], tuple[int, int] | None] | None = None):
        self.file, self.index, self.data, self.line = file, index, data, line
        self.findings: list[Finding] = []
        self._text, self._where = text, where
        self._positions = None  # the line's positions, read once a finding asks
        self._asked = 0

    def position(self, pointer: str | None) -> tuple[int, int] | None:
        if self._where is not None:
            return self._where(pointer or "")
        if self._text is None and self._positions is None:
            return (self.line, 1)
        pointer = pointer or ""
        found = self._positions_for().nearest(pointer)
        return (self.line + found[0] - 1, found[1]) if found else (self.line, 1)

    def _positions_for(self):
        """The line's positions, read once however many findings ask (a 1 MB line with a hundred findings was read
        a hundred times, and each finding walked the line from its start). The first finding walks the line to its
        value (what the loader's lazy positions do: one finding on a line, the usual case, costs one walk); a second
        has the whole table built, once, and every later one looks its pointer up in it, whatever the line's size."""
        self._asked += 1
        if self._positions is None or (self._asked == 2 and self._text is not None):
            text = self._text
            if self._positions is not None:  # the second finding: the table, once
                self._text = None  # the text is no longer needed: only the table
                try:
                    self._positions = JsonReader(text, self.file, MAX_NODES, MAX_DEPTH).read()[1]
                except JsonProblem:  # pragma: no cover - the line was read by the decoder
                    pass
            else:
                loaded = loader.load_text(text, self.file, json_syntax=True, max_bytes=MAX_RECORD_BYTES)
                self._positions = loaded.documents[0].positions if loaded.documents else Positions()
                if not isinstance(self._positions, LazyPositions):
                    self._text = None  # a table already: nothing more to build
        return self._positions


class Stream:
    """The records of one file, read as they are iterated; `findings` gathers the lines that are not records;
    `read` counts the records read, `unreadable` the lines that are not records."""

    def __init__(self, path: str, records: Callable[["Stream"], Iterator[LogRecord]]):
        self.path = path
        self.findings: list[Finding] = []
        self.read = 0
        self.unreadable = 0
        self.raw = None  # the file on disk once opened (gzip's compressed one): how far a progress display is
        self._records = records

    def __iter__(self) -> Iterator[LogRecord]:
        for record in self._records(self):
            self.read += 1
            yield record
        # A truncated export must not pass as a clean log: only an error says why no record was read (the warning
        # that the last line has no newline does not).
        if not self.read and not any(finding.severity is Severity.ERROR for finding in self.findings):
            self.findings.append(Finding(F.LOAD_EMPTY, Severity.ERROR, "the file holds no record", self.path, 1, 1))

    def problem(self, rule_id: str, message: str, line: int | None = None, column: int | None = None) -> None:
        self.unreadable += line is not None
        self.findings.append(Finding(rule_id, Severity.ERROR, message, self.path, line,
                                     column or (1 if line else None)))


class NotRegular(Exception):
    """A path that is no regular file (a FIFO, a device, a socket, a directory): never opened."""


def _open(path: str, stack: ExitStack):
    """The file, opened only if it is a regular one: opening a FIFO named *.jsonl waits for a writer (the run hangs),
    opening a device can act on it. Stat, then open without waiting, then fstat what was opened (a file replaced
    between the two is refused too), as the loader does for its files."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise NotRegular(path)
    handle = os.open(path, OPEN_FLAGS)
    raw = stack.enter_context(os.fdopen(handle, "rb"))
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        raise NotRegular(path)
    return stack.enter_context(gzip.open(raw, "rb")) if path.lower().endswith(".gz") else raw


def _raw_lines(handle) -> Iterator[bytes | int]:
    """The file's lines as bytes, a CR alone ending one as LF and CRLF do (old Mac line ends: a log written so was
    one line, its records unread). A line longer than one record is given as its length in bytes, read through and
    never held whole: a few kilobytes of gzip can expand to gigabytes on one line."""
    limit = MAX_RECORD_BYTES + 1
    carry = b""  # the start of a line whose end is not read yet
    skipped = 0  # the bytes read so far of a line over the limit, not kept
    readline = handle.readline
    while True:
        raw = readline(limit)
        if not carry and not skipped and raw.endswith(b"\n") and raw.find(b"\r") in (-1, len(raw) - 2):
            yield raw  # the usual line: read whole, no CR alone in it
            continue
        if not raw:  # the end of the file
            if carry.endswith(b"\r"):  # a CR last in the file ends its line
                carry = carry[:-1] + b"\n"
            if skipped or carry:
                yield skipped + len(carry) if skipped else carry
            return
        text, carry, start = carry + raw, b"", 0
        cut = not raw.endswith(b"\n") and len(raw) == limit  # the line goes on past what was read
        for end in _LINE_END.finditer(text):
            if cut and end.end() == len(text) and end.group() == b"\r":
                break  # a CR last in what was read may be a CRLF's: taken with what follows
            line = text[start:end.start()] + b"\n"
            yield skipped + len(line) if skipped or len(line) > limit else line
            skipped, start = 0, end.end()
        rest = text[start:]
        if skipped or len(rest) >= limit:  # counted, not kept; a CR last is kept, for it may end the line
            carry = b"\r" if rest.endswith(b"\r") else b""
            skipped += len(rest) - len(carry)
        else:
            carry = rest


_LINE_END = re.compile(rb"\r\n|\r|\n")


def _lines(stream: Stream) -> Iterator[tuple[int, str]]:
    """(line number, text) of each non-blank line, as UTF-8; what cannot be read is a finding at its line."""
    number = 0
    try:
        with ExitStack() as stack:
            handle = _open(stream.path, stack)
            stream.raw = getattr(handle, "fileobj", handle)
            for number, raw in enumerate(_raw_lines(handle), start=1):
                if type(raw) is int or len(raw) > MAX_RECORD_BYTES:
                    size = raw if type(raw) is int else len(raw)
                    stream.problem(F.LOAD_TOO_LARGE, f"a record of {size:,} bytes, over the "
                                                     f"{MAX_RECORD_BYTES:,}-byte limit of one record", number)
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    stream.problem(F.LOAD_ENCODING, f"the line is not UTF-8 text (byte 0x{raw[error.start]:02x})",
                                   number)
                    continue
                if number == 1:
                    text = text.lstrip("\ufeff")
                if text.strip(" \t\r\n"):  # blank to JSON and CSV alike: U+00A0 or a form feed is not
                    if not text.endswith("\n"):
                        _last_line(stream, number, text)
                    yield number, text
    except NotRegular:
        stream.problem(F.LOAD_UNREADABLE, "not a regular file (a FIFO, a device or a socket is never opened): no "
                                          "record was read")
    except (OSError, ValueError, EOFError, zlib.error) as error:  # a cut or corrupt gzip member: where it stops
        where = f" after line {number}" if number else ""
        stream.problem(F.LOAD_UNREADABLE, f"cannot read the file{where}: {getattr(error, 'strerror', None) or error}",
                       number + 1 if number else None)


def _last_line(stream: Stream, number: int, text: str) -> None:
    """A last line without its newline may be a record cut short by a copy or a crash: parsed as it is, but
    said, for a log that ends mid-record is not a whole log."""
    stream.findings.append(Finding(F.LOAD_TRUNCATED, Severity.WARNING, "the last line does not end with a newline: "
                                   "the log may have been cut short", stream.path, number, len(text) + 1))


def _unique(pairs: list) -> dict:
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        seen = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise _DuplicateKey(twice)
    return mapping


class _DuplicateKey(ValueError):
    pass


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a log can hold")


# One decoder for every line: json.loads with options builds a new one per call (a third of the parse time).
# A number no amount can be stays as written (values.OutOfRange), for the record's shape check to refuse.
_DECODER = json.JSONDecoder(parse_float=log_number, parse_constant=_no_constant, object_pairs_hook=_unique)


def read_json_lines(path: str) -> Stream:
    def records(stream: Stream) -> Iterator[LogRecord]:
        index = 0
        decode, scan = _DECODER.decode, _DECODER.scan_once
        for number, text in _lines(stream):
            try:
                # The C scanner at the line's start; a line it cannot take whole (leading space, something after
                # the record other than JSON's whitespace, no record) goes through decode, which reads it or says
                # why not.
                try:
                    data, end = scan(text, 0)
                    whole = end == len(text) or not text[end:].strip(" \t\n\r")
                except StopIteration:
                    whole = False
                if not whole:
                    data = decode(text)
            except _DuplicateKey as error:
                stream.problem(F.LOAD_DUPLICATE_KEY, f"the key {error.args[0]!r} is given twice in one record; a "
                                                     "reader would keep only one of its values", number)
                continue
            except (ValueError, RecursionError) as error:
                column = getattr(error, "colno", None)
                stream.problem(F.LOAD_SYNTAX, f"not a JSON record: {getattr(error, 'msg', None) or error}", number,
                               column)
                continue
            yield LogRecord(path, index, data, number, text)
            index += 1
    return Stream(path, records)
