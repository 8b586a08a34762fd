"""A deitador written `Deitador` throws the dice for eighty minutes and the log passes, exit 0, without a word.

PT banca francesa, Título I, Capítulo II, Secção I, n.º 18 (PT-BF-LOG-THROWER-TURN): «A substituição do deitador
de dados é definida pela concessionária, nunca podendo a sua permanência na banca ser superior a uma hora.» The
rule reads `staff.deitador` (n.º 18's word, `named_as`) before `staff.croupier`. Every coup of the log below
names `"Deitador": "D-9"` (a capital D) beside a croupier relieved after forty minutes: D-9 throws from 21:00 to
22:20. Written `deitador`, the turn is a breach (line 59). Written `Deitador`, it is read as no deitador at all,
the croupier's short turns are measured instead, and nothing is said: turns.py's `_misnamed` (which says «the
staff role 'Spinner' differs from 'spinner' only in case» for the role) looks at the rule's `role` alone, and
only when no coup names that role; a `named_as` role written otherwise is never said. A false pass, and a
silent one.
"""

from __future__ import annotations

import json

from helpers.command import log_findings, run_in_process

PARAMS = ("--param", "banca_francesa_other_totals=stays")
HEADER = {"kind": "game-log", "jurisdiction": "PT", "game": "banca_francesa", "casino": "Casino Sample",
          "table": "T1", "limits": {"minimum": 5, "maximum": 500}}


def _log(role: str) -> list:
    coups = []
    for n in range(1, 82):  # a throw a minute, 21:00 to 22:20
        coups.append({"coup": n, "time": f"2026-11-02T{21 + n // 60:02d}:{n % 60:02d}:00", "session": "2026-11-02",
                      "staff": {role: "D-9", "croupier": "C-1" if n <= 40 else "C-2"}, "dice": [5, 1, 3],
                      "bets": [{"seat": 1, "chance": "pequeno", "stake": 10, "net": 0, "status": "stays"}]})
    return [HEADER, *coups]


def test_a_deitador_written_with_a_capital_is_not_passed_in_silence(tmp_path):
    turn = [f for f in log_findings(run_in_process, tmp_path, _log("deitador"), *PARAMS)
            if f["rule_id"] == "PT-BF-LOG-THROWER-TURN" and f["severity"] == "error"]
    assert len(turn) == 1, turn  # the turn, as the law's word names the role
    found = log_findings(run_in_process, tmp_path, _log("Deitador"), *PARAMS)
    said = [f for f in found if f["rule_id"] == "PT-BF-LOG-THROWER-TURN" and f["severity"] == "error"
            or "Deitador" in f["message"]]
    assert said, [(f["rule_id"], f["severity"], f["message"][:80]) for f in found]
