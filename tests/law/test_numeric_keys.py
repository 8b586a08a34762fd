"""Mappings of the rules of play keyed by a number (a banker's total, a point) meet lookups by number: YAML reads
every key as text, the ruleset loader makes these ints in one place (ruleset_parts.NUMBER_KEYED)."""

import json
import re

import pytest

from casino_audit.law import rulesets
from casino_audit.law.rulesets import load_builtin


def _mappings(value, path=""):
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from _mappings(item, f"{path}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _mappings(item, f"{path}/{index}")


@pytest.mark.parametrize("code", rulesets.builtin_names())
def test_no_mapping_of_the_rules_of_play_is_keyed_by_numbers_written_as_text(code):
    # Every mapping whose keys are all numbers is keyed by ints; one keyed by text digits would be looked up by a
    # number and never found (the half-on-five deduction, a point's odds, a banker's row of the drawing table).
    for game, play in load_builtin(code).play.items():
        for path, mapping in _mappings(play.data, game):
            texts = [key for key in mapping if isinstance(key, str) and re.fullmatch(r"\s*-?[0-9]+\s*", key)]
            if texts and len(texts) == len(mapping):
                pytest.fail(f"{code} play {path} is keyed by numbers written as text: {texts}")


def test_the_loader_keys_each_number_keyed_mapping_by_ints():
    pt = load_builtin("pt").play
    assert pt["bacara_ponto_banca"].data["commissions"]["half_on_five"]["banca"]["deduction_by_banker_total"] == \
        {5: "0.5"}
    for chance in ("pass_line_odds", "dont_pass_line_odds", "come_odds", "dont_come_odds"):
        by_point = pt["craps"].data["chances"][chance]["rules"][0]["pays"]["by_point"]
        assert set(by_point) == {4, 5, 6, 8, 9, 10}
    assert set(load_builtin("lu").play["punto_banco"].data["drawing"]["banker"]) == set(range(8))
    # a burn's values are keyed by rank ("2" to "9" beside A, T, J, Q, K): text, as a card names its rank
    assert "2" in load_builtin("lu").play["punto_banco"].data["burn"]["values"]


TABLE = """\
kind: table
jurisdiction: PT
game: bacara_ponto_banca
filing: {casino: Casino Lisboa, date: "2026-11-02", reference: IGJ-BAC-009}
table: {number: B9, double: false, seats: 9, standing_places: 8}
cards: {decks: 6, cards_per_deck: 52, same_colour: true, stop_card_colour: white, stop_card_cards_behind: 12,
        burn_cards: 8}
shoe: {used: true}
chips: {media: [chips, plaques]}
commission: {mode: half_on_five, communicated: true}
stakes:
  minimum_eur: 20
  minima_eur: {empate: 10, par_do_ponto: 10, par_da_banca: 10}
  maxima_eur: {ponto: 1400, banca: 1400, empate: 150, par_do_ponto: 80, par_da_banca: 80}
payouts: {ponto: 1, banca: 1, empate: 8, par_do_ponto: 11, par_da_banca: 11}
"""


def _settlements(cli, tmp_path, banker, net):
    (tmp_path / "table.yaml").write_text(TABLE, "utf-8")
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca", "casino": "Casino Lisboa",
              "table": "B9", "table_config": "table.yaml"}
    coup = {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02", "shoe": 1,
            "burned": ["5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc"],
            "player": ["2h", "Kd"], "banker": banker, "outcome": "banker",
            "bets": [{"seat": 1, "chance": "banca", "stake": 100, "net": net}]}
    (tmp_path / "log.jsonl").write_text("\n".join(json.dumps(r) for r in (header, coup)) + "\n", "utf-8")
    done = cli("check", str(tmp_path / "log.jsonl"), "--format", "json", "--select", "PT-BAC-LOG-SETTLEMENT")
    return [f["pointer"] for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "PT-BAC-LOG-SETTLEMENT"]


def test_half_on_five_halves_a_banca_win_on_five(cli, tmp_path):
    # PT n.º 20 b): «Dedução de 50% ao montante dos prémios em cada lance ganho pelo grupo da banca com 5 pontos»
    assert _settlements(cli, tmp_path, ["5s", "Kc"], 50) == []
    assert _settlements(cli, tmp_path, ["5s", "Kc"], 100) == ["/bets/0/net"]
    assert _settlements(cli, tmp_path, ["7s", "Kc"], 100) == []  # on another total, paid in full
    assert _settlements(cli, tmp_path, ["7s", "Kc"], 50) == ["/bets/0/net"]
