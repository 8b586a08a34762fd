"""A game log's CSV rows assembled into coups: consecutive rows of one coup number make one coup record, as the
game family's CSV_COLUMNS lay it out (coup-level cells from the first row, one bet per row), and where each field
was written, worked out only when a finding asks.
"""

from __future__ import annotations

from typing import Any

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.values import THOUSANDS_POINT, thousands_point
from casino_audit.logs.csv_cells import _cell
from casino_audit.logs.reader import LogRecord


COMMON_COLUMNS = {"coup": ("coup", "int"), "time": ("time", "text"), "session": ("session", "text"),
                  "limits_minimum": ("limits/minimum", "money"), "limits_maximum": ("limits/maximum", "money")}
STAFF_PREFIX = "staff_"  # a column staff_croupier holds the coup's staff["croupier"]


_STAFF, _BET, _COUP = "staff", "bet", "coup"


def _coup_cells(columns: list[str], plan: dict) -> list[tuple[str, str, tuple[str, ...], str, str]]:
    """What each column of a game log's CSV gives, read once per file: (kind, the field's path, the mappings
    it sits in, its key, its reader): a staff member's name, a bet's field, or a field of the coup."""
    known = {**COMMON_COLUMNS, **plan}
    cells = []
    for name in columns:
        if name.startswith(STAFF_PREFIX):
            role = name[len(STAFF_PREFIX):]
            cells.append((_STAFF, f"staff/{role}", ("staff",), role, "text"))
            continue
        field, reader = known[name]
        if field.startswith("bets/"):
            cells.append((_BET, field, (), field[len("bets/"):], reader))
        else:
            *outer, last = field.split("/")  # `limits/minimum`: a field of a mapping of the coup
            cells.append((_COUP, field, tuple(outer), last, reader))
    return cells


def _coup(path: str, index: int, rows: list[tuple[int, list[str]]], cells: list[tuple]) -> LogRecord:
    """One coup from its rows: coup-level cells from the first row (they must agree on every row), one bet per
    row whose bet cells are not all empty. Where each field was written is worked out only if a finding asks."""
    coup, conflicts = _assemble(rows, cells, None)
    record = LogRecord(path, index, coup, rows[0][0], where=_Where(rows, cells))
    for field, number, position in conflicts:
        record.findings.append(Finding(F.LOAD_AMBIGUOUS, Severity.ERROR, f"the rows of coup {rows[0][1][0]} give "
                                       f"two values of `{field}`; each row of a coup must repeat the same",
                                       path, number, position, f"/{field}", index))
    for number, row in rows:
        for position, ((_, field, _, _, reader), value) in enumerate(zip(cells, row), start=1):
            if reader == "money" and "." in value and THOUSANDS_POINT.fullmatch(value.strip()):
                record.findings.append(Finding(F.LOAD_AMBIGUOUS, Severity.ERROR, thousands_point(field, value.strip()),
                                               path, number, position, None, index))
    return record

def _same_amount(value: str, other: str, reader: str) -> bool:
    """Two cells of an amount or a number that read as the same one (`20` and `20.00`): not two values."""
    if reader not in ("money", "int", "count"):
        return False
    read, first = _cell(value, reader), _cell(other, reader)
    return not isinstance(read, str) and not isinstance(first, str) and read == first


def _assemble(rows: list[tuple[int, list[str]]], cells: list[tuple], where: dict | None) -> tuple[dict, list]:
    """The coup and the cells of later rows that disagree with its first row; with `where`, also each field's
    (line, column), from the same pass, so that the two can never disagree."""
    coup: dict[str, Any] = {}
    bets: list[dict] = []
    conflicts: list[tuple[str, int, int]] = []
    first = rows[0][1]
    for row_index, (number, row) in enumerate(rows):
        bet: dict[str, Any] = {}
        for position, ((kind, field, outer, key, reader), value) in enumerate(zip(cells, row), start=1):
            if kind is _BET:
                if value != "":
                    bet[key] = value if reader == "text" else _cell(value, reader)
                    if where is not None:
                        where[f"/bets/{len(bets)}/{key}"] = (number, position)
            elif row_index == 0:
                if value != "":
                    place = coup
                    for part in outer:
                        place = place.setdefault(part, {})
                    place[key] = value if reader == "text" else _cell(value, reader)
                if where is not None and (value != "" or kind is not _STAFF):
                    where[f"/{field}"] = (number, position)
            elif value != "" and value != first[position - 1] and not _same_amount(value, first[position - 1], reader):
                conflicts.append((field, number, position))  # staff too: one coup, one croupier
        if bet:
            if where is not None:
                where[f"/bets/{len(bets)}"] = (number, 1)
            bets.append(bet)
    coup["bets"] = bets
    return coup, conflicts


class _Where:
    """A CSV coup's positions: (line, column) of a pointer, its nearest field that is written."""

    __slots__ = ("rows", "cells", "found")

    def __init__(self, rows: list[tuple[int, list[str]]], cells: list[tuple]):
        self.rows, self.cells, self.found = rows, cells, None

    def __call__(self, pointer: str) -> tuple[int, int]:
        if self.found is None:
            self.found = {"": (self.rows[0][0], 1)}
            _assemble(self.rows, self.cells, self.found)
        return _nearest(self.found, pointer)


def _nearest(where: dict[str, tuple[int, int]], pointer: str) -> tuple[int, int]:
    while pointer not in where and pointer:
        pointer = pointer.rsplit("/", 1)[0]
    return where.get(pointer) or where[""]
