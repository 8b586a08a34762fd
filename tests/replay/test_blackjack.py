"""Blackjack coups replayed: each aspect finds its breach at the right pointer and passes a compliant coup; a
2,000-coup sample replays clean and every injected breach is found by its aspect."""

import json
import random
from collections import Counter
from decimal import Decimal

import pytest

from casino_audit.replay import Terms, Unavailable
from casino_audit.replay import blackjack as R
from casino_audit.law.rulesets import load_builtin
from casino_audit.samples import blackjack as S
from casino_audit.documents.shape import ShapeValidator

PT_PARAMS = {"blackjack_jackpot_stake_eur": Decimal(5)}


def terms(code="pt", params=None, decks=6):
    params = params if params is not None else (PT_PARAMS if code == "pt" else S.SAMPLE_PARAMS)
    # a shoe's burn (PT n.º 10) is PT-BJ-LOG-BURN's, tested apart (tests/logs/test_burns.py)
    return Terms(play=load_builtin(code).play["blackjack"].data, payouts=None, decks=decks,
                 limits={"minimum": Decimal(10)}, params=params, aspects=frozenset(R.ASPECTS) - {"burn"})


def replay(coups, code="pt", **kw):
    prepared = R.prepare("blackjack", terms(code, **kw))
    state = R.start(prepared)
    return [(c["coup"], *found) for c in coups for found in R.replay(prepared, state, c)]


def hand(cards, stake, decisions, net):
    return {"cards": cards, "stake": Decimal(stake), "decisions": decisions, "net": Decimal(net)}


def coup(dealer, *boxes, number=1, shoe=1, burned=None):
    record = {"coup": number, "time": "2026-11-02T21:00:00", "session": "S1", "shoe": shoe, "dealer": dealer,
              "boxes": [{"box": k + 1, "seat": k + 1, **box} for k, box in enumerate(boxes)]}
    if burned:
        record["burned"] = burned
    return record


def test_the_schema_is_draft_2020_12_closed_and_described():
    assert R.COUP_SCHEMA["additionalProperties"] is False and "2020-12" in R.COUP_SCHEMA["$schema"]
    for name, field in R.COUP_SCHEMA["properties"].items():
        assert field.get("description"), name
    assert R.CSV_COLUMNS is None
    assert ShapeValidator(R.COUP_SCHEMA).errors(compliant()) == []


def compliant():
    # box 1: 8 8 split, first hand 8 + 9 = 17 stands, second hand 8 3 doubled + K = 21; dealer 9 7 T busts
    return coup(["9c", "7d", "Th"],
                {"hands": [hand(["8s", "9d"], 10, ["split", "stand"], 10),
                           hand(["8h", "3c", "Kd"], 10, ["double"], 20)]},
                {"hands": [hand(["As", "Kd"], 10, [], 15)]},
                {"hands": [hand(["Ts", "6d"], 20, ["surrender"], -10)]},
                {"hands": [hand(["6h", "7h", "8h"], 10, ["hit"], 40)]})


def test_a_compliant_coup_passes_every_aspect():
    assert replay([compliant()]) == []


@pytest.mark.parametrize("change, aspect, pointer", [
    (lambda c: c["boxes"][1]["hands"][0]["cards"].__setitem__(1, "Kc"), None, None),  # still a blackjack
    (lambda c: c.__setitem__("burned", ["8s"] * 6), "deal", "/boxes/0/hands/0/cards/0"),
    (lambda c: c["boxes"][0]["hands"][0]["cards"].append("2c"), "deal", "/boxes/0/hands/0/cards/2"),
    (lambda c: c["boxes"][0]["hands"].pop(), "deal", "/boxes/0/hands"),
    (lambda c: c["dealer"].__setitem__(slice(None), ["9c", "8d", "Th"]), "dealer_drawing", "/dealer/2"),
    (lambda c: c["dealer"].__setitem__(slice(None), ["9c", "5d"]), "dealer_drawing", "/dealer"),
    (lambda c: c["boxes"][3]["hands"][0]["decisions"].insert(0, "stand"), "decisions",
     "/boxes/3/hands/0/decisions/1"),
    (lambda c: c["boxes"][2]["hands"][0].update(cards=["Ts", "2d", "9c"], decisions=["double"], net=Decimal(40)),
     "decisions", "/boxes/2/hands/0/decisions/0"),
    (lambda c: c["boxes"][3]["hands"][0].update(cards=["6h", "7h", "8h", "2c"], decisions=["hit", "hit"],
                                                  net=Decimal(-10)),
     "decisions", "/boxes/3/hands/0/decisions/1"),
    (lambda c: c["boxes"][1]["hands"][0].update(net=Decimal(10)), "settlement", "/boxes/1/hands/0/net"),
    (lambda c: c["boxes"][0]["hands"][1].update(net=Decimal(10)), "settlement", "/boxes/0/hands/1/net"),
    (lambda c: c["boxes"][3]["hands"][0].update(net=Decimal(10)), "settlement", "/boxes/3/hands/0/net"),
    (lambda c: c["boxes"][0].update(jackpot={"stake": Decimal(10), "net": Decimal(-10)}), "side_bets",
     "/boxes/0/jackpot/stake"),
    (lambda c: c["boxes"][0].update(super_jack={"bust": {"stake": Decimal(10), "net": Decimal(25)}}), "side_bets",
     "/boxes/0/super_jack/bust"),
])
def test_each_aspect_finds_its_breach_at_its_pointer(change, aspect, pointer):
    record = compliant()
    change(record)
    found = [(a, p) for _, a, p, _ in replay([record])]
    assert found == ([] if aspect is None else [(aspect, pointer)])


def test_insurance_and_its_settlement():
    record = coup(["Ac", "Kd"], {"hands": [hand(["Ts", "9d"], 10, ["stand"], -10)],
                                 "insurance": {"stake": Decimal(5), "net": Decimal(10)}})
    assert replay([record]) == []
    record["boxes"][0]["insurance"]["net"] = Decimal(5)
    [(_, aspect, pointer, message)] = replay([record])
    assert (aspect, pointer) == ("settlement", "/boxes/0/insurance/net") and "+10.00" in message
    record["boxes"][0]["insurance"] = {"stake": Decimal(6), "net": Decimal(12)}
    assert [(a, p) for _, a, p, _ in replay([record])] == [("decisions", "/boxes/0/insurance/stake")]
    record["dealer"] = ["Kc", "Ad"]
    record["boxes"][0]["insurance"] = {"stake": Decimal(5), "net": Decimal(10)}
    assert [(a, p) for _, a, p, _ in replay([record])] == [("decisions", "/boxes/0/insurance")]


def test_luxembourg_super_jack_and_its_parameters():
    record = coup(["Ah", "Kh"], {"hands": [hand(["Ts", "9d"], 10, ["stand"], -10)],
                                 "super_jack": {"gold_jack": {"stake": Decimal(10), "net": Decimal(3000)},
                                                "bust": {"stake": Decimal(10), "net": Decimal(-10)}}})
    assert replay([record], "lu") == []
    record["boxes"][0]["super_jack"]["gold_jack"]["net"] = Decimal(2990)
    [(_, aspect, pointer, message)] = replay([record], "lu")
    assert (aspect, pointer) == ("side_bets", "/boxes/0/super_jack/gold_jack/net") and "+3000.00" in message
    with pytest.raises(Unavailable) as error:
        R.prepare("blackjack", terms("lu", params={}))
    # no aspect is set aside whole: each coup is replayed up to where it needs a value not given
    assert not error.value.aspects and set(error.value.partial) == {"dealer_drawing", "decisions", "settlement"}
    assert "blackjack_dealer_rule" in error.value.why
    partial = error.value.prepared
    # the dealer's blackjack: what it takes of the hand is a parameter (payouts/dealer_blackjack_takes)
    assert [a for a, _, _ in R.replay(partial, R.start(partial), record)] == ["side_bets"]


def test_a_missing_parameter_sets_aside_only_the_coups_that_need_it():
    """LU leaves the dealer's rule, the payouts, doubling, splitting, surrender and insurance to parameters. With
    one missing, every coup's decisions, drawing and settlement were set aside: a bust hand paid +10, a dealer
    drawing on a hard 18, passed with an info note, exit 0."""
    with pytest.raises(Unavailable) as error:
        R.prepare("blackjack", terms("lu", params={}))
    prepared = error.value.prepared

    def found(record):
        return [(a, p) for a, p, _ in R.replay(prepared, R.start(prepared), record)]

    bust = coup(["9c", "8d"], {"hands": [hand(["Ts", "6d", "9h"], 10, ["hit"], 10)]})
    assert found(bust) == [("settlement", "/boxes/0/hands/0/net")]
    bust["boxes"][0]["hands"][0]["net"] = -10
    assert found(bust) == []
    hard_18 = coup(["Tc", "8d", "2h"], {"hands": [hand(["Ts", "9d"], 10, ["stand"], -10)]})
    assert found(hard_18) == [("dealer_drawing", "/dealer/2")]
    # a soft 17 is the dealer's rule: not judged without it
    soft_17 = coup(["Ac", "6d", "Th"], {"hands": [hand(["Ts", "9d"], 10, ["stand"], -10)]})
    assert found(soft_17) == []
    # a won hand's pay is the parameter's: not judged without it
    won = coup(["Tc", "7d"], {"hands": [hand(["Ts", "9d"], 10, ["stand"], 999)]})
    assert found(won) == []
    params = {"blackjack_win_pays": Decimal(1)}
    with pytest.raises(Unavailable) as error:
        R.prepare("blackjack", terms("lu", params=params))
    prepared = error.value.prepared
    assert found(won) == [("settlement", "/boxes/0/hands/0/net")]


def test_without_decks_the_cards_are_not_counted_but_the_hands_still_are():
    with pytest.raises(Unavailable) as error:
        R.prepare("blackjack", terms(decks=None))
    assert error.value.aspects == () and "decks" in error.value.partial["deal"] and error.value.prepared


def test_cards_are_counted_per_shoe_across_coups():
    first = coup(["9c", "8d"], {"hands": [hand(["Ks", "Kd"], 10, ["stand"], 10)]}, burned=["Ks"] * 5)
    again = coup(["9c", "8d"], {"hands": [hand(["Ks", "Qd"], 10, ["stand"], 10)]}, number=2)
    assert [(n, a, p) for n, a, p, _ in replay([first, again])] == [(2, "deal", "/boxes/0/hands/0/cards/0")]
    again["shoe"] = 2
    assert replay([first, again]) == []


def test_stakes_name_every_chance():
    record = compliant()
    record["boxes"][1]["insurance"] = {"stake": Decimal(5), "net": Decimal(-5)}
    found = {(p, c, a) for p, c, a in R.stakes(record)}
    assert ("/boxes/0/hands/1/stake", "split", Decimal(10)) in found
    assert ("/boxes/0/hands/1/decisions/0", "double", Decimal(10)) in found
    assert ("/boxes/1/insurance/stake", "insurance", Decimal(5)) in found


@pytest.mark.parametrize("code", ["pt", "lu"])
def test_a_compliant_sample_replays_clean_and_every_breach_is_found(code):
    rules = terms(code)
    coups = list(S.coups("blackjack", rules, random.Random(3), 2000, set()))
    validator = ShapeValidator(R.COUP_SCHEMA)
    assert all(validator.is_valid(c) for c in coups[:200])
    assert replay(coups, code) == []
    assert len({c["shoe"] for c in coups}) > 5
    injected = set(S.BREACHES) - ({"super_jack_wrong_pay"} if code == "pt" else set())
    bad = list(S.coups("blackjack", rules, random.Random(3), 400, injected))
    found = Counter(aspect for _, aspect, _, _ in replay(bad, code))
    for breach in injected:
        aspect = S.BREACHES[breach].rsplit("(", 1)[1].rstrip(")")
        assert found[aspect] >= 1, breach
    assert sum(found.values()) <= 2 * len(injected)


# --- PT n.º 20: a blackjack beats a 21 ---------------------------------------------------------------------------
# PT blackjack n.º 20: «A combinação blackjack ganha sempre ao total 21. Não se considera blackjack, mas sim o
# total de 21, se aquela combinação resultar do desdobramento de um par.» A 21 of three cards settled as a tie
# against the dealer's blackjack, and a split ace's 21 paid 3 to 2, break n.º 20; the ruleset quotes n.º 20 under
# `covers: [blackjack_beats_21]`, which no settlement once named, so both findings cited n.º 23 instead (whose
# «mais próximo de 21» alone would make two 21s a tie, n.º 24).
PT_HEADER = {"kind": "game-log", "jurisdiction": "PT", "game": "blackjack", "casino": "Casino Sample", "table": "T1",
          "limits": {"minimum": 10, "maximum": 300}, "decks": 6}
PT_N20 = "Título I, Capítulo III, Secção I, n.º 20"


def _settlement_citations(cli, tmp_path, dealer, hands):
    coup = {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S1", "staff": {"croupier": "C-10"}, "shoe": 1,
            "burned": ["5c"], "dealer": dealer, "boxes": [{"box": 1, "seat": 1, "hands": hands}]}
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(PT_HEADER) + "\n" + json.dumps(coup) + "\n", "utf-8")
    done = cli("check", str(path), "--format", "json")
    return [f["citation"]["article"] for f in json.loads(done.stdout)["findings"]
            if f["rule_id"] == "PT-BJ-LOG-SETTLEMENT"]


@pytest.mark.parametrize("dealer, hands", [
    # 21 of three cards against the dealer's blackjack, settled as a tie (0): it loses
    (["As", "Kh"], [{"cards": ["Th", "5d", "6c"], "stake": "20", "decisions": ["hit", "stand"], "net": "0"}]),
    # a split ace and a king paid as a blackjack (+30): it is a 21, paid 1 to 1
    (["Ts", "8d"], [{"cards": ["Ah", "Kd"], "stake": "20", "decisions": ["split", "stand"], "net": "30"},
                    {"cards": ["Ac", "9s"], "stake": "20", "decisions": ["stand"], "net": "20"}]),
], ids=["three-card-21-against-blackjack", "split-ace-21-paid-as-blackjack"])
def test_a_settlement_that_breaks_blackjack_beats_21_cites_n20(cli, tmp_path, dealer, hands):
    assert _settlement_citations(cli, tmp_path, dealer, hands) == [PT_N20]


# A blackjack held against a ten up is still in play, so the dealer must draw to 17.
#
# Portaria 217/2007, Título I, Capítulo III, Secção I:
# - n.º 19: «Na hipótese de esse total ser de 16 ou inferior, é obrigado a tirar tantas cartas quantas as
#   necessárias para perfazer, no mínimo, a mencionada pontuação de 17.»
# - n.º 22: «Quando todos os jogadores presentes na mesa tenham perdido ou já desistido e não haja mais ninguém em
#   jogo, o pagador abstém-se de tirar a terceira carta»: the only exception, when every player has LOST or
#   SURRENDERED.
# - n.º 21: a blackjack is paid at once, its cards collected, only «se ... a carta aberta da banca não for uma das
#   que possibilitem essa combinação (ás, figura ou 10)»; against a ten up it waits for the dealer's hand.
#
# Here the dealer shows Th 2c (12); box 1 holds a blackjack against that ten (not paid at once, neither lost nor
# surrendered), box 2 is bust. n.º 22 does not apply (not every player has lost or surrendered), so n.º 19 obliges
# the dealer to draw. The replay counts the pending blackjack as out of play:
# - a dealer who draws (5d) is flagged PT-BJ-LOG-DEALER-DRAWING citing n.º 22: a FALSE FLAG of a lawful draw;
# - a dealer who stands on 12 passes clean: a FALSE PASS of n.º 19.
PENDING_HEADER = {"kind": "game-log", "jurisdiction": "PT", "game": "blackjack", "casino": "Casino Sample", "table": "T1",
          "limits": {"minimum": 10, "maximum": 300}, "decks": 6}


def _pending_blackjack_coup(dealer):
    return {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S1", "shoe": 1, "burned": ["5c"],
            "dealer": dealer, "boxes": [
                {"box": 1, "seat": 1, "hands": [{"cards": ["As", "Kd"], "stake": "10", "decisions": ["stand"],
                                                 "net": "15"}]},
                {"box": 2, "seat": 2, "hands": [{"cards": ["Ts", "6d", "9h"], "stake": "10", "decisions": ["hit"],
                                                 "net": "-10"}]}]}


def _drawing_findings(cli, tmp_path, dealer):
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(PENDING_HEADER) + "\n" + json.dumps(_pending_blackjack_coup(dealer)) + "\n", "utf-8")
    done = cli("check", str(path), "--format", "json")
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return [f for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "PT-BJ-LOG-DEALER-DRAWING"
            and f["severity"] == "error"]


def test_a_dealer_drawing_to_17_against_a_pending_blackjack_is_no_breach(cli, tmp_path):
    # 12 + 5 = 17: the draw n.º 19 requires; n.º 22's exception does not hold (a blackjack has not lost)
    assert _drawing_findings(cli, tmp_path, ["Th", "2c", "5d"]) == []


def test_a_dealer_standing_on_12_against_a_pending_blackjack_breaks_n19(cli, tmp_path):
    found = _drawing_findings(cli, tmp_path, ["Th", "2c"])
    assert len(found) == 1 and found[0]["citation"]["article"] == "Título I, Capítulo III, Secção I, n.º 19"
