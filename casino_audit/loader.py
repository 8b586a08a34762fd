"""Load YAML and JSON files into plain data plus a side table of source positions.

Checks see plain data (dicts, lists, str, int, bool, None and Decimal for every non-integer number,
taken from the text as written); positions live in `Document.positions`, keyed by JSON pointer.
Nothing here raises on bad input: every problem becomes a Finding with file:line:column.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from casino_audit import findings as F
from casino_audit.findings import Finding, Severity
from casino_audit.pointers import child
from casino_audit.values import MAX_DIGITS, bounded_decimal

try:  # the C parser is ~8x faster; the pure-Python one gives the same nodes
    _YamlLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing
    _YamlLoader = yaml.SafeLoader

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
MAX_NODES = 1_000_000  # bounds alias expansion ("billion laughs")
MAX_DEPTH = 100

Position = tuple[int, int]  # 1-based line and column


@dataclass
class Document:
    file: str
    index: int
    data: Any
    positions: dict[str, Position]
    findings: list[Finding] = field(default_factory=list)  # load-time findings that do not stop checking

    def position(self, pointer: str | None) -> Position | None:
        """Position of the pointer, or of its nearest ancestor that exists in the source."""
        positions = self.positions
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


def load_file(path: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES) -> FileLoad:
    display = str(path)
    result = FileLoad(display)
    try:
        raw = _read_bytes(Path(path), max_bytes)
        text = _decode(raw)
    except _Problem as problem:
        line, column = problem.mark if problem.mark else (None, None)
        result.findings.append(_error(display, problem.rule_id, problem.message, line, column))
        return result
    if not text.strip():
        result.findings.append(_error(display, F.LOAD_EMPTY, "the file is empty", 1, 1))
        return result
    if str(path).lower().endswith(".json"):
        _load_json(text, result)
    else:
        _load_yaml(text, result)
    if not result.documents and not result.findings:
        result.findings.append(_error(display, F.LOAD_EMPTY, "the file holds no document, only comments "
                                                             "or blank lines", 1, 1))
    return result


class NotOneDocument(Exception):
    """A settings file (ruleset, config) that is unreadable or not exactly one document."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


def load_single_document(path: str | os.PathLike, what: str) -> Document:
    """The one document of a settings file; NotOneDocument lists 'file:line:col: why' otherwise."""
    loaded = load_file(path)
    problems = [f"{f.file}:{f.line or 1}:{f.column or 1}: {f.message}" for f in loaded.findings]
    for document in loaded.documents:
        problems += [f"{f.file}:{f.line}:{f.column}: {f.message}" for f in document.findings]
    if not problems and len(loaded.documents) != 1:
        problems.append(f"{path}: {what} holds exactly one YAML document")
    if problems:
        raise NotOneDocument(problems)
    return loaded.documents[0]


def load_text(text: str, path: str = "<text>", json_syntax: bool = False) -> FileLoad:
    result = FileLoad(path)
    (_load_json if json_syntax else _load_yaml)(text, result)
    return result


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    try:
        if not path.is_file():
            raise _Problem(F.LOAD_UNREADABLE, "not a regular file" if path.exists() else "no such file")
        size = path.stat().st_size
        if size > max_bytes:
            raise _Problem(F.LOAD_TOO_LARGE, f"the file is {size:,} bytes, over the {max_bytes:,}-byte limit "
                                             "(raise it with --max-file-size)")
        with path.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
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


# --- numbers ----------------------------------------------------------------------------------------
def _json_number(text: str):
    number = bounded_decimal(text)
    if number is None:
        raise ValueError(f"the number {text[:40]}{'...' if len(text) > 40 else ''} is too long or too large")
    return number


# --- YAML -------------------------------------------------------------------------------------------

_TAG = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = _TAG + "str", _TAG + "int", _TAG + "float", _TAG + "bool", _TAG + "null"
_TIMESTAMP, _MAP, _SEQ, _MERGE = _TAG + "timestamp", _TAG + "map", _TAG + "seq", _TAG + "merge"
_TRUE_WORDS = frozenset(("yes", "true", "on"))
_int_constructor = yaml.constructor.SafeConstructor()


def _load_yaml(text: str, result: FileLoad) -> None:
    index = 0
    try:
        for node in yaml.compose_all(text, Loader=_YamlLoader):
            _add_document(node, index, result)
            index += 1
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        reason = " ".join(part for part in (exc.context, exc.problem) if part)
        result.findings.append(_error(result.path, F.LOAD_SYNTAX, f"broken YAML: {reason}",
                                      *_mark_pair(mark), document=index))
    except yaml.YAMLError as exc:  # reader errors (control characters) carry a position of their own
        line, column = (None, None)
        if isinstance(exc, yaml.reader.ReaderError):
            line, column = _line_col(text.encode("utf-8"), len(text[: exc.position].encode("utf-8")))
        result.findings.append(_error(result.path, F.LOAD_SYNTAX, f"broken YAML: {exc}", line, column, index))
    except RecursionError:
        result.findings.append(_error(result.path, F.LOAD_UNSUPPORTED, "the document nests too deeply to read",
                                      document=index))


def _mark_pair(mark) -> tuple[int | None, int | None]:
    return (mark.line + 1, mark.column + 1) if mark is not None else (None, None)


def _add_document(node, index: int, result: FileLoad) -> None:
    if node is None or (node.tag == _NULL and isinstance(node, yaml.ScalarNode)):
        line = (node.start_mark.line + 1) if node is not None else None
        result.findings.append(_error(result.path, F.LOAD_EMPTY, "the document is empty", line, 1, index))
        return
    builder = _Builder(result.path, index)
    try:
        data = builder.build(node, "", 0, ())
    except _Problem as problem:
        result.findings.append(_error(result.path, problem.rule_id, problem.message,
                                      *_mark_pair(problem.mark), document=index))
        return
    result.documents.append(Document(result.path, index, data, builder.positions, builder.findings))


class _Builder:
    """Turns a composed YAML node tree into plain data and a position table, in one pass."""

    def __init__(self, path: str, index: int):
        self.path = path
        self.index = index
        self.positions: dict[str, Position] = {}
        self.findings: list[Finding] = []
        self.nodes = 0

    def build(self, node, pointer: str, depth: int, active: tuple) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Problem(F.LOAD_TOO_LARGE, f"the document expands to more than {MAX_NODES:,} values "
                                             "(aliases repeated too often?)", node.start_mark)
        if depth > MAX_DEPTH:
            raise _Problem(F.LOAD_UNSUPPORTED, f"the document nests deeper than {MAX_DEPTH} levels", node.start_mark)
        if pointer not in self.positions:
            mark = node.start_mark
            self.positions[pointer] = (mark.line + 1, mark.column + 1)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if id(node) in active:
            raise _Problem(F.LOAD_UNSUPPORTED, "an alias refers to a node that contains it (a cycle)",
                           node.start_mark)
        active = active + (id(node),) if node.value else active
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                raise _Problem(F.LOAD_UNSUPPORTED, f"the tag {node.tag} is not allowed in a filing", node.start_mark)
            return [self.build(item, child(pointer, position), depth + 1, active)
                    for position, item in enumerate(node.value)]
        if node.tag != _MAP:
            raise _Problem(F.LOAD_UNSUPPORTED, f"the tag {node.tag} is not allowed in a filing", node.start_mark)
        return self.mapping(node, pointer, depth, active)

    def mapping(self, node, pointer: str, depth: int, active: tuple) -> dict:
        data: dict[str, Any] = {}
        first_seen: dict[str, Position] = {}
        merged: list = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                merged.append(value_node)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise _Problem(F.LOAD_UNSUPPORTED, "a key must be plain text, not a list or mapping",
                               key_node.start_mark)
            key = key_node.value  # the key as written: `yes:` stays "yes", `1:` stays "1"
            key_position = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            member = child(pointer, key)
            if key in first_seen:
                line, column = first_seen[key]
                self.findings.append(_error(
                    self.path, F.LOAD_DUPLICATE_KEY,
                    f"duplicate key {key!r} (first given at line {line}, column {column}); "
                    "a reader keeps only one of the two values, so the filing is ambiguous",
                    *key_position, document=self.index))
            first_seen[key] = key_position
            self.positions[member] = key_position
            data[key] = self.build(value_node, member, depth + 1, active)
        for source in merged:  # `<<: *defaults`: explicit keys win over merged ones
            sources = source.value if isinstance(source, yaml.SequenceNode) else [source]
            for mapping_node in sources:
                if not isinstance(mapping_node, yaml.MappingNode):
                    raise _Problem(F.LOAD_UNSUPPORTED, "a merge key (<<) must refer to a mapping",
                                   mapping_node.start_mark)
                for key, value in self.mapping(mapping_node, pointer, depth, active).items():
                    data.setdefault(key, value)
        return data

    def scalar(self, node) -> Any:
        tag, value = node.tag, node.value
        if tag == _STR:
            return value
        if tag == _INT:
            digits = value.replace("_", "")
            unsigned = digits.lstrip("+-")
            if len(unsigned) > MAX_DIGITS:  # stays text, and fails its schema
                return value
            if unsigned.isdigit() and (unsigned == "0" or not unsigned.startswith("0")):
                return int(digits)
            return _int_constructor.construct_yaml_int(node)  # 0x.., 0o.., 0b.., 1:30 as YAML 1.1 says
        if tag == _FLOAT:
            number = bounded_decimal(value.replace("_", ""))
            return value if number is None else number
        if tag == _BOOL:
            return value.lower() in _TRUE_WORDS
        if tag == _NULL:
            return None
        if tag == _TIMESTAMP:
            return value  # dates stay as written; schemas check their format
        raise _Problem(F.LOAD_UNSUPPORTED, f"the tag {tag} is not allowed in a filing", node.start_mark)


# --- JSON -------------------------------------------------------------------------------------------


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"the number {text[:40]}... is too long")
    return int(text)


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number a filing may use")


def _load_json(text: str, result: FileLoad) -> None:
    try:
        data = json.loads(text, parse_float=_json_number, parse_int=_json_int, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        result.findings.append(_error(result.path, F.LOAD_SYNTAX, f"broken JSON: {exc.msg}",
                                      exc.lineno, exc.colno, 0))
        return
    except (ValueError, RecursionError) as exc:
        result.findings.append(_error(result.path, F.LOAD_SYNTAX, f"broken JSON: {exc}", 1, 1, 0))
        return
    # JSON is YAML's flow style: the YAML reader gives positions and duplicate keys. Literal tabs can only
    # be whitespace in valid JSON, so turning them into spaces keeps every column.
    located = FileLoad(result.path)
    _load_yaml(text.replace("\t", " "), located)
    if located.documents:
        document = located.documents[0]
        document.data = data  # JSON's own reading of numbers (1e5 is a number in JSON, text in YAML 1.1)
    else:
        document = Document(result.path, 0, data, {"": (1, 1)})
    result.documents.append(document)
