"""A house ruleset's replay rules must be runnable on its rules of play (issue 22): a `play:` entry replaces the
game's whole entry of the ruleset it extends, so one giving a `drawing` without the `bets` left every aspect of
the replay "not checked" in every log, and a drawing breach passed. `rulesets validate`, and the loader `check`
reads a house ruleset with, refuse such a rule, at the rule or at the play entry; which aspects need which play
data is the replay families' own `prepare` (house_play._never_runs), not a table of ours."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.command import REPO

from casino_audit.read.loader import load_bytes
from casino_audit.games import registry
from casino_audit.law.model import RulesetError
from casino_audit.law.rulesets import builtin_names, load_builtin, load_ruleset
from helpers.house_rulesets import LU, PUNTO_BANCO, _house, _shipped


PLAIN_COUP = {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S1"}


def test_a_drawing_without_the_bets_is_refused_by_validate(cli, tmp_path):
    path = _house(tmp_path, {"punto_banco": {"drawing": PUNTO_BANCO["drawing"], "citation": PUNTO_BANCO["citation"]}})
    done = cli("rulesets", "validate", str(path))
    assert done.returncode == 1
    assert "LU-PB-LOG-DRAWING replays the drawing of punto_banco logs, which this ruleset's rules of play can " \
           "never run: the ruleset states no chances for punto_banco" in done.stdout + done.stderr


def test_check_refuses_the_house_ruleset_too(cli, tmp_path):
    # Today the log's drawing breach passed, said "not checked".
    path = _house(tmp_path, {"punto_banco": {"drawing": PUNTO_BANCO["drawing"], "citation": PUNTO_BANCO["citation"]}})
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(record) + "\n" for record in (
        {"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco", "casino": "C", "table": "T1"}, PLAIN_COUP)),
        "utf-8")
    done = cli("check", str(log), "--ruleset", str(path))
    assert done.returncode == 2
    assert "LU-PB-LOG-DRAWING" in done.stdout + done.stderr and "can never run" in done.stdout + done.stderr


def test_the_whole_entry_is_valid(cli, tmp_path):
    path = _house(tmp_path, {"punto_banco": PUNTO_BANCO})
    done = cli("rulesets", "validate", str(path))
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_house_rule_of_its_own_is_held_to_the_play_it_inherits(tmp_path):
    # A house extending PT adds a drawing replay for bacará, whose drawing table the law does not give (n.º 13):
    # without a `drawing` under its own play, the rule could never run.
    drawing_rule = next(rule for rule in LU["rules"] if rule["id"] == "LU-PB-LOG-DRAWING")
    rule = {**drawing_rule, "id": "HOUSE-BAC-DRAWING", "applies_to": {"kind": "game-log",
                                                                      "game": ["bacara_ponto_banca"]}}
    rule["citation"] = {"article": "n.º 13", "text": "x"}
    with pytest.raises(RulesetError) as refused:
        load_ruleset(_house(tmp_path, {}, [rule], extends="pt"))
    assert any("HOUSE-BAC-DRAWING replays the drawing of bacara_ponto_banca" in str(p) for p in refused.value.problems)
    pt = _shipped("pt")
    play = {"bacara_ponto_banca": {**pt["play"]["bacara_ponto_banca"], "drawing": PUNTO_BANCO["drawing"]}}
    assert load_ruleset(_house(tmp_path, play, [rule], extends="pt"))


@pytest.mark.parametrize("name", builtin_names())
def test_every_shipped_play_entry_given_again_whole_is_valid(tmp_path, name):
    # The probe never refuses what a log, a table configuration or a parameter can still bring: each shipped
    # game's entry, given again whole by a house ruleset, is valid (every family, every jurisdiction).
    shipped = _shipped(name)
    play = shipped.get("play") or {}
    assert set(play) <= set(registry.replayed()) | set(load_builtin(name).play)
    for game, entry in play.items():
        load_ruleset(_house(tmp_path, {game: entry}, extends=name))
    assert registry.replayed()  # the registry the games come from
