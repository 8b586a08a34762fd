"""A blackjack coup's hands rebuilt from its record, and what the replay's judges share: the rules read with a
missing parameter's fields tainted, one hand's findings cut where a rule is not known, the provision a breach cites."""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Iterator, Mapping

from casino_audit.games import blackjack as bj
from casino_audit.games import blackjack_settlement as settlement
from casino_audit.replay import card, money, provision

EVEN_MONEY_ON, EVEN_MONEY_PAYS = frozenset({"A"}), Decimal(1)  # what "even money" means where the rules are silent


class Needs(Exception):
    """The replay read a rule a parameter was not given for: the rest of this coup's aspect is not checked."""


class Tainted:
    """The rules, but reading a field a missing parameter leaves unknown raises Needs: whatever was judged
    before that read did not depend on it."""

    __slots__ = ("_rules", "_unknown")

    def __init__(self, rules: bj.Rules, unknown: frozenset[str]):
        self._rules, self._unknown = rules, unknown

    def __getattr__(self, name: str):
        if name in self._unknown:
            raise Needs(name)
        return getattr(self._rules, name)


@dataclass
class RecordedHand:
    box: int
    index: int
    cards: list
    stake: Decimal | None
    decisions: list
    net: Any
    splits: int = 0  # leading splits of this hand
    from_split: bool = False
    doubled: bool = False
    surrendered: bool = False
    even_money: bool = False
    short: bool = False  # not two cards, or not cards: deal says so, and the hand is not played further

    @property
    def pointer(self) -> str:
        return f"/boxes/{self.box}/hands/{self.index}"

    def engine_hand(self) -> settlement.Hand:
        return settlement.Hand(tuple(self.cards), self.stake, self.doubled, self.surrendered, self.even_money, self.from_split)


def recorded_hands(coup: dict) -> list[list[RecordedHand]]:
    boxes = []
    for i, box in enumerate(coup["boxes"]):
        hands = [RecordedHand(i, j, list(h["cards"]), money(h["stake"]), list(h["decisions"]), h["net"])
                 for j, h in enumerate(box["hands"])]
        for hand in hands:
            hand.splits = hand.decisions.count("split")
            hand.from_split = hand.index > 0 or hand.splits > 0
            hand.doubled = "double" in hand.decisions
            hand.surrendered = "surrender" in hand.decisions
            hand.even_money = "even_money" in hand.decisions
            hand.short = len(hand.cards) < 2 or any(card(c) is None for c in hand.cards)
        boxes.append(hands)
    return boxes


def split_children(hands: list[RecordedHand]) -> dict[tuple[int, int], int]:
    """(hand, its k-th split) -> the index of the hand that split created."""
    children, created = {}, 0
    for hand in hands:
        for k in range(hand.splits):
            created += 1
            children[hand.index, k] = created
    return children


def shown(cards) -> str:
    return " ".join(cards)


def judged(found: Iterator) -> Iterator:
    """One hand's (or one insurance's) findings up to where its replay reads a rule a parameter was not given
    for: the coup's other hands are still judged (else a won hand first in the coup, its pay unknown, let a bust
    paid +10 in the next box through)."""
    try:
        yield from found
    except Needs:
        return


def with_even_money(rules: bj.Rules) -> bj.Rules:
    """Rules silent on even money settle it as its name says: one to one."""
    return rules if rules.even_money_pays is not None else replace(rules, even_money_pays=EVEN_MONEY_PAYS)


def cite(rules, part: str, covers: str | None = None) -> Mapping | None:
    """The provision of the rules of play a breach of `part` (its key `covers`) cites, None where none is quoted."""
    return provision(rules.citations, part, covers)
