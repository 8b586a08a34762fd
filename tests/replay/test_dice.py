import json
"""Replaying dice-game logs: each aspect found at its pointer, samples replaying clean, injected breaches found."""

import random
import re
from collections import Counter
from decimal import Decimal

import pytest
from jsonschema import Draft202012Validator

from casino_audit.law.schedules import law_schedule
from casino_audit.replay import Terms, Unavailable
from casino_audit.replay import dice as family
from casino_audit.law.rulesets import load_builtin
from casino_audit.samples import dice as samples
from helpers.dice_logs import PARAMS, PT, coup


def terms(game, **params):
    return Terms(PT.play[game].data, law_schedule(PT, game, "/payouts"), params=params)


def run(game, coups, **params):
    prepared = family.prepare(game, terms(game, **(params or PARAMS)))
    state = family.start(prepared)
    return [(coup["coup"], aspect, pointer) for coup in coups for aspect, pointer, _ in
            family.replay(prepared, state, coup)]


STAYS = {"status": "stays"}


# --- the coup schema and the CSV layout -------------------------------------------------------------------
def test_coup_schema_is_draft_2020_12_closed_and_described():
    Draft202012Validator.check_schema(family.COUP_SCHEMA)
    assert family.COUP_SCHEMA["additionalProperties"] is False
    bet = family.COUP_SCHEMA["properties"]["bets"]["items"]
    assert bet["additionalProperties"] is False
    for properties in (family.COUP_SCHEMA["properties"], bet["properties"]):
        assert all(spec.get("description") for spec in properties.values()), properties
    good = coup(1, [3, 4], (1, "pass_line", 10, 10))
    assert Draft202012Validator(family.COUP_SCHEMA).is_valid(good)
    assert not Draft202012Validator(family.COUP_SCHEMA).is_valid({**good, "odds": 1})


def test_a_csv_craps_log_reads_as_its_json_lines_twin(tmp_path, cli):
    """The CSV layout (one row per bet) gives the coups the JSON Lines log gives: same verdict, same counts."""
    for fmt in ("jsonl", "csv"):
        done = cli("sample-log", "cussec", "-j", "PT", "--coups", "300", "--seed", "4", "--inject", "wrong_payout",
                   "--format", fmt, "-o", str(tmp_path / f"log.{fmt}"))
        assert done.returncode == 0, done.stderr
    reports = [json.loads(cli("check", str(tmp_path / f"log.{fmt}"), "--format", "json").stdout)
               for fmt in ("jsonl", "csv")]
    assert [r["summary"]["records_checked"] for r in reports] == [300, 300]
    assert [sorted({f["rule_id"] for f in r["findings"]}) for r in reports] == [["PT-CUSSEC-LOG-SETTLEMENT"]] * 2

def test_stakes_point_at_each_bet():
    found = list(family.stakes(coup(1, [3, 4], (1, "pass_line", "10", 10), (2, "field", 5, -5))))
    # as written: the core reads each (and says so of one it cannot read)
    # with the bet each is part of (seat, chance, faces, point): one player's records of it add up to the maximum
    assert found == [("/bets/0/stake", "pass_line", "10", (1, "pass_line", (), None)),
                     ("/bets/1/stake", "field", 5, (2, "field", (), None))]


# --- each aspect: one passing throw, one failing at its pointer -------------------------------------------
def test_dice():
    assert run("cussec", [coup(1, [1, 2, 3], (1, "pequeno", 10, 10))]) == []
    assert run("cussec", [coup(1, [1, 7, 3])]) == [(1, "dice", "/dice/1")]
    assert run("craps", [coup(1, [1, 2, 3])]) == [(1, "dice", "/dice")]


def test_chances():
    assert run("cussec", [coup(1, [5, 5, 2], (1, "numero", 10, 20, {"on": [5]}))]) == []
    assert run("cussec", [coup(1, [5, 5, 2], (1, "total_3", 10, -10))]) == [(1, "chances", "/bets/0/chance")]
    assert run("cussec", [coup(1, [5, 5, 2], (1, "numero", 10, 20, {"on": [7]}))]) == [(1, "chances", "/bets/0/on")]
    assert run("cussec", [coup(1, [5, 5, 2], (1, "combinacao_dois_dados", 10, -10, {"on": [5, 5]}))]) == \
        [(1, "chances", "/bets/0/on")]
    # a come bet is made once the point is established (n.º 10.3)
    assert run("craps", [coup(1, [3, 4], (1, "come", 10, 10))]) == [(1, "chances", "/bets/0/chance")]


def test_resolution_follows_the_point():
    history = [coup(1, [3, 3], (1, "pass_line", 10, 0, STAYS)),
               coup(2, [2, 2], (1, "pass_line", 10, 0, STAYS), (2, "come", 10, 0, STAYS), point=6),
               coup(3, [2, 2], (1, "pass_line", 10, 0, STAYS), (2, "come", 10, 10, {"point": 4}), point=6),
               coup(4, [3, 4], (1, "pass_line", 10, -10), point=6)]
    assert run("craps", history) == []
    ignored = history[:3] + [coup(4, [3, 4], (1, "pass_line", 10, 10), point=6)]  # paid as a come-out natural
    assert run("craps", ignored) == [(4, "resolution", "/bets/0/net")]
    assert run("craps", history[:2] + [coup(3, [2, 2], point=None)]) == [(3, "resolution", "/point"),
                                                                           (3, "resolution", "/bets"),
                                                                           (3, "resolution", "/bets")]  # both gone
    wrong_point = history[:2] + [coup(3, [2, 2], (1, "pass_line", 10, 0, STAYS), (2, "come", 10, 10, {"point": 8}),
                                      point=6)]
    # said to stand on 8 where it moved to 4: not stood there, not won by a 4, and the bet on 4 is missing
    assert run("craps", wrong_point) == [(3, "resolution", "/bets/1/point"), (3, "resolution", "/bets/1/status"),
                                         (3, "resolution", "/bets")]


def test_settlement():
    assert run("banca_francesa", [coup(1, [1, 1, 1], (1, "ases", 10, 610), (2, "pequeno", 50, -50))]) == []
    assert run("banca_francesa", [coup(1, [1, 1, 1], (1, "ases", 10, 600))]) == [(1, "settlement", "/bets/0/net")]
    # odds at 6 for 5 on 12.50 net exactly 15.00; 15.01 is a cent too many
    odds = [coup(1, [3, 3], (1, "pass_line", 20, 0, STAYS)),
            coup(2, [4, 2], (1, "pass_line_odds", Decimal("12.50"), Decimal("15.00")), (1, "pass_line", 20, 20), point=6)]
    assert run("craps", odds) == []
    odds[1]["bets"][0]["net"] = Decimal("15.01")
    assert run("craps", odds) == [(2, "settlement", "/bets/0/net")]


def test_other_totals():
    stays = [coup(1, [4, 4, 4], (1, "grande", 10, 0, STAYS))]
    assert run("banca_francesa", stays, banca_francesa_other_totals="stays") == []
    assert run("banca_francesa", stays, banca_francesa_other_totals="lose") == [(1, "other_totals", "/bets/0/status")]
    with pytest.raises(Unavailable) as unavailable:
        family.prepare("banca_francesa", terms("banca_francesa"))
    assert unavailable.value.aspects == ("other_totals",) and "banca_francesa_other_totals" in unavailable.value.why
    prepared = unavailable.value.prepared  # the other aspects are still checked
    state = family.start(prepared)
    assert list(family.replay(prepared, state, stays[0])) == []
    assert [a for a, _, _ in family.replay(prepared, state, coup(2, [1, 2, 3], (1, "pequeno", 10, 11)))] == ["settlement"]


def test_bar():
    barred = [coup(1, [6, 6], (1, "dont_pass_line", 10, 0))]
    assert run("craps", barred) == []
    barred[0]["bets"][0]["net"] = 10
    assert run("craps", barred) == [(1, "bar", "/bets/0/net")]
    with pytest.raises(Unavailable) as unavailable:
        family.prepare("craps", terms("craps", **{k: v for k, v in PARAMS.items() if k != "craps_bar_total"}))
    assert unavailable.value.aspects == ("bar",)
    prepared = unavailable.value.prepared
    state = family.start(prepared)
    assert list(family.replay(prepared, state, barred[0])) == []  # which bar: not known, not checked
    assert [a for a, _, _ in family.replay(prepared, state, coup(2, [3, 4], (1, "dont_pass_line", 10, 10)))] == \
        ["resolution"]  # a 7 on the come-out loses whichever the bar


def test_given_payouts():
    place = [coup(1, [2, 4], (1, "place_6", 60, 70))]
    assert run("craps", place) == []
    place[0]["bets"][0]["net"] = 71
    assert run("craps", place) == [(1, "given_payouts", "/bets/0/net")]
    with pytest.raises(Unavailable) as unavailable:
        family.prepare("craps", terms("craps", craps_bar_total=12))
    assert unavailable.value.aspects == ("given_payouts",) and "craps_place_6_pays" in unavailable.value.why


def test_a_payout_of_no_whole_cent_is_said_so():
    prepared = family.prepare("craps", terms("craps", **PARAMS))
    [(_, _, message)] = family.replay(prepared, family.start(prepared), coup(1, [2, 4], (1, "place_6", 10, "11.66")))
    assert "11.6666… (not a whole cent)" in message and "7/6" in message


# --- samples -----------------------------------------------------------------------------------------------
def sample(game, count, inject=(), seed=3):
    return list(samples.coups(game, terms(game, **PARAMS), random.Random(seed), count, set(inject)))


@pytest.mark.parametrize("game", family.GAMES)
def test_a_compliant_sample_replays_clean(game):
    coups = sample(game, 2000)
    assert run(game, coups) == []
    chances = Counter(bet["chance"] for c in coups for bet in c["bets"])
    assert len(chances) >= len(PT.play[game].data["chances"]) - 2  # nearly every chance is bet on
    assert sample(game, 50) == sample(game, 50) != sample(game, 50, seed=4)  # the seed alone decides
    validator = Draft202012Validator(family.COUP_SCHEMA)
    assert all(validator.is_valid({**c, "bets": [{**b, "stake": str(b["stake"]), "net": str(b["net"])} for b in c["bets"]]})
               for c in coups[:200])


@pytest.mark.parametrize("game", family.GAMES)
def test_each_injected_breach_is_found_by_its_aspect(game):
    for breach, said in samples.BREACHES.items():
        if game != "craps" and breach in samples.CRAPS_ONLY:
            continue
        aspect = re.search(r"\((\w+)\)$", said).group(1)
        found = run(game, sample(game, 400, {breach}))
        assert found and {a for _, a, _ in found} == {aspect}, (breach, found)
