"""A meter log is judged against the return its machine's PAR data give, never against the rate communicated to
the Minister: where the homologation file declares 95 % and its PAR data give 92.5 %, a machine realising 92.5 %
over 1.5 million games - five standard deviations below the communicated rate - passes the log clean, without a
word about the two rates.

Art. 18-7, al. 1 and 2 (LU-SLOT-LOG-RETURN-DEPARTURE): "Le casino a la possibilité d'appliquer à chaque appareil à
sous un taux de redistribution des mises. Ce taux doit être communiqué au Ministre des Finances dans la demande
d'agrément ... Toute modification en cours de service du taux de redistribution des appareils à sous doit être
soumise à l'autorisation du Ministre des Finances." The rule's own rationale: "The rate applied is the one
communicated in the approval request; a realised return far from it is a sign that another rate is applied."

machine-m-001.yaml with `redistribution_rate: 95 %` (its PAR data unchanged, 92.5 %); M-001 read daily for 59 days,
60,000 units staked over 25,000 games a day, paying 92.5 %. The 99 % interval around 95 % with the PAR data's
standard deviation (3.5359) and the worst case of 1 to 10 units a game is about 95 % +- 1.3 %: 92.5 % is outside
it. theory.py takes the PAR return as the theory and drops the declared rate; the log's check says nothing (the
discrepancy is found only if the homologation file itself is also checked, LU-SLOT-PAR-DECLARED).
"""

from __future__ import annotations

import json

from casino_audit.core.findings import Severity
from helpers.command import EXAMPLES
from helpers.meters import EXAMPLE_HEADER, check


def test_a_return_far_below_the_communicated_rate_is_not_passed_in_silence(tmp_path):
    text = (EXAMPLES / "lu" / "machine-m-001.yaml").read_text("utf-8")
    assert "redistribution_rate: 92.5 %" in text
    (tmp_path / "machine-m-001.yaml").write_text(text.replace("redistribution_rate: 92.5 %",
                                                              "redistribution_rate: 95 %"), "utf-8")
    readings = []
    for day in range(59):
        readings.append({"time": f"2026-{1 + day // 31:02d}-{day % 31 + 1:02d}T06:00:00", "machine": "M-001",
                         "coin_in_1": 200_000_000 + 60_000 * day, "coin_in_2": 60_000 * day, "drop": 2_000_000,
                         "coin_out": 44_000_000 + 55_500 * day, "hand_paid_jackpots": 0,
                         "games_played": 9_000_000 + 25_000 * day, **({"drop_box_counted": True} if day % 7 == 0
                                                                      else {})})
    path = tmp_path / "meters.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [EXAMPLE_HEADER, *readings]), "utf-8")
    findings = check(path).findings
    assert [f for f in findings if f.severity >= Severity.WARNING], \
        [(f.rule_id, f.severity.name, f.message[:160]) for f in findings]
