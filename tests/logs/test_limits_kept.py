"""The table's limits kept through a period as the law asks (a day, a séance), and their coefficient: never
reset by a coup whose time cannot be read, never dropped in silence for want of a limit."""

from __future__ import annotations

import json

from helpers.command import EXAMPLES, log_findings, run_in_process


# One coup with an unreadable time wipes out what the day keeps: the next coup's change of minimum passes.
#
# LU Art. 37-3, al. 1 (English roulette, LU-EROUL-LOG-MINIMUM-UNCHANGED): «Durant une même journée, le minimum des
# mises pratiqué à une table déterminée ne peut être modifié.» The example log's coups 1 to 3 are all on
# 2 November 2026 (21:00:05, 21:01:20, 21:02:40); coup 3 raises the minimum from 2 to 4: a breach, found when every
# time is readable. Write coup 2's time as `2026-11-02 21h01` (a LOG-TIME error for that coup alone) and the breach
# of coup 3 is gone: limits.py records the period a limit was set in as the coup's period, and a coup whose time
# cannot be read has none (None), so the minimum's "set at" becomes (None, coup 2) and coup 3's day no longer
# matches it. The LOG-TIME finding is about coup 2's time; the change of minimum at coup 3, whose time is read and
# on the same day, is a breach of Art. 37-3 that is not reported at all. (The same holds for `per: session_day`,
# LU Art. 37-8, al. 4, where a new séance's first coup has an unreadable time.)
def test_a_coup_without_a_readable_time_does_not_reset_the_days_minimum(tmp_path):
    records = [json.loads(line) for line in
               (EXAMPLES / "lu/log-english-roulette.jsonl").read_text("utf-8").splitlines()][:4]
    records[3]["limits"] = {"minimum": 4, "maximum": 1440}  # coup 3, 21:02:40 on 2 November: the day's minimum
    found = log_findings(run_in_process, tmp_path, records)
    assert [f["line"] for f in found if f["rule_id"] == "LU-EROUL-LOG-MINIMUM-UNCHANGED"] == [4]
    records[2]["time"] = "2026-11-02 21h01"  # coup 2's time unreadable
    found = log_findings(run_in_process, tmp_path, records)
    assert [f["line"] for f in found if f["rule_id"] == "LOG-TIME"] == [3]
    assert [f["line"] for f in found if f["rule_id"] == "LU-EROUL-LOG-MINIMUM-UNCHANGED"] == [4], \
        [(f["rule_id"], f["line"]) for f in found]



# A punto banco log whose limits give a maximum and no minimum passes the coefficient rule in silence.
#
# LU Art. 37-5, al. 4: «Le maximum des mises est, pour chaque table, fixé en début de saison par le directeur de
# l'établissement à 50, 100 ou 200 fois le minimum des mises.» (LU-PB-LOG-COEFFICIENT). The header below gives
# `limits: {maximum: 1500}` and no minimum (no table configuration): whether 1,500 is 50, 100 or 200 times the
# minimum cannot be told (and with the minimum a multiple of 20, at least 20, as Art. 37-5, al. 3 and the
# parameters say, it is none of them: 1,500 / 50 = 30, / 100 = 15, / 200 = 7.5). The stake rule says its minimum
# is unknown (LU-PB-LOG-LIMITS, "not checked in this log"), but LU-PB-LOG-COEFFICIENT says nothing at all: no
# breach, no "not checked" note. A rule dropped without a note is a silent skip (the standard: "nothing silent";
# the session's `_not_applied` exists for exactly this).
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
