"""The 10-digit coin-in meter's display pushed forward by 100,000,000 - exactly the 8-digit twin's capacity - in a
day of 1,600 games is passed: the two meters "agree" modulo 10^8, and the period is set aside as an info.

Art. 18-3, 5°, 1st indent: "deux compteurs des entrées ... qui enregistrent le nombre de pièces ou de "token"
introduits dans l'appareil par les clients. Ces compteurs ne peuvent être remis à zéro ou voir modifier leur
affichage par intervention manuelle." (LU-SLOT-LOG-COIN-IN-AGREE, LU-SLOT-LOG-COIN-IN-RESET, errors).

Machine M-1 (machine-compliant.yaml: coin-in meters of 10 and 8 digits, at most 10 units a game at denomination
1.00) read daily, 4,000 units staked over 1,600 games a day. From day 20 on coin_in_1 reads 100,000,000 more: that
day it counted 100,004,000 coins where 1,600 games can stake 16,000 at the most, and coin_in_2 counted 4,000. The
coin-in agreement compares the meters modulo 10^8 (so sees none), the reset check reads only meters that go back,
and the period is set aside as "the coin-in meters counted differently" (LOG-SET-ASIDE, an info): exit 0.
"""

from __future__ import annotations

from casino_audit.core.findings import Severity
from helpers.meters import AGREE, COIN_IN_RESET, check, header, month, write


def test_a_coin_in_display_pushed_on_by_the_other_meter_s_capacity_is_found(tmp_path):
    records = [header(), *month(40)]
    for record in records[21:]:
        record["coin_in_1"] += 100_000_000
    findings = check(write(tmp_path, records)).findings
    assert [f for f in findings if f.rule_id in (AGREE, COIN_IN_RESET) and f.severity == Severity.ERROR], \
        [(f.rule_id, f.severity.name, f.message[:200]) for f in findings]
