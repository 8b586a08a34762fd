"""Poker hands and casino stud settlement (casino_audit.games.poker, casino_audit.games.poker_stud).

Hand classes are checked against the exact counts over all C(52, 5) hands, counted by weighting one
representative per rank multiset and suit pattern (hand_counts), the weighting itself proved by brute force
on reduced decks. Settlement is checked against each jurisdiction's rules as read below: the READINGS are
the data a ruleset will carry, each with the law's words (a test finds every quote in rulesets/sources/).
"""

import re
import time
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb

import pytest
import yaml

from helpers.command import REPO
from casino_audit.games.poker import (PAYOUT_KEYS, Card, Category, HandRank, classify, hand_counts, parse_card,
                                      parse_hand)
from casino_audit.games.poker_stud import (UnstatedOutcome, compare, paytable_from_payouts, settle, stud_rules)
from helpers.citations import SOURCES
from helpers.poker import LU, STUD_PAYOUTS


MC = {
    **LU,
    "outcomes": {
        **LU["outcomes"],
        "dealer_not_qualified": {"ante": 1, "raise": "push", "citation": (
            "Si la main du croupier ne possède pas de combinaison As/roi ou mieux, il annonce \"pas de jeu\" et "
            "procède au paiement des seules mises initiales avant d'étaler, compter et brûler les cartes. "
            "Les mises initiales sont toujours payées à égalité.")},
        "dealer_wins": {"ante": "lose", "raise": "lose", "citation": (
            "La main d'un joueur qui est battue par celle du croupier perd à la fois la mise initiale et la mise "
            "de relance.")},
    },
    # "sa mise" is read as the player's whole stake, ante and raise: his hand is treated as beaten.
    "special_cases": [
        {"when": "both_ace_king", "ante": "lose", "raise": "lose", "citation": (
            "Dans le cas où les mains du croupier et du joueur comportent une combinaison as/roi, ce joueur "
            "perd sa mise.")},
        {"when": "same_pairs", "ante": "push", "raise": "push", "citation": (
            "Dans le cas où les mains du croupier et du joueur comportent une ou deux paires identiques, les "
            "mains seront considérées à égalité et le coup sera nul.")},
        {"when": "both_flush", "ante": "push", "raise": "push", "citation": (
            "Dans le cas où les mains du croupier et du joueur comportent une couleur, les mains seront "
            "considérées à égalité et le coup sera nul.")},
    ],
}
PT = {
    "dealer_qualifies_with": ["A", "K"],
    "raise_times_ante": 2,
    "outcomes": {
        "fold": {"ante": "lose", "citation": (
            "Os que tenham optado por retirar-se do jogo perdem o valor correspondente à aposta inicial")},
        "dealer_not_qualified": {"ante": 1, "raise": "push", "citation": (
            "Verificando-se o contrário, abona em fichas a cada jogador uma quantidade igual à aposta inicial.")},
        "player_wins": {"ante": 1, "raise": "paytable", "citation": (
            "As apostas iniciais das combinações ganhadoras são abonadas com valores iguais.")},
        "dealer_wins": {"ante": "lose", "raise": "lose", "citation": (
            "Os jogadores com combinações de cartas de valor inferior ao da banca perdem as suas apostas, que são "
            "retiradas na totalidade pelo pagador.")},
        "tie": {"ante": "push", "raise": "push",
                "citation": "conserva a sua aposta sem ganhar qualquer prémio em caso de empate"},
    },
    # n.º 7: equal combinations compare on what each letter names, no further.
    "compared_ranks": {"four_of_a_kind": 1, "full_house": 1, "straight": 1, "straight_flush": 1,
                       "royal_flush": 1, "flush": 1, "three_of_a_kind": 1, "one_pair": 2},
    "suited_tie_break": {"high_card": 3},
    "citations": {
        "dealer_qualifies_with": "A banca só vai a jogo se tiver um ás e um rei ou uma combinação superior",
        "raise_times_ante": "devem dobrar a sua aposta inicial, colocando uma quantidade de fichas que represente o dobro daquela",
        "compared_ranks.flush": "Quando ambos obtenham cor, ganha aquele que tenha a carta de maior valor",
        "compared_ranks.one_pair": (
            "Quando ambos obtenham par, ganha aquele que tiver o par de maior valor. Se coincidirem, atende-se à "
            "carta de maior valor."),
        "compared_ranks.straight": "Quando ambos obtenham sequência de qualquer tipo, ganha aquele que tenha a carta de maior valor.",
        "suited_tie_break.high_card": (
            "Caso existam duas ou mais mãos de cartas singulares iguais, ganha aquela que tiver três delas da "
            "mesma cor."),
    },
}
READINGS = {"LU": LU, "MC": MC, "PT": PT}
GAMES = {"LU": "stud_poker", "MC": "stud_poker", "PT": "poker_sem_descarte"}
PSD_PAYOUTS = {"sequencia_real_de_cor": 100, "sequencia_de_cor": 50, "poquer": 20, "full": 7, "cor": 5,
               "sequencia": 4, "trio": 3, "dois_pares": 2, "um_par": 1, "cartas_maiores": 1}
PAYOUTS = {"LU": STUD_PAYOUTS, "MC": STUD_PAYOUTS, "PT": PSD_PAYOUTS}


def rank(cards: str) -> HandRank:
    return classify(parse_hand(cards))


# --- Cards ------------------------------------------------------------------------------------------------

def test_cards_are_parsed_strictly_once():
    assert parse_card("As") == Card(14, "s") and parse_card("Td") == Card(10, "d") and str(Card(9, "h")) == "9h"
    assert parse_hand(["As", "Kd", "Qh", "Jc", "Ts"]) == parse_hand("As Kd Qh Jc Ts")
    for bad in ("10h", "as", "AS", "Ax", "A", "", "Ass"):
        with pytest.raises(ValueError, match="not a card"):
            parse_card(bad)
    with pytest.raises(ValueError, match="5 cards, not 4"):
        parse_hand("As Kd Qh Jc")
    with pytest.raises(ValueError, match="given twice"):
        parse_hand("As As Qh Jc Ts")


# --- Exact counts -----------------------------------------------------------------------------------------

EXPECTED_52 = {Category.ROYAL_FLUSH: 4, Category.STRAIGHT_FLUSH: 36, Category.FOUR_OF_A_KIND: 624,
               Category.FULL_HOUSE: 3_744, Category.FLUSH: 5_108, Category.STRAIGHT: 10_200,
               Category.THREE_OF_A_KIND: 54_912, Category.TWO_PAIRS: 123_552, Category.ONE_PAIR: 1_098_240,
               Category.HIGH_CARD: 1_302_540}


def test_every_class_over_all_2598960_hands():
    calls = Counter()

    def counted(hand):
        calls["classify"] += 1
        return classify(hand)

    started = time.perf_counter()
    counts = hand_counts(counted)
    assert counts == EXPECTED_52
    assert sum(counts.values()) == comb(52, 5) == 2_598_960
    # 6,175 rank multisets (C(17, 5) less the 13 five-of-a-kind), plus a suited hand for the C(13, 5) = 1,287
    # with five distinct ranks: every count went through classify.
    assert calls["classify"] == comb(17, 5) - 13 + comb(13, 5) == 7_462
    assert time.perf_counter() - started < 2


@pytest.mark.parametrize("ranks, suits", [
    (range(10, 15), "cdhs"),       # ten to ace: royal flush, quads, full houses, pairs (C(20, 5) hands)
    ((14, 2, 3, 4, 5, 6), "cdhs"),  # ace to 6: the wheel, 6-high straights, no royal (24 cards)
    (range(5, 15), "hs"),          # ten ranks in two suits: high cards and flushes, no trips (C(20, 5) hands)
    (range(2, 9), "cdh"),          # seven ranks in three suits: trips and full houses, no quads (21 cards)
])
def test_the_weighting_equals_brute_force_on_reduced_decks(ranks, suits):
    deck = [Card(rank, suit) for rank in ranks for suit in suits]
    dealt = Counter(classify(hand).category for hand in combinations(deck, 5))
    weighted = hand_counts(classify, ranks, suits)
    assert {category: count for category, count in weighted.items() if count} == dict(dealt)
    assert sum(dealt.values()) == comb(len(deck), 5)


def test_the_reduced_decks_cover_every_category():
    seen = set()
    for ranks, suits in ((range(10, 15), "cdhs"), ((14, 2, 3, 4, 5, 6), "cdhs"), (range(5, 15), "hs")):
        seen |= {category for category, count in hand_counts(classify, ranks, suits).items() if count}
    assert seen == set(Category)


# --- Order of hands ---------------------------------------------------------------------------------------

def test_the_wheel_is_the_lowest_straight_and_does_not_wrap():
    straights = ["As 2d 3h 4c 5s", "2s 3d 4h 5c 6s", "9s Td Jh Qc Ks", "Ts Jd Qh Kc As"]
    ranked = [rank(hand) for hand in straights]
    assert all(hand.category == Category.STRAIGHT for hand in ranked)
    assert ranked == sorted(ranked) and ranked[0].ranks == (5, 4, 3, 2, 1)
    assert rank("Ks Ad 2h 3c 4s") == HandRank(Category.HIGH_CARD, (14, 13, 4, 3, 2))
    assert rank("As 2s 3s 4s 5s") < rank("2h 3h 4h 5h 6h") < rank("Th Jh Qh Kh Ah")
    assert rank("As 2s 3s 4s 5s").category == Category.STRAIGHT_FLUSH
    assert rank("Th Jh Qh Kh Ah").category == Category.ROYAL_FLUSH
    assert rank("As 2d 3h 4c 5s") > rank("As Ad Ah Kc Qs")  # any straight beats any three of a kind


@pytest.mark.parametrize("higher, lower", [
    ("8s 8d Kh 5c 3s", "8h 8c Qh 7c 6s"),   # the same pair: the first kicker decides
    ("8s 8d Kh 5c 4s", "8h 8c Kd 5d 3s"),   # ... and down to the last one
    ("Ks Kd 2h 2c 3s", "Qs Qd Jh Jc As"),   # two pairs: the higher pair first
    ("Ks Kd 3h 3c 2s", "Kh Kc 2h 2d As"),   # then the lower pair, before the kicker
    ("Ks Kd 3h 3c 5s", "Kh Kc 3s 3d 4s"),   # then the kicker
    ("3s 3d 3h 2c 2s", "2h 2d 2c As Ks"),   # a full house by its three
    ("As Qs 9s 5s 3s", "Ad Qd 9d 5d 2d"),   # flushes, card by card
    ("As Ks 9d 5c 3h", "Ad Qd Jh 9c 8h"),   # high cards, card by card
    ("2s 2d 3h 4c 5s", "Ad Kd Qh Jc 9s"),   # a category beats any lower one, whatever its cards
])
def test_kickers_and_categories_order_hands(higher, lower):
    assert rank(higher) > rank(lower)


def test_hands_of_equal_ranks_are_equal_whatever_their_suits():
    assert rank("As Kd 9h 5c 3s") == rank("Ad Kh 9c 5s 3d")


# --- Payout keys and the rulesets -------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _ruleset(code: str) -> dict:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load((REPO / "rulesets" / f"{code.lower()}.yaml").read_text(encoding="utf-8"), Loader=loader)


def _ruleset_rule(code: str, rule_id: str) -> dict:
    return next(rule for rule in _ruleset(code)["rules"] if rule["id"] == rule_id)


def test_payout_keys_are_the_rulesets_keys():
    for code, rule_id in (("LU", "LU-STUD-PAYOUTS"), ("MC", "MC-STUD-PAYOUTS")):
        check = _ruleset_rule(code, rule_id)["check"]
        assert set(check["equals"]) == set(PAYOUT_KEYS["stud_poker"].values())
        assert paytable_from_payouts("stud_poker", check["equals"]) == paytable_from_payouts("stud_poker", STUD_PAYOUTS)
    check = _ruleset_rule("PT", "PT-PSD-PAYOUTS")["check"]
    assert set(check["equals"]) | set(check["also_allowed"]) == set(PAYOUT_KEYS["poker_sem_descarte"].values())
    high_card = _ruleset_rule("PT", "PT-PSD-HIGH-CARD")["check"]["equals"]
    assert paytable_from_payouts("poker_sem_descarte", {**check["equals"], **high_card}) == \
        paytable_from_payouts("poker_sem_descarte", PSD_PAYOUTS)


def test_payouts_are_read_exactly_and_strictly():
    assert paytable_from_payouts("stud_poker", {"une_paire": "0.95"}) == {Category.ONE_PAIR: Fraction(19, 20)}
    with pytest.raises(ValueError, match="unknown quinte_flush_royale"):
        paytable_from_payouts("stud_poker", {"quinte_flush_royale": 100})
    with pytest.raises(ValueError, match="never a float"):
        paytable_from_payouts("stud_poker", {"une_paire": 1.0})


@pytest.mark.parametrize("code", sorted(READINGS))
def test_every_quoted_reading_is_in_the_source_text(code):
    text = re.sub(r"\s+", " ", (REPO / "rulesets" / "sources" / SOURCES[code]).read_text(encoding="utf-8"))
    reading = READINGS[code]
    quotes = [entry["citation"] for entry in reading["outcomes"].values()]
    quotes += [case["citation"] for case in reading.get("special_cases", [])] + list(reading["citations"].values())
    for quote in quotes:
        assert re.sub(r"\s+", " ", quote) in text, quote


# --- Stud settlement --------------------------------------------------------------------------------------

def play(code, player, dealer, ante="10", raise_=None, payouts=None):
    ante = Decimal(ante)
    raise_ = 2 * ante if raise_ is None else Decimal(raise_)
    return settle(parse_hand(player), parse_hand(dealer), ante, raise_, stud_rules(READINGS[code]),
                  paytable_from_payouts(GAMES[code], payouts or PAYOUTS[code]))


@pytest.mark.parametrize("code", sorted(READINGS))
@pytest.mark.parametrize("dealer, qualifies", [
    ("As Kd 4h 3c 2s", True),    # the least ace-king: "As/roi", "um ás e um rei"
    ("As Qd Jh 9c 8s", False),   # ace-queen: not enough
    ("Ks Qd Jh 9c 8s", False),
    ("2s 2d 4h 5c 7s", True),    # any combination is better than ace-king ("ou mieux", "ou uma combinação superior")
    ("As 2d 3h 4c 5s", True),    # the wheel is a straight
])
def test_dealer_qualification_per_text(code, dealer, qualifies):
    settlement = play(code, "3s 3d 9h 8c 6s", dealer)
    assert settlement.dealer_qualifies is qualifies
    if not qualifies:
        assert settlement.situation == "dealer_not_qualified"
        assert (settlement.ante, settlement.raise_) == (Decimal("10"), Decimal("0"))  # ante even, raise back


# (player, dealer, situation, ante, raise) with an ante of 10 and a raise of 20, per jurisdiction.
AK, AK_LOW = "As Kd 9h 5c 3s", "Ah Kc 8h 5d 2s"
COMMON = [
    ("Ts Jd Qh Kc 9s", "2s 2d 4h 5c 7s", "player_wins", 10, 20 * 5),      # straight: 5 (LU, MC) and 4 (PT) below
    ("2s 3d 4h 5c 7s", "2h 2c 4d 5d 8s", "dealer_wins", -10, -20),
    ("7s 7d 4h 5c 9s", "Qs Jd 8h 3c 2h", "dealer_not_qualified", 10, 0),  # dealer queen-high: "pas de jeu"
    ("9s Td Jh Qc Ks", "9h Tc Jd Qs Kh", "tie", 0, 0),                    # the same point
]
TABLES = {
    "LU": COMMON + [
        ("Ah Ad Ac 2c 2s", "Qs Qd 5h 6c 7h", "player_wins", 10, 20 * 10),    # full house 10
        ("8s 8d Kh 5c 3s", "8h 8c Qh 7c 6s", "player_wins", 10, 20),         # same pair, the kicker decides
        ("As Qs 9s 5s 3s", "Ad Qd 9d 5d 2d", "player_wins", 10, 20 * 8),     # flushes compared card by card
        ("Ah Kh 2s 3s 4s", AK, "dealer_wins", -10, -20),                     # ace-king against ace-king: ranks
    ],
    "MC": COMMON + [
        (AK, AK_LOW, "special:both_ace_king", -10, -20),   # the player's is higher, and he loses
        (AK_LOW, AK, "special:both_ace_king", -10, -20),
        ("8s 8d Kh 5c 3s", "8h 8c Qh 7c 6s", "special:same_pairs", 0, 0),   # kickers do not count
        ("Ks Kd 3h 3c 5s", "Kh Kc 3s 3d 4s", "special:same_pairs", 0, 0),
        ("9s 9d Kh 5c 3s", "8h 8c Qh 7c 6s", "player_wins", 10, 20),          # different pairs: ranks decide
        ("As Qs 9s 5s 3s", "Kd Qd 9d 5d 2d", "special:both_flush", 0, 0),     # ace-high flush, no matter
        ("2s 3s 4s 5s 6s", "Ad Qd 9d 5d 2d", "player_wins", 10, 20 * 50),     # a straight flush is no couleur
    ],
    "PT": [row if row[2] != "player_wins" else row[:4] + (20 * 4,) for row in COMMON] + [
        ("Ah Ad Ac 2c 2s", "Qs Qd 5h 6c 7h", "player_wins", 10, 20 * 7),      # full house 7
        ("Ah Kh Qs 3d 2c", AK, "player_wins", 10, 20),                         # cartas maiores: once the stake
        ("8s 8d Kh 5c 3s", "8h 8c Kd 7c 6s", "tie", 0, 0),                     # pair, then one card: equal
        ("8s 8d Kh 5c 3s", "8h 8c Qd 7c 6s", "player_wins", 10, 20),
        ("As 8s 7s 5s 3s", "Kd Qd Jd 9d 8d", "player_wins", 10, 20 * 5),       # flush: the highest card only
        ("Ks Qs 9s 5s 3s", "Ad 8d 7d 5d 2d", "dealer_wins", -10, -20),
        ("As Qs 9s 5s 3s", "Ad Qd 8d 5d 2d", "tie", 0, 0),                      # highest cards equal
        ("As Kd 9d 5d 3s", "Ah Kc 9s 5c 3d", "player_wins", 10, 20),           # equal high cards, three diamonds
        ("As Kd 9d 5d 3s", "Ah Kh 9h 5c 3d", "tie", 0, 0),                      # both hold three of a suit
    ],
}


@pytest.mark.parametrize("code, player, dealer, situation, ante, raise_",
                         [(code, *row) for code, rows in sorted(TABLES.items()) for row in rows])
def test_settlement_tables(code, player, dealer, situation, ante, raise_):
    settlement = play(code, player, dealer)
    assert (settlement.situation, settlement.ante, settlement.raise_) == (situation, Decimal(ante), Decimal(raise_))
    assert settlement.total == Decimal(ante + raise_)
    assert settlement.citation in READINGS[code]["outcomes"].get(settlement.situation, {}).get("citation", "") or \
        any(settlement.citation == case["citation"] for case in READINGS[code].get("special_cases", []))


@pytest.mark.parametrize("code", sorted(READINGS))
def test_a_fold_loses_the_ante_whatever_the_dealer_holds(code):
    settlement = play(code, "2s 3d 4h 5c 7s", "Qs Jd 8h 3c 2h", raise_="0")
    assert (settlement.situation, settlement.ante, settlement.raise_, settlement.player) == ("fold", -10, 0, None)


def test_amounts_are_exact_decimals():
    settlement = play("LU", "Ts Jd Qh Kc 9s", "2s 2d 4h 5c 7s", ante="2.55")
    assert (settlement.ante, settlement.raise_) == (Decimal("2.55"), Decimal("25.50"))
    settlement = play("LU", "Ts Jd Qh Kc 9s", "2s 2d 4h 5c 7s", ante="1000.0000000000000000000000001",
                      raise_="2000.0000000000000000000000002", payouts={**STUD_PAYOUTS, "quinte": "0.95"})
    assert settlement.raise_ == Decimal("1900.00000000000000000000000019")  # past Decimal's 28 digits
    assert settlement.total == Decimal("2900.00000000000000000000000029")
    with pytest.raises(TypeError, match="exact amount"):
        settle(parse_hand(AK), parse_hand(AK_LOW), 10.0, 20, stud_rules(LU), {})


def test_the_raise_is_twice_the_ante():
    with pytest.raises(ValueError, match="the raise is 2 times the ante"):
        play("LU", "Ts Jd Qh Kc 9s", "2s 2d 4h 5c 7s", ante="10", raise_="15")


# --- What the texts leave unstated is never guessed -------------------------------------------------------

def test_lu_leaves_a_winning_high_card_unpaid_and_the_engine_says_so():
    # Luxembourg pays combinations from "1 paire" up; Monaco's "as/roi" disposition makes the case impossible.
    with pytest.raises(UnstatedOutcome, match="player_wins_unlisted.*high_card"):
        play("LU", "Ah Kh Qs 3d 2c", AK)
    decided = {**LU, "outcomes": {**LU["outcomes"], "player_wins_unlisted": {"ante": 1, "raise": "push"}}}
    settlement = settle(parse_hand("Ah Kh Qs 3d 2c"), parse_hand(AK), Decimal(10), Decimal(20), stud_rules(decided),
                        paytable_from_payouts("stud_poker", STUD_PAYOUTS))
    assert (settlement.situation, settlement.ante, settlement.raise_) == ("player_wins_unlisted", 10, 0)


def test_an_outcome_the_rules_do_not_give_raises_when_a_coup_needs_it():
    silent = {**LU, "outcomes": {**LU["outcomes"], "dealer_not_qualified": {"ante": 1}}}
    rules, paytable = stud_rules(silent), paytable_from_payouts("stud_poker", STUD_PAYOUTS)
    assert settle(parse_hand(AK), parse_hand("2s 2d 4h 5c 7s"), 10, 20, rules, paytable).situation == "dealer_wins"
    with pytest.raises(UnstatedOutcome, match=r"what the raise pays in situation dealer_not_qualified"):
        settle(parse_hand(AK), parse_hand("Qs Jd 8h 3c 2h"), 10, 20, rules, paytable)


@pytest.mark.parametrize("change, message", [
    ({"outcomes": {"dealer_not_qualifed": {"ante": 1}}}, "unknown dealer_not_qualifed"),
    ({"special_cases": [{"when": "both_straights", "ante": "push", "raise": "push"}]}, "when must be one of"),
    ({"special_cases": [{"when": "both_flush", "ante": "push"}]}, "says what both bets do"),
    ({"dealer_qualifies_with": ["A", "R"]}, "not a rank: 'R'"),
    ({"compared_ranks": {"flushes": 1}}, "unknown hand category 'flushes'"),
    ({"raise_times_ante": 2.0}, "never a float"),
    ({"outcomes": {"tie": {"ante": "paytable"}}}, "not an exact non-negative number"),
])
def test_rules_data_is_read_strictly(change, message):
    with pytest.raises(ValueError, match=message):
        stud_rules({**LU, **change})


def test_compare_reads_the_rules_depth():
    pair_k5, pair_k7 = parse_hand("8s 8d Kh 5c 3s"), parse_hand("8h 8c Kd 7c 6s")
    assert compare(pair_k5, pair_k7, stud_rules(LU)) == -1
    assert compare(pair_k5, pair_k7, stud_rules(PT)) == 0


# --- games/poker.py --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("card", [None, 42, ("A", "s"), b"As", ["As"]])
def test_a_card_that_is_no_text_is_refused_as_not_a_card(card):
    from casino_audit.games import poker
    with pytest.raises(ValueError, match="not a card"):
        poker.parse_card(card)
