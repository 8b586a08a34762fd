"""Parsers by file type: documents read whole (YAML, JSON), or records read one at a time (JSON Lines, CSV).

A record stream never sits in memory whole: a game log of millions of coups is read line by line
(casino_audit/logs/reader.py), each record's positions found only when a finding needs them, so a check sees
plain data whatever the format. The registry is the one list of file types; the pipeline asks it which files
to read and how.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from casino_audit.read.loader import FileLoad, FileStream, stream_file
from casino_audit.logs.csv_reader import read_csv
from casino_audit.logs.reader import Stream, read_json_lines



@dataclass(frozen=True)
class Parser:
    name: str
    extensions: tuple[str, ...]
    walked: bool  # read when met in a walked directory
    documents: Callable[[str, int], FileLoad | FileStream] | None = None
    records: Callable[[str, int], Stream] | None = None  # record streams are read whole whatever their size


def _csv_layout(header: dict):
    from casino_audit.replay import families

    if header.get("kind") == "meter-log":
        from casino_audit.meters.records import CSV_LAYOUT

        return CSV_LAYOUT
    module = families.for_game(header.get("game", ""))
    return getattr(module, "CSV_COLUMNS", None) if module is not None else None


def _json_lines(path: str, max_bytes: int) -> Stream:
    return read_json_lines(path)


def _csv(path: str, max_bytes: int) -> Stream:
    return read_csv(path, _csv_layout)


PARSERS: tuple[Parser, ...] = (
    Parser("yaml", (".yaml", ".yml"), walked=True, documents=stream_file),
    Parser("json", (".json",), walked=True, documents=stream_file),
    Parser("jsonl", (".jsonl", ".ndjson", ".jsonl.gz", ".ndjson.gz"), walked=True, records=_json_lines),
    Parser("csv", (".csv", ".csv.gz"), walked=True, records=_csv),
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
