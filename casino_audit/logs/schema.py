"""The whole game-log schema, as `casino-audit schema game-log` prints it: the header record, and under
`$defs` the coup record of every game family that has a replay engine."""

from __future__ import annotations

import copy

from casino_audit.documents import kinds
from casino_audit.games import registry
from casino_audit.replay import families


def game_log_schema() -> dict:
    document = copy.deepcopy(kinds.schema("game-log"))
    definitions = document.setdefault("$defs", {})
    for family in registry.FAMILIES:
        games = registry.games_of(family)
        module = families.module(family)
        if module is None:
            continue
        coup = {key: value for key, value in module.COUP_SCHEMA.items() if key != "$schema"}
        coup["description"] = (coup.get("description", "") + f" The coup record of {', '.join(games)} logs.").strip()
        definitions[f"{family}_coup"] = coup
    return document
