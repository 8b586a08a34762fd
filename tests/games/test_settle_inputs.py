"""The game engines' settlements given what no coup can hold: bad input is a ValueError, never a wrong amount
or another exception (baccarat, roulette, casino stud).

Each test asserts what the tool SHOULD do; each fails on the code as it stood when it was written.
"""

from decimal import Decimal

import pytest

from casino_audit.games import baccarat, poker_stud, roulette
from casino_audit.law.rulesets import load_builtin
from helpers import poker as stud_readings


# --- game engines: bad input is a ValueError, never a wrong amount or another exception ------------------

BACCARAT_PAYOUTS = {"banco": {"wins_on": "banker", "pays": "0.95", "returned_on": ["tie"]},
                    "punto": {"wins_on": "player", "pays": "1"}}


@pytest.mark.parametrize("stake", ["NaN", "Infinity", "-Infinity", "sNaN"])
def test_baccarat_settle_refuses_non_finite_stakes(stake):
    """baccarat.settle returns Decimal('NaN') or Decimal('Infinity') as the 'exact' result of a bet staked
    'NaN' / 'Infinity' (roulette refuses them). A wrong amount, not an error. Cause: baccarat._exact."""
    with pytest.raises(ValueError):
        baccarat.settle("banker", {"banco": stake}, BACCARAT_PAYOUTS)


def test_baccarat_settle_refuses_negative_stake():
    """A stake of -10 on banco that wins is settled at -9.50 (a 'win' that costs the player); roulette and stud
    refuse a stake that is not positive. Cause: baccarat.settle/_exact."""
    with pytest.raises(ValueError):
        baccarat.settle("banker", {"banco": "-10"}, BACCARAT_PAYOUTS)


@pytest.mark.parametrize("stake", ["abc", "1,5", ""])
def test_baccarat_settle_text_that_is_no_number_is_a_value_error(stake):
    """A stake or 'pays' of text that is no number raises decimal.InvalidOperation (an ArithmeticError, not a
    ValueError), so a caller catching ValueError for bad input crashes. Cause: baccarat._exact (Decimal(text))."""
    with pytest.raises(ValueError):
        baccarat.settle("banker", {"banco": stake}, BACCARAT_PAYOUTS)


LU_DRAWING = load_builtin("lu").play["punto_banco"].data["drawing"]


@pytest.mark.parametrize("extra", [{12: 32}, {"A": 32}, {10: 32}, {-1: 4}])
def test_baccarat_odds_refuse_a_shoe_with_unknown_values(extra):
    """outcome_probabilities counts a shoe per point value 0-9; a key outside them (12, "A", 10) is silently
    ignored and the 'exact' odds are those of another shoe (a shoe of only {0: 16, "A": 32} gives tie = 1).
    Bad input must be refused, not turned into wrong exact odds. Cause: baccarat._final_hands."""
    with pytest.raises(ValueError):
        baccarat.outcome_probabilities({**baccarat.full_shoe(8), **extra}, LU_DRAWING)


def test_roulette_settle_refuses_a_boolean_pocket():
    """roulette.settle(bet on 1, True) pays 35 to 1: True == 1 in Python, so a log's `true` is a winning
    pocket. Cause: roulette.pocket/settle compare with `in`, never excluding bool."""
    with pytest.raises(ValueError):
        roulette.settle(roulette.bet("plein", 10, [1]), True, {"plein": 35}, None)


def test_roulette_huge_stake_is_a_value_error():
    """A stake of '1e999999' passes roulette.validate, then settle raises decimal.Inexact (an ArithmeticError),
    not ValueError. Cause: roulette.settle (_EXACT context) / validate."""
    placed = roulette.bet("plein", "1e999999", [17])
    with pytest.raises(ValueError):
        if roulette.validate(roulette.SINGLE_ZERO, placed):
            raise ValueError("refused by validate")
        roulette.settle(placed, 17, {"plein": "1e999999"}, None)


@pytest.mark.parametrize("ante", [Decimal("NaN"), Decimal("Infinity")])
def test_stud_settle_non_finite_ante_is_a_value_error(ante):
    """poker_stud.settle with Decimal('NaN') raises decimal.InvalidOperation and with Decimal('Infinity')
    OverflowError, not ValueError (a negative ante is a ValueError). Cause: poker_stud._money accepts any
    Decimal."""
    rules = poker_stud.stud_rules(stud_readings.LU)
    paytable = poker_stud.paytable_from_payouts("stud_poker", stud_readings.STUD_PAYOUTS)
    with pytest.raises(ValueError):
        poker_stud.settle("AS AH KD 5C 2S", "QS QH 9D 5D 3S", ante, ante * 2, rules, paytable)
