"""The house edge of every bet of a game, under a jurisdiction's law or a table's own schedule, computed exactly by
the game engines (casino_audit/games/) from the rules of play the ruleset holds (`play:`).

The payouts are the table's (`--table FILE`: its `payouts:`) or else the law's closed schedule for the game (the
`schedule` rule on /payouts); the rules of play come only from the ruleset. Where the law leaves something out
(the Portuguese bacará drawing table, LU roulette's zero), nothing is guessed: the edge is not computed and the
error says what is missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Mapping

from casino_audit.games import baccarat, blackjack_edge, roulette
from casino_audit.games.stud_edge import stud_ante_edge

ROULETTES = ("roulette", "american_roulette", "french_roulette", "english_roulette")
BACCARATS = ("punto_banco", "bacara_ponto_banca", "bacara_macau")


class EdgeError(Exception):
    """The edge cannot be computed: an engine is missing, or a value the law leaves out."""


@dataclass(frozen=True)
class Edge:
    bet: str
    house_edge: Fraction  # the bank's expected gain per unit staked (an estimate when not exact)
    exact: bool = True
    note: str = ""
    ci95: tuple[Fraction, Fraction] | None = None  # a simulation's 95 % interval, when not exact
    rounds: int | None = None  # the simulation's rounds, when not exact


@dataclass(frozen=True)
class Options:
    """What the command line may give: the shoe's decks, a zero rule where the law says none, a simulation's
    rounds and seed (the games computed by simulation say so, with their interval)."""

    decks: int | None = None
    zero_rule: str | None = None
    rounds: int = 200_000
    seed: int = 1
    params: Mapping[str, Any] = field(default_factory=dict)  # the values the law leaves out, parsed by the ruleset


def law_schedule(ruleset, game: str, target: str) -> dict | None:
    """The values the law's schedules give at `target` for a game (e.g. its payouts), or None: every schedule
    rule there contributes its entries (PT póquer sem descarte states the high cards' prize in a rule of its own,
    PT-PSD-HIGH-CARD, beside PT-PSD-PAYOUTS); the first rule to give an entry gives its value."""
    found: dict | None = None
    for rule in ruleset.rules:
        check = rule.check
        if game in rule.games and check.get("kind") == "schedule" and check.get("target") == target \
                and "equals" in check and not check.get("per"):
            found = found if found is not None else {}
            for key, value in check["equals"].items():
                found.setdefault(key, value)
    return found


def edges(ruleset, game: str, table: Mapping[str, Any] | None = None, options: Options = Options()) -> list[Edge]:
    """Each bet's edge. The payouts are the table's, else the law's schedule, else None: an engine whose game
    needs a schedule says so (`schedule_of`); blackjack's are in its rules of play."""
    table = table or {}
    engine = ENGINES.get(game)
    if engine is None:
        raise EdgeError(f"no engine computes the house edge of {game} yet ({', '.join(sorted(ENGINES))} have one)")
    payouts = table.get("payouts") or law_schedule(ruleset, game, "/payouts")
    return engine(ruleset, game, ruleset.play.get(game), payouts, table, options)


def schedule_of(ruleset, game: str, payouts: Mapping | None) -> Mapping:
    """The payout schedule a game's edge needs, or the error that says where to give one."""
    if not payouts:
        raise EdgeError(f"neither a table's `payouts:` nor the {ruleset.code} ruleset gives a payout schedule for "
                        f"{game}: give a table configuration that states it with --table")
    return payouts


def with_left_out(found: list[Edge], left_out, why: str) -> list[Edge]:
    """The edges, the first row's note naming the bets of the schedule that were not computed (a table's own bet
    no engine knows, a bet of a kind the wheel lacks): none is dropped in silence."""
    left_out = sorted(set(left_out), key=str)
    if not left_out or not found:
        return found
    first = found[0]
    note = f"{', '.join(map(str, left_out))} left out: {why}"
    return [Edge(first.bet, first.house_edge, first.exact, "; ".join(filter(None, (first.note, note))), first.ci95,
                 first.rounds), *found[1:]]


def _baccarat(ruleset, game, play, payouts, table, options: Options) -> list[Edge]:
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


def _roulette(ruleset, game, play, payouts, table, options: Options) -> list[Edge]:
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


def _dice(*arguments) -> list[Edge]:
    from casino_audit.games import dice_edge  # imports this module: loaded when first used
    return dice_edge.edges(*arguments)


# game -> engine(ruleset, game, play (the ruleset's Play or None), payouts, table (mapping), options)
ENGINES: dict[str, Callable[..., list[Edge]]] = {
    **{game: _baccarat for game in BACCARATS},
    **{game: _roulette for game in ROULETTES},
    **{game: _dice for game in ("banca_francesa", "craps", "cussec")},
    "blackjack": blackjack_edge.engine,
    "stud_poker": stud_ante_edge,
    "poker_sem_descarte": stud_ante_edge,
}
