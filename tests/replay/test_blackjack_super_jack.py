"""LU blackjack: a super-jack piece is one of the table's stakes, held to its maximum (it was unbounded).

RGD du 8 mars 2002, Art. 33, al. 4: «Le maximum des mises est, pour chaque table, fixé en début de séance par le
directeur de l'établissement à 50, 100 ou 200 fois le minimum des mises.» Art. 32, 5, al. 3 (the super-jack,
played at the same table, «dans le cadre du jeu de black-jack»): «A chaque chance de la ligne superjack, ils ne
peuvent placer qu'une seule pièce atteignant au moins le montant de la mise minimale de la table».

LU-BJ-LOG-LIMITS judges only the box's first hand and says the super-jack is «bounded by [its] own rules»; but
al. 3 gives it a floor (the table minimum), no ceiling, and LU-BJ-LOG-SIDE-BETS checks only that floor. So a
bust stake of 50,000 (paid 125,000) at a 10 to 1,000 table, 50 times its maximum, passes with exit 0: no rule
holds a super-jack stake to any maximum (a breach passed). The stake is one of the table's «mises», whose maximum
Art. 33, al. 4 fixes for the table; it is expected to be found over it.
"""

from __future__ import annotations

import json

import pytest

from helpers.command import EXAMPLES, log_findings, run_in_process

PARAMS = [arg for pair in (("--param", p) for p in (
    "blackjack_dealer_rule=stands_on_17", "blackjack_pays=1.5", "blackjack_win_pays=1",
    "blackjack_dealer_blackjack_takes=all", "blackjack_insurance_pays=2", "blackjack_insurance_maximum=0.5",
    "blackjack_doubling=9,10,11", "blackjack_double_after_split=yes", "blackjack_split_hands=4",
    "blackjack_surrender_loses=none")) for arg in pair]


def _records() -> list:
    return [json.loads(line) for line in (EXAMPLES / "lu/log-blackjack.jsonl").read_text("utf-8").splitlines()]


def test_the_example_is_clean(tmp_path):
    assert not [f for f in log_findings(run_in_process, tmp_path, _records(), *PARAMS) if f["severity"] != "info"]


def test_a_super_jack_stake_fifty_times_the_table_maximum_is_found(tmp_path):
    records = _records()
    # coup 2 (line 3): the dealer busts (9c 6h Qh); header limits 10 to 1,000
    records[2]["boxes"][0]["super_jack"]["bust"] = {"stake": "50000", "net": "125000"}
    found = log_findings(run_in_process, tmp_path, records, *PARAMS)
    assert [f for f in found if f["severity"] == "error" and f["line"] == 3
            and "/super_jack/bust" in (f["pointer"] or "")], found


@pytest.mark.parametrize("limits", [{"minimum": 10}, None])
def test_leaving_the_maximum_out_does_not_free_the_super_jack(tmp_path, limits):
    # no maximum declared (or no limits at all): the law's ceiling, 200 times the minimum (Art. 33, al. 4), or the
    # rule saying it could not judge; never a pass in silence
    records = _records()
    if limits is None:
        records[0].pop("limits")
    else:
        records[0]["limits"] = limits
    for record in records[1:]:
        record.pop("limits", None)
    records[2]["boxes"][0]["super_jack"]["bust"] = {"stake": "5000", "net": "12500"}
    found = log_findings(run_in_process, tmp_path, records, *PARAMS)
    about = [(f["rule_id"], f["severity"]) for f in found if f["rule_id"] in
             ("LU-BJ-LOG-COEFFICIENT", "LU-BJ-LOG-SUPER-JACK-MAXIMUM", "LU-BJ-LOG-LIMITS")]
    assert about, [(f["rule_id"], f["message"][:80]) for f in found]
    if limits is not None:
        assert ("LU-BJ-LOG-COEFFICIENT", "error") in about
