"""Shape and syntax messages a non-programmer reads (issue 24): a pattern said in words with the value as it was
likely meant, never a raw regular expression; the nearest name for a game spelt otherwise; a YAML tab or scanner
error in plain words at its line."""

from __future__ import annotations

import json

import pytest

from casino_audit.documents.kinds import KINDS, schema
from casino_audit.documents.shape_explain import PATTERN_WORDS
from casino_audit.replay import families
from helpers.command import EXAMPLES, run_in_process


def _messages(path) -> list[tuple[str, int, str]]:
    done = run_in_process("check", str(path), "--format", "json")
    return [(f["rule_id"], f["line"], f["message"]) for f in json.loads(done.stdout)["findings"]]


def _table(tmp_path, text: str):
    path = tmp_path / "table.yaml"
    path.write_text(text, "utf-8")
    return _messages(path)


@pytest.mark.parametrize("written, meant", [("lu", "LU"), (" LU", "LU"), ("Lu", "LU")])
def test_a_jurisdiction_in_another_case_is_said_in_words_with_the_one_meant(tmp_path, written, meant):
    found = _table(tmp_path, f"kind: table\njurisdiction: {json.dumps(written)}\ngame: punto_banco\n")
    [message] = [m for rule, _, m in found if rule == "SHAPE-INVALID" and "jurisdiction" in m]
    assert "two capital letters" in message and f"did you mean '{meant}'" in message
    assert "^[" not in message and "{2}" not in message


@pytest.mark.parametrize("written, meant", [("Punto Banco", "punto_banco"), ("punto-banco", "punto_banco"),
                                            ("BLACKJACK", "blackjack"), ("englsh_roulette", "english_roulette")])
def test_a_game_spelt_otherwise_is_given_the_nearest_name(tmp_path, written, meant):
    found = _table(tmp_path, f"kind: table\njurisdiction: LU\ngame: {written}\n")
    [message] = [m for rule, _, m in found if rule == "SHAPE-INVALID" and "`game`" in m]
    assert f"did you mean '{meant}'" in message


def test_a_card_in_the_wrong_case_is_said_as_a_card(tmp_path):
    lines = (EXAMPLES / "lu/log-punto-banco.jsonl").read_text("utf-8").splitlines()[:2]
    path = tmp_path / "log.jsonl"
    path.write_text(lines[0] + "\n" + lines[1].replace('"9h"', '"9H"', 1) + "\n", "utf-8")
    [message] = [m for rule, _, m in _messages(path) if rule == "SHAPE-INVALID"]
    assert "not a card: its rank" in message and "did you mean '9h'" in message and "[cdhs]" not in message


@pytest.mark.parametrize("text, words", [
    ("kind: table\n\tjurisdiction: LU\n", "indent with spaces only"),
    ("kind: table\njurisdiction: LU\nnote: a: b\n", "put the value in quotes"),
    ('kind: table\njurisdiction: LU\ngame: "punto\n', "opened and never closed"),
    ("kind: table\njurisdiction: LU\ngame: *nowhere\n", "no anchor"),
])
def test_a_yaml_syntax_error_is_said_in_plain_words_at_its_line(tmp_path, text, words):
    [(rule, line, message)] = _table(tmp_path, text)
    assert rule == "LOAD-SYNTAX" and line is not None and words in message


def _patterns(node) -> set[str]:
    found = set()
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            found.add(node["pattern"])
        for value in node.values():
            found |= _patterns(value)
    elif isinstance(node, list):
        for item in node:
            found |= _patterns(item)
    return found


def test_every_pattern_a_shape_check_can_quote_has_words():
    patterns = set().union(*(_patterns(schema(kind)) for kind in KINDS))
    for family in {families.for_game(game) for game in KINDS["game-log"].games()} - {None}:
        patterns |= _patterns(getattr(family, "COUP_SCHEMA", {}))
    unsaid = {p for p in patterns if p not in PATTERN_WORDS}
    assert unsaid == set(), unsaid
