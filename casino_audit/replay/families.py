"""A game's replay family, as casino_audit/games/registry.py lists them; a family's module is imported when a log
of one of its games comes (a run over punto banco logs never imports the blackjack engine)."""

from __future__ import annotations

from types import ModuleType

from casino_audit.games import registry
from casino_audit.law.citations import provision_citation, provisions_in


def module(family: str | None) -> ModuleType | None:
    """The family's replay of a game log (casino_audit/replay/), or None where none is built."""
    # start-up: a family's replay is imported when a log of one of its games comes
    if family == "baccarat":
        from casino_audit.replay import baccarat as found
    elif family == "roulette":
        from casino_audit.replay import roulette as found
    elif family == "stud":
        from casino_audit.replay import stud as found
    elif family == "blackjack":
        from casino_audit.replay import blackjack as found
    elif family == "dice":
        from casino_audit.replay import dice as found
    else:
        return None
    return found


def for_game(game: str) -> ModuleType | None:
    return module(registry.family_of(game))


def aspects(game: str) -> dict[str, str]:
    """What the family's replay verifies, by aspect name; {} where no engine replays the game."""
    found = for_game(game)
    return dict(found.ASPECTS) if found else {}


def provisions(ruleset, rule) -> list[tuple[str, object]]:
    """(game, Citation) of each provision of the rules of play a finding of this replay rule may cite, besides
    the rule's own citation: the family's `provisions(play data, aspect)` where it has one, else every citation
    the game's play data quotes; once each, in order."""
    if rule.check.get("kind") != "replay":
        return []
    aspect = rule.check.get("verify")
    found: list[tuple[str, object]] = []
    seen: set = set()
    for game in rule.games or tuple(ruleset.play):
        play = ruleset.play.get(game)
        engine = for_game(game)
        if play is None or engine is None or aspect not in getattr(engine, "ASPECTS", {}):
            continue
        listed = getattr(engine, "provisions", None)
        raws = listed(play.data, aspect) if listed is not None else [raw for _, raw in _all(play.data)]
        for raw in raws:
            citation = provision_citation(raw, play.instruments)
            if citation is not None and (citation.article, citation.text) not in seen:
                seen.add((citation.article, citation.text))
                found.append((game, citation))
    return found


def _all(data):
    return provisions_in(data)
