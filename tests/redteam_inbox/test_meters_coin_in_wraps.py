"""The 8-digit coin-in meter of the example machine M-001 passing its capacity more than once between two readings
(its 10-digit twin counting 120,000,000 coins) is a rollover the law provides for, never a reset and never two
meters that "counted differently".

Art. 18-3, 5°, 1st indent: "deux compteurs des entrées ... qui enregistrent le nombre de pièces ou de "token"
introduits dans l'appareil par les clients. ... La remise à zéro se fait automatiquement, lorsque le nombre cumulé
des pièces ou "token" enregistrés dépasse la capacité numérique du compteur". Art. 18-7, al. 3: "Le taux de
redistribution des appareils à sous ne peut être inférieur à 85 pour cent."

Readings four weeks apart, denomination 0.05 (the paytable's credit, which machine-m-001.yaml gives: 200 units a
game at its EUR 10 maximum stake, 1,200,000 games staking 120,000,000 units). coin_in_1 (10 digits) counts
120,000,000; coin_in_2 (8 digits) shows the same count modulo 10^8, as it must, having rolled over at 10^8. The tool
(increments.py) compares the two meters' raw increments and not their increments modulo the smaller capacity,
which its own agreement check (LU-SLOT-LOG-COIN-IN-AGREE) uses:
- where coin_in_2 shows +20,000,000 (forward), the period is set aside as "the coin-in meters counted
  differently" (an info): a period returning 50 % over 120,000,000 units drops out and a machine returning 53 %
  over the log passes clean (exit 0) - a false pass of LU-SLOT-LOG-RETURN-MIN / -RATE;
- where coin_in_2 shows 90,000,000 then 10,000,000 (two rollovers), a machine returning 92.5 % throughout is
  reported LU-SLOT-LOG-COIN-IN-RESET "reset by hand" - a false flag.
"""

from __future__ import annotations

from casino_audit.core.findings import Severity
from helpers.meters import COIN_IN_RESET, EXAMPLE_HEADER, MINIMUM, check, write_example

RATE = "LU-SLOT-LOG-RETURN-RATE"
HEADER = {**EXAMPLE_HEADER, "denomination": "0.05", "reading_interval_hours": 720,
          "period": {"from": "2026-01-01", "to": "2026-02-26"}}


def _reading(time: str, coin_in: int, coin_out: int, games: int) -> dict:
    return {"time": time, "machine": "M-001", "coin_in_1": coin_in, "coin_in_2": coin_in % 10 ** 8,
            "drop": 2_000_000, "coin_out": coin_out, "hand_paid_jackpots": 0, "games_played": games,
            "drop_box_counted": True}


def test_a_low_return_over_a_period_the_small_meter_wrapped_is_judged(tmp_path):
    # 10,000,000 staked at 92.5 %, then 120,000,000 staked paying 60,000,000 (50 %): 53 % over the log.
    readings = [_reading("2026-01-01T06:00:00", 200_000_000, 40_000_000, 9_000_000),
                _reading("2026-01-29T06:00:00", 210_000_000, 49_250_000, 9_100_000),   # coin_in_2 10,000,000
                _reading("2026-02-26T06:00:00", 330_000_000, 109_250_000, 10_300_000)]  # coin_in_2 30,000,000
    findings = check(write_example(tmp_path, HEADER, readings)).findings
    assert [f for f in findings if f.rule_id in (MINIMUM, RATE) and f.severity == Severity.ERROR], \
        [(f.rule_id, f.severity.name, f.message) for f in findings]


def test_a_small_coin_in_meter_rolling_over_twice_is_no_reset(tmp_path):
    # 92.5 % throughout; coin_in_2 shows 90,000,000 then 10,000,000: 120,000,000 counted, as coin_in_1 says.
    readings = [_reading("2026-01-01T06:00:00", 200_000_000, 40_000_000, 9_000_000),
                _reading("2026-01-29T06:00:00", 290_000_000, 123_250_000, 9_900_000),
                _reading("2026-02-26T06:00:00", 410_000_000, 234_250_000, 11_100_000)]
    findings = check(write_example(tmp_path, HEADER, readings)).findings
    assert [(f.rule_id, f.message) for f in findings if f.rule_id == COIN_IN_RESET] == []
