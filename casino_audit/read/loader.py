"""Load YAML and JSON files into plain data plus a side table of source positions.

Checks see plain data (dicts, lists, str, int, bool, None and Decimal for every non-integer number,
taken from the text as written); positions live in `Document.positions`, keyed by JSON pointer.
Nothing here raises on bad input: every problem becomes a Finding with file:line:column.
A file's cost is bounded before it is built: values, characters through aliases, documents, depth.
"""

from __future__ import annotations

import os
import re
import stat
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

import yaml

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Severity
from casino_audit.read.json_fast import read_fast
from casino_audit.read.invisible import invisible_characters
from casino_audit.read.json_reader import JsonProblem, JsonReader, line_column
from casino_audit.read.positions import Position, Positions
from casino_audit.read.yaml_reader import Limits, TooLarge, YamlReader

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
MAX_NODES = 1_000_000  # keys and values per document, each alias counting those it repeats ("billion laughs")
EXPANSION = 4  # characters of values per document, aliases repeated, at most this many times the size limit
MAX_DOCUMENTS = 10_000  # per file: each document is checked against every rule of its kind, one at a time
MAX_DEPTH = 100


@dataclass
class Document:
    file: str
    index: int
    data: Any
    positions: Mapping[str, Position]  # a Positions tree from the loader; a plain dict also works
    findings: list[Finding] = field(default_factory=list)  # load-time findings that do not stop checking
    values: int | None = None  # keys and values in it, as the reader counted them, or more (None: not counted)

    def position(self, pointer: str | None) -> Position | None:
        """Position of the pointer, or of its nearest ancestor that exists in the source."""
        positions = self.positions
        if isinstance(positions, Positions):
            return positions.nearest(pointer)
        while pointer is not None:
            found = positions.get(pointer)
            if found is not None:
                return found
            pointer = pointer.rsplit("/", 1)[0] if pointer else None
        return None


@dataclass
class FileLoad:
    path: str
    documents: list[Document] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # problems that stopped (part of) the file


@dataclass
class FileStream:
    """A file's documents, each read when the one before it has been checked, so a file of 10,000 documents is
    never in memory whole. `findings` (what stopped the file, characters outside any document) are complete once
    `documents` has been walked to its end."""

    path: str
    documents: Iterator[Document]
    findings: list[Finding] = field(default_factory=list)


class _Problem(Exception):
    def __init__(self, rule_id: str, message: str, mark=None):
        super().__init__(message)
        self.rule_id = rule_id
        self.message = message
        self.mark = mark


def _error(path: str, rule_id: str, message: str, line: int | None = None, column: int | None = None,
           document: int | None = None) -> Finding:
    return Finding(rule_id=rule_id, severity=Severity.ERROR, message=message, file=path,
                   line=line, column=column, document=document)


def limits(max_bytes: int = DEFAULT_MAX_BYTES) -> Limits:
    return Limits(max_nodes=MAX_NODES, max_characters=EXPANSION * max_bytes, max_documents=MAX_DOCUMENTS,
                  max_depth=MAX_DEPTH)


def load_file(path: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES) -> FileLoad:
    return _whole(stream_file(path, max_bytes))


def stream_file(path: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES) -> FileStream:
    try:
        raw = _read_bytes(path, max_bytes)
    except _Problem as problem:
        return FileStream(str(path), iter(()), _refused(str(path), problem).findings)
    return stream_bytes(raw, str(path), max_bytes)


def read_file(path: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[bytes | None, FileLoad]:
    """The file's bytes (to hash them, then load_bytes the same bytes), or None and the finding why not."""
    try:
        return _read_bytes(path, max_bytes), FileLoad(str(path))
    except _Problem as problem:
        return None, _refused(str(path), problem)


def load_bytes(raw: bytes, path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> FileLoad:
    """A file's bytes as documents (JSON if the name ends in .json, else YAML)."""
    return _whole(stream_bytes(raw, path, max_bytes))


def stream_bytes(raw: bytes, path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> FileStream:
    json_syntax = path.lower().endswith(".json")
    if not json_syntax and raw.isascii() and b"\x00" not in raw:
        text = raw  # ASCII YAML goes to the parser as it is: a decoded copy (and libyaml's of it) would double it
    else:
        try:
            text = _decode(raw)
        except _Problem as problem:
            return FileStream(path, iter(()), _refused(path, problem).findings)
    findings: list[Finding] = []
    if not text or text.isspace():  # strip() would copy the whole file
        findings.append(_error(path, F.LOAD_EMPTY, "the file is empty", 1, 1))
        return FileStream(path, iter(()), findings)
    return FileStream(path, _documents(text, path, json_syntax, limits(max_bytes), findings), findings)


def _whole(stream: FileStream) -> FileLoad:
    documents = list(stream.documents)
    return FileLoad(stream.path, documents, stream.findings)


def _refused(path: str, problem: "_Problem") -> FileLoad:
    line, column = problem.mark if problem.mark else (None, None)
    return FileLoad(path, findings=[_error(path, problem.rule_id, problem.message, line, column)])


# --- files a checked document names -----------------------------------------------------------------------
# A game log's `table_config` and a meter log's `machine:` name a file the check reads. A filing could name any path
# (`../../etc/x.yaml`, an absolute one, a link leading out): only one inside the directories being checked, or the
# document's own directory and below, is read; the finding on any other names the path and quotes nothing of it.

_CHECKED: tuple[str, ...] = ()  # the real paths of the directories the run checks (set by the pipeline)
_READS: list[str] | None = None  # the real paths named files were read from, for the file being checked


@contextmanager
def checking(directories) -> Iterator[None]:
    """The run checks these directories: a file a document in them names may be read from anywhere in them."""
    global _CHECKED
    before, _CHECKED = _CHECKED, tuple(os.path.realpath(d) for d in directories)
    try:
        yield
    finally:
        _CHECKED = before


@contextmanager
def reads(into: list[str]) -> Iterator[None]:
    """Gathers into `into` the real path of every file `named_file` lets a document read meanwhile."""
    global _READS
    before, _READS = _READS, into
    try:
        yield
    finally:
        _READS = before


def _within(real: str, directory: str) -> bool:
    return real == directory or real.startswith(directory.rstrip(os.sep) + os.sep)


def named_file(document: str, named: str, what: str) -> tuple[str, str | None]:
    """(the path, None) of a file a checked document names (`named`, relative to the document's own directory), if
    it may be read; else (the path, why not): a sentence naming `what` and the path as written, and nothing of the
    file (it is never opened). The one rule for every file a document names."""
    path = os.path.join(os.path.dirname(document), named)
    shown = repr(named if len(named) <= 200 else named[:200] + "...")
    try:
        real = os.path.realpath(path)
        own = os.path.realpath(os.path.dirname(document) or ".")
    except (OSError, ValueError):  # a NUL byte in the name
        return path, f"{what} it names ({shown}) is no path a file can have: not read"
    if not any(_within(real, directory) for directory in (own, *_CHECKED)):
        return path, (f"{what} it names ({shown}) is outside the directories being checked and the log's own "
                      "directory: not read (a log names a file beside it or below)")
    if _READS is not None:
        _READS.append(real)
    return path, None


class NotOneDocument(Exception):
    """A settings file (ruleset, config) that is unreadable or not exactly one document; `findings` say why."""

    def __init__(self, findings: list[Finding]):
        super().__init__("\n".join(map(str, findings)))
        self.findings = findings

    @property
    def problems(self) -> list[str]:
        return [str(f) for f in self.findings]


def load_single_document(path: str | os.PathLike, what: str) -> Document:
    """The one document of a settings file; NotOneDocument lists the findings otherwise."""
    loaded = load_file(path)
    found = list(loaded.findings) + [f for document in loaded.documents for f in document.findings]
    if not found and len(loaded.documents) != 1:
        found.append(_error(str(path), F.LOAD_SYNTAX, f"{what} holds exactly one YAML document", 1, 1))
    if found:
        raise NotOneDocument(found)
    return loaded.documents[0]


def load_text(text: str, path: str = "<text>", json_syntax: bool = False,
              max_bytes: int = DEFAULT_MAX_BYTES) -> FileLoad:
    findings: list[Finding] = []
    return FileLoad(path, list(_documents(text, path, json_syntax, limits(max_bytes), findings)), findings)


OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)  # a FIFO: no wait


def _read_bytes(path: str | os.PathLike, max_bytes: int) -> bytes:
    """The file's bytes: a regular file within the size limit, read by one stat, one open and one fstat; anything
    else (no such file, a directory, a FIFO, a device, too large, a name with a NUL byte, an error) is said by
    `_read_path`. Only a regular file is opened: opening a FIFO or a device can act on it (a writer waiting on a
    FIFO is released, a watchdog is armed), and a filing can name any path."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return _read_path(Path(path), max_bytes)
        handle = os.open(path, OPEN_FLAGS)  # the fstat below refuses what replaced the file since the stat
    except (OSError, ValueError):  # ValueError: a NUL byte or a lone surrogate in the name
        return _read_path(Path(path), max_bytes)
    try:
        status = os.fstat(handle)
        if stat.S_ISREG(status.st_mode) and status.st_size <= max_bytes:
            raw = os.read(handle, status.st_size + 1)
            if len(raw) == status.st_size:  # what stat said, and nothing after it: the common case, done
                return raw
    except (OSError, ValueError):
        pass
    finally:
        os.close(handle)
    return _read_path(Path(path), max_bytes)


def _read_path(path: Path, max_bytes: int) -> bytes:
    try:
        if not path.is_file():
            raise _Problem(F.LOAD_UNREADABLE, "not a regular file" if path.exists() else "no such file")
        size = path.stat().st_size
        if size > max_bytes:
            raise _Problem(F.LOAD_TOO_LARGE, f"the file is {size:,} bytes, over the {max_bytes:,}-byte limit "
                                             "(raise it with --max-file-size)")
        with path.open("rb") as handle:  # what stat says (no buffer resized: a copy of the file), then any more
            raw = handle.read(size)
            more = handle.read(1)
            if more:  # it grew while we read it
                raw += more + handle.read(max_bytes - len(raw))
    except OSError as exc:
        raise _Problem(F.LOAD_UNREADABLE, f"cannot read the file: {exc.strerror or exc}") from None
    if len(raw) > max_bytes:  # grew while we read it, or a device that lies about its size
        raise _Problem(F.LOAD_TOO_LARGE, f"the file is over the {max_bytes:,}-byte limit")
    return raw


def _line_col(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    return raw.count(b"\n", 0, offset) + 1, offset - line_start + 1


def _decode(raw: bytes) -> str:
    nul = raw.find(b"\x00")
    if nul != -1:
        raise _Problem(F.LOAD_BINARY, "the file holds binary data (a NUL byte), not YAML or JSON text",
                       _line_col(raw, nul))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Problem(F.LOAD_ENCODING, f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x} "
                                        "cannot be decoded); save it as UTF-8", _line_col(raw, exc.start)) from None
    return text[1:] if text.startswith("\ufeff") else text



# --- YAML and JSON ------------------------------------------------------------------------------------


def _documents(text: str, path: str, json_syntax: bool, bounds: Limits, findings: list[Finding]) \
        -> Iterator[Document]:
    """Each document as it is read. A character a person cannot see is a finding of the document around it, else
    of the last one before it, else of the first: each document is held until the next one starts."""
    invisible = _invisible(text, path, json_syntax)
    held: Document | None = None
    for document, start, end in (_json_documents if json_syntax else _yaml_documents)(text, path, bounds, findings):
        if held is None:
            _attach(held := document, invisible, end)  # before it, and inside it
            continue
        _attach(held, invisible, start)  # between the two
        yield held
        held = document
        _attach(held, invisible, end)
    if held is not None:
        _attach(held, invisible, None)
        yield held
    else:
        findings.extend(finding for _, finding in invisible)
        if not findings:
            findings.append(_error(path, F.LOAD_EMPTY, "the file holds no document, only comments or blank lines",
                                   1, 1))


def _attach(document: Document, invisible: list, before: int | None) -> None:
    while invisible and (before is None or invisible[0][0] < before):
        finding = invisible.pop(0)[1]
        finding.document = document.index
        document.findings.append(finding)


# What the YAML parser's words mean to a person who wrote the file by hand, and what to do: (its words, ours).
_IN_WORDS = (
    ("tab character", "a tab where YAML takes spaces: indent with spaces only"),
    ("character '\\t' that cannot start any token", "a tab where YAML takes spaces: indent with spaces only"),
    ("mapping values are not allowed", "a `:` followed by a space inside a value, where YAML reads a new key: "
                                            "put the value in quotes, or the line is indented deeper than its key"),
    ("could not find expected ':'", "a line that is neither a `key: value` nor an item of a list: a missing `:`, "
                                    "or a line indented otherwise than the ones around it"),
    ("expected <block end>", "a line indented otherwise than the ones around it (keys of one mapping line up)"),
    ("found undefined alias", "an alias (`*name`) with no anchor (`&name`) before it"),
    ("found unexpected end of stream", "a quotation mark or a bracket opened and never closed"),
    ("did not find expected key", "a line indented otherwise than the keys around it, or a list item (`- `) "
                                  "where a key was expected"),
    ("found duplicate anchor", "the same anchor (`&name`) given twice"),
)


def in_words(reason: str) -> str:
    """The parser's reason, led by what it means in plain words where it is one of the usual ones."""
    for words, ours in _IN_WORDS:
        if words in reason:
            return f"{ours} (the parser: {reason})"
    return reason


def _yaml_documents(text: str, path: str, bounds: Limits, findings: list[Finding]):
    reader = YamlReader(text, path, bounds)
    reader.findings = findings  # what stops a document or the file, said as it is met
    try:
        for index, data, positions, found, start, end, values in reader.each():
            yield Document(path, index, data, positions, found, values), start, end
    except TooLarge as problem:
        findings.append(_error(path, F.LOAD_TOO_LARGE, problem.message, *_mark_pair(problem.mark),
                               document=reader.index))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        reason = " ".join(part for part in (exc.context, exc.problem) if part)
        rule_id = F.LOAD_SYNTAX
        if "invalid Unicode character escape" in reason:  # libyaml refuses `\ud800`: no character
            rule_id, reason = F.LOAD_ENCODING, reason + " (a \\u escape that names no character, such as half " \
                                                        "of a surrogate pair)"
        findings.append(_error(path, rule_id, f"broken YAML: {in_words(reason)}", *_mark_pair(mark),
                               document=reader.index))
    except yaml.YAMLError as exc:  # reader errors (control characters) carry a position of their own
        line, column = (None, None)
        if isinstance(exc, yaml.reader.ReaderError):
            line, column = yaml_line_column(text.decode("ascii") if isinstance(text, bytes) else text, exc.position)
        findings.append(_error(path, F.LOAD_SYNTAX, f"broken YAML: {exc}", line, column, reader.index))


def _mark_pair(mark) -> tuple[int | None, int | None]:
    return (mark.line + 1, mark.column + 1) if mark is not None else (None, None)


_YAML_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def yaml_line_column(text: str, offset: int) -> Position:
    """Line and column as the YAML reader counts them (CR, NEL, LS and PS end a line too)."""
    line, line_start = 1, 0
    for line, found in enumerate(_YAML_BREAK.finditer(text, 0, offset), start=2):
        line_start = found.end()
    return line, offset - line_start + 1


def _json_documents(text: str, path: str, bounds: Limits, findings: list[Finding]):
    fast = read_fast(text, path, bounds.max_nodes, bounds.max_depth)
    if fast is not None:
        yield Document(path, 0, fast[0], fast[1], [], fast[2]), 0, len(text)
        return
    reader = JsonReader(text, path, bounds.max_nodes, bounds.max_depth)
    try:
        data, positions = reader.read()
    except JsonProblem as problem:
        findings.append(_error(path, problem.rule_id, problem.message, *line_column(text, problem.offset), 0))
        return
    yield Document(path, 0, data, positions, reader.findings, reader.nodes), 0, len(text)


def _invisible(text: str, path: str, json_syntax: bool) -> list[tuple[int, Finding]]:
    """The characters a person cannot see (casino_audit/read/invisible.py), each a finding where it is."""
    listed = []
    for offset, message in invisible_characters(text, json_syntax):
        where = line_column(text, offset) if json_syntax else yaml_line_column(text, offset)
        listed.append((offset, _error(path, F.LOAD_AMBIGUOUS, message, *where)))
    return listed
