"""The one registry of table games: each game's name, family and the parts of a table configuration only some
games have; and, per family, its engine, replay, edge engine and sample generator, found by small explicit
functions. Which jurisdictions hold a game is the rulesets' to say (their `play:` and rules): a jurisdiction is
added as a YAML file, with no line here.

Plain data: importing this module imports nothing of the package. The family's modules are imported when asked
for (a run over punto banco logs never imports the blackjack engine), and replay/ and samples/ import
this module, so they could not be imported here at module level without a cycle.

To add a game: its row in GAMES (and, for a new family, its name in FAMILIES and a branch in each function
below); then `python -m casino_audit.documents.game_enums` writes the schemas' game lists from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

# The families' order is the schema's and the docs' ($defs, the CSV sections).
FAMILIES = ("baccarat", "roulette", "stud", "blackjack", "dice")

_CARDS = frozenset({"cards", "shuffler", "shoe"})  # the card games' tables: playing cards, a shuffler, a shoe
_COLOUR_CHIPS = frozenset({"chips/colour_series", "chips/table_mark"})  # valueless colour chips


@dataclass(frozen=True)
class Game:
    name: str  # as a table configuration's and a game log's `game` names it
    family: str | None  # the replay family; None where no engine replays, samples or prices the game
    parts: frozenset[str] = frozenset()  # the table-configuration parts only some games' tables have

    @property
    def engine(self) -> ModuleType | None:
        return engine_module(self.family)


# In the order the schemas list them.
GAMES: tuple[Game, ...] = (
    Game("roulette", "roulette", frozenset({"wheel", "series_bets"})),
    Game("american_roulette", "roulette", frozenset({"wheel", "series_bets"}) | _COLOUR_CHIPS),
    Game("french_roulette", "roulette", frozenset({"wheel"}) | _COLOUR_CHIPS),
    Game("english_roulette", "roulette", frozenset({"wheel", "table/compartments", "chips/plaque_value_in_chips"})
         | _COLOUR_CHIPS),
    Game("trente_et_quarante", None, _CARDS),
    Game("blackjack", "blackjack", _CARDS | {"insurance", "side_bets/super_jack", "side_bets/jackpot"}),
    Game("craps", "dice", frozenset({"dice"})),
    Game("punto_banco", "baccarat", _CARDS | {"commission"}),
    Game("stud_poker", "stud", _CARDS),
    Game("banca_francesa", "dice", frozenset({"dice"})),
    Game("cussec", "dice", frozenset({"dice"})),
    Game("poker_sem_descarte", "stud", _CARDS | {"side_bets/jackpot"}),
    Game("bacara_ponto_banca", "baccarat", _CARDS | {"commission"}),
    Game("bacara_macau", "baccarat", _CARDS | {"commission"}),
)
BY_NAME: dict[str, Game] = {game.name: game for game in GAMES}


def names() -> tuple[str, ...]:
    """Every game's name: a table configuration's `game`."""
    return tuple(game.name for game in GAMES)


def replayed() -> tuple[str, ...]:
    """The games a family replays: a game log's `game`."""
    return tuple(game.name for game in GAMES if game.family is not None)


def games_of(family: str) -> tuple[str, ...]:
    return tuple(game.name for game in GAMES if game.family == family)


def family_of(game: str) -> str | None:
    found = BY_NAME.get(game)
    return found.family if found is not None else None


def with_part(part: str) -> tuple[str, ...]:
    """The games whose tables may have `part` ("cards", "side_bets/jackpot")."""
    return tuple(game.name for game in GAMES if part in game.parts)


# Each import below is lazy: replay/, edge/ and samples/ import this registry, and a run imports only the
# families of the games it meets.
def engine_module(family: str | None) -> ModuleType | None:
    """The family's game engine (casino_audit/games/): the rules of play as pure functions."""
    if family == "baccarat":
        from casino_audit.games import baccarat as module
    elif family == "roulette":
        from casino_audit.games import roulette as module
    elif family == "stud":
        from casino_audit.games import poker_stud as module
    elif family == "blackjack":
        from casino_audit.games import blackjack as module
    elif family == "dice":
        from casino_audit.games import dice as module
    else:
        return None
    return module
