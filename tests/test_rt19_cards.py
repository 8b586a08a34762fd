"""Red-team round 19, the card games' log replay (blackjack, stud poker): each test is a coup a filer could get
through before, or a legal coup wrongly flagged."""

from decimal import Decimal

import pytest

from casino_audit.replay import Terms
from casino_audit.replay import blackjack as BJ
from casino_audit.replay import stud as ST
from casino_audit.rulesets import load_builtin

PT_PARAMS = {"blackjack_jackpot_stake_eur": Decimal(5)}


def bj_replay(coups, code="pt", params=None, decks=6):
    terms = Terms(play=load_builtin(code).play["blackjack"].data, payouts=None, decks=decks,
                  limits={"minimum": Decimal(10)}, params=PT_PARAMS if params is None else params)
    prepared = BJ.prepare("blackjack", terms)
    state = BJ.start(prepared)
    return [(c["coup"], *found) for c in coups for found in BJ.replay(prepared, state, c)]


def hand(cards, stake, decisions, net):
    return {"cards": cards, "stake": Decimal(stake), "decisions": decisions, "net": Decimal(net)}


def bj_coup(dealer, *boxes, number=1, shoe=1):
    return {"coup": number, "time": "2026-11-02T21:00:00", "session": "S1", "shoe": shoe, "dealer": dealer,
            "boxes": [{"box": k + 1, "seat": k + 1, **box} for k, box in enumerate(boxes)]}


def test_a_second_hand_needs_a_split_of_a_hand_played_before_it():
    # The box's own hand is a blackjack (never split) paid 3:2; a second hand "splits" itself (its first card
    # paired with itself) and is paid too. Before: nothing found.
    record = bj_coup(["9h", "8h"], {"hands": [hand(["As", "Kd"], 10, [], 15),
                                              hand(["Tc", "9d"], 10, ["split", "stand"], 10)]})
    found = bj_replay([record])
    assert ("deal" in {f[1] for f in found}) and any(f[2] == "/boxes/0/hands/1" for f in found), found
    # a re-split played in order stays clean
    legal = bj_coup(["9h", "8h"], {"hands": [hand(["8s", "9d"], 10, ["split", "stand"], 0),
                                             hand(["8c", "8d"], 10, ["split", "stand"], -10),
                                             hand(["8h", "Td"], 10, ["stand"], 10)]})
    assert bj_replay([legal]) == []


LU_PARAMS = {"blackjack_dealer_rule": "stands_on_17", "blackjack_pays": Decimal("1.5"),
             "blackjack_win_pays": Decimal(1), "blackjack_dealer_blackjack_takes": "all",
             "blackjack_insurance_pays": Decimal(2), "blackjack_insurance_maximum": Decimal("0.5"),
             "blackjack_doubling": "9,10,11", "blackjack_double_after_split": "yes", "blackjack_split_hands": 4,
             "blackjack_surrender_loses": "none"}


def test_even_money_where_the_rules_are_silent_keeps_its_meaning():
    # LU's rules say nothing of even money: before, an "even_money" on a losing 16 against a 7 was neither a
    # decision nor settled (paid +10, exit 0), and a blackjack's even money paid at any amount.
    losing = bj_coup(["7h", "Kh"], {"hands": [hand(["9s", "7d"], 10, ["even_money"], 10)]})
    assert [f[1:3] for f in bj_replay([losing], "lu", LU_PARAMS)] == [("decisions", "/boxes/0/hands/0/decisions/0")]
    overpaid = bj_coup(["Ah", "7h"], {"hands": [hand(["As", "Kd"], 10, ["even_money"], 100)]})
    assert [f[1:3] for f in bj_replay([overpaid], "lu", LU_PARAMS)] == [("settlement", "/boxes/0/hands/0/net")]
    legal = bj_coup(["Ah", "7h"], {"hands": [hand(["As", "Kd"], 10, ["even_money"], 10)]})
    assert bj_replay([legal], "lu", LU_PARAMS) == []


def test_a_box_dealt_twice_is_a_deal_finding():
    # Before: box 1 recorded twice, two two-card hands both paid, no split: nothing found.
    record = bj_coup(["9h", "8h"], {"hands": [hand(["Ts", "9d"], 10, ["stand"], 10)]},
                     {"hands": [hand(["Tc", "9c"], 10, ["stand"], 10)]})
    record["boxes"][1]["box"] = 1
    assert [f[1:3] for f in bj_replay([record])] == [("deal", "/boxes/1/box")]
    record["boxes"][1]["box"] = 2
    assert bj_replay([record]) == []
