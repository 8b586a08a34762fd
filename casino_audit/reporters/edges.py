"""`casino-audit edge`: each bet's house edge, as a table for a person or JSON (the exact fraction beside it)."""

from __future__ import annotations

import json
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

FORMATS = ("rich", "json")


def report(title: str, edges: list, output_format: str, stream: TextIO) -> None:
    if output_format == "json":
        stream.write(json.dumps([{"bet": e.bet, "house_edge": float(e.house_edge), "fraction": str(e.house_edge),
                                  "exact": e.exact, "note": e.note} for e in edges], indent=2) + "\n")
        return
    table = Table(title=Text(title), title_justify="left")
    for column in ("bet", "house edge", "exact fraction", "note"):
        table.add_column(column, justify="right" if column == "house edge" else "left")
    for edge in edges:
        table.add_row(Text(edge.bet), Text(f"{float(edge.house_edge):.4%}"), Text(str(edge.house_edge)),
                      Text(edge.note))
    Console(file=stream, highlight=False, markup=False, emoji=False).print(table)
