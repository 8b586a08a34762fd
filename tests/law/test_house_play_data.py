"""A house ruleset's rules of play are held to what its replay rules need (house_play._never_runs): an aspect the
play data can never run is refused whatever words the house puts around it, and what the play data leaves out is
never a coup passed in silence.

- The probe counts a reason as "waiting for the run" only where it names a parameter the ruleset declares and the
  probe could not give (a house parameter named `punto_banco` or `ruleset`, words of the reason "the ruleset
  states no chances for punto_banco", made a drawing without bets pass validation, and its drawing breaches pass
  "not checked"), or a table configuration, limits or decks a log brings.
- A `--param NAME` no ruleset of the chain declares can never be given (PT declares no roulette_zero_rule: a PT
  house roulette without `zero_rule` settled nothing, said "give --param roulette_zero_rule", which PT refuses).
- A stud outcome the rules of play leave out (no `fold`, no `dealer_not_qualified`) left every coup that needed it
  unsettled without a word: such a house is refused, and the shipped entries given again whole stay valid.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from casino_audit.law.model import RulesetError
from casino_audit.law.rulesets import load_ruleset
from helpers.house_rulesets import LU, PUNTO_BANCO, _house, _shipped

CITATION = {"instrument": "lu", "article": "Art. 1er", "text": "x"}


def _refused(path: Path) -> list[str]:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(path)
    return [str(problem) for problem in refused.value.problems]


@pytest.mark.parametrize("name", ["punto_banco", "ruleset", "chances", "play"])
def test_a_parameter_named_like_the_reason_does_not_let_a_drawing_without_bets_pass(tmp_path, name):
    path = _house(tmp_path, {"punto_banco": {"drawing": PUNTO_BANCO["drawing"], "citation": PUNTO_BANCO["citation"]}})
    house = json.loads(path.read_text("utf-8"))
    house["params"] = {name: {"type": "string", "description": "a house value", "citation": CITATION}}
    path.write_text(json.dumps(house, ensure_ascii=False, default=str), "utf-8")
    assert any("LU-PB-LOG-DRAWING replays the drawing of punto_banco logs" in problem for problem in _refused(path))


def test_check_with_such_a_house_refuses_it_and_never_passes_the_drawing_breach(cli, tmp_path):
    path = _house(tmp_path, {"punto_banco": {"drawing": PUNTO_BANCO["drawing"], "citation": PUNTO_BANCO["citation"]}})
    house = json.loads(path.read_text("utf-8"))
    house["params"] = {"ruleset": {"type": "string", "description": "a house value", "citation": CITATION}}
    path.write_text(json.dumps(house, ensure_ascii=False, default=str), "utf-8")
    log = tmp_path / "pb.jsonl"
    done = cli("sample-log", "punto_banco", "-j", "LU", "--coups", "200", "--inject", "drawing_error",
               "--param", "punto_banco_stake_minimum_eur=20", "-o", str(log))
    assert done.returncode == 0, done.stderr
    checked = cli("check", str(log), "--ruleset", str(path), "--param", "ruleset=x",
                  "--param", "punto_banco_stake_minimum_eur=20")
    assert checked.returncode == 2 and "can never run" in checked.stdout + checked.stderr


@pytest.mark.parametrize("game", ["french_roulette", "american_roulette"])
def test_a_pt_house_roulette_without_its_zero_rule_settles_all_but_a_zero_and_says_so(tmp_path, game):
    # Without a zero rule the settlement is replayed for every bet but a simple chance's on a zero, which each
    # log says is not settled (an info; an error under --require-params): the ruleset is not refused for it.
    entry = copy.deepcopy(_shipped("pt")["play"][game])
    del entry["zero_rule"]
    ruleset = load_ruleset(_house(tmp_path, {game: entry}, extends="pt"))
    assert "zero_rule" not in ruleset.play[game].data


def test_a_pt_house_roulette_without_its_zero_rule_asks_for_play_data_not_a_parameter_pt_refuses(cli, tmp_path):
    entry = copy.deepcopy(_shipped("pt")["play"]["french_roulette"])
    del entry["zero_rule"]
    house = _house(tmp_path, {"french_roulette": entry}, extends="pt")
    log = tmp_path / "roulette.jsonl"
    done = cli("sample-log", "french_roulette", "-j", "PT", "--coups", "50", "-o", str(log))
    assert done.returncode == 0, done.stderr
    checked = cli("check", str(log), "--ruleset", str(house), "--format", "json")
    said = [f["message"] for f in json.loads(checked.stdout)["findings"] if "zero" in f["message"]]
    assert said and all("--param roulette_zero_rule" not in m for m in said), said
    assert any("zero_rule:" in m for m in said), said
    # LU's parameter, valid for the run, is not PT's: it settles no PT zero
    checked = cli("check", str(log), "--ruleset", str(house), "--format", "json", "--param", "roulette_zero_rule=lose")
    assert said == [f["message"] for f in json.loads(checked.stdout)["findings"] if "zero" in f["message"]]


def test_an_lu_house_roulette_without_its_zero_rule_waits_for_the_declared_parameter(tmp_path):
    # LU declares roulette_zero_rule (its values listed): the run brings it, the house is valid.
    entry = copy.deepcopy(_shipped("lu")["play"]["english_roulette"])
    del entry["zero_rule"]
    assert load_ruleset(_house(tmp_path, {"english_roulette": entry}))


def test_an_unlisted_win_given_without_its_ante_is_refused(tmp_path):
    # LU's high card over ace-king (player_wins_unlisted) given its raise but not its ante: every such win
    # was left unsettled in silence (UnstatedOutcome in the replay).
    entry = copy.deepcopy(_shipped("lu")["play"]["stud_poker"])
    del entry["outcomes"]["player_wins_unlisted"]["ante"]
    problems = _refused(_house(tmp_path, {"stud_poker": entry}))
    assert any("player_wins_unlisted.ante" in p for p in problems), problems


@pytest.mark.parametrize("code, game, situation", [("lu", "stud_poker", "fold"), ("mc", "stud_poker", "fold"),
                                                   ("lu", "stud_poker", "dealer_not_qualified"),
                                                   ("mc", "stud_poker", "dealer_wins"),
                                                   ("pt", "poker_sem_descarte", "tie")])
def test_a_stud_outcome_left_out_is_refused(tmp_path, code, game, situation):
    entry = copy.deepcopy(_shipped(code)["play"][game])
    del entry["outcomes"][situation]
    problems = _refused(_house(tmp_path, {game: entry}, extends=code))
    assert any(f"-LOG-SETTLEMENT replays the settlement of {game} logs" in p and situation in p for p in problems), \
        problems


def test_a_stud_outcome_left_out_is_said_in_a_log_not_passed(tmp_path):
    """The replay itself, whatever ruleset it is given (a shipped one is never probed): a box whose situation
    the rules leave unstated is not settled, and the log says so."""
    from casino_audit.replay import Terms, Unavailable
    from casino_audit.replay import stud

    data = copy.deepcopy(load_ruleset(_house(tmp_path, {}, extends="lu")).play["stud_poker"].data)
    del data["outcomes"]["fold"]
    from casino_audit.law.schedules import law_schedule
    from casino_audit.law.rulesets import load_builtin

    payouts = law_schedule(load_builtin("lu"), "stud_poker", "/payouts")
    with pytest.raises(Unavailable) as unavailable:
        stud.prepare("stud_poker", Terms(play=data, payouts=payouts, params={"stud_poker_high_card_raise": "push"}))
    assert "settlement" in unavailable.value.aspects and "fold" in unavailable.value.reason("settlement")


def test_an_insurance_the_rules_of_play_do_not_price_is_said_not_settled_in_silence(cli, tmp_path):
    """A PT house blackjack without `insurance` left every insurance unsettled without a word: one paid at the
    wrong amount passed, exit 0, nothing said. The log now says its insurances are not settled, and why."""
    entry = copy.deepcopy(_shipped("pt")["play"]["blackjack"])
    del entry["blackjack"]["insurance"]
    house = _house(tmp_path, {"blackjack": entry}, extends="pt")
    log = tmp_path / "bj.jsonl"
    params = ["--param", "blackjack_jackpot_stake_eur=1"]
    done = cli("sample-log", "blackjack", "-j", "PT", "--coups", "300", "--seed", "7", "--inject",
               "insurance_wrong_pay", "-o", str(log), *params)
    assert done.returncode == 0, done.stderr
    checked = cli("check", str(log), "--ruleset", str(house), "--format", "json", *params)
    assert checked.returncode in (0, 1), checked.stderr
    said = [f for f in json.loads(checked.stdout)["findings"] if f["rule_id"] == "PT-BJ-LOG-SETTLEMENT"]
    assert any("insurance" in f["message"] and "not settled" in f["message"] for f in said), said


@pytest.mark.parametrize("code", ["lu", "pt"])
@pytest.mark.parametrize("payout", ["win", "blackjack", None])
def test_a_blackjack_without_its_payouts_is_refused_never_an_internal_error(cli, tmp_path, code, payout):
    """A house blackjack without `payouts:` (or its `win` or `blackjack`) validated, and every log it checked
    stopped with an internal error (TypeError: Decimal * None): the settlement can never run, and is refused."""
    entry = copy.deepcopy(_shipped(code)["play"]["blackjack"])
    if payout is None:
        del entry["blackjack"]["payouts"]
    else:
        del entry["blackjack"]["payouts"][payout]
    problems = _refused(_house(tmp_path, {"blackjack": entry}, extends=code))
    assert any("-BJ-LOG-SETTLEMENT replays the settlement of blackjack logs" in p and "payouts" in p
               for p in problems), problems


def test_a_blackjack_without_its_payouts_is_said_in_a_log_not_a_crash():
    from casino_audit.replay import Terms, Unavailable
    from casino_audit.replay import blackjack
    from casino_audit.law.rulesets import load_builtin
    from casino_audit.samples.blackjack import SAMPLE_PARAMS

    data = copy.deepcopy(load_builtin("lu").play["blackjack"].data)
    del data["blackjack"]["payouts"]["win"]
    with pytest.raises(Unavailable) as unavailable:
        blackjack.prepare("blackjack", Terms(play=data, payouts=None, decks=6, params=dict(SAMPLE_PARAMS)))
    assert "settlement" in unavailable.value.aspects and "payouts: win:" in unavailable.value.reason("settlement")
    assert "settlement" in unavailable.value.prepared.skip


@pytest.mark.parametrize("code, game, path", [("lu", "blackjack", ("blackjack", "doubling", "on")),
                                              ("lu", "blackjack", ("blackjack", "payouts", "blackjack")),
                                              ("pt", "poker_sem_descarte", ("outcomes", "tie", "raise"))])
def test_play_data_naming_a_parameter_no_ruleset_declares_is_refused(tmp_path, code, game, path):
    """`{param: NAME}` in the rules of play waits for the run's value of NAME; a NAME the ruleset does not declare
    can never be given (--param refuses it): a house blackjack doubling `on: {param: x}` left every double
    "checked up to where it needs x" as an info, and a double on a forbidden total passed, exit 0."""
    entry = copy.deepcopy(_shipped(code)["play"][game])
    place = entry
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = {"param": "nobody_declares_this"}
    problems = _refused(_house(tmp_path, {game: entry}, extends=code))
    assert any("nobody_declares_this" in p for p in problems), problems


def test_play_data_that_cannot_be_read_are_refused_by_validate_not_left_to_every_log(cli, tmp_path):
    """A stud `raise_times_ante: zzz` was accepted by `rulesets validate`; each log then said every stud rule
    "not checked". It can never run: refused where the ruleset is read."""
    entry = copy.deepcopy(_shipped("lu")["play"]["stud_poker"])
    entry["raise_times_ante"] = "zzz"
    path = _house(tmp_path, {"stud_poker": entry})
    problems = _refused(path)
    assert any("LU-STUD-LOG-SETTLEMENT" in p and "raise_times_ante" in p for p in problems), problems
    assert cli("rulesets", "validate", str(path)).returncode == 1
