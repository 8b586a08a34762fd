"""Session 18: a staff turn's length compared as a timedelta; roulette's limit names kept per chance."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

from hypothesis import example, given, settings, strategies as st

from casino_audit.logs.session import _minutes, _seconds
from casino_audit.replay import roulette as replay_roulette


@settings(max_examples=400, deadline=None)
@given(st.decimals(min_value=Decimal("-10"), max_value=Decimal("10000"), places=9, allow_nan=False)
       | st.integers(0, 10**12),
       st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=10**4)))
@example(Decimal(60), timedelta(hours=1))  # exactly the limit: not over it
@example(Decimal(60), timedelta(hours=1, microseconds=1))
@example(Decimal("0.0000001"), timedelta(microseconds=7))  # 6 us, a whole number of microseconds
@example(Decimal("1E-9"), timedelta(0))  # 0.06 us: no timedelta holds it, compared as fractions
def test_a_turn_is_over_its_limit_exactly_as_the_fractions_say(minutes, turn):
    longest = _minutes(minutes)
    over = turn > longest if type(longest) is timedelta else _seconds(turn) > longest
    assert over == (Fraction(turn.days * 86400 + turn.seconds) + Fraction(turn.microseconds, 10**6)
                    > Fraction(minutes) * 60)


def test_a_spinner_one_microsecond_over_the_hour_is_over_it(cli, tmp_path):
    from test_replay_roulette import PT_FRENCH, bet, check, coup

    def at(time):
        return coup(3, bet("impar", 5, 5), time=time, staff={"croupier": "C-1", "spinner": "C-7"})
    found, _ = check(cli, tmp_path, PT_FRENCH, [at("2026-11-02T20:00:00"), at("2026-11-02T21:00:00")])
    assert found == []
    found, _ = check(cli, tmp_path, PT_FRENCH, [at("2026-11-02T20:00:00"), at("2026-11-02T21:00:00.000001")])
    assert found == [("PT-ROUL-LOG-SPINNER", 3, "/staff/spinner")]


def test_a_limit_name_is_the_same_read_from_the_table_or_built():
    """The names a stake's limit may be filed under, kept per chance of the layout, are the ones built anew;
    a chance the layout lacks is never kept (a log could name any number of them)."""
    coup = {"bets": [{"chance": name, "stake": 1} for name in
                     ("rouge", "encarnado", "plein", "pleno", "no_such_chance", "rouge")]}
    first = list(replay_roulette.stakes(coup))
    replay_roulette._STAKE_NAMES.clear()
    again = list(replay_roulette.stakes(coup))
    assert first == again
    assert first[0][1][0] == "rouge" and "chances_simples" in first[0][1] and "encarnado" in first[0][1]
    assert first[4][1] == ("no_such_chance",)
    assert "no_such_chance" not in replay_roulette._STAKE_NAMES
