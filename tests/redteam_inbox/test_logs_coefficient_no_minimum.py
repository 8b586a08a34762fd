"""A punto banco log whose limits give a maximum and no minimum passes the coefficient rule in silence.

LU Art. 37-5, al. 4: «Le maximum des mises est, pour chaque table, fixé en début de saison par le directeur de
l'établissement à 50, 100 ou 200 fois le minimum des mises.» (LU-PB-LOG-COEFFICIENT). The header below gives
`limits: {maximum: 1500}` and no minimum (no table configuration): whether 1,500 is 50, 100 or 200 times the
minimum cannot be told (and with the minimum a multiple of 20, at least 20, as Art. 37-5, al. 3 and the
parameters say, it is none of them: 1,500 / 50 = 30, / 100 = 15, / 200 = 7.5). The stake rule says its minimum
is unknown (LU-PB-LOG-LIMITS, "not checked in this log"), but LU-PB-LOG-COEFFICIENT says nothing at all: no
breach, no "not checked" note. A rule dropped without a note is a silent skip (the standard: "nothing silent";
the session's `_not_applied` exists for exactly this).
"""

from __future__ import annotations

import json

from helpers.command import run_in_process

HEADER = {"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco", "casino": "C", "table": "P2",
          "limits": {"maximum": 1500}}
COUP = {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02", "shoe": 1,
        "burned": ["Kd", "2s", "8c", "Jd", "4h", "7s", "Ac", "Th", "3c", "9d", "6h"],
        "player": ["9h", "Kd"], "banker": ["5c", "Qh"], "outcome": "player",
        "bets": [{"seat": 1, "chance": "banco", "stake": 100, "net": -100}]}
PARAMS = ("--param", "punto_banco_minimum_multiple_eur=20", "--param", "punto_banco_stake_minimum_eur=20",
          "--param", "punto_banco_minimum_floor_eur=20")


def test_the_coefficient_rule_says_it_cannot_judge_a_maximum_without_its_minimum(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in (HEADER, COUP)), "utf-8")
    done = run_in_process("check", str(path), "--format", "json", *PARAMS)
    found = json.loads(done.stdout)["findings"]
    # the stake rule notes that the minimum is unknown; the coefficient rule must say something too
    assert any(f["rule_id"] == "LU-PB-LOG-LIMITS" for f in found)
    assert any(f["rule_id"] == "LU-PB-LOG-COEFFICIENT" for f in found), \
        [(f["rule_id"], f["severity"], f["message"][:80]) for f in found]
