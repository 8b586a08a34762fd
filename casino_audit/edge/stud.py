"""The house edge of the stud poker ante (per unit of ante, the raise included in what a round returns), under a
declared strategy, by a seeded simulation with a 95 % interval; exactly, by enumeration, for reduced decks.

The rules of play and the payouts are the ruleset's and the schedule's (casino_audit.edge passes them); an
outcome the law leaves to a parameter is needed only if the strategy reaches it: then the edge is not
computed, and the error names the parameter.
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal, localcontext
from fractions import Fraction
from itertools import combinations
from typing import Callable, Iterable, Mapping

from casino_audit.edge.common import Edge, EdgeError, schedule_of
from casino_audit.games.poker import SUITS, Card, Category, classify
from casino_audit.games.poker_stud import (StudRules, UnstatedOutcome, bind_params, decide, paytable_from_payouts,
                                           stud_rules)

DECK = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUITS)
STRATEGY = "the player raises with a pair or better and folds every other hand (the dealer's up card unread)"
Z95 = Decimal("1.959963984540054")


def pair_or_better(hand: tuple[Card, ...], up: Card) -> bool:
    return classify(hand).category > Category.HIGH_CARD


def round_result(hand, dealer, rules: StudRules, paytable, raises: bool) -> Fraction:
    """What one round returns per unit of ante (ante and raise together); UnstatedOutcome if the rules are silent."""
    decided = decide(hand if raises else None, dealer, rules, paytable)
    return decided.ante + (rules.raise_times_ante * decided.raise_ if raises else 0)


def simulate(rules: StudRules, paytable, rounds: int, rng: random.Random, deck: Iterable[Card] = DECK,
             strategy: Callable = pair_or_better) -> tuple[Fraction, tuple[Fraction, Fraction]]:
    """The house edge per unit of ante over `rounds` deals of two hands from the shuffled deck, and its 95 %
    interval (normal approximation; the results' variance is taken from the rounds themselves)."""
    deck = list(deck)
    tally: Counter = Counter()
    folds = 0  # a fold's result does not depend on the cards: counted, settled once below
    for _ in range(rounds):
        cards = rng.sample(deck, 10)
        hand, dealer = tuple(cards[:5]), tuple(cards[5:])
        if strategy(hand, dealer[-1]):
            tally[round_result(hand, dealer, rules, paytable, True)] += 1
        else:
            folds += 1
    if folds:
        tally[round_result(None, tuple(deck[:5]), rules, paytable, False)] += folds
    mean = sum(value * count for value, count in tally.items()) / rounds
    variance = sum(count * (value - mean) ** 2 for value, count in tally.items()) / max(rounds - 1, 1)
    with localcontext() as context:
        context.prec = 30
        half = Fraction(Z95 * (Decimal(variance.numerator) / Decimal(variance.denominator) / rounds).sqrt())
    return -mean, (-mean - half, -mean + half)


def exact_edge(rules: StudRules, paytable, deck: Iterable[Card], strategy: Callable = pair_or_better) -> Fraction:
    """The house edge per unit of ante over every deal of the deck (the player's five, then the dealer's five
    of the rest, his last card face up): C(n, 5) * C(n - 5, 5) * 5 deals, for small decks only."""
    deck = tuple(deck)
    total, deals = Fraction(0), 0
    for hand in combinations(deck, 5):
        rest = [card for card in deck if card not in hand]
        for dealer in combinations(rest, 5):
            for up in dealer:  # each of the dealer's cards may be the one face up
                total += round_result(hand, dealer, rules, paytable, strategy(hand, up))
                deals += 1
    return -total / deals


def stud_ante_edge(ruleset, game: str, play, payouts: Mapping, table: Mapping, options) -> list:

    if play is None:
        raise EdgeError(f"the {ruleset.code} ruleset has no rules of play for {game} under `play:`")

    rules = stud_rules(bind_params(play.data, options.params, strict=False))
    paytable = paytable_from_payouts(game, schedule_of(ruleset, game, payouts))
    try:
        edge, interval = simulate(rules, paytable, options.rounds, random.Random(options.seed))
    except UnstatedOutcome as silent:
        names = _params(play.data)
        raise EdgeError(f"{game}: {silent}. The {ruleset.code} law leaves it out: give the ruleset parameter "
                        f"{' or '.join(names) or '(none declared)'} with --param") from None
    note = f"{STRATEGY}; simulated, {options.rounds:,} rounds, seed {options.seed}"
    return [Edge("ante", edge, exact=False, note=note, ci95=interval, rounds=options.rounds)]


def _params(data) -> list[str]:
    names = []
    for entry in (data.get("outcomes") or {}).values():
        names += [value["param"] for value in entry.values() if isinstance(value, Mapping) and "param" in value]
    return names
