"""A log's `denomination` and `currency` only narrow the stakes a game may have: left out, or given in a currency
the homologation file's stakes are not in, the smallest unit the file gives bounds them (the most units a game may
stake, the widest interval), so LU-SLOT-LOG-RETURN-RATE still judges the return and never stops in silence."""

from __future__ import annotations

import pytest

from casino_audit.core.findings import Severity
from helpers.meters import START, check, header, reading, write

RATE = "LU-SLOT-LOG-RETURN-RATE"
DAYS, PER_DAY_IN, GAMES = 60, 40_000, 16_000


def _log(tmp_path, paid_per_day: int, **changes) -> str:
    return write(tmp_path, [header(**changes), *(reading(day, coin_in_1=START["coin_in_1"] + day * PER_DAY_IN,
                                                         coin_in_2=(START["coin_in_1"] + day * PER_DAY_IN) % 10 ** 8,
                                                         coin_out=START["coin_out"] + day * paid_per_day,
                                                         games_played=START["games_played"] + day * GAMES)
                                                 for day in range(DAYS))])


@pytest.mark.parametrize("changes", [{"currency": "USD"}, {"denomination": None}, {"currency": "GBP",
                                                                                   "denomination": "0.05"}])
def test_a_machine_paying_75_percent_of_a_92_5_percent_rate_is_found_whatever_the_unit(tmp_path, changes):
    findings = check(_log(tmp_path, 30_000, **changes)).findings
    assert [(f.severity, f.line) for f in findings if f.rule_id == RATE] == [(Severity.ERROR, DAYS + 1)]
    pointer = "/currency" if "currency" in changes else "/denomination"
    said = [f for f in findings if f.pointer == pointer]
    assert len(said) == 1 and "0.05 EUR, bounds the units" in said[0].message


def test_a_machine_at_its_rate_passes_without_a_denomination(tmp_path):
    findings = check(_log(tmp_path, 37_000, denomination=None)).findings
    assert [f for f in findings if f.severity > Severity.INFO] == []
