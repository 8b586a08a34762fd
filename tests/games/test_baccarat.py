"""The punto banco engine against exact facts: the Luxembourg text's own drawing table, a brute force over every
ordering of a small shoe, and the published 8- and 6-deck odds."""

import itertools
import re
import time
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest

from casino_audit.games.baccarat import (
    BANKER, OUTCOMES, PLAYER, TIE, card_value, check_deal,
    deal, deal_from_shoe, full_shoe, hand_total, house_edge, is_natural, outcome_probabilities, settle)
from casino_audit.law.rulesets import load_builtin
from helpers.command import REPO
from casino_audit.games import baccarat

RULES = LU_ART_37_4 = load_builtin("lu").play["punto_banco"].data["drawing"]  # Art. 37-4, as the ruleset has it

# Art. 37-4: «Les gains de punto sont payés à égalité, les gains de banco sont payés 19 pour 20 et les gains
# d'égalité 8 pour 1. Dans ce dernier cas, pour les enjeux sur punto et banco, le coup est nul.»
LU_ART_37_4_PAYOUTS = {
    "punto": {"wins_on": PLAYER, "pays": "1", "returned_on": [TIE]},
    "banco": {"wins_on": BANKER, "pays": "0.95", "returned_on": [TIE]},
    "egalite": {"wins_on": TIE, "pays": "8"},
}

# PT Secção III, n.º 17: the winning group is paid «prémios iguais às importâncias apostadas»; n.º 18: a tie
# pays «na proporção de oito para um, tendo-se por finda a jogada, podendo os jogadores manter ou alterar as
# suas apostas» (ponto and banca stakes stay theirs: returned). The pairs of n.º 19 (11 to 1) need the cards,
# not the outcome, and are not settled here.
PT_SEC_III_PAYOUTS = {
    "ponto": {"wins_on": PLAYER, "pays": "1", "returned_on": [TIE]},
    "banca": {"wins_on": BANKER, "pays": "1", "returned_on": [TIE]},
    "empate": {"wins_on": TIE, "pays": "8"},
}
# n.º 20, alternatively: «a) Dedução de 5% ao montante dos prémios em cada lance ganho pelo grupo da banca;
# b) Dedução de 50% ao montante dos prémios em cada lance ganho pelo grupo da banca com a pontuação de 5.»
PT_SEC_III_PAYOUTS_DEDUCTION_5_PERCENT = {
    **PT_SEC_III_PAYOUTS, "banca": {**PT_SEC_III_PAYOUTS["banca"], "deduction": "0.05"}}
PT_SEC_III_PAYOUTS_DEDUCTION_HALF_ON_5 = {
    **PT_SEC_III_PAYOUTS, "banca": {**PT_SEC_III_PAYOUTS["banca"], "deduction_by_banker_total": {5: "0.5"}}}


THIRD_CARDS = [*range(10), None]  # None: the player stood ("Refus")


def lu_banker_table_as_printed() -> dict[int, dict]:
    """Art. 37-4's banco table read from the source text itself: rows 3 to 6, eleven T/R cells each (third
    card 0 to 9, then "Refus"), not copied from the engine."""
    lines = (REPO / "rulesets/sources/lu-rgd-2002-03-08.txt").read_text(encoding="utf-8").splitlines()
    start = lines.index("Tableau de tirage de banco")
    table = {}
    for number, line in enumerate(lines[start:start + 80], start):
        row = re.fullmatch(r"(\d) \.+", line.strip())
        if row:
            cells = [cell.strip() for cell in lines[number + 1:number + 12]]
            assert set(cells) <= {"T", "R"}, cells
            table[int(row.group(1))] = dict(zip(THIRD_CARDS, (cell == "T" for cell in cells)))
    assert sorted(table) == [3, 4, 5, 6]
    return table


def expected_banker_draw(banker: int, third) -> bool:
    printed = lu_banker_table_as_printed()
    if banker in printed:
        return printed[banker][third]
    # «lorsqu'il a 0, 1 ou 2, banco tire sauf si punto fait un abattage»; 7: no row in the text, banco stands.
    return banker <= 2


def test_card_values_follow_the_text():
    assert [card_value(rank) for rank in "A 2 3 4 5 6 7 8 9 10 J Q K".split()] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
    assert [card_value(number) for number in range(14)] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
    assert card_value(" q ") == 0
    for bad in ("1", "11", "Z", 14, -1, True, 1.0, None):
        with pytest.raises(ValueError):
            card_value(bad)


def test_totals_keep_the_units_and_naturals_need_two_cards():
    assert hand_total(["9", "K"]) == 9 and hand_total(["7", "8"]) == 5 and hand_total(["9", "9", "9"]) == 7
    assert is_natural(["4", "4"], RULES) and is_natural(["K", "9"], RULES)
    assert not is_natural(["4", "4", "K"], RULES) and not is_natural(["7", "K"], RULES)


def test_the_engine_table_is_the_one_printed_in_art_37_4():
    for banker, row in lu_banker_table_as_printed().items():
        assert RULES["banker"][banker]["draws_if_player_stood"] == row[None]
        assert RULES["banker"][banker]["draws_on_player_third_card"] == [card for card in range(10) if row[card]]


@pytest.mark.parametrize("banker", range(8))
@pytest.mark.parametrize("third", THIRD_CARDS)
def test_every_cell_of_the_banker_table(banker, third):
    # The player has 0 and draws `third`, or has 6 and stands; the banker has `banker` on two cards.
    cards = [0, 0, 0, banker, third] if third is not None else [6, 0, 0, banker]
    draws = expected_banker_draw(banker, third)
    coup = deal(cards + [5] if draws else cards, RULES)
    assert coup.player_drew == (third is not None)
    assert coup.banker_drew == draws
    assert coup.banker_total == ((banker + 5) % 10 if draws else banker)
    problems = check_deal(cards, RULES)
    assert problems == ([f"missing: the banker's third card (the banker has {banker} and "
                         + ("the player stood)" if third is None else f"the player's third card is worth {third})")]
                        if draws else [])


@pytest.mark.parametrize("player", range(10))
def test_the_player_draws_on_0_to_5_and_stands_on_6_and_7(player):
    coup = deal_from_shoe([player, 7, 0, 0, 2, 9, 9], RULES)  # the banker's 7 never draws
    assert coup.player_drew == (player <= 5)
    assert not coup.banker_drew


def test_a_natural_on_either_side_ends_the_coup():
    assert deal(["K", "9", "3", "K"], RULES) == deal_from_shoe(["K", "9", "3", "K", "5", "5"], RULES)
    coup = deal(["K", "9", "3", "K"], RULES)  # the player's 3 would draw: the banker's 9 forbids it
    assert (coup.player_total, coup.banker_total, coup.outcome, coup.player_drew) == (3, 9, BANKER, False)
    coup = deal(["8", "K", "K", "K"], RULES)  # the banker's 0 would draw: the player's 8 forbids it
    assert (coup.outcome, coup.banker_drew) == (PLAYER, False)
    assert deal(["8", "4", "K", "4"], RULES).outcome == TIE


def test_check_deal_finds_missing_and_extra_cards_and_never_raises():
    assert check_deal(["2", "K", "3", "K"], RULES) == ["missing: the player's third card (the player has 5)"]
    assert check_deal(["8", "K", "K", "K", "5"], RULES) == ["1 card(s) more than the rules require: '5'"]
    assert check_deal(["6", "K", "K", "K", "5", "2"], RULES) == ["1 card(s) more than the rules require: '2'"]
    assert check_deal(["A"], RULES) == ["missing: the banker's first card", "missing: the player's second card",
                                        "missing: the banker's second card"]
    assert check_deal(["A", None, "Z", "K"], RULES) == ["card 2 is not a card: None", "card 3 is not a card: 'Z'"]
    assert check_deal([], RULES)[0] == "missing: the player's first card"
    with pytest.raises(ValueError, match="player's third card"):
        deal(["2", "K", "3", "K"], RULES)
    with pytest.raises(ValueError, match="shoe runs out"):
        deal_from_shoe(["2", "K", "3", "K"], RULES)


def test_rules_without_a_row_for_a_total_are_refused_not_read_as_standing():
    rules = {**RULES, "banker": {k: v for k, v in RULES["banker"].items() if k != 7}}
    with pytest.raises(ValueError, match="no row for a banker total of 7"):
        deal(["6", "7", "K", "K"], rules)


def test_settle_lu_pays_19_for_20_and_a_tie_leaves_punto_and_banco_stakes():
    bets = {"punto": 20, "banco": "20", "egalite": Decimal("5")}
    assert settle(BANKER, bets, LU_ART_37_4_PAYOUTS) == {"punto": -20, "banco": 19, "egalite": -5}
    assert settle(PLAYER, bets, LU_ART_37_4_PAYOUTS) == {"punto": 20, "banco": -20, "egalite": -5}
    assert settle(TIE, bets, LU_ART_37_4_PAYOUTS) == {"punto": 0, "banco": 0, "egalite": 40}
    assert settle(BANKER, {"banco": "0.10"}, LU_ART_37_4_PAYOUTS) == {"banco": Decimal("0.095")}  # exact, unrounded
    for bad in ({"banco": 0.1}, {"martingale": 5}):
        with pytest.raises(ValueError):
            settle(BANKER, bad, LU_ART_37_4_PAYOUTS)
    with pytest.raises(ValueError):
        settle("punto", bets, LU_ART_37_4_PAYOUTS)


def test_settle_pt_deductions():
    assert settle(BANKER, {"banca": 100}, PT_SEC_III_PAYOUTS) == {"banca": 100}
    assert settle(BANKER, {"banca": 100}, PT_SEC_III_PAYOUTS_DEDUCTION_5_PERCENT) == {"banca": 95}
    half_on_5 = PT_SEC_III_PAYOUTS_DEDUCTION_HALF_ON_5
    assert settle(BANKER, {"banca": 100}, half_on_5, banker_total=5) == {"banca": 50}
    assert settle(BANKER, {"banca": 100}, half_on_5, banker_total=6) == {"banca": 100}
    assert settle(TIE, {"banca": 100, "empate": 10}, half_on_5) == {"banca": 0, "empate": 80}
    with pytest.raises(ValueError, match="banker_total"):
        settle(BANKER, {"banca": 100}, half_on_5)


@pytest.mark.parametrize("shoe", [[0, 0, 0, 1, 3, 4, 5, 6], [0, 2, 3, 5, 6, 7, 8, 9], [0, 0, 1, 2, 4, 6, 7]])
def test_exact_enumeration_equals_a_brute_force_over_every_ordering(shoe):
    orderings = list(itertools.permutations(shoe))  # positions are distinct cards: equal values count apart
    finals = Counter()
    for ordering in orderings:
        coup = deal_from_shoe(ordering, RULES)
        finals[coup.outcome, coup.banker_total] += 1
    counts = Counter(shoe)
    probabilities = outcome_probabilities(counts, RULES)
    assert probabilities == {outcome: Fraction(sum(n for (o, _), n in finals.items() if o == outcome), len(orderings))
                             for outcome in OUTCOMES}
    assert sum(probabilities.values()) == 1
    for payouts in (LU_ART_37_4_PAYOUTS, PT_SEC_III_PAYOUTS_DEDUCTION_HALF_ON_5):
        total = Counter()
        for (outcome, banker_total), n in finals.items():
            for bet, result in settle(outcome, dict.fromkeys(payouts, 1), payouts, banker_total=banker_total).items():
                total[bet] += n * Fraction(result)
        assert house_edge(counts, RULES, payouts) == {bet: -total[bet] / len(orderings) for bet in payouts}


def test_eight_decks_give_the_published_odds_exactly_and_fast():
    start = time.perf_counter()
    probabilities = outcome_probabilities(full_shoe(8), RULES)
    edges = house_edge(full_shoe(8), RULES, LU_ART_37_4_PAYOUTS)
    assert time.perf_counter() - start < 2
    assert probabilities == {BANKER: Fraction(8954111587648, 19524993263685),
                             PLAYER: Fraction(8712962041376, 19524993263685),
                             TIE: Fraction(619306544887, 6508331087895)}
    # The standard figures (e.g. Wizard of Odds, "Baccarat"): 0.458597, 0.446247, 0.095156.
    assert {k: round(float(v), 6) for k, v in probabilities.items()} == {
        BANKER: 0.458597, PLAYER: 0.446247, TIE: 0.095156}
    # House edges: banker at 0.95 1.0579 %, player 1.2351 %, tie at 8 to 1 14.3596 %.
    assert {k: round(float(v) * 100, 4) for k, v in edges.items()} == {
        "banco": 1.0579, "punto": 1.2351, "egalite": 14.3596}


def test_six_decks_luxembourg_shoe_give_the_published_edges():
    edges = house_edge(full_shoe(6), RULES, LU_ART_37_4_PAYOUTS)  # Art. 37-4: «six jeux de cinquante-deux cartes»
    assert {k: round(float(v) * 100, 4) for k, v in edges.items()} == {
        "banco": 1.0558, "punto": 1.2374, "egalite": 14.4382}


def test_pt_banca_at_even_money_favours_the_player_and_each_deduction_turns_it():
    shoe = full_shoe(8)
    lu = house_edge(shoe, RULES, LU_ART_37_4_PAYOUTS)
    assert house_edge(shoe, RULES, PT_SEC_III_PAYOUTS)["banca"] == -lu["punto"]  # P(player) - P(banker) < 0
    assert house_edge(shoe, RULES, PT_SEC_III_PAYOUTS_DEDUCTION_5_PERCENT)["banca"] == lu["banco"]  # 1 less 5 %
    assert round(float(house_edge(shoe, RULES, PT_SEC_III_PAYOUTS_DEDUCTION_HALF_ON_5)["banca"]) * 100, 4) == 0.9328


def test_a_shoe_too_small_for_a_coup_is_refused():
    with pytest.raises(ValueError, match="six cards"):
        outcome_probabilities({0: 3, 1: 2}, RULES)


LU_PAYOUTS = {  # Art. 37-4: punto at evens, banco 19 for 20, égalité 8 for 1; a tie hands punto and banco back
    "punto": {"wins_on": PLAYER, "pays": "1", "returned_on": [TIE]},
    "banco": {"wins_on": BANKER, "pays": "0.95", "returned_on": [TIE]},
    "egalite": {"wins_on": TIE, "pays": "8"},
}
# PT Secção III, n.º 19: «quando as duas cartas inicialmente distribuídas a um daqueles grupos tiverem a mesma
# denominação», the pair bet is paid 11 to 1, whatever the coup's outcome.
PT_PAIRS = {"par_ponto": {"wins_on": "player_pair", "pays": "11"},
            "par_banca": {"wins_on": "banker_pair", "pays": "11"}}


def test_deal_refuses_cards_beyond_those_the_drawing_table_requires():
    # The player's natural 8 ends the coup: a fifth card is one too many, not a card left in the shoe.
    with pytest.raises(ValueError, match=r"1 card\(s\) more than the rules require: '5'"):
        baccarat.deal(["8", "K", "K", "K", "5"], RULES)
    assert baccarat.deal_from_shoe(["8", "K", "K", "K", "5"], RULES).cards_used == 4  # from a shoe: left in it


def test_check_deal_on_three_cards_names_the_fourth_and_never_raises():
    assert baccarat.check_deal(["A", "2", "3"], RULES) == ["missing: the banker's second card"]


@pytest.mark.parametrize("cards, used", [(["8", "K", "K", "K"], 4), (["K", "6", "K", "K", "5"], 5),
                                         (["K", "K", "K", "K", "5", "3"], 6), (["6", "K", "K", "K", "2"], 5)])
def test_cards_used_counts_both_hands(cards, used):
    coup = baccarat.deal(cards, RULES)
    assert coup.cards_used == used == len(coup.player_cards) + len(coup.banker_cards)


@pytest.mark.parametrize("stake", ["0", 0, "-5", Decimal("0.00")])
def test_a_stake_of_nothing_or_less_is_refused(stake):
    with pytest.raises(ValueError, match="must be positive"):
        baccarat.settle(BANKER, {"banco": stake}, LU_PAYOUTS)


@pytest.mark.parametrize("stake", [0.5, True, [5], None])
def test_an_inexact_or_strange_stake_is_refused_as_not_exact(stake):
    with pytest.raises(ValueError, match="must be exact"):
        baccarat.settle(BANKER, {"banco": stake}, LU_PAYOUTS)
    with pytest.raises(ValueError, match="must be exact"):
        baccarat.settle(BANKER, {"banco": 10}, {"banco": {**LU_PAYOUTS["banco"], "pays": stake}})


@pytest.mark.parametrize("outcome", OUTCOMES)
def test_pair_bets_win_on_their_hands_pair_whatever_the_outcome(outcome):
    bets = {"par_ponto": 10, "par_banca": 10}
    assert baccarat.settle(outcome, bets, PT_PAIRS, pairs=frozenset({PLAYER})) == {"par_ponto": 110, "par_banca": -10}
    assert baccarat.settle(outcome, bets, PT_PAIRS, pairs=frozenset({BANKER})) == {"par_ponto": -10, "par_banca": 110}
    assert baccarat.settle(outcome, bets, PT_PAIRS, pairs=frozenset({PLAYER, BANKER})) == {
        "par_ponto": 110, "par_banca": 110}
    assert baccarat.settle(outcome, bets, PT_PAIRS) == {"par_ponto": -10, "par_banca": -10}


def test_the_edge_of_a_pair_bet_is_refused_not_computed_by_outcome():
    with pytest.raises(ValueError, match="pair bet"):
        baccarat.house_edge(baccarat.full_shoe(1), RULES, {**LU_PAYOUTS, **PT_PAIRS})


@pytest.mark.parametrize("counts", [{0: True, 1: 4, 2: 4, 3: 4}, {0: 4.0, 1: 4, 2: 4}, {0: 8, 1: -1},
                                    {0: "4", 1: 4, 2: 4}])
def test_a_shoe_of_strange_counts_is_refused(counts):
    with pytest.raises(ValueError, match="whole, non-negative number"):
        baccarat.outcome_probabilities(counts, RULES)


@pytest.mark.parametrize("key", ["A", 10, -1, True, "0"])
def test_a_shoe_counted_under_anything_but_a_point_value_is_refused(key):
    with pytest.raises(ValueError, match="counted per point value 0 to 9"):
        baccarat.outcome_probabilities({key: 4, **{v: n for v, n in baccarat.full_shoe(1).items() if v != key}}, RULES)


def test_a_value_the_shoe_has_run_out_of_is_counted_zero_not_refused():
    shoe = {0: 2, 1: 0, 4: 1, 5: 1, 6: 1, 9: 1}  # no more aces: a count of 0 is what a shoe can come to
    assert baccarat.outcome_probabilities(shoe, RULES) == baccarat.outcome_probabilities(
        {value: n for value, n in shoe.items() if n}, RULES)


def test_a_shoe_of_exactly_six_cards_is_enough_for_a_coup():
    shoe = [0, 1, 4, 5, 6, 9]  # every coup takes at most six cards: 720 orderings, each one a coup
    finals = Counter(baccarat.deal_from_shoe(order, RULES).outcome for order in itertools.permutations(shoe))
    assert baccarat.outcome_probabilities(Counter(shoe), RULES) == {
        outcome: Fraction(finals[outcome], 720) for outcome in OUTCOMES}
    with pytest.raises(ValueError, match="six cards"):
        baccarat.outcome_probabilities(Counter(shoe[:5]), RULES)
