"""A machine whose PAR data hold several paytables is judged from them, counted exactly: each game may be of any
of them, so the lowest return and the largest second moment bound what its realised return may be (a second
paytable added to the file must not leave a machine paying 75 % of its 92.5 % rate judged on the top award's wide
bound, where it passed)."""

from __future__ import annotations

from fractions import Fraction

import yaml

from casino_audit.core.findings import Severity
from casino_audit.meters import theory as theories
from helpers.meters import MACHINE_TEXT, START, check, header, reading, write

RULES = ("LU-SLOT-LOG-RETURN-DEPARTURE", "LU-SLOT-LOG-RETURN-MIN", "LU-SLOT-LOG-RETURN-RATE")
DAYS, PER_DAY_IN, GAMES = 60, 40_000, 16_000
TABLES = MACHINE_TEXT[MACHINE_TEXT.index("  paytables:\n") + len("  paytables:\n"):]


def _two_tables(second_name: str = "20 lines B", change=lambda text: text) -> str:
    return MACHINE_TEXT + change(TABLES.replace('name: "20 lines"', f'name: "{second_name}"', 1))


def _found(tmp_path, text: str, paid_per_day: int):
    theories._COMPUTED.clear()
    records = [header(), *(reading(day, coin_in_1=START["coin_in_1"] + day * PER_DAY_IN,
                                   coin_in_2=(START["coin_in_1"] + day * PER_DAY_IN) % 10 ** 8,
                                   coin_out=START["coin_out"] + day * paid_per_day,
                                   games_played=START["games_played"] + day * GAMES) for day in range(DAYS))]
    return sorted((f.rule_id, f.severity) for f in check(write(tmp_path, records, machine_text=text)).findings
                  if f.rule_id in RULES and f.severity != Severity.INFO)


def test_a_copied_paytable_leaves_the_machine_judged_as_with_one(tmp_path):
    assert _found(tmp_path, _two_tables(), 30_000) == _found(tmp_path, MACHINE_TEXT, 30_000) == \
        [(RULES[0], Severity.WARNING), (RULES[1], Severity.ERROR), (RULES[2], Severity.ERROR)]


def test_two_paytables_judge_a_machine_at_its_rate_clean(tmp_path):
    assert _found(tmp_path, _two_tables(), 37_000) == []


def test_the_theory_of_two_paytables_is_the_lowest_return_and_the_largest_second_moment():
    one = theories.theory_of(yaml.safe_load(MACHINE_TEXT))
    lower = _two_tables(change=lambda text: text.replace("{symbol: WILD, count: 5, pays: 2500}",
                                                         "{symbol: WILD, count: 5, pays: 1500}"))
    other = theories.theory_of(yaml.safe_load(lower.replace('denomination: "0.05"', 'denomination: "0.10"', 1)))
    assert other.source == theories.PAR and other.tables == 2 and other.high == one.rtp > other.rtp
    second = theories.theory_of(yaml.safe_load(lower[:lower.index("  paytables:\n")] + "  paytables:\n" +
                                               lower[lower.index("  paytables:\n") + 13:][len(TABLES):]))
    assert other.variance + other.rtp ** 2 == max(one.variance + one.rtp ** 2,
                                                  second.variance + second.rtp ** 2)
    assert isinstance(other.variance, Fraction)
