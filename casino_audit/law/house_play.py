"""Whether a house ruleset's rules of play can run its replay rules: the replay families' own `prepare` run
on the most a log and the run can bring; an aspect it still leaves unavailable, for a reason no log or parameter
can remove, is refused when the ruleset loads (casino_audit.law.rulesets), never passed as "not checked".
"""

from __future__ import annotations

import re

from casino_audit.core.pointers import child
from casino_audit.law.model import Ruleset
from casino_audit.law.schedules import law_schedule
from casino_audit.logs.terms import terms_for
from casino_audit.replay import Unavailable, families


# What a log or its table configuration can still bring to a replay: an aspect that waits for one of these is
# runnable; one that stays unavailable with all of them given can never run on the ruleset's play data. Each is
# the families' own wording, with spaces or backticks no name in the play data can spell (a parameter or chance
# is one lower-case word: a house parameter named `ruleset` or `punto_banco` once made "the ruleset states no
# chances for punto_banco" read as waiting for the run).
_SUPPLIED_LATER = ("table configuration", "`table_config`", "`limits`", "`decks`", "minimum is not known",
                   "number of decks")
# Where a reason names the parameter it waits for: "--param NAME", "(parameter NAME)", "the parameter NAME",
# "no value for NAME, NAME", "give NAME, NAME". It waits for the run only if NAME is a parameter the ruleset
# declares (one it does not can never be given: PT declares no roulette_zero_rule) and the probe could not value.
_PARAM_NAMED = re.compile(r"(?:--param |\bparameter |\bno value for |\bgive )((?:[a-z][a-z0-9_]*(?:, | and )?)+)")


def _waits_for_run(reason: str, unvalued: set[str]) -> bool:
    if any(phrase in reason for phrase in _SUPPLIED_LATER):
        return True
    named = {name for found in _PARAM_NAMED.findall(reason) for name in re.split(r", | and ", found) if name}
    return bool(named & unvalued)


def unrunnable(ruleset: Ruleset, own: dict[str, str], own_play: set[str]) -> list[tuple[str, str]]:
    """(pointer, message) of each of a house ruleset's replay rules whose aspect its rules of play can never run:
    its own rules, and every rule of a game whose `play:` it gives (its play data replace the game's whole entry,
    so a `drawing` given without the `bets` leaves the drawing, and every other aspect, not checked in any log: a
    breach passed as "not checked"). Which aspects need which play data is the families' own `prepare`: it is run
    on the most a log and the run can bring (the law's decks or six, limits, every parameter the ruleset lists
    values for), and an aspect it still leaves unavailable, for a reason no log or parameter can remove, is
    refused."""
    found = []
    probed: dict[str, dict[str, str]] = {}
    for rule in ruleset.rules:
        if rule.kind != "game-log" or rule.check.get("kind") != "replay":
            continue
        aspect = rule.check.get("verify")
        for game in rule.games or ():
            if rule.id not in own and game not in own_play:
                continue
            if game not in probed:
                probed[game] = _never_runs(ruleset, game)
            why = probed[game].get(aspect)
            if why is None:
                continue
            pointer = own.get(rule.id) or child("/play", game)
            found.append((pointer, f"{rule.id} replays the {aspect} of {game} logs, which this ruleset's rules of "
                                   f"play can never run: {why}; give the play data it needs under `play: {game}:` "
                                   "(a game's entry replaces the whole of the ruleset it extends)"))
    return found


def _never_runs(ruleset: Ruleset, game: str) -> dict[str, str]:
    """aspect -> why, for the aspects of `game`'s replay that stay unavailable on the ruleset's play data with
    everything a log and the run could give; {} where it cannot be told (the probe's values unreadable)."""
    module = families.for_game(game)
    if module is None:
        return {}
    values = {}
    for name, param in ruleset.params.items():
        try:
            if param.one_of:
                values[name] = param.parse(param.one_of[0])
            elif param.type in ("number", "integer"):
                values[name] = param.parse("1")
        except ValueError:
            continue
    unvalued = set(ruleset.params) - set(values)
    decks = (law_schedule(ruleset, game, "/cards") or {}).get("decks")
    header = {"limits": {"minimum": 10, "maximum": 100}, "decks": decks if isinstance(decks, int) else 6}
    try:
        module.prepare(game, terms_for(header, ruleset, game, values, "", []))
    except Unavailable as unavailable:
        if unavailable.unreadable:
            # the play data themselves unreadable (a stud `raise_times_ante: zzz`) can never run, and every log
            # would say so; where the reason names a parameter, the probe's own value may be what failed: untold
            unreadable = [aspect for aspect in unavailable.aspects if unavailable.unreadable_for(aspect)]
            if any(unavailable.reason(aspect) and any(name in unavailable.reason(aspect) for name in ruleset.params)
                   for aspect in unreadable):
                return {}
            return {aspect: unavailable.reason(aspect) for aspect in unreadable}
        return {aspect: unavailable.reason(aspect) for aspect in unavailable.aspects
                if not _waits_for_run(unavailable.reason(aspect), unvalued)}
    except Exception:  # noqa: BLE001 - the probe's own values: what cannot be told is never refused
        return {}
    return {}

