"""CSV logs read one record at a time, in flat memory (plain or gzip-compressed, as reader.py opens them).

A CSV log starts with `# key: value` lines (the header record: kind, jurisdiction, game, casino, table ...; a
dotted key `# limits.minimum: 20` is a member of a mapping), then the column names, then the rows. In a game
log a row is one bet, and consecutive rows of one coup number make one coup record, as the game family's
CSV_COLUMNS lay it out; in a kind laid out by a `RowLayout` (a meter log) every row is one record. How a cell is
read is csv_cells.py's, how a coup's rows make its record csv_coups.py's.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, Callable, Iterator, Mapping

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.values import THOUSANDS_POINT, thousands_point
from casino_audit.logs.csv_cells import _cell
from casino_audit.logs.csv_coups import COMMON_COLUMNS, STAFF_PREFIX, _coup, _coup_cells, _nearest
from casino_audit.logs.reader import MAX_RECORD_BYTES, LogRecord, Stream, _lines


def header_reader(kind: str) -> Callable[[tuple[str, ...]], str]:
    """How the `#` value of a key (its dotted path) is read, as the kind's header schema types it: a whole number
    (a game log's `decks`, `first_coup`; a meter's capacity) as one, a boolean (`shoe_continues`) as true or
    false, an amount (a number, or digits as text: the limits) as money, the rest text. A key the schema does
    not know is text, for the shape check to report."""
    @lru_cache(maxsize=256)
    def read(path: tuple[str, ...]) -> str:
        from casino_audit.documents.kinds import schema  # the schemas load when a CSV log is read

        nodes = [schema(kind)]
        for part in path:
            nodes = [child for node in _alternatives(nodes) for child in (_member(node, part),) if child is not None]
        types = {node.get("type") for node in _alternatives(nodes)}
        return "money" if "number" in types else "int" if "integer" in types else "bool" if "boolean" in types \
            else "text"

    return read


def _alternatives(nodes: list) -> list[Mapping]:
    """The schemas a value meeting any of `nodes` may meet: each node and its `oneOf`/`anyOf` branches."""
    found = []
    for node in nodes:
        if isinstance(node, Mapping):
            found.append(node)
            found.extend(_alternatives([*node.get("oneOf", ()), *node.get("anyOf", ())]))
    return found


def _member(node: Mapping, name: str) -> Mapping | None:
    properties = node.get("properties")
    if isinstance(properties, Mapping) and name in properties:
        return properties[name]
    extra = node.get("additionalProperties")
    return extra if isinstance(extra, Mapping) else None


game_header_reader = header_reader("game-log")


@dataclass(frozen=True)
class RowLayout:
    """A CSV layout in which every row is one record (a meter log's readings, unlike a game log's rows, several
    to a coup): column -> (field, reader), no other column; `header_reader` says how the value of a `#` key
    (its dotted path) is read."""

    columns: dict[str, tuple[str, str]]
    header_reader: Callable[[tuple[str, ...]], str]
    free_text: frozenset[str] = frozenset()  # columns whose cell may run over lines, quoted as CSV does (a note)


def read_csv(path: str, layout: Callable[[dict], dict | RowLayout | None]) -> Stream:
    """`layout(header)` gives, for the header record read from the `#` lines, the game family's CSV_COLUMNS (rows
    grouped by coup), a RowLayout (a record per row), or None: no CSV layout for that log, said once."""
    return Stream(path, partial(_records, path, layout))


def _records(path: str, layout: Callable[[dict], dict | RowLayout | None], stream: Stream) -> Iterator[LogRecord]:
    """The header record from the `#` lines, then a record per row (a RowLayout) or per coup (its rows)."""
    header: dict[str, str] = {}
    header_lines: dict[str, int] = {}  # each `#` key's line, for a finding about its value
    columns: list[str] | None = None
    plan: dict | RowLayout | None = None
    pending: list[tuple[int, list[str]]] = []
    cells: list[tuple] | None = None  # what each column gives, once the columns are known
    index = 0
    refused: str | None = None  # why the rows are not read: their column names were refused, or no layout
    refused_at, refused_rows = 0, 0
    free: set[int] = set()  # the positions of the free-text columns
    source = _Pushback(_lines(stream))
    for number, text in source:
        if columns is None and text.startswith("#"):
            _header_key(stream, header, header_lines, number, text)
            continue
        if refused is not None:  # counted, and said once below: never dropped unseen
            refused_at, refused_rows = refused_at or number, refused_rows + 1
            continue
        row = _across_lines(text, source, len(columns), free) if free and text.count('"') % 2 else None
        try:
            if row is None:
                [row] = list(csv.reader((text,)))
        except (csv.Error, ValueError) as error:
            stream.problem(F.LOAD_SYNTAX, f"broken CSV: {error}", number)
            continue
        if columns is None:
            columns = [name.strip() for name in row]
            plan = layout(header)
            if isinstance(plan, RowLayout):
                free = {position for position, name in enumerate(columns) if name in plan.free_text}
            yield _header_record(path, stream, header, header_lines, plan, number)
            index += 1
            refused = _rows_refused(stream, columns, plan, header, number)
            continue
        if len(row) != len(columns):
            stream.problem(F.LOAD_SYNTAX, f"the row has {len(row)} cells, the column names {len(columns)}", number)
            continue
        if isinstance(plan, RowLayout):
            yield _row(path, index, number, row, columns, plan)
            index += 1
            continue
        if cells is None:
            cells = _coup_cells(columns, plan)
        if pending and row[0] != pending[0][1][0]:
            yield _coup(path, index, pending, cells)
            index += 1
            pending = []
        pending.append((number, row))
    if pending and plan is not None:
        yield _coup(path, index, pending, cells or _coup_cells(columns, plan))
    if refused_rows:
        stream.unreadable += refused_rows
        stream.findings.append(Finding(F.LOAD_UNSUPPORTED, Severity.ERROR, f"this row and every row after it "
                                       f"({refused_rows:,} in all) are not read: {refused}", path, refused_at, 1))


def _header_key(stream: Stream, header: dict[str, str], header_lines: dict[str, int], number: int,
                text: str) -> None:
    """A `# key: value` line taken into `header` (and its line into `header_lines`); one that is not, or gives a
    key twice (itself, or with its dotted members), is said and left out."""
    key, sep, value = text[1:].partition(":")
    key = key.strip()
    if not sep or not key:
        stream.problem(F.LOAD_SYNTAX, "a `#` line above the column names must read `# key: value`", number)
        return
    clash = next((other for other in header if other == key or other.startswith(key + ".")
                  or key.startswith(other + ".")), None)
    if clash is not None:
        twice = f"the header key {key!r} is given twice" if clash == key else \
            f"the header keys {clash!r} and {key!r} both give `{min(clash, key, key=len)}`"
        stream.problem(F.LOAD_DUPLICATE_KEY, twice, number)
        return
    header[key] = value.strip()
    header_lines[key] = number


def _header_record(path: str, stream: Stream, header: dict[str, str], header_lines: dict[str, int],
                   plan: dict | RowLayout | None, number: int) -> LogRecord:
    """The header record, its values read as the rows' are (the layout's header reader); an amount written with a
    thousands point is said. At the first `#` line, else at the column names' (`number`)."""
    first = next(iter(header_lines.values()), number)
    reader = plan.header_reader if isinstance(plan, RowLayout) else game_header_reader
    for key, value in header.items():
        if reader(tuple(key.split("."))) == "money" and THOUSANDS_POINT.fullmatch(value):
            stream.findings.append(Finding(F.LOAD_AMBIGUOUS, Severity.ERROR, thousands_point(key, value), path,
                                           header_lines[key], 1))
    return LogRecord(path, 0, _typed_header(header, reader), first, where=_HeaderWhere(header_lines, first))


def _rows_refused(stream: Stream, columns: list[str], plan: dict | RowLayout | None, header: dict[str, str],
                  number: int) -> str | None:
    """Why no row under these column names is read (refused names, said at them; or no layout), else None."""
    if isinstance(plan, RowLayout):
        if _row_columns_problem(stream, columns, plan, number):
            return "the column names above them were refused"
    elif _columns_problem(stream, columns, plan or {}, number, strict=plan is not None):
        return "the column names above them were refused"
    elif plan is None:
        return (f"there is no CSV layout for the game {header.get('game', '')!r}: its coups are read from JSON "
                "Lines only")
    return None


class _Pushback:
    """An iterator that takes back what was read ahead of it."""

    __slots__ = ("items", "back")

    def __init__(self, items: Iterator):
        self.items, self.back = items, []

    def __iter__(self):
        return self

    def __next__(self):
        return self.back.pop() if self.back else next(self.items)

    def push(self, items: list) -> None:
        self.back.extend(reversed(items))


def _across_lines(text: str, source: _Pushback, width: int, free: set[int]) -> list[str] | None:
    """The row a line starts whose quote is still open at its end, read with the next lines as CSV reads a quoted
    cell that holds a line break (a note on two lines, as every CSV writer writes it). Taken only if that gives one
    row of `width` cells whose line breaks are all in free-text cells: else None, the lines read ahead are given
    back, and the line is read alone as before (a line break in any other cell would hide the rows inside it)."""
    taken: list[tuple[int, str]] = []
    size, quotes = len(text), text.count('"')
    while quotes % 2 and size <= MAX_RECORD_BYTES:  # each line read ahead at most once: the next odd line closes
        item = next(source, None)
        if item is None:
            break
        taken.append(item)
        size, quotes = size + len(item[1]), quotes + item[1].count('"')
    if taken and not quotes % 2 and size <= MAX_RECORD_BYTES:
        try:
            # strict: a quote closed and followed by more than a comma (`"x\n...\n"y`) is no cell over lines
            rows = list(csv.reader([text, *(line for _, line in taken)], strict=True))
        except csv.Error:
            rows = []
        if len(rows) == 1 and len(rows[0]) == width and \
                all(position in free for position, cell in enumerate(rows[0]) if "\n" in cell or "\r" in cell):
            return rows[0]
    source.push(taken)
    return None


class _HeaderWhere:
    """A CSV header's positions: the `#` line of the key a pointer names (`/capacity_digits/drop` is the line of
    `# capacity_digits.drop`), of the first dotted member of a mapping it names, else of the nearest key above it;
    the header's first line for the header itself."""

    __slots__ = ("lines", "first")

    def __init__(self, lines: dict[str, int], first: int):
        self.lines, self.first = lines, first

    def __call__(self, pointer: str) -> tuple[int, int]:
        parts = [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]
        while parts:
            key = ".".join(parts)
            if key in self.lines:
                return (self.lines[key], 1)
            members = [line for name, line in self.lines.items() if name.startswith(key + ".")]
            if members:
                return (min(members), 1)
            parts.pop()
        return (self.first, 1)


def _typed_header(header: dict[str, str], reader: Callable[[tuple[str, ...]], str] = game_header_reader) -> dict:
    """The `#` lines as the header record: a dotted key (`limits.minimum: 20`) nested, each value read as `reader`
    says for its path (a game log's `decks` a whole number, its limits amounts); what cannot be read stays text
    for the header's shape check to report."""
    typed: dict[str, Any] = {}
    for key, value in header.items():
        parts = tuple(key.split("."))
        place = typed
        for part in parts[:-1]:
            place = place.setdefault(part, {})  # never a value: a key and its dotted members were refused
        place[parts[-1]] = _cell(value, reader(parts))
    return typed


def _named_twice(stream: Stream, name: str, seen: set[str], line: int, position: int) -> bool:
    if name in seen:
        stream.problem(F.LOAD_DUPLICATE_KEY, f"the column {name!r} is named twice; a row would keep one of its "
                                             "two cells", line, position)
        return True
    seen.add(name)
    return False


def _columns_problem(stream: Stream, columns: list[str], plan: dict, line: int, strict: bool) -> bool:
    known = {**COMMON_COLUMNS, **plan}
    seen: set[str] = set()
    for position, name in enumerate(columns, start=1):
        if _named_twice(stream, name, seen, line, position):
            return True
        if strict and name not in known and not name.startswith(STAFF_PREFIX):
            stream.problem(F.LOAD_SYNTAX, f"unknown column {name!r}; this game's columns: "
                                          f"{', '.join([*COMMON_COLUMNS, *plan])}, and staff_ROLE", line, position)
            return True
    if strict and columns[0] != "coup":
        stream.problem(F.LOAD_SYNTAX, "the first column must be `coup`: the rows of one coup are grouped by it", line)
        return True
    return False


def _row_columns_problem(stream: Stream, columns: list[str], plan: RowLayout, line: int) -> bool:
    seen: set[str] = set()
    for position, name in enumerate(columns, start=1):
        if _named_twice(stream, name, seen, line, position):
            return True
        if name not in plan.columns:
            stream.problem(F.LOAD_SYNTAX, f"unknown column {name!r}; the columns: {', '.join(plan.columns)}", line,
                           position)
            return True
    return False


def _row(path: str, index: int, number: int, row: list[str], columns: list[str], plan: RowLayout) -> LogRecord:
    """One record from one row: an empty cell is a field not given."""
    data: dict[str, Any] = {}
    where: dict[str, tuple[int, int]] = {"": (number, 1)}
    for position, (name, value) in enumerate(zip(columns, row), start=1):
        field, reader = plan.columns[name]
        if value != "":
            data[field] = _cell(value, reader)
        where[f"/{field}"] = (number, position)
    return LogRecord(path, index, data, number, where=lambda pointer: _nearest(where, pointer))
