"""`casino-audit sample-log --inject BREACH` writes a log that `check` finds the breach in, by the rule that verifies
the breach's aspect (the word in parentheses that ends the breach's description, e.g. "(deal)", a replay rule's
`verify:`, or a rule id's end such as LOG-NUMBERING): a sample that injects a breach `check` passes would be a false
pass in the tool's own examples. Every (shipped ruleset, game, breach) combination is tried; one the sample cannot
deal is refused with a reason (exit 2, never an internal error), and one whose law has no rule on the aspect is
refused too (the "breach" would be lawful there)."""

from __future__ import annotations

import json
import re

import pytest

from casino_audit.games import registry
from casino_audit.law.rulesets import builtin_names, load_builtin
from casino_audit.samples.blackjack import SAMPLE_PARAMS
from casino_audit.samples.log import family_module
from helpers.command import TEST_PARAMS

PARAMS = {**TEST_PARAMS, "blackjack_jackpot_stake_eur": "1", "craps_bar_total": "12",
          **{key: str(value) for key, value in SAMPLE_PARAMS.items()},
          "stud_poker_high_card_raise": "push", "poker_sem_descarte_unqualified_raise": "push",
          "banca_francesa_other_totals": "stays", "roulette_zero_rule": "lose"}


def _combinations():
    found = []
    for name in builtin_names():
        for game in registry.replayed():
            module = family_module(game)
            for breach in getattr(module, "BREACHES", ()):
                found.append((name, game, breach))
    return found


def aspect_of(description: str) -> str:
    return re.findall(r"\(([A-Za-z_-]+)\)", description)[-1]


@pytest.mark.parametrize("name, game, breach", _combinations())
def test_an_injected_breach_is_found_by_its_rule(cli, tmp_path, name, game, breach):
    ruleset = load_builtin(name)
    params = [f"{key}={value}" for key, value in PARAMS.items() if key in ruleset.params]
    path = tmp_path / "sample.jsonl"
    done = cli("sample-log", game, "-j", ruleset.code, "--coups", "160", "--seed", "7", "--inject", breach,
               "-o", str(path), *[arg for value in params for arg in ("--param", value)])
    assert "internal error" not in done.stderr, done.stderr
    if done.returncode != 0:
        assert done.returncode == 2 and done.stderr.strip() and not path.exists()
        pytest.skip(done.stderr.strip())
    aspect = aspect_of(family_module(game).BREACHES[breach])
    checked = cli("check", str(path), "-j", ruleset.code, "--format", "json", "--max-per-rule", "0",
                  *[arg for value in params for arg in ("--param", value)])
    assert checked.returncode == 1, checked.stdout + checked.stderr
    verify = {rule.id: rule.check.get("verify") for rule in ruleset.rules}
    errors = [finding["rule_id"] for finding in json.loads(checked.stdout)["findings"]
              if finding["severity"] == "error"]
    assert any(verify.get(rule) == aspect or rule.endswith(aspect) for rule in errors), \
        f"{game} -j {ruleset.code} --inject {breach} ({aspect}): check found only {sorted(set(errors))}"


def test_a_breach_the_law_has_no_rule_on_is_refused(cli):
    """PT roulette's law keeps no minimum through a session: a sample 'raising the minimum mid-session' under it
    would be a lawful log sold as a breach."""
    ruleset = load_builtin("pt")
    assert not any(rule.check.get("verify") == "minimum_unchanged" and "french_roulette" in rule.games
                   for rule in ruleset.rules)
    done = cli("sample-log", "french_roulette", "-j", "PT", "--coups", "300", "--inject", "minimum_changed")
    assert done.returncode == 2 and "minimum_unchanged" in done.stderr and "internal error" not in done.stderr


def test_mc_stud_ignored_special_case_is_dealt_and_found(cli, tmp_path):
    """Monaco's both-ace-king case settled by comparing the hands has no stated outcome when the player's
    ace-king wins (a high card the schedule does not list): the sample deals another special case, never a
    traceback (UnstatedOutcome)."""
    path = tmp_path / "mc.jsonl"
    done = cli("sample-log", "stud_poker", "-j", "MC", "--inject", "ignored_special_case", "-o", str(path))
    assert done.returncode == 0, done.stderr
    checked = cli("check", str(path), "--format", "json")
    assert checked.returncode == 1
    assert "MC-STUD-LOG-SETTLEMENT" in {f["rule_id"] for f in json.loads(checked.stdout)["findings"]}
