"""A don't pass bet left standing (`status: stays`, net 0) after a come-out on the bar total is legal, as a returned
one is (n.º 10.2: «não ganham nem perdem»); it was PT-CRAPS-LOG-BAR ('the log has it standing'), though the
text makes that throw void for it and says nothing of returning it.

Portaria n.º 217/2007, Título I, Capítulo II, Secção II, n.º 10.2: «Se no primeiro lançamento sair o total
correspondente ao do «bar», as apostas feitas não ganham nem perdem (o golpe é nulo);»

«não ganham nem perdem (o golpe é nulo)»: the bet neither wins nor loses and the throw is void for it. A void throw
leaves the bets where they were (the same text, roulette n.º 22: «golpe nulo ... procederá a novo lançamento»),
so a don't pass bet still on the layout for the next come-out is what n.º 10.2 describes; n.º 10.9 forbids taking
line bets down, never leaving them up. The tool demands the bet be returned (net 0, no status) and flags the log
that leaves it standing, although the money is the same (net 0) and the next throw settles it as a new come-out.
Reading the bar as "the bet stays" or "returned" is a choice the text does not make; refusing one of them as a
breach is a verdict the law does not give.

Consequence: false flag (a legal log is an error, exit 1).
"""

from __future__ import annotations

import pytest

from helpers.command import log_findings, run_in_process

HEADER = {"kind": "game-log", "jurisdiction": "PT", "game": "craps", "casino": "Casino Lisboa", "table": "C1",
          "limits": {"minimum": 10, "maximum": 1000}}


def _coup(number: int, dice: list, bets: list) -> dict:
    return {"coup": number, "time": f"2026-11-02T21:0{number}:00", "session": "2026-11-02",
            "staff": {"croupier": "C-1"}, "dice": dice, "point": None, "bets": bets}


def test_a_dont_pass_bet_left_standing_on_the_bar_is_no_breach(tmp_path):
    # the bar is double six: 6+6 on the come-out neither wins nor loses; the bet stays up and 3+4 then loses it
    records = [HEADER,
               _coup(1, [6, 6], [{"seat": 1, "chance": "dont_pass_line", "stake": 10, "net": 0, "status": "stays"}]),
               _coup(2, [3, 4], [{"seat": 1, "chance": "dont_pass_line", "stake": 10, "net": -10}])]
    found = log_findings(run_in_process, tmp_path, records, "--param", "craps_bar_total=12")
    assert [(f["rule_id"], f["severity"], f["message"][:100]) for f in found
            if f["severity"] == "error"] == []
