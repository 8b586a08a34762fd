"""Sample blackjack logs: shoes of the law's decks shuffled, a card burned, the cut card 50 cards from the end
(PT n.os 9 and 10) and a new shoe after it comes out; one to five boxes a coup, players following basic strategy
within the law (PT: no stand below 12, doubles on 9 to 11, surrender on 15 and 16 against a ten), now and then an
insurance, even money, a super-jack (LU) or a jackpot (PT, with its stake given); every hand settled by the law.

Luxembourg's text leaves the rules of play to parameters: where the run gives none, the sample deals under
SAMPLE_PARAMS (a common house configuration), and a replay of it needs the same values.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Iterator

from casino_audit.games import blackjack as bj
from casino_audit.games import blackjack_settlement as settlement
from casino_audit.games import registry
from casino_audit.replay import Terms, Unavailable
from casino_audit.samples import SESSION_BREAK

GAMES = registry.games_of("blackjack")
DECKS = 6  # the shoe where the law fixes no count (LU blackjack); the header then says so
BREACHES = {
    "dealer_hit_17": "the dealer draws another card on a 17 or more (dealer_drawing)",
    "blackjack_paid_even": "a player's blackjack is paid 1 to 1 (settlement)",
    "card_over_shoe": "a card is burned more times than the shoe's decks hold it (deal)",
    "double_not_allowed": "a hand is doubled on a total the law does not allow (decisions)",
    "insurance_wrong_pay": "an insurance is settled at the wrong amount (settlement)",
    "hit_on_21": "a card is asked on a 21 (decisions)",
    "super_jack_wrong_pay": "LU: a super-jack chance is settled at the wrong amount (side_bets)",
}
SAMPLE_PARAMS = {
    "blackjack_dealer_rule": "stands_on_17", "blackjack_pays": Decimal("1.5"), "blackjack_win_pays": Decimal(1),
    "blackjack_dealer_blackjack_takes": "all", "blackjack_insurance_pays": Decimal(2),
    "blackjack_insurance_maximum": Decimal("0.5"), "blackjack_doubling": "9,10,11",
    "blackjack_double_after_split": "yes", "blackjack_split_hands": 4, "blackjack_surrender_loses": "none",
}
CUT_FROM_END = 50


class _Shoe:
    def __init__(self, decks: int, rng: random.Random):
        self.decks, self.rng, self.number = decks, rng, 0
        self.shuffle()

    def shuffle(self) -> None:
        self.cards = [rank + suit for rank in "A23456789TJQK" for suit in "cdhs"] * self.decks
        self.rng.shuffle(self.cards)
        self.number += 1
        self.seen: dict[str, int] = {}
        self.burned = [self.draw()]  # PT n.º 10: one card to the discard before the deal

    def draw(self) -> str:
        card = self.cards.pop()
        self.seen[card] = self.seen.get(card, 0) + 1
        return card

    @property
    def past_cut(self) -> bool:
        return len(self.cards) < CUT_FROM_END


def _strategy(cards: list, up: str, rules: bj.Rules, can_double: bool, can_split: bool, can_surrender: bool) -> str:
    """Basic strategy, kept within the rules."""
    u = bj.value(up)
    u = 11 if u == 1 else u
    total, soft = bj.hand_value(cards)
    if can_split and bj.pair(cards):
        v = bj.value(cards[0])
        if v == 1 or v == 8 or (v in (2, 3, 7) and u <= 7) or (v == 6 and u <= 6) or (v == 9 and u not in (7, 10, 11)):
            return "split"
    if can_surrender and not soft and total in (15, 16) and u == 10:
        return "surrender"
    if can_double and len(cards) == 2 and bj.may_double(cards, rules, False, False) is None:
        if (total == 11 and u != 11) or (total == 10 and u <= 9) or (total == 9 and 3 <= u <= 6):
            return "double"
    if total <= 11:
        return "hit"
    if soft:
        return "hit" if total <= 17 or (total == 18 and u >= 9) else "stand"
    if total >= 17 or (total >= 13 and u <= 6) or (total == 12 and 4 <= u <= 6):
        return "stand"
    return "hit"


MINIMUM = Decimal(10)
RATIOS = (50, 100, 200, 30, 25, 20, 10)  # the maximum in times the minimum, the first the law allows (LU 33(3), PT n.º 37)


def header_limits(legal) -> dict:
    """The table's limits, its maximum the first of RATIOS the law's rules accept (`legal`, samples.log)."""
    return {"minimum": int(MINIMUM), "maximum": int(legal(MINIMUM, RATIOS))}


def coups(game: str, terms: Terms, rng: random.Random, count: int, inject=frozenset()) -> Iterator[dict]:
    params = {**SAMPLE_PARAMS, **(terms.params or {})}
    stated = (terms.play or {}).get("blackjack")
    if not stated:
        raise Unavailable(["deal"], "the ruleset states no rules of play for blackjack (`play: blackjack:`)")
    rules = bj.rules(stated, params)
    if "super_jack_wrong_pay" in inject and not rules.super_jack:
        raise ValueError("super_jack_wrong_pay: these rules of play have no super-jack")
    decks = terms.decks or DECKS
    minimum = Decimal(str((terms.limits or {}).get("minimum") or 10))
    maximum = Decimal(str((terms.limits or {}).get("maximum") or minimum * 50))  # LU Art. 33(3): 50, 100 or 200 times
    shoe = _Shoe(decks, rng)
    pending = set(inject)
    # each breach waits for a coup from a random point on where it fits
    due = {breach: rng.randrange(max(1, count // 2)) + 1 for breach in pending}
    when = datetime(2026, 11, 2, 21, 0, 0)
    for number in range(1, count + 1):
        if number > 1 and (number - 1) % 400 == 0:  # the table closes between two séances
            when += SESSION_BREAK
        session = f"S{(number - 1) // 400 + 1}"
        coup = {"coup": number, "time": when.isoformat(), "session": session,
                "staff": {"croupier": f"C-{10 + (number - 1) // 150 % 5}"}}
        if (number - 1) % 400 == 0:
            coup["limits"] = {"minimum": minimum, "maximum": maximum}
        ready = {b for b in pending if due[b] <= number}
        done = _coup(coup, shoe, rules, rng, minimum, maximum, ready, decks)
        pending -= done
        when += timedelta(seconds=rng.randrange(50, 120))
        yield coup
        if shoe.past_cut:  # PT n.º 11: the coup in course is the shoe's last
            shoe.shuffle()
    if pending:  # never a log sold as a breach without it
        raise ValueError(f"{count} coups gave no place to inject {', '.join(sorted(pending))}: give more coups")


def _coup(coup: dict, shoe: _Shoe, rules: bj.Rules, rng, minimum, maximum, ready: set, decks: int) -> set:
    done = set()
    coup["shoe"] = shoe.number
    if shoe.burned:
        coup["burned"], shoe.burned = shoe.burned, []
    seats = sorted(rng.sample(range(1, 8), rng.randint(1, 5)))
    boxes = [{"box": seat, "seat": seat, "hands": [{"cards": [], "stake": minimum * rng.randint(1, 5),
                                                     "decisions": []}]} for seat in seats]
    for box in boxes:
        box["hands"][0]["cards"].append(shoe.draw())
    dealer = [shoe.draw()]
    for box in boxes:
        box["hands"][0]["cards"].append(shoe.draw())
    dealer.append(shoe.draw())
    up = dealer[0]
    for box in boxes:
        if rules.super_jack and rng.random() < 0.15:
            box["super_jack"] = {chance: {"stake": minimum} for chance in rng.sample(bj.SUPER_JACK_CHANCES, 2)}
        if rules.jackpot_stake is not None and rng.random() < 0.2:
            box["jackpot"] = {"stake": rules.jackpot_stake, "net": -rules.jackpot_stake}
        if bj.rank_of(up) == "A" and rules.insurance_maximum is not None and rng.random() < 0.2:
            box["insurance"] = {"stake": (box["hands"][0]["stake"] * rules.insurance_maximum)}
        _play_box(box, up, shoe, rules, rng, ready, done)
    hands = [hand for box in boxes for hand in box["hands"]]
    in_play = any(_live(hand, up) for hand in hands)
    if in_play or not rules.dealer_no_draw_when_no_hand_in_play:
        while bj.dealer_draws(dealer, rules.dealer_rule):
            dealer.append(shoe.draw())
    if "dealer_hit_17" in ready and in_play and bj.hand_value(dealer)[0] in (17, 18, 19, 20):
        dealer.append(shoe.draw())
        done.add("dealer_hit_17")
    coup["dealer"] = dealer
    for box in boxes:
        for j, hand in enumerate(box["hands"]):
            engine_hand = settlement.Hand(tuple(hand["cards"]), hand["stake"], "double" in hand["decisions"],
                                  "surrender" in hand["decisions"], "even_money" in hand["decisions"],
                                  j > 0 or "split" in hand["decisions"])
            hand["net"] = settlement.settle_hand(engine_hand, dealer, rules)
            if "blackjack_paid_even" in ready and bj.is_blackjack(hand["cards"], engine_hand.from_split) \
                    and not bj.is_blackjack(dealer) and not engine_hand.even_money:
                hand["net"] = hand["stake"]
                done.add("blackjack_paid_even")
        if "insurance" in box:
            stake = box["insurance"]["stake"]
            box["insurance"]["net"] = settlement.settle_insurance(stake, dealer, rules)
            if "insurance_wrong_pay" in ready:
                box["insurance"]["net"] = stake if bj.is_blackjack(dealer) else Decimal(0)
                done.add("insurance_wrong_pay")
        for chance, bet in (box.get("super_jack") or {}).items():
            bet["net"] = settlement.settle_super_jack(chance, bet["stake"], dealer, rules)
            if "super_jack_wrong_pay" in ready and "super_jack_wrong_pay" not in done:
                bet["net"] = bet["stake"] * 2 if bet["net"] < 0 else bet["stake"]
                done.add("super_jack_wrong_pay")
    if "card_over_shoe" in ready:
        card, seen = max(shoe.seen.items(), key=lambda item: (item[1], item[0]))
        coup.setdefault("burned", []).extend([card] * (decks - seen + 1))
        done.add("card_over_shoe")
    coup["boxes"] = boxes
    return done


def _live(hand: dict, up: str) -> bool:
    decisions = hand["decisions"]
    if "surrender" in decisions or "even_money" in decisions:
        return False
    if bj.is_blackjack(hand["cards"], "split" in decisions):
        return not bj.blackjack_paid_at_once(up)
    return not bj.is_bust(hand["cards"])


def _play_box(box: dict, up: str, shoe: _Shoe, rules: bj.Rules, rng, ready: set, done: set) -> None:
    hands = box["hands"]
    j = 0
    while j < len(hands):
        hand = hands[j]
        from_split = j > 0 or "split" in hand["decisions"]
        if len(hand["cards"]) == 1:
            hand["cards"].append(shoe.draw())
        cards, decisions = hand["cards"], hand["decisions"]
        if bj.is_blackjack(cards, from_split):
            if rules.even_money_on and bj.rank_of(up) in rules.even_money_on and rng.random() < 0.2:
                decisions.append("even_money")
            j += 1
            continue
        split_ace = from_split and bj.value(cards[0]) == 1 and rules.split_aces_one_card
        while True:
            total, _ = bj.hand_value(cards)
            if total > 21:
                break
            if total == 21:
                if "hit_on_21" in ready and "hit_on_21" not in done and not split_ace:
                    decisions.append("hit")
                    cards.append(shoe.draw())
                    done.add("hit_on_21")
                break
            can_split = (len(cards) == 2 and decisions.count("split") == len([d for d in decisions if d == "split"])
                         and all(d == "split" for d in decisions)
                         and (rules.split_max_hands is None or len(hands) < rules.split_max_hands))
            can_double = len(cards) == 2 and not split_ace and (not from_split or rules.double_after_split)
            can_surrender = (rules.surrender_loses is not None and not decisions and j == 0
                             and bj.rank_of(up) not in rules.surrender_not_against)
            if split_ace and not (can_split and bj.pair(cards)):
                break  # one card only
            choice = _strategy(cards, up, rules, can_double, can_split, can_surrender)
            if "double_not_allowed" in ready and "double_not_allowed" not in done and len(cards) == 2 \
                    and not from_split and bj.may_double(cards, rules, False, False) is not None \
                    and 12 <= total <= 16 and not bj.pair(cards):
                choice = "double"
                done.add("double_not_allowed")
            decisions.append(choice)
            if choice == "split":
                hands.append({"cards": [cards.pop()], "stake": hand["stake"], "decisions": []})
                cards.append(shoe.draw())
                from_split = True
                split_ace = bj.value(cards[0]) == 1 and rules.split_aces_one_card
                continue
            if choice == "hit":
                cards.append(shoe.draw())
                continue
            if choice == "double":
                cards.append(shoe.draw())
            break
        j += 1
