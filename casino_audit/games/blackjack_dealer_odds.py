"""The exact odds of a blackjack dealer's finals (17 to 21, blackjack, bust) by up-card and drawing rule, from a
finite shoe or an infinite deck: what the house edge (casino_audit/edge/blackjack.py) is computed from."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Sequence

from casino_audit.games.blackjack import BLACKJACK, BUST, DEALER_FINALS, HITS_SOFT_17, STANDS_ON_17


def full_shoe(decks: int) -> tuple[int, ...]:
    """Counts per value 1 (ace) to 10 (ten-cards) of `decks` decks of 52."""
    return tuple([4 * decks] * 9 + [16 * decks])


def _dealer_stops(hard: int, ace: bool, cards: int, rule: str) -> tuple | None:
    """The dealer's final, certain, when the hand stands (or is a blackjack, or bust); None when it draws."""
    total = hard + 10 if ace and hard + 10 <= 21 else hard
    soft = ace and hard + 10 <= 21
    if cards == 2 and total == 21:
        return ((BLACKJACK, Fraction(1)),)
    if total > 21:
        return ((BUST, Fraction(1)),)
    if not (total < 17 or (rule == HITS_SOFT_17 and total == 17 and soft)):
        return ((total, Fraction(1)),)
    return None


@lru_cache(maxsize=None)
def _dealer_finite(counts: tuple[int, ...], hard: int, ace: bool, cards: int, rule: str) -> tuple:
    stopped = _dealer_stops(hard, ace, cards, rule)
    if stopped is not None:
        return stopped
    left = sum(counts)
    found: dict = {}
    for index, count in enumerate(counts):
        if not count:
            continue
        after = counts[:index] + (count - 1,) + counts[index + 1:]
        for final, chance in _dealer_finite(after, hard + index + 1, ace or index == 0, cards + 1, rule):
            found[final] = found.get(final, 0) + chance * Fraction(count, left)
    return tuple(sorted(found.items(), key=lambda item: DEALER_FINALS.index(item[0])))


def dealer_table(up: int, rule: str, counts: Sequence[int] | None = None) -> dict:
    """P(each dealer final: 17 to 21, blackjack, bust) with the up-card worth `up` (1 ace to 10), the dealer
    drawing by `rule` from a shoe of `counts` per value 1 to 10 (the up-card already taken out), every order
    equally likely; `counts` None: an infinite deck (each value 1/13, ten-cards 4/13). The hole card is not
    peeked at: a blackjack is one of the finals."""
    if rule not in (STANDS_ON_17, HITS_SOFT_17) or up not in range(1, 11):
        raise ValueError(f"dealer_table: up-card value 1 to 10 and a rule ({STANDS_ON_17}/{HITS_SOFT_17})")
    if counts is None:
        return dict(_dealer_infinite(up, up == 1, 1, rule))
    counts = tuple(counts)
    if len(counts) != 10 or any(not isinstance(n, int) or n < 0 for n in counts):
        raise ValueError("a shoe is ten counts, of values 1 (ace) to 10")
    return dict(_dealer_finite(counts, up, up == 1, 1, rule))


INFINITE = tuple([Fraction(1, 13)] * 9 + [Fraction(4, 13)])


@lru_cache(maxsize=None)
def _dealer_infinite(hard: int, ace: bool, cards: int, rule: str) -> tuple:
    stopped = _dealer_stops(hard, ace, cards, rule)
    if stopped is not None:
        return stopped
    found: dict = {}
    for index, chance in enumerate(INFINITE):
        for final, inner in _dealer_infinite(hard + index + 1, ace or index == 0, cards + 1, rule):
            found[final] = found.get(final, 0) + chance * inner
    return tuple(sorted(found.items(), key=lambda item: DEALER_FINALS.index(item[0])))
