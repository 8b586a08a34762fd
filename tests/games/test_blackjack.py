"""The blackjack engine against exact facts: a brute force over every order of small shoes, the published
infinite-deck dealer figures, the Portuguese rules as the ruleset states them, and the edge's pieces."""

import dataclasses
import itertools
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino_audit.edge import Options, edges
from casino_audit.games import blackjack as bj
from casino_audit.games import blackjack_settlement as settlement
from casino_audit.games.blackjack_dealer_odds import dealer_table, full_shoe
from casino_audit.edge import blackjack as blackjack_edge
from casino_audit.law.rulesets import load_builtin, rulesets_dir

PT = bj.rules(load_builtin("pt").play["blackjack"].data["blackjack"])
LU_DATA = load_builtin("lu").play["blackjack"].data["blackjack"]


def test_hand_values_soft_and_hard():
    assert bj.hand_value(["As", "6d"]) == (17, True)
    assert bj.hand_value(["As", "6d", "Kc"]) == (17, False)
    assert bj.hand_value(["As", "Ad", "9c"]) == (21, True)
    assert bj.hand_value(["As", "8d"], ace_counts_one=True) == (9, False)
    assert bj.is_blackjack(["Ah", "Qs"]) and not bj.is_blackjack(["Ah", "Qs"], from_split=True)
    assert bj.is_bust(["Kh", "Qs", "2c"])


def test_dealer_stands_on_soft_17_in_portugal():
    # n.º 6 a): the dealer's ace counts 11 when that makes 17 to 21; n.º 19: on 17 or more the dealer stops
    assert not bj.dealer_draws(["As", "6d"], PT.dealer_rule)
    assert bj.dealer_draws(["As", "6d"], bj.HITS_SOFT_17)
    assert bj.dealer_draws(["Ts", "6d"], PT.dealer_rule)


def test_portuguese_decisions():
    assert bj.may_double(["5s", "4d"], PT, False, False) is None
    assert "allowed on 9, 10, 11" in bj.may_double(["Ts", "2d"], PT, False, False)
    assert bj.may_double(["As", "8d"], PT, False, False) is None  # 9 counting the ace as 1 (n.º 32)
    assert bj.doubled_ace_counts_one(["As", "8d", "Tc"], PT)
    assert bj.may_double(["5s", "5d"], PT, True, False) is None  # after a split (n.º 31)
    assert bj.pair(["Ks", "Td"]) and not bj.pair(["Ks", "9d"])  # «o mesmo valor»


def test_settlement_exact_to_the_cent():
    def net(cards, dealer, stake="10", **kw):
        return settlement.settle_hand(settlement.Hand(tuple(cards), Decimal(stake), **kw), dealer, PT)
    assert net(["As", "Kd"], ["9c", "7d"], "12.50") == Decimal("18.750")
    assert net(["As", "Kd"], ["Ac", "Qd"]) == 0
    assert net(["As", "Kd"], ["Ac", "Qd"], even_money=True) == 10
    assert net(["Ts", "9d"], ["Ac", "Qd"]) == -10
    assert net(["5s", "6d", "Tc"], ["Ac", "Qd"], doubled=True) == -20  # no peek: the double is lost too
    assert net(["As", "Kd"], ["Ac", "Qd"], from_split=True) == -10  # 21 of a split is no blackjack
    assert net(["Ts", "6d"], ["Tc", "7d"], surrendered=True) == -5
    assert net(["6h", "7h", "8h"], ["Tc", "7d"]) == 40  # wins 10, and three times the stake (n.º 35)
    assert net(["7h", "7c", "7d"], ["Tc", "Ad"]) == 20  # loses to a blackjack, the prize stays
    assert net(["5s", "6d", "Tc"], ["6c", "Td", "3h"], doubled=True) == 20
    assert net(["5s", "6d", "Tc"], ["6c", "Td", "5h"], doubled=True) == 0
    assert net(["Ts", "7d"], ["Tc", "7h"]) == 0
    assert settlement.settle_insurance(Decimal("5"), ["Ac", "Kd"], PT) == 10
    assert settlement.settle_insurance(Decimal("5"), ["Ac", "9d"], PT) == -5


def test_super_jack_chances():
    lu = bj.rules(LU_DATA)
    assert settlement.settle_super_jack("gold_jack", Decimal(10), ["Ah", "Kh"], lu) == 3000
    assert settlement.settle_super_jack("silver_jack", Decimal(10), ["Ah", "Kh"], lu) == 770
    assert settlement.settle_super_jack("silver_jack", Decimal(10), ["As", "Kh"], lu) == -10
    assert settlement.settle_super_jack("black_jack", Decimal(10), ["As", "Kh"], lu) == 190
    assert settlement.settle_super_jack("bust", Decimal(10), ["Ts", "6h", "9c"], lu) == 25


def test_luxembourg_leaves_the_rules_to_parameters():
    lu = bj.rules(LU_DATA)
    assert set(lu.unavailable()) == {"dealer_drawing", "decisions", "settlement"}
    assert "blackjack_dealer_rule" in lu.unavailable()["dealer_drawing"]
    given_ = bj.rules(LU_DATA, {"blackjack_dealer_rule": "hits_soft_17", "blackjack_doubling": "10,11"})
    assert given_.dealer_rule == bj.HITS_SOFT_17 and given_.double_on == {10, 11}


def _brute_dealer(up, shoe, rule):
    """Every order of a small shoe, the dealer drawing from its front: P(final) by counting orders."""
    counts, total = {}, 0
    for order in itertools.permutations(shoe):
        cards = [up]
        for c in order:
            if len(cards) >= 2 and not bj.dealer_draws(cards, rule):
                break
            cards.append(c)
        final = bj.dealer_final(cards)
        counts[final] = counts.get(final, 0) + 1
        total += 1
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize("rule", [bj.STANDS_ON_17, bj.HITS_SOFT_17])
@pytest.mark.parametrize("up, shoe", [("6d", ["As", "Ad", "5c", "Kh", "2s", "6h", "3d"]),
                                      ("Ac", ["6s", "Ad", "Qc", "4h", "2s", "5c", "3d"])])
def test_finite_dealer_table_against_every_order(up, shoe, rule):
    counts = [0] * 10
    for c in shoe:
        counts[bj.value(c) - 1] += 1
    assert dealer_table(bj.value(up), rule, counts) == _brute_dealer(up, shoe, rule)


def _brute_infinite(cards, rule, chance=Fraction(1)):
    # an independent recursion over the 13 ranks, each 1/13
    if len(cards) >= 2 and not bj.dealer_draws(cards, rule):
        return {bj.dealer_final(cards): chance}
    found = {}
    for rank in "A23456789TJQK":
        for k, v in _brute_infinite(cards + [rank + "s"], rule, chance / 13).items():
            found[k] = found.get(k, 0) + v
    return found


@pytest.mark.parametrize("up, rule", [("6", bj.STANDS_ON_17), ("6", bj.HITS_SOFT_17), ("A", bj.STANDS_ON_17)])
def test_infinite_dealer_table_against_a_rank_by_rank_recursion(up, rule):
    assert dealer_table(bj.value(up), rule) == _brute_infinite([up + "s"], rule)


def test_published_dealer_bust_figures():
    # Infinite deck, no peek, the dealer standing on soft 17: bust 42.32 % with a 6 up, 21.21 % with a ten up,
    # 11.53 % with an ace up (the published tables); hitting soft 17, 43.95 % with a 6 up. Six decks, the 6
    # taken out: 42.28 %.
    table = {up: float(dealer_table(up, bj.STANDS_ON_17)[bj.BUST]) for up in (1, 6, 10)}
    assert (round(table[6], 4), round(table[10], 4), round(table[1], 4)) == (0.4232, 0.2121, 0.1153)
    assert round(float(dealer_table(6, bj.HITS_SOFT_17)[bj.BUST]), 4) == 0.4395
    six = list(full_shoe(6))
    six[5] -= 1
    assert round(float(dealer_table(6, bj.STANDS_ON_17, six)[bj.BUST]), 4) == 0.4228
    assert sum(dealer_table(6, bj.STANDS_ON_17, six).values()) == 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([r + s for r in "A23456789TJQK" for s in "cdhs"]), min_size=2, max_size=6))
def test_hand_value_is_the_best_total(cards):
    total, soft = bj.hand_value(cards)
    hard = sum(bj.value(c) for c in cards)
    options = [hard + 10 * k for k in range(sum(bj.rank_of(c) == "A" for c in cards) + 1)]
    best = max((t for t in options if t <= 21), default=hard)
    assert total == best and soft == (total != hard)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([r + s for r in "A23456789TJQK" for s in "cdhs"]), min_size=2, max_size=5),
       st.lists(st.sampled_from([r + s for r in "A23456789TJQK" for s in "cdhs"]), min_size=2, max_size=5),
       st.decimals(min_value=1, max_value=1000, places=2))
def test_a_hand_never_wins_more_than_its_payouts_allow(cards, dealer, stake):
    net = settlement.settle_hand(settlement.Hand(tuple(cards), stake), dealer, PT)
    assert -stake <= net <= stake * Decimal("4.5") and net == net.quantize(Decimal("0.001"))


def test_edge_of_portugal_and_of_the_super_jack():
    found = {e.bet: e for e in edges(load_builtin("pt"), "blackjack")}
    main = found["main"]
    assert main.exact and "infinite deck" in main.note and Fraction(0) < main.house_edge < Fraction(1, 100)
    # the surrender and the special prize help the player
    assert blackjack_edge.main_bet_edge(dataclasses.replace(PT, surrender_loses=None, special_prize_pays=None)) \
        > main.house_edge
    lu = {e.bet: e for e in edges(load_builtin("lu"), "blackjack", {"payouts": {"blackjack": "1.5"}},
                                  Options(decks=6))}
    # 19 to 1 on the dealer's blackjack: P = 2 * 24 * 96 / (312 * 311)
    assert lu["super_jack_black_jack"].house_edge == 1 - 20 * Fraction(2 * 24 * 96, 312 * 311)
    assert lu["super_jack_gold_jack"].house_edge == 1 - 301 * Fraction(2 * 6 * 24, 312 * 311)
    assert "main bet is not computed" in lu["super_jack_black_jack"].note
    assert {"super_jack_bust_if_stands_on_17", "super_jack_bust_if_hits_soft_17"} <= set(lu)


def test_every_part_cites_the_original_words():
    from casino_audit.replay import blackjack as replay_blackjack

    sources = {"pt": "pt-portaria-217-2007.txt", "lu": "lu-rgd-2002-03-08.txt"}
    for code, source in sources.items():
        text = re.sub(r"\s+", " ", (rulesets_dir() / "sources" / source).read_text("utf-8"))
        data = load_builtin(code).play["blackjack"].data["blackjack"]
        for part, citations in data["citations"].items():
            # a part of the rules, or an aspect of the replay the words govern (the deal: n.º 17)
            assert part in data or part in replay_blackjack.ASPECTS, part
            for citation in citations:
                assert re.sub(r"\s+", " ", citation["text"]) in text, (code, part)
