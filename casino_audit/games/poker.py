"""Five-card poker hands: cards, categories, and the order of hands.

What the jurisdictions agree on lives here (the card order "As, roi, dame, valet, dix, ..., deux", the ace
counting as one only in the straights: LU Art. 37-6, MC AM 2003-281, PT póquer sem descarte n.º 1 and
n.º 7 c)). How far two hands of one category are compared, and what a stud coup pays, differ between
jurisdictions: they are data read by poker_stud.py.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache
from math import comb
from typing import Iterable, NamedTuple

RANKS = "23456789TJQKA"  # ascending; a card's rank is 2..14
SUITS = "cdhs"
ACE, KING = 14, 13


class Card(NamedTuple):
    rank: int
    suit: str

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit


def parse_card(text: str) -> Card:
    """ "As", "Td", "9h": rank then suit. Anything else is refused rather than read loosely ("10h", "as")."""
    if not isinstance(text, str) or len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"not a card: {text!r} (rank one of {RANKS}, then suit one of {SUITS})")
    return Card(RANKS.index(text[0]) + 2, text[1])


def parse_hand(cards: str | Iterable[str]) -> tuple[Card, ...]:
    """Five distinct cards, given as "As Kd Qh Jc Ts" or as a list of card strings; parsed once."""
    texts = cards.split() if isinstance(cards, str) else list(cards)
    hand = tuple(parse_card(text) for text in texts)
    if len(hand) != 5:
        raise ValueError(f"a hand has 5 cards, not {len(hand)}: {' '.join(texts)}")
    if len(set(hand)) != 5:
        raise ValueError(f"a card is given twice: {' '.join(texts)}")
    return hand


class Category(IntEnum):
    """Ascending, so that comparing categories compares hands of different categories."""
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIRS = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9


# The one naming of the categories: the name rules data uses (snake case), and the payout key each game's
# filings and rulesets use (table `payouts:`; LU-STUD-PAYOUTS and MC-STUD-PAYOUTS for stud_poker,
# PT-PSD-PAYOUTS and PT-PSD-HIGH-CARD for poker_sem_descarte). Stud poker's schedule has no high card entry:
# "Les joueurs ne peuvent faire usage que des combinaisons suivantes" starts at "1 paire".
CATEGORY_NAMES = {category: category.name.lower() for category in Category}
PAYOUT_KEYS: dict[str, dict[Category, str]] = {
    "stud_poker": {
        Category.ONE_PAIR: "une_paire", Category.TWO_PAIRS: "deux_paires", Category.THREE_OF_A_KIND: "brelan",
        Category.STRAIGHT: "quinte", Category.FLUSH: "couleur", Category.FULL_HOUSE: "full",
        Category.FOUR_OF_A_KIND: "carre", Category.STRAIGHT_FLUSH: "quinte_flush",
        Category.ROYAL_FLUSH: "quinte_royale"},
    "poker_sem_descarte": {
        Category.HIGH_CARD: "cartas_maiores", Category.ONE_PAIR: "um_par", Category.TWO_PAIRS: "dois_pares",
        Category.THREE_OF_A_KIND: "trio", Category.STRAIGHT: "sequencia", Category.FLUSH: "cor",
        Category.FULL_HOUSE: "full", Category.FOUR_OF_A_KIND: "poquer", Category.STRAIGHT_FLUSH: "sequencia_de_cor",
        Category.ROYAL_FLUSH: "sequencia_real_de_cor"},
}


def category_named(name: str) -> Category:
    for category, known in CATEGORY_NAMES.items():
        if known == name:
            return category
    raise ValueError(f"unknown hand category {name!r}; known: {', '.join(CATEGORY_NAMES.values())}")


class HandRank(NamedTuple):
    """A hand's category and its ranks in the order they are compared, each rank once: the largest group
    first (the pair before the kickers, the three of a full house before its pair), then by rank; a
    straight's from its top card, the wheel's ace counted as 1. Tuples compare as hands do, so HandRank is the ranking key;
    suits never order hands (a jurisdiction's tie-break that reads them reads the cards)."""
    category: Category
    ranks: tuple[int, ...]


def classify(hand: tuple[Card, ...]) -> HandRank:
    """The best reading of five parsed cards (parse_hand)."""
    suit = hand[0].suit
    return _classified(tuple(sorted(card.rank for card in hand)), all(card.suit == suit for card in hand))


@lru_cache(maxsize=16_384)  # a hand reads by its ranks and "one suit" alone: 7,462 readings (simulations repeat them)
def _classified(ranks_ascending: tuple[int, ...], flush: bool) -> HandRank:
    counts: dict[int, int] = {}
    for rank in ranks_ascending:
        counts[rank] = counts.get(rank, 0) + 1
    # Largest group first, then higher rank: (9, 3), (4, 2) for 9-9-9-4-4, ranks (9, 4).
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    ranks = tuple(rank for rank, _ in groups)
    if len(groups) == 5:
        straight_top = _straight_top(ranks)
        if straight_top:
            straight_ranks = tuple(range(straight_top, straight_top - 5, -1))  # the wheel's ace as 1
            if not flush:
                return HandRank(Category.STRAIGHT, straight_ranks)
            category = Category.ROYAL_FLUSH if straight_top == ACE else Category.STRAIGHT_FLUSH
            return HandRank(category, straight_ranks)
        return HandRank(Category.FLUSH if flush else Category.HIGH_CARD, ranks)
    shape = tuple(count for _, count in groups)
    category = {(4, 1): Category.FOUR_OF_A_KIND, (3, 2): Category.FULL_HOUSE, (3, 1, 1): Category.THREE_OF_A_KIND,
                (2, 2, 1): Category.TWO_PAIRS, (2, 1, 1, 1): Category.ONE_PAIR}[shape]
    return HandRank(category, ranks)


def _straight_top(descending: tuple[int, ...]) -> int:
    """The top card of five distinct ranks in a row, 0 if they are not; A-2-3-4-5 is the straight to 5,
    "l'as vaut un dans les seules combinaisons de la quinte et de la quinte flush"; K-A-2-3-4 is none."""
    if descending[0] - descending[4] == 4:
        return descending[0]
    if descending == (ACE, 5, 4, 3, 2):
        return 5
    return 0


def hand_counts(classify_hand=classify, ranks: Iterable[int] = range(2, 15), suits: str = SUITS) -> dict[Category, int]:
    """How many five-card hands of a deck (every rank in every suit) fall in each category, exactly, without
    dealing them: one representative is classified per rank multiset and suit pattern, and weighted by how
    many hands it stands for.

    Suits matter only through "all five of one suit". A hand with a repeated rank cannot be suited, so every
    hand of a multiset with multiplicities m_r reads alike: prod C(S, m_r) of them. Five distinct ranks
    are S suited hands and S**5 - S others. 6,175 multisets (7,462 calls) stand for C(52, 5) hands.
    """
    ranks, suits = sorted(ranks), list(suits)
    totals = dict.fromkeys(Category, 0)
    for multiset in _rank_multisets(ranks, 5, len(suits)):
        weight = 1
        for rank in set(multiset):
            weight *= comb(len(suits), multiset.count(rank))
        if len(set(multiset)) == 5:
            suited = tuple(Card(rank, suits[0]) for rank in multiset)
            totals[classify_hand(suited).category] += len(suits)
            weight -= len(suits)
        # Deal the suits round-robin: repeated ranks get different suits, and five distinct ranks are
        # not all of one suit (the deck has at least two suits).
        unsuited = tuple(Card(rank, suits[i % len(suits)]) for i, rank in enumerate(multiset))
        totals[classify_hand(unsuited).category] += weight
    return totals


def _rank_multisets(ranks: list[int], size: int, most: int, start: int = 0):
    """Every non-decreasing choice of `size` ranks, each at most `most` times (a deck has that many suits)."""
    if size == 0:
        yield ()
        return
    for i in range(start, len(ranks)):
        for tail in _rank_multisets(ranks, size - 1, most, i):
            multiset = (ranks[i],) + tail
            if multiset.count(ranks[i]) <= most:
                yield multiset
