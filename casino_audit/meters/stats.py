"""The statistics of a realised return, exactly: the normal quantile as a fraction of 40 exact digits (computed in
Decimal arithmetic, never float), and the bound on the variance of a return over many games.

A realised return R = paid / staked over games staking b_1 ... b_N units has, for a machine of theoretical return p
and standard deviation s of one game's return per unit staked, mean p and variance s^2 * sum(b_i^2) / staked^2
(games independent, a game's win proportional to its stake). The meters give staked and N, not the b_i: with every
stake between 1 and M units the sum of squares is at most (M + 1) * staked - M * N (each b_i^2 <= (M + 1) b_i - M),
the worst case; without M only equal stakes (staked^2 / N) can be assumed, and the finding says so.

An unauthorised rate change (LU-SLOT-LOG-RETURN-RATE) is judged without the normal approximation, whose tails many
standard deviations out are not those of a slot machine's skewed pays over a finite number of games: the pays Y_i
of independent games are non-negative, so (Maurer 2003, "A bound on the deviation probability for sums of
non-negative random variables", Theorem 1) P(E[S] - S >= t) <= exp(-t^2 / (2 sum E[Y_i^2])) for S = sum Y_i,
whatever their distribution and however few the games. With Y_i = b_i X_i, E[X] = p and Var X = s^2,
sum E[Y_i^2] = (s^2 + p^2) sum b_i^2; a legal machine's realised pay falls t = p * staked - paid short with
probability at most alpha when t^2 > 2 ln(1/alpha) (s^2 + p^2) sum b_i^2 (`log_inverse` rounds ln(1/alpha) up).
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache

_PRECISION = 90  # digits carried through the series; the quantile is kept to 40


def _pi() -> Decimal:
    """pi to the context's precision (the decimal module's recipe)."""
    with localcontext() as context:
        context.prec += 2
        three = Decimal(3)
        last, t, s, n, na, d, da = 0, three, 3, 1, 0, 0, 24
        while s != last:
            last = s
            n, na = n + na, na + 8
            d, da = d + da, da + 32
            t = (t * n) / d
            s += t
    return +s


def _cdf(x: Decimal, root_two_pi: Decimal) -> Decimal:
    """The standard normal distribution at x >= 0: 1/2 + phi(x) * sum x^(2k+1) / (1*3*...*(2k+1)) (all terms
    positive, so the sum loses no digits)."""
    term, total, k = x, x, 0
    square = x * x
    limit = Decimal(10) ** -(_PRECISION - 5)
    while term > limit * total:
        k += 1
        term = term * square / (2 * k + 1)
        total += term
    density = (-(square / 2)).exp() / root_two_pi
    return Decimal("0.5") + density * total


@lru_cache(maxsize=None)
def normal_quantile(probability: Fraction) -> Fraction:
    """z with P(Z <= z) = probability for a standard normal Z, 1/2 < probability < 1, to 40 exact digits."""
    if not Fraction(1, 2) < probability < 1:
        raise ValueError(f"a quantile of the upper half is asked, not of {probability}")
    with localcontext() as context:
        context.prec = _PRECISION
        wanted = Decimal(probability.numerator) / Decimal(probability.denominator)
        root_two_pi = (2 * _pi()).sqrt()
        low, high = Decimal(0), Decimal(1)
        while _cdf(high, root_two_pi) < wanted:
            high *= 2
        epsilon = Decimal(10) ** -41
        while high - low > epsilon:
            middle = (low + high) / 2
            if _cdf(middle, root_two_pi) < wanted:
                low = middle
            else:
                high = middle
        return Fraction(high.quantize(Decimal(10) ** -40))


def bet_squares(staked: int, games: int, max_bet: int | None) -> Fraction:
    """An upper bound on the sum of the squared stakes of `games` games staking `staked` units in all: the worst case
    with stakes of 1 to `max_bet` units, or equal stakes when `max_bet` is unknown (the caller says so)."""
    if max_bet is None:
        return Fraction(staked * staked, games) if games else None
    if games and games <= staked <= max_bet * games:
        return Fraction((max_bet + 1) * staked - max_bet * games)
    # Stakes of 0 (free games) or more coins than the games could stake at the maximum: the games_played meter
    # does not fit the coin-in meters, so it bounds nothing; b_i <= max_bet alone gives b_i^2 <= max_bet * b_i.
    # Never the equal stakes' staked^2 / games: a games_played meter that barely moves would make it as large as
    # one likes, and a return as far from the theory as one likes would pass within the interval.
    return Fraction(max_bet * staked)


def root(value: Fraction) -> Decimal:
    """The square root of a non-negative fraction, to 30 digits (for messages only: tests compare squares)."""
    with localcontext() as context:
        context.prec = 30
        return (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()


def log_inverse(probability: Fraction) -> Fraction:
    """An upper bound on ln(1 / probability), 0 < probability < 1, within 10^-40 of it (Decimal's correctly rounded
    logarithm at 60 digits, rounded up): a threshold from it is never lower than the exact one."""
    if not 0 < probability < 1:
        raise ValueError(f"a probability between 0 and 1 is asked, not {probability}")
    with localcontext() as context:
        context.prec = 60
        value = (Decimal(probability.denominator) / Decimal(probability.numerator)).ln()
        return Fraction(value) + Fraction(1, 10 ** 40)
