"""Blackjack's settlement: what became of a hand and its net, exactly, and the side bets' (PT Portaria 217/2007,
Título I, Capítulo III, Secção I: blackjack/21; LU Art. 32, 5: the super-jack). Pure functions over the engine's
hand values (games/blackjack.py) and its rules of play (`Rules`)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Sequence

from casino_audit.games.blackjack import Rules, doubled_ace_counts_one, hand_value, is_blackjack, special_prize


@dataclass(frozen=True)
class Hand:
    cards: tuple
    stake: Decimal  # the stake before any double
    doubled: bool = False
    surrendered: bool = False
    even_money: bool = False
    from_split: bool = False


def outcome(hand: Hand, dealer: Sequence[Any], rules: Rules) -> str:
    """What became of the hand, in words a message uses."""
    ace_one = hand.doubled and doubled_ace_counts_one(hand.cards, rules)
    if hand.surrendered:
        return "surrendered"
    if hand.even_money:
        return "blackjack, even money taken"
    player_bj = is_blackjack(hand.cards, hand.from_split)
    dealer_bj = is_blackjack(dealer)
    if player_bj:
        return "blackjack against the dealer's blackjack" if dealer_bj else "blackjack"
    total, _ = hand_value(hand.cards, ace_one)
    if total > 21:
        return f"bust at {total}"
    if dealer_bj:
        return f"{total} against the dealer's blackjack"
    dealer_total, _ = hand_value(dealer)
    if dealer_total > 21:
        return f"{total} against the dealer's bust"
    verdict = "wins" if total > dealer_total else "loses" if total < dealer_total else "ties"
    return f"{total} {verdict} against the dealer's {dealer_total}"


def settle_hand(hand: Hand, dealer: Sequence[Any], rules: Rules) -> Decimal:
    """The hand's net, exactly: what the player gains (positive) or loses (negative), the special prize included.
    PT n.º 21 (blackjack 3 to 2, a push against the dealer's), n.º 20 (a blackjack beats 21), n.º 22 (a bust
    loses at once), n.º 23 (closer to 21 wins the stake), n.º 24 (a tie is void), n.º 36 (surrender loses half),
    n.º 34 (even money), n.º 35 (the special prize, «sem prejuízo do prémio»)."""
    stake = hand.stake
    at_risk = stake * 2 if hand.doubled else stake
    prize = Decimal(0)
    if rules.special_prize_pays is not None and special_prize(hand.cards, rules.special_prize_combinations):
        prize = stake * rules.special_prize_pays
    if hand.surrendered:
        return -stake * rules.surrender_loses + prize
    if hand.even_money:
        return stake * rules.even_money_pays + prize
    ace_one = hand.doubled and doubled_ace_counts_one(hand.cards, rules)
    total, _ = hand_value(hand.cards, ace_one)
    player_bj = is_blackjack(hand.cards, hand.from_split)
    dealer_bj = is_blackjack(dealer)
    if player_bj:
        return (Decimal(0) if dealer_bj else stake * rules.blackjack_pays) + prize
    if total > 21:
        return -at_risk + prize
    if dealer_bj:
        return -(at_risk if rules.dealer_blackjack_takes_all else stake) + prize
    dealer_total, _ = hand_value(dealer)
    if dealer_total > 21 or total > dealer_total:
        return at_risk * rules.win_pays + prize
    if total < dealer_total:
        return -at_risk + prize
    return prize


def settle_insurance(stake: Decimal, dealer: Sequence[Any], rules: Rules) -> Decimal:
    """PT n.º 33: «Se a banca vier a fazer blackjack, a aposta feita no seguro ganhará o dobro do seu valor, sendo
    perdida no caso contrário.»"""
    return stake * rules.insurance_pays if is_blackjack(dealer) else -stake


def super_jack_wins(chance: str, dealer: Sequence[Any]) -> bool:
    """LU Art. 32, 5: «Bust la banque se vend»; «Black-jack la banque tire un black-jack»; «Silver-jack la banque
    tire un black-jack dans une des quatre couleurs» (ace and ten-card of one suit, hearts included: the text
    names no exception); «Gold-jack la banque tire un black jack dans la couleur coeur»."""
    if chance == "bust":
        return hand_value(dealer)[0] > 21
    if not is_blackjack(dealer):
        return False
    suits = {card[1] if isinstance(card, tuple) else card[1:2] for card in dealer}
    if chance == "black_jack":
        return True
    if chance == "silver_jack":
        return len(suits) == 1
    if chance == "gold_jack":
        return suits == {"h"}
    raise ValueError(f"not a super-jack chance: {chance!r}")


def settle_super_jack(chance: str, stake: Decimal, dealer: Sequence[Any], rules: Rules) -> Decimal:
    """«le paiement des gains est multiplié par» 2.5, 19, 77, 300: the stake times that when the chance wins."""
    return stake * rules.super_jack[chance] if super_jack_wins(chance, dealer) else -stake
