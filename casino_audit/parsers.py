"""Parsers by file type: documents read whole (YAML, JSON), or records read one at a time (JSON Lines, CSV).

A record stream never sits in memory whole: a game log of millions of hands is read line by line, each record a
Document of its own (its positions in file lines), so a check sees plain data whatever the format. The
registry is the one list of file types; the pipeline asks it which files to read and how.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from casino_audit import findings as F
from casino_audit.findings import Finding, Severity
from casino_audit.loader import DEFAULT_MAX_BYTES, Document, FileLoad, load_file, load_text

MAX_RECORD_BYTES = 1024 * 1024  # one log line; a longer one is a finding, the stream goes on


@dataclass
class Record(Document):
    """One record of a stream: its positions are counted from `line`, the line it starts on in the file."""

    line: int = 1

    def position(self, pointer: str | None):
        found = super().position(pointer)
        return None if found is None else (found[0] + self.line - 1, found[1])


@dataclass
class RecordStream:
    """The records of one file, read as they are iterated; `findings` gathers the lines that are not records."""

    path: str
    read: Callable[["RecordStream"], Iterator[Record]]
    findings: list[Finding] = field(default_factory=list)
    records: int = 0

    def __iter__(self) -> Iterator[Record]:
        for record in self.read(self):
            self.records += 1
            yield record
        if not self.records and not self.findings:  # a truncated export must not pass as a clean log
            self.findings.append(Finding(F.LOAD_EMPTY, Severity.ERROR, "the file holds no record", self.path, 1, 1))


@dataclass(frozen=True)
class Parser:
    name: str
    extensions: tuple[str, ...]
    walked: bool  # read when met in a walked directory (record formats wait for the kinds that use them)
    documents: Callable[[str, int], FileLoad] | None = None
    records: Callable[[str, int], RecordStream] | None = None


def _unreadable(stream: RecordStream, rule_id: str, message: str, line: int | None = None) -> None:
    stream.findings.append(Finding(rule_id, Severity.ERROR, message, stream.path, line, 1 if line else None))


def _lines(path: str, stream: RecordStream, max_bytes: int) -> Iterator[tuple[int, str]]:
    """(line number, text) of each non-blank line, decoded as UTF-8; what cannot be read is a finding."""
    try:
        if os.path.getsize(path) > max_bytes:
            _unreadable(stream, F.LOAD_TOO_LARGE, f"the file is over the {max_bytes:,}-byte limit "
                                                  "(raise it with --max-file-size)")
            return
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if len(raw) > MAX_RECORD_BYTES:
                    _unreadable(stream, F.LOAD_TOO_LARGE, f"a record of {len(raw):,} bytes, over the "
                                                          f"{MAX_RECORD_BYTES:,}-byte limit of one record", number)
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    _unreadable(stream, F.LOAD_ENCODING, f"the line is not UTF-8 text (byte 0x{raw[error.start]:02x})",
                                number)
                    continue
                if text.strip():
                    yield number, text.lstrip("\ufeff") if number == 1 else text
    except OSError as error:
        _unreadable(stream, F.LOAD_UNREADABLE, f"cannot read the file: {error.strerror or error}")


def read_json_lines(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> RecordStream:
    def read(stream: RecordStream) -> Iterator[Record]:
        for index, (number, text) in enumerate(_lines(path, stream, max_bytes)):
            loaded = load_text(text, path, json_syntax=True, max_bytes=MAX_RECORD_BYTES)
            for problem in loaded.findings:  # a broken line is that line's finding; the stream goes on
                problem.line, problem.document = number, index
                stream.findings.append(problem)
            for document in loaded.documents:
                for finding in document.findings:
                    finding.line = (finding.line or 1) + number - 1
                yield Record(path, index, document.data, document.positions, document.findings, line=number)
    return RecordStream(path, read)


def read_csv(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> RecordStream:
    """Each row a mapping of the header's names to the text of its cells (numbers stay text as written)."""
    def read(stream: RecordStream) -> Iterator[Record]:
        header: list[str] | None = None
        index = 0
        for number, text in _lines(path, stream, max_bytes):
            try:
                [row] = list(csv.reader(io.StringIO(text)))
            except (csv.Error, ValueError) as error:
                _unreadable(stream, F.LOAD_SYNTAX, f"broken CSV: {error}", number)
                continue
            if header is None:
                header = row
                _duplicate_columns(stream, header, number)
                continue
            if len(row) != len(header):
                _unreadable(stream, F.LOAD_SYNTAX, f"the row has {len(row)} cells, the header {len(header)}", number)
                continue
            positions = {"": (number, 1), **{f"/{name}": (number, 1) for name in header}}
            yield Record(path, index, dict(zip(header, row)), positions, [], line=1)
            index += 1
    return RecordStream(path, read)


def _duplicate_columns(stream: RecordStream, header: list[str], line: int) -> None:
    """A column named twice: a row would keep one of its two cells (one of two rates), so the file is ambiguous."""
    seen: dict[str, int] = {}
    for position, name in enumerate(header, start=1):
        if name in seen:
            stream.findings.append(Finding(F.LOAD_DUPLICATE_KEY, Severity.ERROR,
                                           f"the column {name!r} is named twice (columns {seen[name]} and "
                                           f"{position}); a row keeps only one of its two cells", stream.path,
                                           line, 1))
        seen.setdefault(name, position)


PARSERS: tuple[Parser, ...] = (
    Parser("yaml", (".yaml", ".yml"), walked=True, documents=load_file),
    Parser("json", (".json",), walked=True, documents=load_file),
    Parser("jsonl", (".jsonl", ".ndjson"), walked=False, records=read_json_lines),
    Parser("csv", (".csv",), walked=False, records=read_csv),
)
WALKED_EXTENSIONS = tuple(ext for parser in PARSERS if parser.walked for ext in parser.extensions)


def parser_for(path: str | Path) -> Parser:
    """The parser of a file by its extension; a file named explicitly with another extension is read as YAML
    (JSON is YAML's flow style, and the loader tells them apart)."""
    name = str(path).lower()
    for parser in PARSERS:
        if name.endswith(parser.extensions):
            return parser
    return PARSERS[0]
