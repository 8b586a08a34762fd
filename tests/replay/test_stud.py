"""Stud poker game logs (casino_audit.replay.stud, casino_audit.samples.stud) and the ante's house edge
(casino_audit.edge.stud): every aspect found at its pointer, the samples clean or breached as asked,
Monaco's special cases, amounts to the cent, and the simulation checked against an exact enumeration and a
published figure."""

import json
import random
import re
from decimal import Decimal as D
from fractions import Fraction

import jsonschema
import pytest
from hypothesis import given, settings, strategies as st

from helpers.command import EXAMPLES, REPO
from casino_audit.games.poker import Card, parse_card
from casino_audit.games.poker_stud import bind_params, paytable_from_payouts, stud_rules
from casino_audit.law.schedules import law_schedule
from casino_audit.edge.stud import exact_edge, simulate
from casino_audit.replay import Terms, Unavailable
from casino_audit.replay import stud
from casino_audit.law.rulesets import load_builtin
from casino_audit.samples import stud as samples
from helpers.stud_logs import GAME, PARAMS, box, coup, findings, prepared, terms


def messages(code, record):
    ready = prepared(code)
    return [message for *_, message in stud.replay(ready, stud.start(ready), record)]


QUALIFIED = "As Kd 9h 5c 3s"  # ace-king: the least the dealer plays with
UNQUALIFIED = "Qs Jd 8h 3c 2h"
STRAIGHT = "Ts Jd Qh Kc 9s"


# --- each aspect: one coup that passes, one that fails where it should ------------------------------------

def test_a_compliant_coup_has_no_finding():
    record = coup(QUALIFIED, box(STRAIGHT, net="110"), box("2s 3d 4h 7c 8d", decision="fold", net="-10", number=3))
    assert findings("lu", record) == []


@pytest.mark.parametrize("change, aspect, pointer", [
    (lambda c: c["boxes"][1]["cards"].__setitem__(2, "Kd"), "deal", "/boxes/1/cards/2"),  # the dealer's Kd
    (lambda c: c["boxes"][0]["cards"].pop(), "deal", "/boxes/0/cards"),
    (lambda c: c["dealer"].append("7h"), "deal", "/dealer"),
    (lambda c: c["boxes"][1].__setitem__("box", 8), "boxes", "/boxes/1/box"),
    (lambda c: c["boxes"][1].__setitem__("box", 1), "boxes", "/boxes/1/box"),
    (lambda c: c["boxes"][1].__setitem__("seat", 1), "boxes", "/boxes/1/seat"),
    (lambda c: c["boxes"][0].update({"raise": D(15), "net": D(85)}), "raise", "/boxes/0/raise"),  # settled on 15
    (lambda c: c["boxes"][1].__setitem__("raise", D(20)), "raise", "/boxes/1/raise"),
    (lambda c: c["boxes"][0].__setitem__("net", D(120)), "settlement", "/boxes/0/net"),
    (lambda c: c["boxes"][1].__setitem__("net", D(0)), "settlement", "/boxes/1/net"),
])
def test_each_aspect_is_found_at_its_pointer(change, aspect, pointer):
    record = coup(QUALIFIED, box(STRAIGHT, net="110"), box("2s 3d 4h 7c 8d", decision="fold", net="-10", number=3))
    change(record)
    assert (aspect, pointer) in findings("lu", record)
    assert {found for found, _ in findings("lu", record)} == {aspect}  # nothing else is blamed


def test_messages_give_what_was_found_and_what_the_law_requires():
    record = coup(QUALIFIED, box(STRAIGHT, net="85", **{"raise": D(15)}))  # settled on the 15 staked
    assert messages("lu", record) == ["box 1: a raise of 15.00 on an ante of 10.00; the law fixes the raise at "
                                      "twice the ante: 20.00"]
    [message] = messages("lu", coup(UNQUALIFIED, box("7s 7d 4h 5c 9s", net="30")))
    assert "net +30.00 recorded" in message and "the dealer does not qualify" in message
    assert "ante 10.00 paid 1 to 1, raise 20.00 returned: net +10.00" in message and "Art. 37-6" in message
    [message] = messages("lu", coup(QUALIFIED, box(STRAIGHT, net="50")))
    assert "the raise is paid at the schedule's quinte entry" in message and "raise 20.00 paid 5 to 1: net +110.00" in message


@pytest.mark.parametrize("code, player, dealer, net", [
    ("lu", "Ah Ad Ac 2c 2s", "Qs Qd 5h 6c 7h", 210),   # full house: 10 to 1 on the raise
    ("pt", "Ah Ad Ac 2c 2s", "Qs Qd 5h 6c 7h", 150),   # PT: 7 to 1
    ("pt", "Ah Kh Qs 3d 2c", QUALIFIED, 30),           # cartas maiores: once the stake
    ("lu", "Ah Kh Qs 3d 2c", QUALIFIED, 10),           # the parameter: the raise returned
    ("pt", "8s 8d Kh 5c 3s", "8h 8c Kd 7c 6s", 0),     # PT: the pair then one card, equal
    ("lu", "8s 8d Kh 5c 3s", "8h 8c Kd 7c 6s", -30),   # LU: every card counts
    ("lu", "2s 3d 4h 5c 7s", "2h 2c 4d 5d 8s", -30),
    ("lu", "9s Td Jh Qc Ks", "9h Tc Jd Qs Kh", 0),
])
def test_settlement_per_jurisdiction(code, player, dealer, net):
    assert findings(code, coup(dealer, box(player, net=str(net)))) == []
    assert findings(code, coup(dealer, box(player, net=str(net + 1)))) == [("settlement", "/boxes/0/net")]


# --- Monaco's dispositions diverses ------------------------------------------------------------------------

AK, AK_LOW = "As Kd 9h 5c 3s", "Ah Kc 8h 5d 2s"


@pytest.mark.parametrize("player, dealer, net, words", [
    (AK, AK_LOW, -30, "special case, both hands ace-king"),       # the player's is higher, and he loses
    ("8s 8d Kh 5c 3s", "8h 8c Qh 7c 6s", 0, "special case, identical pairs"),   # kickers do not count
    ("Ks Kd 3h 3c 5s", "Kh Kc 3s 3d 4s", 0, "special case, identical pairs"),
    ("As Qs 9s 5s 3s", "Kd Qd 9d 5d 2d", 0, "special case, both hands a flush"),
])
def test_monaco_special_cases(player, dealer, net, words):
    assert findings("mc", coup(dealer, box(player, net=str(net)))) == []
    [message] = messages("mc", coup(dealer, box(player, net="10")))
    assert words in message and "dispositions diverses" in message
    lu = findings("lu", coup(dealer, box(player, net=str(net))))  # Luxembourg compares the hands
    assert lu == [("settlement", "/boxes/0/net")]


# --- money ------------------------------------------------------------------------------------------------

def test_settlement_is_exact_to_the_cent():
    # 2.55 ante, 5.10 raise: a straight pays 2.55 + 5 x 5.10 = 28.05
    assert findings("lu", coup(QUALIFIED, box(STRAIGHT, ante="2.55", net="28.05"))) == []
    assert findings("lu", coup(QUALIFIED, box(STRAIGHT, ante="2.55", net="28.050"))) == []
    [message] = messages("lu", coup(QUALIFIED, box(STRAIGHT, ante="2.55", net="28.04")))
    assert "net +28.04 recorded" in message and "net +28.05" in message
    huge = "1000.0000000000000000000000001"  # past Decimal's 28 digits
    staked = {"raise": D("2000.0000000000000000000000002")}
    assert findings("lu", coup(QUALIFIED, box(STRAIGHT, ante=huge, net="11000.0000000000000000000000011", **staked))) == []


def test_stakes_name_every_bet_at_its_pointer():
    record = coup(QUALIFIED, box(STRAIGHT, net="110"), box("2s 3d 4h 7c 8d", ante="5", decision="fold", net="-5",
                                                           number=3, jackpot=D(1)))
    assert list(stud.stakes(record)) == [("/boxes/0/ante", "ante", D(10)), ("/boxes/0/raise", "raise", D(20)),
                                         ("/boxes/1/ante", "ante", D(5)), ("/boxes/1/jackpot", "jackpot", D(1))]


# --- what the law leaves out ---------------------------------------------------------------------------------

@pytest.mark.parametrize("code, name, situation", [
    ("lu", "stud_poker_high_card_raise", "player_wins_unlisted"),
    ("pt", "poker_sem_descarte_unqualified_raise", "dealer_not_qualified"),
])
def test_an_unstated_outcome_needs_its_parameter(code, name, situation):
    with pytest.raises(Unavailable) as gap:
        stud.prepare(GAME[code], terms(code, params={}))
    # the settlement is still replayed; only the coups that need the outcome are not (said once)
    assert gap.value.aspects == () and gap.value.prepared.settle
    assert name in gap.value.partial["settlement"] and situation in gap.value.partial["settlement"]
    declared = load_builtin(code).params[name]
    assert declared.type == "string" and declared.description
    for value, net in (("lose", -10), ("1", 30)):  # the run's value decides
        record = coup(QUALIFIED, box("Ah Kh Qs 3d 2c", net=str(net))) if code == "lu" else \
            coup(UNQUALIFIED, box("7s 7d 4h 5c 9s", net=str(net)))
        ready = stud.prepare(GAME[code], terms(code, params={name: value}))
        assert list(stud.replay(ready, {}, record)) == []


def test_no_rules_of_play_no_settlement():
    with pytest.raises(Unavailable) as gap:
        stud.prepare("stud_poker", Terms(None, {"une_paire": 1}))
    assert set(gap.value.aspects) == {"raise", "settlement"}


def test_every_quote_in_the_play_data_is_in_the_source():
    sources = {"lu": "lu-rgd-2002-03-08.txt", "mc": "mc-am-2003-281.txt", "pt": "pt-portaria-217-2007.txt"}

    def quotes(value):
        if isinstance(value, dict):
            if {"article", "text"} <= set(value):
                yield value["text"]
            for item in value.values():
                yield from quotes(item)
        elif isinstance(value, list):
            for item in value:
                yield from quotes(item)

    for code, game in GAME.items():
        text = re.sub(r"\s+", " ", (REPO / "rulesets" / "sources" / sources[code]).read_text("utf-8"))
        found = list(quotes(load_builtin(code).play[game].data))
        assert len(found) >= 7
        for quote in found:
            assert re.sub(r"\s+", " ", quote).strip() in text, quote


# --- the schema -----------------------------------------------------------------------------------------------

def test_the_coup_schema_is_draft_2020_12_and_describes_every_field():
    jsonschema.Draft202012Validator.check_schema(stud.COUP_SCHEMA)
    assert stud.COUP_SCHEMA["additionalProperties"] is False and stud.CSV_COLUMNS is None
    for name, field in {**stud.COUP_SCHEMA["properties"], **stud.COUP_SCHEMA["properties"]["boxes"]["items"]
                        ["properties"]}.items():
        assert field.get("description"), name
    validator = jsonschema.Draft202012Validator(stud.COUP_SCHEMA)
    record = coup(QUALIFIED, box(STRAIGHT, net="110"))
    assert not list(validator.iter_errors(record))
    del record["boxes"][0]["raise"]
    assert list(validator.iter_errors(record))  # a raise needs its amount
    assert list(validator.iter_errors({**coup(QUALIFIED, box(STRAIGHT)), "bonus": 1}))


# --- samples ------------------------------------------------------------------------------------------------

def test_a_compliant_sample_of_2000_coups_replays_clean():
    ready = prepared("mc")
    log = list(samples.coups("stud_poker", terms("mc"), random.Random(11), 2000))
    state = stud.start(ready)
    assert [finding for record in log for finding in stud.replay(ready, state, record)] == []
    validator = jsonschema.Draft202012Validator(stud.COUP_SCHEMA)
    assert not any(list(validator.iter_errors(record)) for record in log[:200])
    assert {len(record["boxes"]) for record in log} == set(range(1, 8))
    decisions = [b["decision"] for record in log for b in record["boxes"]]
    assert 0.3 < decisions.count("raise") / len(decisions) < 0.7
    assert log == list(samples.coups("stud_poker", terms("mc"), random.Random(11), 2000))  # the seed decides


@pytest.mark.parametrize("code", ["lu", "pt"])
def test_samples_of_each_jurisdiction_replay_clean(code):
    ready = prepared(code)
    log = samples.coups(GAME[code], terms(code), random.Random(5), 300)
    assert [finding for record in log for finding in stud.replay(ready, {}, record)] == []


@pytest.mark.parametrize("breach", sorted(samples.BREACHES))
def test_each_injected_breach_is_found_by_its_aspect(breach):
    aspect = re.search(r"\((\w+)\)", samples.BREACHES[breach]).group(1)
    assert aspect in stud.ASPECTS
    ready = prepared("mc")
    log = list(samples.coups("stud_poker", terms("mc"), random.Random(3), 40, {breach}))
    found = {found for record in log for found, *_ in stud.replay(ready, {}, record)}
    assert found == {aspect}


def test_every_breach_at_once_and_unknown_ones():
    ready = prepared("mc")
    log = list(samples.coups("stud_poker", terms("mc"), random.Random(4), 30, set(samples.BREACHES)))
    assert {found for record in log for found, *_ in stud.replay(ready, {}, record)} == set(stud.ASPECTS)
    with pytest.raises(ValueError, match="unknown breach"):
        list(samples.coups("stud_poker", terms("mc"), random.Random(4), 3, {"marked_cards"}))
    with pytest.raises(ValueError, match="no special cases"):
        list(samples.coups("stud_poker", terms("lu"), random.Random(4), 3, {"ignored_special_case"}))


SWAPS = st.permutations(list("cdhs"))


@settings(max_examples=25, deadline=None)
@given(swap=SWAPS, seed=st.integers(0, 10_000))
def test_settlement_is_symmetric_in_suits(swap, seed):
    # Renaming the suits throughout a coup changes no hand's reading, so no settlement either (PT's three-of-a-
    # suit tie-break included).
    code = "pt"
    ready = prepared(code)
    [record] = samples.coups(GAME[code], terms(code), random.Random(seed), 1)
    rename = dict(zip("cdhs", swap))
    record["dealer"] = [card[0] + rename[card[1]] for card in record["dealer"]]
    for entry in record["boxes"]:
        entry["cards"] = [card[0] + rename[card[1]] for card in entry["cards"]]
    assert list(stud.replay(ready, {}, record)) == []


# --- the ante's house edge ----------------------------------------------------------------------------------

SMALL_DECK = tuple(parse_card(text) for text in "As Ks Qs Js Ts Ah Kh Qh Jh Th 9h".split())


def rules_of(code):
    ruleset = load_builtin(code)
    game = GAME[code]
    return (stud_rules(bind_params(ruleset.play[game].data, PARAMS[code])),
            paytable_from_payouts(game, law_schedule(ruleset, game, "/payouts")))


def test_the_simulation_interval_holds_the_exact_edge_of_a_reduced_deck():
    rules, paytable = rules_of("mc")
    exact = exact_edge(rules, paytable, SMALL_DECK)  # every deal of 11 cards: 462 x 6 x 5
    edge, (low, high) = simulate(rules, paytable, 20_000, random.Random(1), SMALL_DECK)
    assert low < exact < high and isinstance(edge, Fraction)
    assert high - low < Fraction(1, 2)  # 11 cards deal many pairs: the results spread wide


def test_the_simulation_agrees_with_the_published_caribbean_stud_figure():
    # Caribbean stud (PT's schedule, hands compared card by card, the raise returned when the dealer does not
    # play): "raise on any pair or better" has a house edge of 5.470 % of the ante over all 19,933,230,517,200
    # deals (M. Shackleford, wizardofodds.com, "Strategy Statistics in Caribbean Stud Poker").
    ruleset = load_builtin("pt")
    data = bind_params(ruleset.play["poker_sem_descarte"].data, PARAMS["pt"])
    data = {key: value for key, value in data.items() if key not in ("compared_ranks", "suited_tie_break")}
    rules = stud_rules(data)
    paytable = paytable_from_payouts("poker_sem_descarte", law_schedule(ruleset, "poker_sem_descarte", "/payouts"))
    edge, (low, high) = simulate(rules, paytable, 40_000, random.Random(2))
    assert low < Fraction("0.05470") < high


def test_the_edge_command_for_stud(cli):
    done = cli("edge", "stud_poker", "-j", "MC", "--rounds", "3000", "--format", "json")
    assert done.returncode == 0 and '"exact": false' in done.stdout and "pair or better" in done.stdout
    done = cli("edge", "poker_sem_descarte", "-j", "PT", "--rounds", "3000")
    assert done.returncode == 2 and "poker_sem_descarte_unqualified_raise" in done.stderr


# --- a table's payout the law's closed schedule does not list ----------------------------------------------------
# LU Art. 37-7 fixes the whole stud poker schedule (a closed LU-STUD-PAYOUTS schedule), and the replay settles
# a coup at the law's payouts whatever the table says (casino_audit/logs/terms.py `_law_fixed`). Yet one payout
# key the law does not know added to the table configuration (`bonus: 9`, refused by LU-STUD-PAYOUTS) once made
# `paytable_from_payouts` refuse the merged schedule, and every coup's settlement turned "not checked": a two
# pairs paid 1 to 1 instead of «2 fois la mise» (Art. 37-7) passed, though the law's schedule settles it.
def test_an_unknown_payout_key_in_the_table_does_not_turn_off_the_law_s_schedule(cli, tmp_path):
    table = (EXAMPLES / "lu/table-stud-poker.yaml").read_text("utf-8").replace(
        "payouts: {une_paire: 1,", "payouts: {une_paire: 1, bonus: 9,")
    (tmp_path / "table.yaml").write_text(table, "utf-8")
    header = {"kind": "game-log", "jurisdiction": "LU", "game": "stud_poker",
              "casino": "Casino 2000 Mondorf-les-Bains", "table": "S1", "table_config": "table.yaml"}
    coup = {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S-001", "dealer": ["8d", "8h", "As", "Kc", "2s"],
            "boxes": [{"box": 1, "seat": 1, "cards": ["9c", "9s", "5d", "5h", "3c"], "ante": "10",
                       "decision": "raise", "raise": "20", "net": "30"}],
            "staff": {"chef_de_table": "T-22", "croupier": "C-65"}}
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(coup) + "\n", "utf-8")
    done = cli("check", str(path), "--format", "json", "--param", "stud_poker_high_card_raise=push")
    found = [f["pointer"] for f in json.loads(done.stdout)["findings"]
             if f["rule_id"] == "LU-STUD-LOG-SETTLEMENT" and f["severity"] == "error"]
    assert found == ["/boxes/0/net"]
