"""A house ruleset may declare a parameter the ruleset it extends declares only to narrow it: the same type, and
where the law lists the values, some of them. One extending LU that listed `all_back` among roulette_zero_rule's
values let `--param roulette_zero_rule=all_back` through the parameter's check, and every LU roulette log's
settlement was then "not checked" as an info (exit 0), nothing said of the parameter redefined; one making a
number parameter text took any value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casino_audit.law.model import RulesetError

from casino_audit.law.rulesets import load_ruleset

CITATION = {"article": "Art. 1er, c)", "text": "x"}


def _house(tmp_path: Path, params: dict) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(json.dumps({"ruleset": "house", "extends": "lu", "rules": [], "params": params}), "utf-8")
    return path


def _param(kind: str, one_of: list | None = None) -> dict:
    return {"type": kind, "description": "a house value", "citation": CITATION,
            **({"one_of": one_of} if one_of is not None else {})}


@pytest.mark.parametrize("spec", [_param("string", ["lose", "half_back", "en_prison_one_spin", "all_back"]),
                                  _param("string"), _param("number")])
def test_a_law_parameter_widened_or_retyped_is_refused(tmp_path, spec):
    with pytest.raises(RulesetError) as refused:
        load_ruleset(_house(tmp_path, {"roulette_zero_rule": spec}))
    assert any("roulette_zero_rule" in str(p) for p in refused.value.problems)


def test_a_number_parameter_made_text_is_refused(tmp_path):
    with pytest.raises(RulesetError):
        load_ruleset(_house(tmp_path, {"punto_banco_stake_minimum_eur": _param("string")}))


def test_a_law_parameter_narrowed_is_allowed(tmp_path):
    ruleset = load_ruleset(_house(tmp_path, {"roulette_zero_rule": _param("string", ["lose"])}))
    assert ruleset.params["roulette_zero_rule"].one_of == ("lose",)
    assert load_ruleset(_house(tmp_path, {"punto_banco_stake_minimum_eur": _param("number")}))


def test_the_widened_value_never_turns_the_settlement_off(cli, tmp_path):
    path = _house(tmp_path, {"roulette_zero_rule": _param("string", ["lose", "all_back"])})
    done = cli("check", "examples/lu/log-roulette.jsonl", "--ruleset", str(path), "--param",
               "roulette_zero_rule=all_back")
    assert done.returncode == 2 and "roulette_zero_rule" in done.stdout + done.stderr
