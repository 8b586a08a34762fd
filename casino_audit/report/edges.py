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
        stream.write(json.dumps([_entry(e) for e in edges], indent=2) + "\n")
        return
    table = Table(title=Text(title), title_justify="left")
    for column in ("bet", "house edge", "exact fraction", "note"):
        table.add_column(column, justify="right" if column == "house edge" else "left")
    for edge in edges:
        shown = f"{float(edge.house_edge):.4%}" if edge.exact else \
            f"{float(edge.house_edge):.3%} (simulated, 95 % {float(edge.ci95[0]):.3%} to {float(edge.ci95[1]):.3%})"
        table.add_row(Text(edge.bet), Text(shown), Text(str(edge.house_edge) if edge.exact else
                                                        f"{edge.rounds:,} rounds"), Text(edge.note))
    Console(file=stream, highlight=False, markup=False, emoji=False).print(table)


def _entry(edge) -> dict:
    entry = {"bet": edge.bet, "house_edge": float(edge.house_edge), "exact": edge.exact, "note": edge.note}
    if edge.exact:
        entry["fraction"] = str(edge.house_edge)
    else:
        entry["ci95"] = [float(edge.ci95[0]), float(edge.ci95[1])]
        entry["rounds"] = edge.rounds
    return entry
