"""Red-team pass 19 on meter logs: each test is an input a filer could have got a breach through with, or a legal
log the tool flagged, found by running it."""

from __future__ import annotations

from fractions import Fraction

from casino_audit.meters.stats import bet_squares
from test_meters import DEPARTURE, MINIMUM, START, check, header, reading, write


def _low_return_log(games_per_day: int) -> list[dict]:
    """60 days of 4,000 units staked a day and 2,800 paid (a return of 70 %), the games_played meter moving by
    `games_per_day`."""
    return [header(), *(reading(day, coin_out=START["coin_out"] + day * 2800,
                                games_played=START["games_played"] + day * games_per_day) for day in range(60))]


def test_a_games_played_meter_that_barely_moves_does_not_hide_a_low_return(tmp_path):
    # The machine's maximum stake is 10 units: 4,000 units staked in 10 games a day cannot be. The equal stakes'
    # bound (400 units a game) made the variance large enough for a 70 % return to pass; b <= 10 bounds it.
    for games in (1600, 10, 1):
        path = write(tmp_path, _low_return_log(games), name=f"games-{games}.jsonl")
        rules = {f.rule_id for f in check(path).findings}
        assert {DEPARTURE, MINIMUM} <= rules, games


def test_the_bound_on_squared_stakes_never_exceeds_every_stake_at_the_maximum():
    assert bet_squares(4000, 10, 10) == Fraction(40000)
    assert bet_squares(4000, 1, 10) == Fraction(40000)
    assert bet_squares(4000, 1600, 10) == Fraction(11 * 4000 - 10 * 1600)
    assert bet_squares(4000, 0, 10) == Fraction(40000)
