"""A coin-out (or hand-paid jackpot) meter set back by hand far from its capacity is taken for a rollover, for
nothing bounds what a rollover of it counted: a reset reported only as a warning on the return.

Art. 18-3, 5°: "cinq compteurs de contrôle automatique" - the 3rd indent "un compteur des sorties qui enregistre le
nombre de pièces ou de "token" payés directement par l'appareil aux clients", the 4th the hand-paid jackpot meter;
the 1st indent: "La remise à zéro se fait automatiquement, lorsque le nombre cumulé des pièces ou "token" enregistrés
dépasse la capacité numérique du compteur" (LU-SLOT-LOG-METER-RESET, an error).

Machine M-001 (examples/lu/machine-m-001.yaml, 10-digit coin-out meter, at most 10 units a game at denomination
1.00, no game paying more than about 5,035 times its stake by its pay table) stakes 6,000 units over 2,500 games a
day. Its coin-out meter reads 6,000,049,950 one day and 56,500 the next: a "rollover" would mean 4,000,006,550 coins
paid out in one day, some 130 times what 6,000 units staked can win at the machine's top award - a set-back, not a
rollover. The tool bounds a coin-in rollover by the games played and a drop rollover by the coins put in, but a
coin-out or jackpot rollover only by half the capacity (increments.py, _rollovers): no LU-SLOT-LOG-METER-RESET, the
run exits 0 with a RETURN-DEPARTURE warning (a realised return of 1,149,518 %).
"""

from __future__ import annotations

import pytest

from casino_audit.core.findings import Severity
from helpers.meters import EXAMPLE_HEADER, METER_RESET, check, example_reading, write_example


@pytest.mark.parametrize("meter", ["coin_out", "hand_paid_jackpots"])
def test_a_pay_meter_set_back_from_far_below_its_capacity_is_a_reset(tmp_path, meter):
    readings = []
    for day in range(59):  # 2026-01-01 to 2026-02-28, one reading a day, counted weekly
        reading = example_reading(f"2026-{1 + day // 31:02d}-{day % 31 + 1:02d}T06:00:00", "M-001", day,
                                  counted=day % 7 == 0)
        reading[meter] += 6_000_000_000 - (6_000_000_000 - 1_000 if day >= 10 else 0)
        readings.append(reading)
    findings = check(write_example(tmp_path, EXAMPLE_HEADER, readings)).findings
    assert [(f.pointer, f.severity) for f in findings if f.rule_id == METER_RESET] == [(f"/{meter}", Severity.ERROR)], \
        [(f.rule_id, f.severity.name, f.message[:200]) for f in findings]
