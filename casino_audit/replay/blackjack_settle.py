"""The dealer's side of a blackjack coup judged against the rules of play: the dealer's drawing, each hand's and
insurance's settlement, the side bets (super-jack, jackpot)."""

from __future__ import annotations

from decimal import Decimal
from typing import Iterator, Mapping

from casino_audit.games import blackjack as bj
from casino_audit.games import blackjack_settlement as settlement
from casino_audit.replay import cents, money
from casino_audit.replay.blackjack_hands import Needs, RecordedHand, cite, judged, shown, with_even_money


def _in_play(hand: RecordedHand, rules: bj.Rules, up) -> bool:
    """Whether the dealer's further cards still decide the hand (not bust, surrendered, paid even money, or a
    blackjack paid at once); a blackjack against an ace or a ten-card has neither lost nor been paid, so it is."""
    if hand.short:
        return True  # not known to be out of play
    if hand.surrendered or hand.even_money:
        return False
    if bj.is_blackjack(hand.cards, hand.from_split):
        return not bj.blackjack_paid_at_once(up)
    ace_one = hand.doubled and bj.doubled_ace_counts_one(hand.cards, rules)
    return bj.hand_value(hand.cards, ace_one)[0] <= 21


def _any_in_play(boxes: list[list[RecordedHand]], rules, up) -> bool:
    """Whether some hand is in play; a hand whose count needs a rule not given is judged by the others (one hand
    surely in play is enough), and only unknown if none is."""
    unknown = False
    for hands in boxes:
        for hand in hands:
            try:
                if _in_play(hand, rules, up):
                    return True
            except Needs:
                unknown = True
    if unknown:
        raise Needs("a hand's count")
    return False


def judge_dealer(rules: bj.Rules, coup: dict, boxes: list[list[RecordedHand]], minimum=None) -> Iterator:
    dealer = coup["dealer"]
    if not _any_in_play(boxes, rules, dealer[0]):
        if rules.dealer_no_draw_when_no_hand_in_play and len(dealer) > 2:
            yield "dealer_drawing", "/dealer/2", (f"the dealer drew {dealer[2]} with no hand left in play; then "
                                                  "the dealer takes no third card"), \
                cite(rules, "dealer", "no_draw_when_no_hand_in_play")
        return  # the law says nothing else of a dealer with no hand to play against
    for k in range(2, len(dealer)):
        if not _draws(dealer[:k], rules):
            total, soft = bj.hand_value(dealer[:k])
            # a soft 17 stood on is the dealer's rule (stands on every 17); any other total stands by both rules,
            # the one in force named where it is known
            stands = "every 17 and over" if soft and total == 17 or _known_rule(rules) == bj.STANDS_ON_17 \
                else "a hard 17 and over"
            yield "dealer_drawing", f"/dealer/{k}", (
                f"the dealer drew {dealer[k]} on {'soft ' if soft else ''}{total} ({shown(dealer[:k])}); the "
                f"dealer stands on {stands}"), cite(rules, "dealer", "soft_17" if soft and total == 17 else "stands")
            return
    if _draws(dealer, rules):
        total, soft = bj.hand_value(dealer)
        included = ", a soft 17 included" if soft and total == 17 else ""
        yield "dealer_drawing", "/dealer", (f"the dealer stood on {'soft ' if soft else ''}{total} "
                                            f"({shown(dealer)}); the dealer draws to 17{included}"), \
            cite(rules, "dealer", "soft_17" if soft and total == 17 else "draws")


def _known_rule(rules) -> str | None:
    try:
        return rules.dealer_rule
    except Needs:
        return None


def _draws(cards, rules: bj.Rules) -> bool:
    """Whether the dealer draws; the dealer's rule is read only where the rules differ (a soft 17)."""
    total, soft = bj.hand_value(cards)
    if total == 17 and soft:
        return bj.dealer_draws(cards, rules.dealer_rule)
    return total < 17


def judge_settlement(rules: bj.Rules, coup: dict, boxes: list[list[RecordedHand]], minimum=None) -> Iterator:
    dealer = coup["dealer"]
    for i, hands in enumerate(boxes):
        for hand in hands:
            yield from judged(_hand_settled(rules, hand, dealer))
        insurance = coup["boxes"][i].get("insurance")
        if insurance is not None:
            yield from judged(_insurance_settled(rules, i, insurance, dealer))


def _hand_settled(rules, hand: RecordedHand, dealer) -> Iterator:
    net = money(hand.net)
    if hand.stake is None or net is None or hand.short:
        return
    if hand.surrendered and rules.surrender_loses is None:
        return  # decisions reports a surrender the rules do not have
    expected = settlement.settle_hand(hand.engine_hand(), dealer, with_even_money(rules))
    if net != expected:
        what = settlement.outcome(hand.engine_hand(), dealer, rules)
        prize = bj.special_prize(hand.cards, rules.special_prize_combinations) \
            if rules.special_prize_pays is not None else None
        extra = f", with the special prize ({prize.replace('_', ' ')})" if prize else ""
        doubled = " doubled" if hand.doubled else ""
        yield "settlement", hand.pointer + "/net", (
            f"{shown(hand.cards)}: {what}{extra}, stake {cents(hand.stake)}{doubled}, settled at "
            f"{_signed(net)}; the rules settle it at {_signed(expected)}"), \
            cite(rules, *_settled_by(rules, hand, dealer, net, expected, prize))


def _insurance_settled(rules, i: int, insurance: dict, dealer) -> Iterator:
    if rules.insurance_pays is None:
        return
    stake, net = money(insurance["stake"]), money(insurance["net"])
    if stake is not None and net is not None:
        expected = settlement.settle_insurance(stake, dealer, rules)
        if net != expected:
            did = "has" if bj.is_blackjack(dealer) else "has no"
            yield "settlement", f"/boxes/{i}/insurance/net", (
                f"insurance of {cents(stake)}, the dealer {did} blackjack ({shown(dealer[:2])}), settled at "
                f"{_signed(net)}; the rules settle it at {_signed(expected)} (it pays {rules.insurance_pays} to 1)"), \
                cite(rules, "insurance", "pays")


def _signed(amount: Decimal) -> str:
    return ("+" if amount > 0 else "") + cents(amount)


def judge_side_bets(rules: bj.Rules, coup: dict, boxes, minimum: Decimal | None) -> Iterator:
    dealer = coup["dealer"]
    for i, box in enumerate(coup["boxes"]):
        in_game = any(h.stake is not None and h.stake > 0 for h in boxes[i][:1])
        for chance, bet in (box.get("super_jack") or {}).items():
            at = f"/boxes/{i}/super_jack/{chance}"
            if not rules.super_jack:
                yield "side_bets", at, "a super-jack stake: the law of this jurisdiction has no super-jack", \
                    cite(rules, "side_bets")
                continue
            stake, net = money(bet["stake"]), money(bet["net"])
            if stake is None or net is None:
                continue
            if not in_game:
                yield "side_bets", at, "a super-jack stake on a box with no blackjack stake", \
                    cite(rules, "super_jack", "in_game")
            if minimum is not None and stake < minimum:
                yield "side_bets", at + "/stake", (f"a super-jack stake of {cents(stake)}; each chance takes one "
                                                   f"piece of at least the table minimum, {cents(minimum)}"), \
                    cite(rules, "super_jack", "stake")
            expected = settlement.settle_super_jack(chance, stake, dealer, rules)
            if net != expected:
                won = "wins" if settlement.super_jack_wins(chance, dealer) else "loses"
                yield "side_bets", at + "/net", (
                    f"super-jack {chance.replace('_', '-')} {won} on the dealer's {shown(dealer)}: stake "
                    f"{cents(stake)} settled at {_signed(net)}; the rules settle it at {_signed(expected)}"), \
                    cite(rules, "super_jack", chance)
        jackpot = box.get("jackpot")
        if jackpot is not None:
            at = f"/boxes/{i}/jackpot"
            stake = money(jackpot["stake"])
            if not rules.jackpot:
                yield "side_bets", at, "a jackpot stake: the law of this jurisdiction has no jackpot at blackjack", \
                    cite(rules, "side_bets")
            elif not in_game:
                yield "side_bets", at, "a jackpot stake on a box with no stake in the main game", \
                    cite(rules, "jackpot", "in_game")
            elif rules.jackpot_stake is not None and stake is not None and stake != rules.jackpot_stake:
                yield "side_bets", at + "/stake", (f"a jackpot stake of {cents(stake)}; the jackpot takes one chip of "
                                                   f"{cents(rules.jackpot_stake)}"), cite(rules, "jackpot", "stake")


def _settled_by(rules, hand: RecordedHand, dealer, net: Decimal, expected: Decimal, prize) -> tuple[str, str | None]:
    """(part, key) of the rule a hand's settlement breaks: the special prize where the net misses it alone, else
    what settles the hand (a surrender, even money, a blackjack, a bust, a win, a loss, a tie)."""
    if prize and net == expected - hand.stake * rules.special_prize_pays:
        return "special_prize", "pays"
    if hand.surrendered:
        return "surrender", "loses"
    if hand.even_money:
        return "even_money", "pays"
    cards = hand.cards
    ace_one = hand.doubled and bj.doubled_ace_counts_one(cards, rules)
    total, _ = bj.hand_value(cards, ace_one)
    if _beats_21_broken(rules, hand, dealer, net, total):
        return "payouts", BEATS_21
    if bj.is_blackjack(cards, hand.from_split):
        return "payouts", "blackjack"
    if total > 21:
        return "payouts", "bust"
    if bj.is_blackjack(dealer):
        return "payouts", "dealer_blackjack_takes"
    dealer_total, _ = bj.hand_value(dealer)
    if dealer_total <= 21 and total == dealer_total:
        return "payouts", "tie"
    return "payouts", "win"


BEATS_21 = "blackjack_beats_21"


def _beats_21_broken(rules, hand: RecordedHand, dealer, net: Decimal, total: int) -> bool:
    """Whether a wrong net breaks the provision that a blackjack beats any 21, and that a split pair's ace and ten
    is a 21, not a blackjack (PT n.º 20: «A combinação blackjack ganha sempre ao total 21. Não se considera
    blackjack, mas sim o total de 21, se aquela combinação resultar do desdobramento de um par.»), where the rules
    of play quote one covering it: a 21 tied with (or beating) the dealer's blackjack, a blackjack tied with the
    dealer's 21, a split ace and ten paid as a blackjack."""
    if not any(BEATS_21 in (entry.get("covers") or ()) for entry in _entries(rules.citations, "payouts")):
        return False
    cards, blackjack = hand.cards, bj.is_blackjack(hand.cards, hand.from_split)
    dealer_total, _ = bj.hand_value(dealer)
    if total == 21 and not blackjack and bj.is_blackjack(dealer):
        return net >= 0  # it loses: not a tie, not a win
    if blackjack and dealer_total == 21 and not bj.is_blackjack(dealer):
        return net <= 0  # it wins: not a tie
    return hand.from_split and bj.is_blackjack(cards) and rules.blackjack_pays is not None \
        and net == hand.stake * rules.blackjack_pays


def _entries(citations, part: str) -> list:
    entries = citations.get(part) if isinstance(citations, Mapping) else None
    entries = [entries] if isinstance(entries, Mapping) else entries
    return [entry for entry in entries if isinstance(entry, Mapping)] if isinstance(entries, list) else []
