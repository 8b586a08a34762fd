"""Sample punto banco / bacará logs: shoes shuffled from the law's decks, dealt by the ruleset's drawing table,
several seats betting, every bet settled by the engine; named breaches injected where asked."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Iterator

from casino_audit.games import baccarat
from casino_audit.replay import RANKS, SUITS, Terms
from casino_audit.samples import SESSION_BREAK
from casino_audit.replay.baccarat import _WORTH, GAMES, prepare  # _WORTH: the engine's card values by rank  # GAMES: the games the replay reads

DECKS = 6  # the shoe where the law fixes no count; the header then says so
BREACHES = {
    "wrong_payout": "a winning bet paid at even money where the schedule says otherwise (settlement)",
    "drawing_error": "the player stands on a total the table says to draw on (drawing)",
    "wrong_outcome": "the outcome declared for the other side (outcome)",
    "card_over_shoe": "burnt cards that take one card past what the shoe's decks hold (deal)",
    "unknown_chance": "a bet on a chance the game does not have (chances)",
    "stake_over_maximum": "a stake over the table's maximum (stake_limits)",
    "minimum_changed": "the table's minimum changed within a session (minimum_unchanged)",
    "coup_gap": "a coup number skipped (LOG-NUMBERING)",
}
START = datetime(2026, 11, 2, 21, 0, 0)
COUPS_PER_SESSION = 400
MINIMUM, MAXIMUM = Decimal(20), Decimal(2000)


def header_limits(legal) -> dict:
    """The punto banco table's limits: 20 to 2,000, within LU Art. 37-5's 200 times (`legal` is not needed)."""
    return {"minimum": int(MINIMUM), "maximum": int(MAXIMUM)}


def coups(game: str, terms: Terms, rng: random.Random, count: int, inject: set[str]) -> Iterator[dict]:
    prepared = prepare(game, terms)
    decks = terms.decks or DECKS
    chances = list(prepared.terms)
    planned = {name: rng.randrange(max(count // 2, 1)) for name in inject}  # room left for one that must wait
    shoe: list[str] = []
    shoe_number = 0
    when = START
    number = 0
    waiting: set[str] = set()  # breaches whose coup has come, waiting for a coup they fit (a third card to drop)
    burnt: list[str] = []  # the burn a new shoe starts with, logged with its first coup
    burn = prepared.burn or {}
    for index in range(count):
        fresh = len(shoe) < 16 + 11
        if fresh:  # the cut card: a new shoe
            shoe, burnt = _new_shoe(rng, decks, burn)
            shoe_number += 1
        elif burn.get("each_coup"):  # one before every coup but a shoe's first (PT bacará n.º 13)
            burnt = [shoe.pop() for _ in range(burn["each_coup"])]
        waiting |= {name for name, at in planned.items() if at == index}
        breaches = set(waiting)
        # a card over the shoe is burnt at a coup whose burn the law does not count, its burn staying whole; or
        # (where every coup's burn is counted) as the first cards of a shoe's start burn of at least `decks`
        over_in_burn = fresh and not burn.get("values") and len(burnt) >= decks and burn.get("each_coup")
        if burnt and not over_in_burn:
            breaches.discard("card_over_shoe")
        number += 2 if "coup_gap" in breaches else 1
        when += timedelta(seconds=rng.randint(35, 70))
        if index and index % COUPS_PER_SESSION == 0:  # the table closes between two séances
            when += SESSION_BREAK
        session = f"S{index // COUPS_PER_SESSION + 1}"
        player, banker = _deal(shoe, prepared.drawing)
        if "drawing_error" in breaches:
            if len(player) == 3 and len(banker) == 2:  # the player stands where the table says draw
                player = player[:2]
            else:
                breaches.discard("drawing_error")
        waiting -= breaches
        totals = (_total(player), _total(banker))
        outcome = baccarat.PLAYER if totals[0] > totals[1] else baccarat.BANKER if totals[1] > totals[0] \
            else baccarat.TIE
        coup = {"coup": number, "time": when.isoformat(), "session": session,
                "staff": {"croupier": f"C-{(index // 90) % 5 + 1}"}, "shoe": shoe_number,
                "player": player, "banker": banker, "outcome": outcome, "bets": []}
        if burnt:
            coup["burned"], burnt = burnt, []
        if "card_over_shoe" in breaches:
            coup["burned"] = [player[0]] * decks + (coup.get("burned") or [])[decks:] if over_in_burn else \
                [player[0]] * decks
        coup["bets"] = _bets(rng, chances, prepared.terms, outcome, totals[1])
        _inject(coup, breaches, rng, prepared, outcome)
        yield coup


def _new_shoe(rng: random.Random, decks: int, burn: dict) -> tuple[list[str], list[str]]:
    """(shoe, burnt): the decks shuffled, and the cards burnt at its start, taken off it."""
    shoe = [rank + suit for rank in RANKS for suit in SUITS] * decks
    rng.shuffle(shoe)
    burnt: list[str] = []
    if "values" in burn:  # the card turned, then as many burnt as its value (LU Art. 37-4)
        turned = shoe.pop()
        burnt = [turned] + [shoe.pop() for _ in range(burn["values"][turned[0]])]
    elif burn.get("shoe_start"):  # the first cards (PT bacará n.º 6: eight)
        burnt = [shoe.pop() for _ in range(burn["shoe_start"])]
    return shoe, burnt


def _bets(rng: random.Random, chances: list[str], terms: dict, outcome: str, banker_total: int) -> list[dict]:
    """One to four seats' bets, each settled by the engine."""
    bets = []
    for seat in rng.sample(range(1, 8), rng.randint(1, 4)):
        chance = rng.choice(chances)
        stake = MINIMUM * rng.choice((1, 1, 2, 3, 5, 10))
        net = baccarat.settle(outcome, {chance: stake}, {chance: terms[chance]}, banker_total=banker_total)[chance]
        bets.append({"seat": seat, "chance": chance, "stake": _amount(stake), "net": _amount(net)})
    return bets


def _inject(coup: dict, breaches: set[str], rng: random.Random, prepared, outcome: str) -> None:
    bets = coup["bets"]
    if "wrong_payout" in breaches:
        stake = Decimal(bets[0]["stake"])
        bets[0]["net"] = _amount(stake if Decimal(bets[0]["net"]) != stake else stake * 2)
    if "wrong_outcome" in breaches:
        coup["outcome"] = baccarat.BANKER if outcome != baccarat.BANKER else baccarat.PLAYER
    if "unknown_chance" in breaches:
        bets.append({"seat": 8, "chance": "dragon_bonus", "stake": 20, "net": -20})
    if "stake_over_maximum" in breaches:  # settled all the same, by the law: only the limit is broken
        chance, stake = bets[0]["chance"], MAXIMUM + MINIMUM
        totals = _total(coup["banker"])
        bets[0]["stake"] = _amount(stake)
        bets[0]["net"] = _amount(baccarat.settle(outcome, {chance: stake}, {chance: prepared.terms[chance]},
                                                 banker_total=totals)[chance])
    if "minimum_changed" in breaches:
        coup["limits"] = {"minimum": int(MINIMUM * 2), "maximum": int(MAXIMUM * 2)}


def _amount(value: Decimal):
    """An amount as a log writes it: a whole number as an integer, else text to the cent."""
    return int(value) if value == value.to_integral_value() else f"{value:.2f}"


def _total(hand: list[str]) -> int:
    """A hand's points, by the engine's card values (a card is its rank and its suit: "9h", "Th")."""
    return baccarat.points([_WORTH[card[0]] for card in hand])


def _deal(shoe: list[str], drawing) -> tuple[list[str], list[str]]:
    """One coup from the front of the shoe: player, banker, player, banker, then the thirds as the table says
    (the engine's drawing: one implementation of the rule of play)."""
    first = [shoe.pop() for _ in range(4)]  # dealt P1 B1 P2 B2
    player, banker = [first[0], first[2]], [first[1], first[3]]
    p2, b2 = _total(player), _total(banker)
    if baccarat.either_natural(drawing, p2, b2):
        return player, banker
    third = None
    if baccarat.player_draws(drawing, p2):
        player.append(shoe.pop())
        third = _WORTH[player[2][0]]
    if baccarat.banker_draws(drawing, b2, third):
        banker.append(shoe.pop())
    return player, banker
