"""A realised return far below the theoretical one over many games is an unauthorised rate change (LU Art. 18-7,
al. 2; LU-SLOT-LOG-RETURN-RATE): an error exactly where a machine paying at its rate falls that short with a
probability of 10^-9 at most, by the bound on the lower tail of non-negative pays."""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from casino_audit.core.findings import Severity
from casino_audit.read.loader import load_file
from casino_audit.meters import theory as theories
from casino_audit.meters.stats import bet_squares, log_inverse
from helpers.command import EXAMPLES
from helpers.meters import COUNT, MACHINE_TEXT, START, check, header, reading, write

RATE = "LU-SLOT-LOG-RETURN-RATE"
THEORY = theories.theory_of(load_file(EXAMPLES / "lu/machine-compliant.yaml").documents[0].data)
DAYS, PER_DAY_IN, GAMES = 60, 40_000, 16_000  # 2.5 units a game, at most 10 (10 EUR over 1.00)


def _log(tmp_path, paid_per_day: int):
    records = [header(), *(reading(day, coin_in_1=START["coin_in_1"] + day * PER_DAY_IN,
                                   coin_in_2=(START["coin_in_1"] + day * PER_DAY_IN) % 10 ** 8,
                                   coin_out=START["coin_out"] + day * paid_per_day,
                                   games_played=START["games_played"] + day * GAMES) for day in range(DAYS))]
    return write(tmp_path, records)


def _found_by_the_bound(paid: int) -> bool:
    """The rule's test, worked out here independently: (p staked - paid)^2 > 2 ln(10^9) E[X^2] sum b_i^2."""
    staked, games = PER_DAY_IN * (DAYS - 1), GAMES * (DAYS - 1)
    short = THEORY.rtp * staked - paid
    squares = bet_squares(staked, games, 10)
    with localcontext() as context:
        context.prec = 80
        ln = Fraction(Decimal(10 ** 9).ln())
    second = THEORY.variance + THEORY.rtp ** 2
    return short > 0 and short * short > 2 * ln * second * squares


def test_a_return_far_below_the_theory_over_many_games_is_an_error(tmp_path):
    findings = [f for f in check(_log(tmp_path, 30_000)).findings if f.rule_id == RATE]  # 75 % against 92.5 %
    assert [(f.line, f.severity) for f in findings] == [(DAYS + 1, Severity.ERROR)]
    assert "another rate than the one filed is applied" in findings[0].message and "1e-9" not in findings[0].message
    assert check(tmp_path / "log.jsonl").exit_code(Severity.ERROR) == 1


@settings(max_examples=25, deadline=None)
@given(paid_per_day=st.integers(31_000, 37_000))
def test_the_error_is_found_exactly_where_the_bound_says(tmp_path_factory, paid_per_day):
    findings = [f for f in check(_log(tmp_path_factory.mktemp("rate"), paid_per_day)).findings if f.rule_id == RATE]
    assert bool(findings) == _found_by_the_bound(paid_per_day * (DAYS - 1)), paid_per_day


def test_a_return_at_the_rate_is_never_an_error(tmp_path):
    # 92.5 %: nothing but the last month's count, which a log ending in its middle cannot judge (said as info)
    assert [f for f in check(_log(tmp_path, 37_000)).findings if f.file and f.rule_id != COUNT] == []


def test_the_threshold_is_never_below_the_exact_logarithm():
    for alpha in (Fraction(1, 10 ** 9), Fraction(1, 3), Fraction(999, 1000), Fraction(1, 10 ** 30)):
        bound = log_inverse(alpha)
        with localcontext() as context:
            context.prec = 80
            exact = (Decimal(alpha.denominator) / Decimal(alpha.numerator)).ln()
            assert Fraction(exact) <= bound <= Fraction(exact) + Fraction(2, 10 ** 40)


def test_without_a_maximum_stake_no_rate_change_is_found_on_stakes_assumed_equal(tmp_path):
    records = [header(), *(reading(day, coin_out=START["coin_out"] + day * 1000) for day in range(DAYS))]
    text = MACHINE_TEXT.replace("  maximum_eur: 10.00\n", "")  # the file bounds no stake
    said = [f for f in check(write(tmp_path, records, machine_text=text)).findings if f.rule_id == RATE]
    assert [(f.severity, f.line) for f in said] == [(Severity.INFO, 1)] and "stakes assumed equal" in said[0].message
