"""Bacará Macau: a player's stakes on both ponto and banca, with seats or without (the bets with no seat one player's).

Portaria n.º 217/2007, Título I, Capítulo III, Secção IV, n.º 11: «No caso de um jogador apostar simultaneamente
no ponto e na banca, a diferença entre ambas as apostas não pode ser inferior ao valor mínimo de aposta nessa
banca.»

`bets[].seat` is optional in a coup (docs/game-logs.md). With seats, ponto 90 and banca 100 at a table whose
minimum is 20 is PT-MACAU-LOG-BOTH-SIDES. Written without seats, the same two bets pass with exit 0 and not a word:
replay/baccarat.py's `_both_sides` skips every bet whose seat is not a whole number («a bet without one is no
one's»). The stake limits, by contrast, hold stakes with no seat as one player (LU punto banco: two seatless
banco stakes of 1500 are «the same player's stakes ... 3000.00, over the maximum»), or say the stake is ambiguous
(LOAD-AMBIGUOUS). A filer who wants hedged bets through has only to drop the field: the rule is neither applied
nor said not applied (a silent skip; a breach passed).
"""

from __future__ import annotations

import json

import pytest

from helpers.command import EXAMPLES, log_findings, run_in_process

RULE = "PT-MACAU-LOG-BOTH-SIDES"


def _records(bets: list) -> list:
    records = [json.loads(line) for line in (EXAMPLES / "pt/log-bacara-macau.jsonl").read_text("utf-8").splitlines()]
    records[1]["bets"] = bets  # coup 1: player wins; header minimum 20
    return records


def test_with_seats_the_hedge_is_found(tmp_path):
    found = log_findings(run_in_process, tmp_path, _records([
        {"seat": 1, "chance": "banca", "stake": 100, "net": -100},
        {"seat": 1, "chance": "ponto", "stake": 90, "net": 90}]))
    assert [(f["rule_id"], f["line"]) for f in found if f["rule_id"] == RULE] == [(RULE, 2)]


def test_without_seats_the_bets_are_one_players_and_the_hedge_is_found(tmp_path):
    found = log_findings(run_in_process, tmp_path, _records([
        {"chance": "banca", "stake": 100, "net": -100},
        {"chance": "ponto", "stake": 90, "net": 90}]))
    # a breach at the coup, or at least the rule saying it could not judge the seatless stakes
    assert [f for f in found if f["rule_id"] == RULE and f["line"] in (1, 2)], found


def test_seatless_bets_far_enough_apart_are_legal(tmp_path):
    found = log_findings(run_in_process, tmp_path, _records([
        {"chance": "banca", "stake": 100, "net": -100},
        {"chance": "ponto", "stake": 80, "net": 80}]))  # 20 apart: the minimum itself
    assert not [f for f in found if f["rule_id"] == RULE], found
