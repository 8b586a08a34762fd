"""How the Luxembourg ruleset reads the RGD of 8 March 2002 (rulesets/lu.yaml): each test
is a small filing, a compliant example with a few edits, run through the real pipeline with the shipped rulesets,
and fails on the reading that was there before."""

from __future__ import annotations

import json

from casino_audit.law.engine import Checker
from casino_audit.core.findings import Severity
from casino_audit.run.pipeline import run
from casino_audit.law.rulesets import load_builtin
from helpers.command import EXAMPLES, TEST_PARAMS

LU = load_builtin("lu")
LOG_PARAMS = {**TEST_PARAMS, "blackjack_dealer_rule": "stands_on_17", "blackjack_pays": "1.5",
              "blackjack_win_pays": "1", "blackjack_dealer_blackjack_takes": "all", "blackjack_insurance_pays": "2",
              "blackjack_insurance_maximum": "0.5", "blackjack_doubling": "9,10,11",
              "blackjack_double_after_split": "yes", "blackjack_split_hands": "4", "blackjack_surrender_loses": "none"}


def checker() -> Checker:
    return Checker({"LU": LU}, {"LU": {n: LU.params[n].parse(v) for n, v in LOG_PARAMS.items() if n in LU.params}})


def log_findings(tmp_path, example: str, edit) -> list[tuple[str, str]]:
    """(rule id, pointer) of every finding above info on the example log `edit(records)` changed."""
    records = [json.loads(line) for line in (EXAMPLES / example).read_text("utf-8").splitlines()]
    edit(records)
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return [(f.rule_id, f.pointer) for f in run([str(path)], checker()).findings if f.severity != Severity.INFO]


def ids(found) -> set[str]:
    return {rule for rule, _ in found}


# --- Art. 33, al. 2 and 4: a blackjack box's stake lies between the table's minimum and maximum ------------------
def _box_stake(amount: str, net: str):
    def edit(records):
        hand = records[3]["boxes"][0]["hands"][0]  # coup 3: one box, a stand on 16 that wins
        hand["stake"], hand["net"] = amount, net
    return edit


def test_a_blackjack_box_over_the_tables_maximum_is_a_breach(tmp_path):
    found = log_findings(tmp_path, "lu/log-blackjack.jsonl", _box_stake("5000", "5000"))
    assert ("LU-BJ-LOG-LIMITS", "/boxes/0/hands/0/stake") in found, found


def test_a_blackjack_box_under_the_tables_minimum_is_a_breach(tmp_path):
    found = log_findings(tmp_path, "lu/log-blackjack.jsonl", _box_stake("5", "5"))
    assert ("LU-BJ-LOG-LIMITS", "/boxes/0/hands/0/stake") in found, found


def test_a_blackjack_box_at_the_maximum_passes(tmp_path):
    assert log_findings(tmp_path, "lu/log-blackjack.jsonl", _box_stake("1000", "1000")) == []


# --- Citations: the words a rule rests on -----------------------------------------------------------------------
def test_punto_banco_log_chances_quote_the_three_combinations_not_their_payouts():
    """LU-PB-LOG-CHANCES refuses any chance but three: it rests on «ne peuvent faire usage que de trois
    combinaisons», not on the sentence that says what each pays (LU-PB-LOG-SETTLEMENT's)."""
    rule = next(r for r in LU.rules if r.id == "LU-PB-LOG-CHANCES")
    words = " ".join(rule.citation.text.split())
    assert "Les joueurs ne peuvent faire usage que de trois combinaisons punto, banco et égalité." in words


# --- Art. 37-5, al. 4: «Le coefficient choisi ne peut pas être changé en cours de saison» -------------------------
def _punto_banco_maximum(coup: int, maximum: int, session: str | None = None):
    def edit(records):
        records[coup]["limits"] = {"minimum": 20, "maximum": maximum}
        if session is not None:
            records[coup]["session"] = session
    return edit


def test_a_punto_banco_coefficient_changed_within_a_session_is_a_breach(tmp_path):
    # 100 times, then 200 times the same minimum of 20: both coefficients are allowed, the change is not
    found = log_findings(tmp_path, "lu/log-punto-banco.jsonl", _punto_banco_maximum(3, 4000))
    assert found == [("LU-PB-LOG-MAXIMUM-UNCHANGED", "/limits/maximum")], found


def test_a_punto_banco_maximum_set_anew_at_another_session_is_not_judged(tmp_path):
    # the log does not say when a season ends: a new session may open one
    assert log_findings(tmp_path, "lu/log-punto-banco.jsonl", _punto_banco_maximum(4, 4000, "2026-11-03")) == []


def test_a_punto_banco_minimum_and_maximum_changed_in_proportion_keep_the_coefficient(tmp_path):
    def edit(records):
        records[3]["limits"] = {"minimum": 40, "maximum": 4000}  # still 100 times: the minimum's change is the breach
    found = log_findings(tmp_path, "lu/log-punto-banco.jsonl", edit)
    assert "LU-PB-LOG-MAXIMUM-UNCHANGED" not in ids(found) and "LU-PB-LOG-MINIMUM-UNCHANGED" in ids(found), found


# --- Art. 37-3, al. 4: English roulette's maxima are fixed multiples of the minimum, in a log as at the table ------
def _english_roulette_bet(chance: str, numbers, stake: int, net: int):
    def edit(records):
        bet = {"seat": 1, "chance": chance, "stake": stake, "net": net}
        if numbers is not None:
            bet["numbers"] = numbers
        records[1]["bets"][0] = bet  # coup 1: 17 comes out; header limits 2 to 720
    return edit


def test_an_english_roulette_plein_over_twenty_times_the_minimum_is_a_breach(tmp_path):
    # 50 times the minimum of 2 on a plein, under the table's one maximum of 720 (the simple chances' 360 times)
    found = log_findings(tmp_path, "lu/log-english-roulette.jsonl", _english_roulette_bet("plein", [17], 100, 3500))
    assert found == [("LU-EROUL-LOG-MAXIMA", "/bets/0/stake")], found


def test_an_english_roulette_stake_at_its_chances_maximum_passes(tmp_path):
    for chance, numbers, stake, net in (("plein", [17], 40, 1400), ("rouge", None, 720, -720),
                                        ("douzaine", list(range(13, 25)), 480, 960),
                                        ("deux_douzaines", list(range(13, 37)), 720, 360)):
        assert log_findings(tmp_path, "lu/log-english-roulette.jsonl",
                            _english_roulette_bet(chance, numbers, stake, net)) == [], chance


def test_an_english_roulette_douzaine_over_240_times_the_minimum_is_a_breach(tmp_path):
    found = log_findings(tmp_path, "lu/log-english-roulette.jsonl",
                         _english_roulette_bet("douzaine", list(range(13, 25)), 482, 964))
    assert found == [("LU-EROUL-LOG-MAXIMA", "/bets/0/stake")], found


def test_english_roulette_maxima_follow_the_minimum_a_coup_sets(tmp_path):
    def edit(records):  # coup 3, the next day, the minimum raised to 4: a plein of 80 is 20 times it
        records[3]["bets"][0] = {"seat": 1, "chance": "plein", "numbers": [32], "stake": stake, "net": 35 * stake}
        records[3]["time"], records[3]["session"] = "2026-11-03T21:02:40", "2026-11-03"
        records[3]["limits"] = {"minimum": 4, "maximum": 1440}
    stake = 80
    assert log_findings(tmp_path, "lu/log-english-roulette.jsonl", edit) == []
    stake = 84
    assert log_findings(tmp_path, "lu/log-english-roulette.jsonl", edit) == [("LU-EROUL-LOG-MAXIMA", "/bets/0/stake")]


def test_english_roulette_maxima_without_a_minimum_are_said_not_checked(tmp_path):
    def edit(records):
        records[0]["limits"] = {"maximum": 720}
        del records[1]["limits"]
        records[1]["bets"][0] = {"seat": 1, "chance": "plein", "numbers": [17], "stake": 100, "net": 3500}
    records = [json.loads(line) for line in (EXAMPLES / "lu/log-english-roulette.jsonl").read_text("utf-8").splitlines()]
    edit(records)
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    said = [f for f in run([str(path)], checker()).findings if f.rule_id == "LU-EROUL-LOG-MAXIMA"]
    assert [f.severity for f in said] == [Severity.INFO] * 2 and "no minimum stake is known" in said[0].message, said
    assert "held to no maximum: 'plein' (1 stake)" in said[1].message


# --- Art. 37-5, al. 2: «Le minimum des mises est fixé par l'arrêté d'autorisation» -------------------------------
def test_a_punto_banco_minimum_under_the_authorisations_is_a_breach(tmp_path):
    """The minimum a casino's authorisation fixes is a value the text leaves to an order, as the Minister's order
    fixes the other games' minima: a parameter, and a table under it is a breach (the 20 F floor is another)."""
    path = tmp_path / "table.yaml"
    path.write_text((EXAMPLES / "lu/table-punto-banco.yaml").read_text("utf-8"), "utf-8")  # a minimum of 20
    values = {n: LU.params[n].parse(v) for n, v in {**TEST_PARAMS, "punto_banco_stake_minimum_eur": "40"}.items()
              if n in LU.params}
    found = [(f.rule_id, f.pointer) for f in run([str(path)], Checker({"LU": LU}, {"LU": values})).findings
             if f.severity != Severity.INFO]
    assert found == [("LU-PB-STAKE-MIN-ORDER", "/stakes/minimum_eur")], found


# --- What the ruleset leaves out is said -----------------------------------------------------------------------
def test_unchecked_requirements_found_in_this_audit_are_listed_as_not_encoded():
    entries = {entry["article"]: entry for entry in LU.not_encoded}
    assert "stop card" in entries["Art. 37-4 (stop card)"]["subject"]  # the burn is LU-PB-LOG-BURN
    assert "plaques ou jetons" in entries["Art. 37-8, al. 1 (chips only)"]["reason"]
