"""The house edge of every bet of a game, under a jurisdiction's law or a table's own schedule, computed exactly by
the game engines (casino_audit/games/) from the rules of play the ruleset holds (`play:`).

The payouts are the table's (`--table FILE`: its `payouts:`) or else the law's closed schedule for the game (the
`schedule` rule on /payouts); the rules of play come only from the ruleset. Where the law leaves something out
(the Portuguese bacará drawing table, LU roulette's zero), nothing is guessed: the edge is not computed and the
error says what is missing.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Mapping

from casino_audit.edge.common import Edge, EdgeError, Options, schedule_of, with_left_out
from casino_audit.games import baccarat, registry, roulette
from casino_audit.law.schedules import law_schedule

def edges(ruleset, game: str, table: Mapping[str, Any] | None = None, options: Options = Options()) -> list[Edge]:
    """Each bet's edge. The payouts are the table's, else the law's schedule, else None: an engine whose game
    needs a schedule says so (`schedule_of`); blackjack's are in its rules of play."""
    table = table or {}
    engine = engine_for(registry.family_of(game))
    if engine is None:
        priced = sorted(name for name in registry.names() if engine_for(registry.family_of(name)))
        raise EdgeError(f"no engine computes the house edge of {game} yet ({', '.join(priced)} have one)")
    payouts = table.get("payouts") or law_schedule(ruleset, game, "/payouts")
    return engine(ruleset, game, ruleset.play.get(game), payouts, table, options)


def baccarat_edges(ruleset, game, play, payouts, table, options: Options) -> list[Edge]:
    payouts = schedule_of(ruleset, game, payouts)
    decks = options.decks
    if play is None or "drawing" not in play.data or "bets" not in play.data:
        raise EdgeError(f"the {ruleset.code} ruleset has no drawing table for {game} under `play:` (the law's text "
                        "gives none, or it is not encoded): its edges are not computed")
    decks = decks or (table.get("cards") or {}).get("decks") or (law_schedule(ruleset, game, "/cards") or {}).get(
        "decks")
    if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
        raise EdgeError(f"the number of decks is not known for {game}: give --decks or a table that says it")
    terms = {}
    for name, bet in play.data["bets"].items():
        if bet["wins_on"] in baccarat.PAIRS:
            continue  # a pair bet does not turn on the outcome the enumeration counts
        if name not in payouts:
            raise EdgeError(f"the payouts give nothing for {name}")
        terms[name] = {**bet, "pays": payouts[name] if not isinstance(payouts[name], float) else str(payouts[name])}
    found = baccarat.house_edge(baccarat.full_shoe(decks), play.data["drawing"], terms)
    return with_left_out([Edge(name, found[name], note=f"{decks} decks") for name in terms],
                         [name for name in payouts if name not in terms],
                         f"the {ruleset.code} rules of play for {game} give no way to compute them")


def roulette_edges(ruleset, game, play, payouts, table, options: Options) -> list[Edge]:
    payouts = schedule_of(ruleset, game, payouts)
    zero_rule = options.zero_rule
    pockets = (table.get("wheel") or {}).get("pockets", 37)
    if type(pockets) is not int or pockets not in (37, 38):
        raise EdgeError(f"the table's wheel has {pockets!r} pockets: the edge is computed for a wheel of 37 "
                        "(a single zero) or 38 (zero and double zero)")
    wheel = roulette.DOUBLE_ZERO if pockets == 38 else roulette.SINGLE_ZERO
    try:
        given = roulette.ZeroRule(zero_rule) if zero_rule else None
        rule = roulette.zero_rule_for(play, given)
    except roulette.ZeroRuleMissing:
        raise EdgeError(f"the law states nothing of the zero at {game}: give the rule with --zero-rule "
                        "(lose, half_back or en_prison_one_spin)") from None
    except ValueError as error:
        raise EdgeError(str(error)) from None
    found, named = [], set()
    for kind, shapes in roulette.legal_bets(wheel).items():
        try:
            roulette.payout_for(kind, payouts)
        except KeyError:
            continue  # a bet the schedule does not offer
        except (TypeError, ValueError) as error:
            raise EdgeError(str(error)) from None
        named.update(roulette.PAYOUT_NAMES[kind])
        named.update(roulette.SIMPLE_CHANCES_GROUP_NAMES if kind in roulette.SIMPLE_CHANCES else ())
        values = {roulette.house_edge(wheel, roulette.Bet(kind, numbers, Decimal(1)), payouts, rule)
                  for numbers in shapes}
        note = "" if len(values) == 1 else f"from {float(min(values)):.4%} for some placings"
        found.append(Edge(kind, max(values), note=note))
    return with_left_out(found, [name for name in payouts if name not in named],
                         f"no bet of a {pockets}-pocket wheel goes by that name")


def engine_for(family: str | None) -> Callable[..., list[Edge]] | None:
    """The family's house-edge engine: engine(ruleset, game, play, payouts, table, options); None where no
    engine computes the family's edges. The games of a family are the registry's (casino_audit.games.registry)."""
    # start-up: each family's engine is imported when an edge of it is asked for
    if family == "baccarat":
        return baccarat_edges
    if family == "roulette":
        return roulette_edges
    if family == "stud":
        from casino_audit.edge.stud import stud_ante_edge
        return stud_ante_edge
    if family == "blackjack":
        from casino_audit.edge.blackjack import engine
        return engine
    if family == "dice":
        from casino_audit.edge.dice import edges as dice_edges
        return dice_edges
    return None
