"""PT blackjack: a log in yen is not held to the jackpot chip's amount in euros (it was compared as if in yen).

Portaria n.º 217/2007, Título I, Capítulo III, Secção I, n.os 40 and 47: «Serão fixados pela Inspecção-Geral de
Jogos, sob proposta da concessionária, o valor da aposta no acumulado, a percentagem de incremento e as condições
respectivas.» The amount is a parameter in euros (`blackjack_jackpot_stake_eur`, unit EUR).

docs/game-logs.md, header field `currency`: «The law's amounts are in euros: in a log in another currency the
rules comparing its amounts with them (a least minimum, a stake in multiples of so many euros) are not checked,
each a warning here».

PT-BJ-LOG-SIDE-BETS compares each jackpot stake of a JPY log with the euro parameter as if both were one unit:
a ¥150 jackpot chip (about a euro) is an error «the jackpot takes one chip of 1.00» (a false flag), and a ¥1
chip passes as the €1 one (a breach passed); no warning is given at /currency.
"""

from __future__ import annotations

import json

import pytest

from helpers.command import EXAMPLES, log_findings, run_in_process

PARAM = ("--param", "blackjack_jackpot_stake_eur=1")


def _yen_log(chip: str) -> list:
    records = [json.loads(line) for line in (EXAMPLES / "pt/log-blackjack.jsonl").read_text("utf-8").splitlines()]
    records[0]["currency"] = "JPY"
    for record in records[1:]:
        for box in record["boxes"]:
            if "jackpot" in box:
                box["jackpot"] = {"stake": chip, "net": f"-{chip}"}
    return records


def test_a_yen_jackpot_chip_is_not_judged_against_the_euro_amount(tmp_path):
    found = log_findings(run_in_process, tmp_path, _yen_log("150"), *PARAM)
    side = [f for f in found if f["rule_id"] == "PT-BJ-LOG-SIDE-BETS"]
    assert not [f for f in side if f["severity"] == "error"], [(f["line"], f["message"]) for f in side]
    assert [(f["severity"], f["pointer"]) for f in side] == [("warning", "/currency")], side
