"""The one list of game families and the games each replays; a family's module is imported when a log of one
of its games comes (a run over punto banco logs never imports the blackjack engine)."""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType

GAMES_BY_FAMILY: dict[str, tuple[str, ...]] = {
    "baccarat": ("punto_banco", "bacara_ponto_banca", "bacara_macau"),
    "roulette": ("roulette", "american_roulette", "french_roulette", "english_roulette"),
    "stud": ("stud_poker", "poker_sem_descarte"),
    "blackjack": ("blackjack",),
    "dice": ("banca_francesa", "craps", "cussec"),
}
FAMILY_OF = {game: family for family, games in GAMES_BY_FAMILY.items() for game in games}


@lru_cache(maxsize=None)
def module(family: str) -> ModuleType | None:
    """The family's replay module, or None where none is built yet."""
    try:
        return importlib.import_module(f"casino_audit.replay.{family}")
    except ModuleNotFoundError as error:
        if error.name != f"casino_audit.replay.{family}":
            raise
        return None


def for_game(game: str) -> ModuleType | None:
    family = FAMILY_OF.get(game)
    return module(family) if family else None


def aspects(game: str) -> dict[str, str]:
    """What the family's replay verifies, by aspect name; {} where no engine replays the game."""
    found = for_game(game)
    return dict(found.ASPECTS) if found else {}
