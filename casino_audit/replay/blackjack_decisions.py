"""The player's decisions on a blackjack coup judged against the rules of play: each double, split, surrender,
insurance and even money allowed where it was made, no card after the hand ended, the split hands' stakes."""

from __future__ import annotations

from typing import Any, Iterator

from casino_audit.games import blackjack as bj
from casino_audit.replay import cents, money
from casino_audit.replay.blackjack_hands import EVEN_MONEY_ON, RecordedHand, cite, judged, shown, split_children

# what ended a hand -> the part (and key) of the rules of play that ends it so
_ENDED = {"even money": ("even_money", "on"), "surrendered": ("surrender", "loses"), "stood": ("player", "stand_above"),
          "doubled, one card": ("doubling", "one_card")}


def judge_decisions(rules: bj.Rules, coup: dict, boxes: list[list[RecordedHand]], minimum=None) -> Iterator:
    up = coup["dealer"][0]
    up_rank = bj.rank_of(up)
    up_shown = "a ten-card" if up_rank in bj.TEN_CARDS else "an ace" if up_rank == "A" else up_rank
    for i, hands in enumerate(boxes):
        insurance = coup["boxes"][i].get("insurance")
        if insurance is not None:
            yield from judged(_insurance_taken(rules, i, insurance, hands[0].stake, up, up_rank, up_shown))
        children = split_children(hands)
        for hand in hands:
            yield from judged(_hand_decisions(rules, hand, hands, children, up_rank, up_shown))


def _insurance_taken(rules, i: int, insurance: dict, first_stake, up, up_rank, up_shown) -> Iterator:
    stake = money(insurance["stake"])
    if rules.insurance_on is not None and up_rank not in rules.insurance_on:
        yield "decisions", f"/boxes/{i}/insurance", (f"insurance is taken against {up_shown} ({up}); it is "
                                                     f"offered only when the up-card is an ace"), \
            cite(rules, "insurance", "on")
    elif rules.insurance_maximum is not None and stake is not None and first_stake is not None \
            and stake > first_stake * rules.insurance_maximum:
        yield "decisions", f"/boxes/{i}/insurance/stake", (
            f"insurance of {cents(stake)} on a stake of {cents(first_stake)}; the most is "
            f"{cents(first_stake * rules.insurance_maximum)}"), cite(rules, "insurance", "maximum")


def _hand_decisions(rules, hand: RecordedHand, hands, children, up_rank, up_shown) -> Iterator:
    # One walk over the hand's decisions in order: its state (the cards so far, the splits made, what ended the
    # hand) is kept here; each decision's checks on the cards it was made on are the helpers below.
    if hand.short:
        return
    split_value = bj.value(hand.cards[0]) if hand.from_split else None
    one_card = split_value == 1 and rules.split_aces_one_card
    current = [hand.cards[0], None]
    split_k, position, ended = 0, 2, None

    def second() -> Any:
        if split_k < hand.splits:
            child = children.get((hand.index, split_k))
            return hands[child].cards[0] if child is not None and hand.index < child < len(hands) else None
        return hand.cards[1]

    current[1] = second()
    for d, decision in enumerate(hand.decisions):
        at = f"{hand.pointer}/decisions/{d}"
        if current[1] is None:
            return  # the split made no hand: deal says so
        total, _ = bj.hand_value(current)
        if ended:
            yield "decisions", at, f"a {decision} after the hand ended ({ended})", cite(rules, *_ENDED[ended])
            return
        if decision == "split":
            yield from _split_breaches(rules, hand, hands, children, current, d, split_k, at)
            split_k += 1
            current = [hand.cards[0], second()]
            continue
        if decision == "even_money":
            # Rules silent on even money still have its meaning: a blackjack paid at once, one to one, against an
            # ace up (before, a silent ruleset let even money on any hand through, unsettled)
            yield from _even_money_breaches(rules, hand, current, up_rank, up_shown, at)
            ended = "even money"
            continue
        if decision == "surrender":
            yield from _surrender_breaches(rules, hand, current, d, up_rank, up_shown, at)
            ended = "surrendered"
            continue
        last = _last_decision(rules, hand, decision, current, total, one_card, at)
        if last is not None:
            yield last
            return
        if decision == "stand":
            yield from _stand_breaches(rules, total, one_card, at)
            ended = "stood"
            continue
        if decision == "double":
            yield from _double_breaches(rules, hand, current, at)
            ended = "doubled, one card"
        if position < len(hand.cards):
            current.append(hand.cards[position])
            position += 1
    if ended is None and current[1] is not None and not one_card:
        yield from _ends_below_stand(rules, hand, current)


def _last_decision(rules, hand: RecordedHand, decision: str, current, total: int, one_card: bool, at: str):
    """The breach that ends the walk: a decision on a hand already bust or blackjack, or a card asked on a split
    ace or on 21; None if the decision may be judged on."""
    if total > 21:
        return "decisions", at, f"a {decision} after the hand busted at {total}", cite(rules, "payouts", "bust")
    if bj.is_blackjack(current, hand.from_split) and decision != "stand":
        return "decisions", at, f"a {decision} on a blackjack ({shown(current)})", cite(rules, "player", "blackjack")
    if decision == "stand":
        return None
    if one_card:
        return "decisions", at, f"a {decision} on a split ace: a split ace takes one card only", \
            cite(rules, "splitting", "aces_one_card")
    if total == 21:
        return "decisions", at, f"a {decision} on 21 ({shown(current)}): no card is asked after 21", \
            cite(rules, "player", "twenty_one")
    return None


def _stand_breaches(rules, total: int, one_card: bool, at: str) -> Iterator:
    if rules.stand_above is not None and total <= rules.stand_above and not one_card:
        yield "decisions", at, (f"a stand on {total}; a player may stand only above {rules.stand_above}"), \
            cite(rules, "player", "stand_above")


def _double_breaches(rules, hand: RecordedHand, current, at: str) -> Iterator:
    why = bj.may_double(current, rules, hand.from_split, False)
    if why:
        yield "decisions", at, f"a double on {shown(current)}: {why}", \
            cite(rules, *(("splitting", "aces_one_card") if "split ace" in why else
                           ("doubling", "after_split" if hand.from_split else "on")))


def _split_breaches(rules, hand: RecordedHand, hands, children, current, d: int, split_k: int,
                    at: str) -> Iterator:
    if len(current) != 2 or d != split_k:
        yield "decisions", at, "a split is the first decision on a hand's two cards", \
            cite(rules, "splitting", "pair")
    elif not bj.pair(current):
        yield "decisions", at, f"a split of {shown(current)}: the two cards are not of the same value", \
            cite(rules, "splitting", "pair")
    elif rules.split_max_hands is not None and split_k + 1 + _splits_before(hand, hands) >= \
            rules.split_max_hands:
        yield "decisions", at, f"a split to more than {rules.split_max_hands} hands in one box", \
            cite(rules, "splitting", "max_hands")
    child = children.get((hand.index, split_k))
    if child is not None and child < len(hands) and hands[child].stake != hand.stake:
        made = hands[child]  # a stake the shape check refused is the shape's finding, not this one
        if made.stake is not None and hand.stake is not None:
            yield "split_stake", f"{made.pointer}/stake", (
                f"the hand split off stakes {cents(made.stake)}; the hand it was split from staked "
                f"{cents(hand.stake)}, and a split stakes the same"), cite(rules, "splitting", "stake")


def _even_money_breaches(rules, hand: RecordedHand, current, up_rank, up_shown, at: str) -> Iterator:
    on = rules.even_money_on if rules.even_money_on is not None else EVEN_MONEY_ON
    if hand.from_split or len(current) != 2 or not bj.is_blackjack(current) or up_rank not in on:
        yield "decisions", at, (f"even money on {shown(current)} against {up_shown}: it is for a "
                                "blackjack when the up-card is an ace"), cite(rules, "even_money", "on")


def _surrender_breaches(rules, hand: RecordedHand, current, d: int, up_rank, up_shown, at: str) -> Iterator:
    if rules.surrender_loses is None:
        yield "decisions", at, "a surrender: the rules allow none", cite(rules, "surrender", "loses")
    elif up_rank in rules.surrender_not_against:
        yield "decisions", at, f"a surrender against {up_shown}: not allowed when the up-card is an ace", \
            cite(rules, "surrender", "not_against")
    elif rules.surrender_first_two_cards_only and (d != 0 or hand.from_split or len(current) != 2):
        yield "decisions", at, "a surrender is decided on the first two cards, before any other decision", \
            cite(rules, "surrender", "first_two_cards_only")


def _ends_below_stand(rules, hand: RecordedHand, current) -> Iterator:
    """A hand that ends (no stand, double or surrender) below the law's total: read as a stand there."""
    total, _ = bj.hand_value(current)
    if total < 21 and rules.stand_above is not None and total <= rules.stand_above \
            and not bj.is_blackjack(current, hand.from_split):
        yield "decisions", hand.pointer + "/decisions", (
            f"the hand ends on {total} without a double or a surrender; a player may stand only above "
            f"{rules.stand_above}"), cite(rules, "player", "stand_above")


def _splits_before(hand: RecordedHand, hands: list[RecordedHand]) -> int:
    return sum(h.splits for h in hands if h.index < hand.index)

