"""Every replay finding cites the provision the coup breaks: the article and the law's words the rules of play
(`play:` in the ruleset) quote for that decision, bet or aspect, not the one citation of the rule that verifies the
aspect; no message names another article than its finding's citation; `rules explain` lists the provisions a
replay rule may cite; a house ruleset brings its own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from casino_audit.cases import load_cases, run_case
from casino_audit.rulesets import builtin_names, load_builtin, rulesets_dir
from conftest import EXAMPLES, TEST_PARAMS, run_in_process

T = "2026-11-02T21:00:{:02d}"


def findings(tmp_path: Path, header: dict, *coups: dict, params: dict | None = None, name: str = "log.jsonl",
             extra: tuple = ()) -> list[dict]:
    """The JSON report's findings for a log of these coups (numbered, timed and in one session here)."""
    lines = [json.dumps(header)]
    for number, coup in enumerate(coups, 1):
        lines.append(json.dumps({"coup": number, "time": T.format(number), "session": "S1", **coup}))
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", "utf-8")
    args = ["check", str(path), "--format", "json", *extra]
    for key, value in {**TEST_PARAMS, **(params or {})}.items():
        args += ["--param", f"{key}={value}"]
    done = run_in_process(*args)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)["findings"]


def cited(found: list[dict], rule_id: str) -> list[str]:
    """The articles the rule's findings cite, in order."""
    return [f["citation"]["article"] for f in found if f["rule_id"] == rule_id]


def quoted(found: list[dict], rule_id: str) -> list[str]:
    return [f["citation"]["text"] for f in found if f["rule_id"] == rule_id]


# --- PT blackjack ------------------------------------------------------------------------------------------------

BJ = {"kind": "game-log", "jurisdiction": "PT", "game": "blackjack", "casino": "C", "table": "BJ1", "decks": 6,
      "limits": {"minimum": 10, "maximum": 300}}
PT_BJ = {"blackjack_jackpot_stake_eur": "1"}
N = "Título I, Capítulo III, Secção I, n.º "


def bj_coup(dealer, *hands, insurance=None, shoe=1):
    boxes = []
    for k, hand in enumerate(hands):
        box = {"box": k + 1, "seat": k + 1, "hands": hand}
        if insurance is not None and k == 0:
            box["insurance"] = insurance
        boxes.append(box)
    return {"shoe": shoe, "dealer": dealer, "boxes": boxes}


def h(cards, stake, decisions, net):
    return {"cards": cards, "stake": str(stake), "decisions": decisions, "net": str(net)}


def test_pt_blackjack_insurance_over_half_the_stake_cites_n_33(tmp_path):
    found = findings(tmp_path, BJ, bj_coup(["As", "Kd"], [h(["9c", "8d"], 20, ["stand"], -20)],
                                           insurance={"stake": "15", "net": "30"}), params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-DECISIONS") == [N + "33"]
    assert "não poderá exceder metade" in quoted(found, "PT-BJ-LOG-DECISIONS")[0]


def test_pt_blackjack_a_split_ace_hit_cites_n_26(tmp_path):
    found = findings(tmp_path, BJ, bj_coup(["9c", "7d", "Th"], [h(["As", "5d", "2c"], 10, ["split", "hit"], 10),
                                                                 h(["Ah", "9c"], 10, [], 10)]), params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-DECISIONS") == [N + "26"]


def test_pt_blackjack_a_surrender_against_an_ace_cites_n_36(tmp_path):
    found = findings(tmp_path, BJ, bj_coup(["Ac", "7d"], [h(["Ts", "6d"], 20, ["surrender"], -10)]), params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-DECISIONS") == [N + "36"]


def test_pt_blackjack_the_six_seven_eight_prize_unpaid_cites_n_35(tmp_path):
    # 6-7-8 of hearts, 21 against the dealer's 20: the win (10) and the special prize (30) are due, 10 paid
    found = findings(tmp_path, BJ, bj_coup(["Kc", "Qd"], [h(["6h", "7h", "8h"], 10, ["hit"], 10)]), params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-SETTLEMENT") == [N + "35"]


def test_pt_blackjack_the_dealer_drawing_when_all_have_bust_cites_n_22(tmp_path):
    found = findings(tmp_path, BJ, bj_coup(["9c", "7d", "Th"], [h(["Ts", "6d", "9h"], 10, ["hit"], -10)]),
                     params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-DEALER-DRAWING") == [N + "22"]
    assert "não haja mais ninguém em jogo" in quoted(found, "PT-BJ-LOG-DEALER-DRAWING")[0]


def test_pt_blackjack_each_settlement_cites_what_settles_the_hand(tmp_path):
    found = findings(tmp_path, BJ, bj_coup(["9c", "7d", "2h"],  # the dealer's 18
                                           [h(["As", "Kd"], 10, [], 10)],  # a blackjack paid 1 to 1: n.º 21
                                           [h(["Ts", "8d"], 10, ["stand"], 10)],  # a tie paid: n.º 24
                                           [h(["Ts", "9d"], 10, ["stand"], 5)]),  # a win underpaid: n.º 23
                     params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-SETTLEMENT") == [N + "21", N + "24", N + "23"]
