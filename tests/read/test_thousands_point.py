"""An amount in euros written with a point before three digits (`maximum_eur: 4.000`) is four euros to YAML and four
thousand to a reader in Luxembourg or Portugal, where a point separates thousands: LOAD-AMBIGUOUS at the value, as
the CSV logs already say it (issue 24). Only amounts (under a `*_eur` key): a rate of 84.999 % is three decimals."""

from __future__ import annotations

import json

import pytest

from helpers.command import run_in_process


def _ambiguous(tmp_path, text: str) -> list[tuple[int, str]]:
    path = tmp_path / "filing.yaml"
    path.write_text(text, "utf-8")
    done = run_in_process("check", str(path), "--format", "json")
    return [(f["line"], f["message"]) for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "LOAD-AMBIGUOUS"]


TABLE = "kind: table\njurisdiction: LU\ngame: english_roulette\n"


@pytest.mark.parametrize("stakes, field", [
    ("{minimum_eur: 2, maximum_eur: 4.000}", "maximum_eur"),
    ("{minimum_eur: 2, maximum_eur: 1440, maxima_eur: {plein: 1.000}}", "plein"),
    ("{minimum_eur: 12.500, maximum_eur: 1440}", "minimum_eur"),
])
def test_an_amount_written_with_a_thousands_point_is_ambiguous(tmp_path, stakes, field):
    [(line, message)] = _ambiguous(tmp_path, TABLE + f"stakes: {stakes}\n")
    assert line == 4 and f"`{field}` is written" in message and "a thousands point" in message


def test_a_list_of_amounts_names_its_key(tmp_path):
    found = _ambiguous(tmp_path, "kind: machine\njurisdiction: LU\ncoin_acceptor:\n"
                                 "  coin_denominations_eur: [0.50, 1.000]\n")
    assert [(line, "`coin_denominations_eur` is written 1.000" in m) for line, m in found] == [(4, True)]


@pytest.mark.parametrize("text", ["stakes: {minimum_eur: 2.00, maximum_eur: 4000}\n",
                                  "stakes: {minimum_eur: 0.050, maximum_eur: 1440}\n",
                                  "stakes: {minimum_eur: \"4.000\", maximum_eur: 1440}\n",
                                  "note: 4.000\n"])
def test_amounts_written_plainly_and_values_that_are_no_amount_are_not(tmp_path, text):
    assert _ambiguous(tmp_path, TABLE + text) == []


def test_a_rate_with_three_decimals_is_no_amount(tmp_path):
    assert _ambiguous(tmp_path, "kind: machine\njurisdiction: LU\nredistribution_rate: 84.999\n") == []
