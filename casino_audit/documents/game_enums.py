"""The game lists of the hand-written schemas, written from the registry (casino_audit/games/registry.py): the
`game` enum of a table configuration (every game) and of a game log (the games a family replays), and, in the
table schema, the games whose tables may have each part (`cards`, `side_bets/jackpot`) with the message that
names them. Everything else in the schemas is written by hand and kept as it is.

    python -m casino_audit.documents.game_enums      rewrites casino_audit/schemas/{table,game-log}.schema.json
(tests/test_games_registry.py holds the shipped files equal to what this writes).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Callable

from casino_audit.games import registry

SCHEMAS_DIR = Path(__file__).resolve().parent.parent / "schemas"
# file name -> (the games its `game` enum lists, whether the file escapes non-ASCII as it was first written)
FILES: dict[str, tuple[Callable[[], tuple[str, ...]], bool]] = {
    "table.schema.json": (registry.names, False),
    "game-log.schema.json": (registry.replayed, True),
}
_LISTED = re.compile(r"(is part of ).*?( tables only)")


def generated(file_name: str) -> str:
    """The schema file's text with its game lists as the registry has them."""
    games, ascii_only = FILES[file_name]
    schema = json.loads((SCHEMAS_DIR / file_name).read_text("utf-8"))
    schema["properties"]["game"]["enum"] = list(games())
    for condition in schema.get("allOf", ()):
        game = condition.get("then", {}).get("properties", {}).get("game")
        if game is None or "enum" not in game:
            continue
        names = list(registry.with_part(_part(condition["if"])))
        if not names:
            raise ValueError(f"no game of the registry has the part {_part(condition['if'])!r}")
        game["enum"] = names
        if "$comment" in game:
            game["$comment"] = _LISTED.sub(lambda found: found[1] + _spoken(names) + found[2], game["$comment"])
    return json.dumps(schema, indent=2, ensure_ascii=ascii_only) + "\n"


def _part(condition: dict) -> str:
    """The part an `if` asks for: {required: [cards]} is "cards"; {required: [chips], properties: {chips:
    {required: [table_mark]}}} is "chips/table_mark"."""
    (head,) = condition["required"]
    inner = (condition.get("properties") or {}).get(head)
    return f"{head}/{_part(inner)}" if inner else head


def _spoken(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def main() -> None:
    for file_name in FILES:
        (SCHEMAS_DIR / file_name).write_text(generated(file_name), "utf-8")


if __name__ == "__main__":
    main()
