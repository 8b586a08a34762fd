"""How pt.yaml reads Portaria n.º 217/2007 and mc.yaml reads AM n° 2003-281.

Each test edits a compliant example (the pattern of tests/law/test_readings.py) and runs it through the real
pipeline with the shipped rulesets, so it fails on the reading it replaced.
"""

import pytest

from helpers.law_readings import ids

PT_BAC, PT_MAC = "pt/table-bacara.yaml", "pt/table-bacara-macau-double.yaml"


# --- Bacará (Secção III and IV), n.º 5, a): with a sabot baralhador automático there is no cut ---------------------
@pytest.mark.parametrize("example, edits", [
    pytest.param(PT_MAC, [("same_colour: true}", "same_colour: true, player_cut: true}")], id="Macau, Secção IV"),
    pytest.param(PT_BAC, [("burn_cards: 8}", "burn_cards: 8, player_cut: true}\nshuffler: {used: true, deals: true}")],
                 id="ponto e banca, Secção III"),
])
def test_a_bacara_table_with_a_shuffling_shoe_and_a_cut_is_a_breach(tmp_path, example, edits):
    assert "PT-BAC-SHUFFLER-NO-CUT" in ids(tmp_path, example, edits)


@pytest.mark.parametrize("example, edits", [
    pytest.param(PT_MAC, [], id="shuffling shoe, no cut said"),
    pytest.param(PT_MAC, [("same_colour: true}", "same_colour: true, player_cut: false}")], id="shuffling shoe, no cut"),
    pytest.param(PT_MAC, [("same_colour: true}", "same_colour: true, player_cut: true}"),
                          ("shuffler: {used: true, deals: true}", "shuffler: {used: false, deals: true}")],
                 id="the shoe not used: cut by hand (n.º 4)"),
    pytest.param(PT_BAC, [("burn_cards: 8}", "burn_cards: 8, player_cut: true}")], id="no shuffling shoe: cut by hand"),
])
def test_a_bacara_table_cut_by_hand_or_shuffled_without_a_cut_passes(tmp_path, example, edits):
    assert "PT-BAC-SHUFFLER-NO-CUT" not in ids(tmp_path, example, edits)


# --- Monaco, Article Premier (joueurs): «Aucune personne debout ne peut miser sur la main d'un joueur assis.» ------
MC_STUD = "mc/table-stud-poker.yaml"


def test_a_monaco_stud_table_open_to_standing_players_is_a_breach(tmp_path):
    assert ids(tmp_path, MC_STUD, [("seats: 7}", "seats: 7, standing_players: true}")]) == {"MC-STUD-STANDING"}


@pytest.mark.parametrize("edits", [[], [("seats: 7}", "seats: 7, standing_players: false}")]], ids=["unsaid", "no"])
def test_a_monaco_stud_table_closed_to_standing_players_passes(tmp_path, edits):
    assert ids(tmp_path, MC_STUD, edits) == set()


# --- pt.yaml's not_encoded says what is left out, and nothing a rule does check ----------------------------------
def test_pt_not_encoded_neither_disowns_a_replayed_number_nor_claims_an_unchecked_one():
    from casino_audit.law.rulesets import load_builtin

    pt = load_builtin("pt")
    entries = {entry["article"]: entry for entry in pt.not_encoded}
    rules = {rule.id: rule for rule in pt.rules}
    # banca francesa n.º 18 (the thrower's hour) is replayed from the logs
    assert rules["PT-BF-LOG-THROWER-TURN"].citation.article == "Título I, Capítulo II, Secção I, n.º 18"
    assert "Título I, Capítulo II, Secção I, n.º 18" not in entries
    # cussec n.º 9 (pequeno and grande lose on a triple) is replayed from the logs
    assert rules["PT-CUSSEC-LOG-RESOLUTION"].citation.article == "Título I, Capítulo II, Secção III, n.º 9"
    assert not any("Secção III, n.os 4 to 6, 9" in article or "triples" in entry["subject"]
                   for article, entry in entries.items())
    # Macau n.º 11's difference between ponto and banca stakes is replayed from the logs; the invitation is not
    assert rules["PT-MACAU-LOG-BOTH-SIDES"].citation.article == "Título I, Capítulo III, Secção IV, n.º 11"
    macau = entries["Título I, Capítulo III, Secção IV, n.º 11 (2nd sentence)"]
    assert "difference" not in macau["subject"] and "checked from the game logs" not in macau["reason"]


# --- póquer sem descarte n.º 14: the ante's band is 25 times the minimum of the operating authorisation ---------
PT_PSD = "pt/table-poker-sem-descarte.yaml"


def test_a_poker_maximum_within_25_table_minima_but_over_25_authorised_minima_is_a_breach(tmp_path):
    # The director raised the table minimum to 20 (n.º 13); the authorisation's minimum is 5: at most 125.
    edits = [("stakes: {minimum_eur: 5, maximum_eur: 125}",
              "stakes: {authorised_minimum_eur: 5, minimum_eur: 20, maximum_eur: 500}")]
    assert ids(tmp_path, PT_PSD, edits) == {"PT-PSD-ANTE-BAND-AUTHORISED"}


@pytest.mark.parametrize("stakes", ["{authorised_minimum_eur: 5, minimum_eur: 20, maximum_eur: 125}",
                                    "{authorised_minimum_eur: 5, minimum_eur: 5, maximum_eur: 125}"])
def test_a_poker_maximum_within_25_authorised_minima_passes(tmp_path, stakes):
    assert ids(tmp_path, PT_PSD, [("stakes: {minimum_eur: 5, maximum_eur: 125}", f"stakes: {stakes}")]) == set()


# --- craps parameters the text leaves to the table (n.º 10.2's bar, n.º 12's missing payouts): a value given but
# unreadable is an error of the run, never the note "give the parameter" that a value not given earns -------------
def _craps(params):
    from casino_audit.law.engine import Checker
    from casino_audit.run.pipeline import run
    from helpers.command import EXAMPLES
    from helpers.law_readings import RULESETS

    pt = RULESETS["PT"]
    checker = Checker(RULESETS, {"PT": {name: pt.params[name].parse(value) for name, value in params.items()}})
    return run([str(EXAMPLES / "pt/log-craps.jsonl")], checker).findings


@pytest.mark.parametrize("bar", ["3", "7", "11"])
def test_a_craps_bar_other_than_two_or_twelve_is_refused(bar):
    from helpers.law_readings import RULESETS

    with pytest.raises(ValueError, match="craps_bar_total"):
        RULESETS["PT"].params["craps_bar_total"].parse(bar)


@pytest.mark.parametrize("bar", ["2", "12", 12])
def test_a_craps_bar_of_two_or_twelve_is_taken(bar):
    findings = _craps({"craps_bar_total": bar})
    assert not [f for f in findings if f.rule_id == "PT-CRAPS-LOG-BAR"]


def test_an_unreadable_craps_place_payout_is_an_error_not_a_note():
    from casino_audit.core.findings import Severity

    found = [f for f in _craps({"craps_place_4_pays": "nine to five"}) if f.rule_id == "PT-CRAPS-LOG-GIVEN-PAYOUTS"]
    assert found and all(f.severity == Severity.ERROR for f in found), found
    assert any("craps_place_4_pays" in f.message and "cannot be read" in f.message for f in found), found


def test_craps_place_payouts_not_given_are_a_note():
    from casino_audit.core.findings import Severity

    found = [f for f in _craps({}) if f.rule_id == "PT-CRAPS-LOG-GIVEN-PAYOUTS"]
    assert found and all(f.severity == Severity.INFO for f in found), found


# --- bacará ponto e banca/Macau n.º 11: a player on both ponto and banca keeps their difference at least the minimum
MACAU_HEADER = ('{"kind": "game-log", "jurisdiction": "PT", "game": "bacara_macau", "casino": "Casino Lisboa", '
                '"table": "M2", "decks": 6, "limits": {"minimum": 20, "maximum": 2000}}')


def _macau(tmp_path, bets, limits=""):
    import json

    from helpers.law_readings import checker
    from casino_audit.run.pipeline import run

    coup = {"coup": 1, "time": "2026-11-02T22:00:05", "session": "S", "shoe": 1, "player": ["9h", "Kd"],
            "banker": ["5c", "Qh"], "outcome": "player", "bets": bets}
    if limits:
        coup["limits"] = {"minimum": limits}
    path = tmp_path / "macau.jsonl"
    path.write_text(MACAU_HEADER + "\n" + json.dumps(coup) + "\n", "utf-8")
    return [f for f in run([str(path)], checker()).findings if f.rule_id == "PT-MACAU-LOG-BOTH-SIDES"]


def _bet(seat, chance, stake):
    return {"seat": seat, "chance": chance, "stake": stake, "net": stake if chance == "ponto" else -stake}


@pytest.mark.parametrize("bets, limits", [
    pytest.param([_bet(1, "ponto", 100), _bet(1, "banca", 90)], "", id="10 apart, minimum 20"),
    pytest.param([_bet(1, "ponto", 100), _bet(1, "banca", 100)], "", id="equal"),
    pytest.param([_bet(1, "ponto", 60), _bet(1, "ponto", 40), _bet(1, "banca", 85)], "", id="two ponto stakes added"),
    pytest.param([_bet(1, "ponto", 100), _bet(1, "banca", 70)], "40", id="30 apart, minimum raised to 40"),
])
def test_a_macau_player_on_both_sides_closer_than_the_minimum_is_a_breach(tmp_path, bets, limits):
    from casino_audit.core.findings import Severity

    found = _macau(tmp_path, bets, limits)
    assert [f.severity for f in found] == [Severity.ERROR], found


@pytest.mark.parametrize("bets", [
    pytest.param([_bet(1, "ponto", 100), _bet(1, "banca", 80)], id="20 apart: the minimum itself"),
    pytest.param([_bet(1, "ponto", 100), _bet(2, "banca", 100)], id="two players"),
    pytest.param([_bet(1, "ponto", 100), _bet(1, "empate", 100)], id="ponto and empate"),
])
def test_a_macau_player_on_both_sides_at_least_the_minimum_apart_passes(tmp_path, bets):
    assert _macau(tmp_path, bets) == []
