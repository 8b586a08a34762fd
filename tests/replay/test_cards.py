"""The card games' log replay (blackjack, stud poker): each test is a coup a filer could get
through before, or a legal coup wrongly flagged."""

from decimal import Decimal

import pytest

from casino_audit.replay import Terms
from casino_audit.replay import blackjack as BJ
from casino_audit.replay import stud as ST
from casino_audit.law.rulesets import load_builtin
from helpers.game_logs import LU_PARAMS

NO_BURN = frozenset(BJ.ASPECTS) - {"burn"}  # a shoe's burn (PT n.º 10) is tested apart (tests/logs/test_burns.py)

PT_PARAMS = {"blackjack_jackpot_stake_eur": Decimal(5)}


def bj_replay(coups, code="pt", params=None, decks=6):
    terms = Terms(play=load_builtin(code).play["blackjack"].data, payouts=None, decks=decks,
                  limits={"minimum": Decimal(10)}, params=PT_PARAMS if params is None else params,
                  aspects=NO_BURN)
    prepared = BJ.prepare("blackjack", terms)
    state = BJ.start(prepared)
    return [(c["coup"], *found) for c in coups for found in BJ.replay(prepared, state, c)]


def hand(cards, stake, decisions, net):
    return {"cards": cards, "stake": Decimal(stake), "decisions": decisions, "net": Decimal(net)}


def bj_coup(dealer, *boxes, number=1, shoe=1):
    return {"coup": number, "time": "2026-11-02T21:00:00", "session": "S1", "shoe": shoe, "dealer": dealer,
            "boxes": [{"box": k + 1, "seat": k + 1, **box} for k, box in enumerate(boxes)]}


def test_a_second_hand_needs_a_split_of_a_hand_played_before_it():
    # The box's own hand is a blackjack (never split) paid 3:2; a second hand "splits" itself (its first card
    # paired with itself) and is paid too. Before: nothing found.
    record = bj_coup(["9h", "8h"], {"hands": [hand(["As", "Kd"], 10, [], 15),
                                              hand(["Tc", "9d"], 10, ["split", "stand"], 10)]})
    found = bj_replay([record])
    assert ("deal" in {f[1] for f in found}) and any(f[2] == "/boxes/0/hands/1" for f in found), found
    # a re-split played in order stays clean
    legal = bj_coup(["9h", "8h"], {"hands": [hand(["8s", "9d"], 10, ["split", "stand"], 0),
                                             hand(["8c", "8d"], 10, ["split", "stand"], -10),
                                             hand(["8h", "Td"], 10, ["stand"], 10)]})
    assert bj_replay([legal]) == []


def test_even_money_where_the_rules_are_silent_keeps_its_meaning():
    # LU's rules say nothing of even money: before, an "even_money" on a losing 16 against a 7 was neither a
    # decision nor settled (paid +10, exit 0), and a blackjack's even money paid at any amount.
    losing = bj_coup(["7h", "Kh"], {"hands": [hand(["9s", "7d"], 10, ["even_money"], 10)]})
    assert [f[1:3] for f in bj_replay([losing], "lu", LU_PARAMS)] == [("decisions", "/boxes/0/hands/0/decisions/0")]
    overpaid = bj_coup(["Ah", "7h"], {"hands": [hand(["As", "Kd"], 10, ["even_money"], 100)]})
    assert [f[1:3] for f in bj_replay([overpaid], "lu", LU_PARAMS)] == [("settlement", "/boxes/0/hands/0/net")]
    legal = bj_coup(["Ah", "7h"], {"hands": [hand(["As", "Kd"], 10, ["even_money"], 10)]})
    assert bj_replay([legal], "lu", LU_PARAMS) == []


def test_a_box_dealt_twice_is_a_deal_finding():
    # Before: box 1 recorded twice, two two-card hands both paid, no split: nothing found.
    record = bj_coup(["9h", "8h"], {"hands": [hand(["Ts", "9d"], 10, ["stand"], 10)]},
                     {"hands": [hand(["Tc", "9c"], 10, ["stand"], 10)]})
    record["boxes"][1]["box"] = 1
    assert [f[1:3] for f in bj_replay([record])] == [("deal", "/boxes/1/box")]
    record["boxes"][1]["box"] = 2
    assert bj_replay([record]) == []


def test_without_decks_the_hands_are_still_dealt_by_the_law(tmp_path):
    # Before: with no deck count (the sample logs' header gives none) the whole deal aspect was off, so a hand
    # of one card paid +100, or a third card no hit asked for making 21, passed clean, exit 0.
    from casino_audit.replay import Unavailable
    with pytest.raises(Unavailable) as error:
        BJ.prepare("blackjack", Terms(play=load_builtin("pt").play["blackjack"].data, payouts=None, decks=None,
                                      limits={"minimum": Decimal(10)}, params=PT_PARAMS, aspects=NO_BURN))
    prepared = error.value.prepared
    assert "deal" not in prepared.skip and "deal" in error.value.partial
    one_card = bj_coup(["9h", "8h"], {"hands": [hand(["As"], 10, ["stand"], 100)]})
    unasked = bj_coup(["9h", "Th"], {"hands": [hand(["Ts", "6d", "5c"], 10, ["stand"], 10)]}, number=2)
    many = bj_coup(["9h", "8h"], {"hands": [hand(["Ks", "Kd"], 10, ["stand"], 10)]}, number=3, shoe=2)
    many["burned"] = ["Ks"] * 20  # uncounted without decks: not a finding
    state = BJ.start(prepared)
    found = [(c["coup"], *f[:2]) for c in (one_card, unasked, many) for f in BJ.replay(prepared, state, c)]
    assert found == [(1, "deal", "/boxes/0/hands/0/cards"), (2, "deal", "/boxes/0/hands/0/cards/2")]
    back = bj_coup(["9h", "Th"], {"hands": [hand(["Ts", "Td"], 10, ["stand"], 10)]}, number=4, shoe=1)
    assert list(BJ.replay(prepared, state, back)) == []  # a shoe's cards uncounted are not counted anew


def test_without_decks_the_cli_says_the_count_is_against_the_most_the_law_allows_and_finds_the_hand(tmp_path):
    import json
    import subprocess
    import sys
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(json.dumps(r) for r in (
        {"kind": "game-log", "jurisdiction": "PT", "game": "blackjack", "casino": "C", "table": "T1"},
        {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S1", "shoe": 1, "dealer": ["9h", "8h"],
         "boxes": [{"box": 1, "hands": [{"cards": ["As"], "stake": "10", "decisions": ["stand"], "net": "100"}]}]},
    )) + "\n")
    run = subprocess.run([sys.executable, "-m", "casino_audit", "check", str(log), "--format", "json",
                          "--param", "blackjack_jackpot_stake_eur=5"], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    found = {(f["rule_id"], f["severity"], f["pointer"]) for f in json.loads(run.stdout)["findings"]}
    assert ("PT-BJ-LOG-DEAL", "error", "/boxes/0/hands/0/cards") in found
    # no decks declared, the law allowing four or six: the cards are counted against six, and that is said
    assert ("LOAD-AMBIGUOUS", "info", "/decks") in found


def test_one_short_hand_does_not_stop_the_other_boxes():
    # Before: one box's hand of one card (a deal finding) made the whole coup unplayed, so box 2's loss paid as
    # a win and a hit on 21 went unfound.
    record = bj_coup(["9h", "Th"], {"hands": [hand(["As"], 10, ["stand"], 10)]},
                     {"hands": [hand(["Ts", "7d"], 10, ["stand"], 10)]},
                     {"hands": [hand(["Tc", "Ad", "2c"], 10, ["hit"], -10)]})
    found = [f[1:3] for f in bj_replay([record])]
    assert ("deal", "/boxes/0/hands/0/cards") in found
    assert ("settlement", "/boxes/1/hands/0/net") in found
    assert ("decisions", "/boxes/2/hands/0/decisions/0") in found
    assert not any(p.startswith("/boxes/0/") and a != "deal" for a, p in found)


@pytest.mark.parametrize("code, game, params", [("mc", "stud_poker", {}),
                                                ("lu", "stud_poker", {"stud_poker_high_card_raise": "push"})])
def test_a_jackpot_stake_at_stud_poker_is_a_settlement_finding(code, game, params):
    # Before: a MC or LU stud poker box staking 500 on a "jackpot" the law does not have passed clean, exit 0
    # (the jackpot is poker sem descarte's, PT n.º 3).
    from casino_audit.law.schedules import law_schedule
    ruleset = load_builtin(code)
    prepared = ST.prepare(game, Terms(ruleset.play[game], law_schedule(ruleset, game, "/payouts"), params=params))
    record = {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S-1", "dealer": "8d 8h 4s 4c 2c".split(),
              "boxes": [{"box": 1, "seat": 1, "cards": "8c 8s Qh 5d Kh".split(), "ante": Decimal(10),
                         "decision": "raise", "raise": Decimal(20), "net": Decimal(-30), "jackpot": Decimal(500)}]}
    assert [f[:2] for f in ST.replay(prepared, ST.start(prepared), record)] == [("settlement", "/boxes/0/jackpot")]
    del record["boxes"][0]["jackpot"]
    assert list(ST.replay(prepared, ST.start(prepared), record)) == []


def test_pt_side_bets_without_the_jackpot_stake_parameter_still_find_a_super_jack():
    # Before: without blackjack_jackpot_stake_eur the whole side-bets aspect was off in PT, so a super-jack
    # (Luxembourg's side bet, not Portugal's) staked 10 and paid +3000 passed with an info note, exit 0.
    from casino_audit.replay import Unavailable
    with pytest.raises(Unavailable) as error:
        BJ.prepare("blackjack", Terms(play=load_builtin("pt").play["blackjack"].data, payouts=None, decks=6,
                                      limits={"minimum": Decimal(10)}, params={}, aspects=NO_BURN))
    assert error.value.aspects == () and "blackjack_jackpot_stake_eur" in error.value.partial["side_bets"]
    prepared = error.value.prepared
    record = bj_coup(["9h", "Th"], {"hands": [hand(["Ts", "Td"], 10, ["stand"], 10)],
                                    "super_jack": {"gold_jack": {"stake": Decimal(10), "net": Decimal(3000)}}},
                     {"hands": [hand(["Ts", "9d"], 10, ["stand"], 0)],
                      "jackpot": {"stake": Decimal(7), "net": Decimal(-7)}})  # its amount is not known: passes
    found = [f[:2] for f in BJ.replay(prepared, BJ.start(prepared), record)]
    assert found == [("side_bets", "/boxes/0/super_jack/gold_jack")]


@pytest.mark.parametrize("code, game", [("lu", "stud_poker"), ("pt", "poker_sem_descarte")])
def test_an_outcome_left_to_a_parameter_leaves_only_its_coups_unsettled(code, game):
    # Before: without stud_poker_high_card_raise (LU) or poker_sem_descarte_unqualified_raise (PT) no coup at all
    # was settled, so a pair beaten by two pairs and paid +30 passed with an info note (PT: exit 0).
    from casino_audit.law.schedules import law_schedule
    from casino_audit.replay import Unavailable
    ruleset = load_builtin(code)
    with pytest.raises(Unavailable) as error:
        ST.prepare(game, Terms(ruleset.play[game], law_schedule(ruleset, game, "/payouts"), params={}))
    prepared = error.value.prepared
    assert error.value.aspects == () and "settlement" in error.value.partial

    def record(dealer, cards, net):
        return {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S-1", "dealer": dealer.split(),
                "boxes": [{"box": 1, "seat": 1, "cards": cards.split(), "ante": Decimal(10), "decision": "raise",
                           "raise": Decimal(20), "net": Decimal(net)}]}

    beaten = record("Kd Kh 4s 4c 2c", "8c 8s Qh 5d Ah", 30)
    assert [f[:2] for f in ST.replay(prepared, {}, beaten)] == [("settlement", "/boxes/0/net")]
    needs_it = record("Ad Kh 4s 3c 2c", "Ac Ks Qh 5d 9h", 30) if code == "lu" else \
        record("Qd Jh 4s 3c 2c", "Ac Ks Qh 5d 9h", 30)  # the outcome the law leaves out: not settled
    assert list(ST.replay(prepared, {}, needs_it)) == []


def test_the_super_jack_minimum_is_the_one_in_force_as_coups_set_it():
    # Before: the super-jack's table minimum was read once from the header or table, never from a coup's
    # `limits` (where the sample logs give it): a 1.00 super-jack at a 10.00 table passed, exit 0, and a
    # minimum raised to 20 later still let a 10.00 piece through.
    terms = Terms(play=load_builtin("lu").play["blackjack"].data, payouts=None, decks=6, limits={},
                  params=LU_PARAMS)
    prepared = BJ.prepare("blackjack", terms)
    state = BJ.start(prepared)

    def record(number, minimum, piece):
        found = bj_coup(["9h", "Th"], {"hands": [hand(["Ts", "Td"], 20, ["stand"], 20)],
                                       "super_jack": {"bust": {"stake": Decimal(piece), "net": Decimal(-piece)}}},
                        number=number)
        if minimum is not None:
            found["limits"] = {"minimum": Decimal(minimum), "maximum": Decimal(minimum) * 20}
        return found

    coups = [record(1, 10, 1), record(2, None, 10), record(3, 20, 10), record(4, None, 20)]
    found = [(c["coup"], *f[:2]) for c in coups for f in BJ.replay(prepared, state, c)]
    assert found == [(1, "side_bets", "/boxes/0/super_jack/bust/stake"),
                     (3, "side_bets", "/boxes/0/super_jack/bust/stake")]


def test_a_mistyped_rule_of_play_parameter_is_a_usage_error(tmp_path):
    import json
    import subprocess
    import sys
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(json.dumps(r) for r in (
        {"kind": "game-log", "jurisdiction": "LU", "game": "blackjack", "casino": "C", "table": "T1", "decks": 6},
        {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S1", "shoe": 1, "dealer": ["9h", "Th"],
         "boxes": [{"box": 1, "hands": [{"cards": ["Ts", "Td"], "stake": "10", "decisions": ["stand"],
                                         "net": "-500"}]}]},
    )) + "\n")
    params = [f"{k}={v}" for k, v in LU_PARAMS.items()]
    params[0] = "blackjack_dealer_rule=H17"
    run = subprocess.run([sys.executable, "-m", "casino_audit", "check", str(log), "--format", "json",
                          *[x for p in params for x in ("--param", p)]], capture_output=True, text=True)
    assert run.returncode == 2


def test_a_box_of_two_hands_without_a_split_is_said_once():
    record = bj_coup(["9h", "8h"], {"hands": [hand(["Ts", "9d"], 10, ["stand"], 10),
                                              hand(["Tc", "9c"], 10, ["stand"], 10)]})
    assert [f[1:3] for f in bj_replay([record])] == [("deal", "/boxes/0/hands")]
