"""Tests written where mutation testing (tools/mutate.py) showed the suite did not bite: each names the fact of
the law or of the game that a mutant broke without any test failing."""

import itertools
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest

from casino_audit.games import baccarat
from casino_audit.games.baccarat import BANKER, OUTCOMES, PLAYER, TIE
from casino_audit.rulesets import load_builtin

RULES = load_builtin("lu").play["punto_banco"].data["drawing"]  # LU Art. 37-4, as the ruleset has it
LU_PAYOUTS = {  # Art. 37-4: punto at evens, banco 19 for 20, égalité 8 for 1; a tie hands punto and banco back
    "punto": {"wins_on": PLAYER, "pays": "1", "returned_on": [TIE]},
    "banco": {"wins_on": BANKER, "pays": "0.95", "returned_on": [TIE]},
    "egalite": {"wins_on": TIE, "pays": "8"},
}
# PT Secção III, n.º 19: «quando as duas cartas inicialmente distribuídas a um daqueles grupos tiverem a mesma
# denominação», the pair bet is paid 11 to 1, whatever the coup's outcome.
PT_PAIRS = {"par_ponto": {"wins_on": "player_pair", "pays": "11"},
            "par_banca": {"wins_on": "banker_pair", "pays": "11"}}


# --- games/baccarat.py -----------------------------------------------------------------------------------------

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


def test_a_shoe_of_exactly_six_cards_is_enough_for_a_coup():
    shoe = [0, 1, 4, 5, 6, 9]  # every coup takes at most six cards: 720 orderings, each one a coup
    finals = Counter(baccarat.deal_from_shoe(order, RULES).outcome for order in itertools.permutations(shoe))
    assert baccarat.outcome_probabilities(Counter(shoe), RULES) == {
        outcome: Fraction(finals[outcome], 720) for outcome in OUTCOMES}
    with pytest.raises(ValueError, match="six cards"):
        baccarat.outcome_probabilities(Counter(shoe[:5]), RULES)
