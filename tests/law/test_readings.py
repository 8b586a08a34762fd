"""How the rulesets read the law, held by the real pipeline on small filings.

Each filing is a compliant example with a few edits, checked by `pipeline.run` with the shipped rulesets, so a
test fails if a reading changes: a feature shown in a filing counts as offered/fitted/linked/used unless the
filing says otherwise; side-bet names and each game's sections are closed; and the articles once misread
(LU Art. 24, Art. 7 with 37-6; PT póquer sem descarte n.º 6, j), blackjack n.º 33) are encoded as the text says.
"""

import pytest

from casino_audit.law.engine import Checker
from casino_audit.core.findings import Severity
from casino_audit.run.pipeline import run
from casino_audit.law.rulesets import builtin_names, load_builtin
from helpers.command import EXAMPLES, TEST_PARAMS
from helpers.law_readings import RULESETS, checker, findings, ids


MACHINE = "lu/machine-compliant.yaml"
LU_BJ, LU_AR, LU_ER = "lu/table-blackjack.yaml", "lu/table-american-roulette-double.yaml", "lu/table-english-roulette.yaml"
LU_PB7, LU_STUD, LU_ROUL = "lu/table-punto-banco-seven-seats.yaml", "lu/table-stud-poker.yaml", "lu/table-roulette.yaml"
PT_AR, PT_BJ, PT_PSD = "pt/table-american-roulette.yaml", "pt/table-blackjack.yaml", "pt/table-poker-sem-descarte.yaml"
PT_BAC, PT_MAC = "pt/table-bacara.yaml", "pt/table-bacara-macau-double.yaml"
FRSEQ = "[0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26]"
AMSEQ = "[0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1, 27, 10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2]"
SUPER_JACK = "  super_jack: {offered: true, minimum_eur: 10, payouts: {bust: 2.5, black_jack: 19, silver_jack: 77, gold_jack: 300}}\n"


# --- 1. No breach hidden by leaving a flag out --------------------------------------------------------------
# (example, the breach with the flag left out, what the filing says instead to switch the rule off, rule ids)
UNSAID = [
    pytest.param(LU_BJ, [("    offered: true\n", ""), ("gold_jack: 300", "gold_jack: 250")],
                 [("    offered: true\n", "    offered: false\n"), ("gold_jack: 300", "gold_jack: 250")],
                 {"LU-BJ-SUPERJACK-PAYOUTS"}, id="LU super-jack payouts, Art. 32, 5"),
    pytest.param(LU_BJ, [("    offered: true\n", ""), ("    minimum_eur: 10\n", "    minimum_eur: 5\n")],
                 [("    offered: true\n", "    offered: false\n"), ("    minimum_eur: 10\n", "    minimum_eur: 5\n")],
                 {"LU-BJ-SUPERJACK-MINIMUM"}, id="LU super-jack minimum, Art. 32, 5"),
    pytest.param(PT_BJ, [("jackpot: {offered: true, approved: true,", "jackpot: {approved: false,")],
                 [("jackpot: {offered: true, approved: true,", "jackpot: {offered: false, approved: false,")],
                 {"PT-BJ-JACKPOT-APPROVED"}, id="PT blackjack jackpot approval, n.º 43"),
    pytest.param(PT_BJ, [("jackpot: {offered: true,", "jackpot: {"), ("starting_value_eur: 10000", "starting_value_eur: 100")],
                 [("jackpot: {offered: true,", "jackpot: {offered: false,"), ("starting_value_eur: 10000", "starting_value_eur: 100")],
                 {"PT-BJ-JACKPOT-START"}, id="PT blackjack jackpot start, n.º 44"),
    pytest.param(PT_PSD, [("jackpot: {offered: true, approved: true,", "jackpot: {approved: false,")],
                 [("jackpot: {offered: true, approved: true,", "jackpot: {offered: false, approved: false,")],
                 {"PT-PSD-JACKPOT-APPROVED"}, id="PT póquer jackpot approval, n.º 9"),
    pytest.param(PT_PSD, [("jackpot: {offered: true,", "jackpot: {"), ("starting_value_eur: 25000", "starting_value_eur: 100")],
                 [("jackpot: {offered: true,", "jackpot: {offered: false,"), ("starting_value_eur: 25000", "starting_value_eur: 100")],
                 {"PT-PSD-JACKPOT-START"}, id="PT póquer jackpot start, n.º 10"),
    pytest.param(MACHINE, [("  fitted: true\n  independent_of_game: true", "  independent_of_game: false")],
                 [("  fitted: true\n  independent_of_game: true", "  fitted: false\n  independent_of_game: false")],
                 {"LU-SLOT-BILL-ACCEPTOR"}, id="LU bill acceptor, Art. 18-14"),
    pytest.param(MACHINE, [("  linked: true\n", ""), ("  advertised_outside: false", "  advertised_outside: true")],
                 [("  linked: true\n", "  linked: false\n"), ("  advertised_outside: false", "  advertised_outside: true")],
                 {"LU-SLOT-PROGRESSIVE-ADVERTISING"}, id="LU progressive jackpot advertising, Art. 16"),
    pytest.param(MACHINE, [("  linked: true\n  amount_displayed: true", "  amount_displayed: false")],
                 [("  linked: true\n  amount_displayed: true", "  linked: false\n  amount_displayed: false")],
                 {"LU-SLOT-PROGRESSIVE-DISPLAY"}, id="LU progressive jackpot display, Art. 16"),
    pytest.param(LU_AR, [("double: true, double_authorised: true", "double_authorised: false"), ("croupiers: 2", "croupiers: 1")],
                 [("double: true, double_authorised: true", "double: false, double_authorised: false"), ("croupiers: 2", "croupiers: 1")],
                 {"LU-AROUL-DOUBLE-AUTHORISED", "LU-AROUL-STAFF-DOUBLE"}, id="LU American roulette double table, Art. 29 (3) and (4)"),
    pytest.param(LU_ER, [("compartments: 7, double: false}", "compartments: 7}")], [],
                 {"LU-EROUL-DOUBLE-AUTHORISED"}, id="LU English roulette double table, Art. 37-1"),
    pytest.param(PT_MAC, [("double: true, ", ""), ("standing_places: 6", "standing_places: 8"),
                          ("table: {number: M2,", "table: {number: M2, seats: 9,")],
                 [("double: true, seats_per_layout: 7, ", "double: false, "), ("standing_places: 6", "standing_places: 8"),
                  ("table: {number: M2,", "table: {number: M2, seats: 9,")],
                 {"PT-BAC-STANDING-DOUBLE"}, id="PT bacará double table standing places, n.º 12"),
    pytest.param(PT_BAC, [("double: false, seats: 9, standing_places: 8", "seats_per_layout: 7, seats: 9, standing_places: 6")],
                 [("double: false, seats: 9, standing_places: 8", "double: false, seats: 9, standing_places: 6")],
                 {"PT-BAC-DECKS-DOUBLE"}, id="PT bacará double table decks, n.º 1"),
    pytest.param(PT_AR, [(f"sequence: {FRSEQ}", f"sequence: {AMSEQ}"), ("series_bets:\n  offered: true\n", "series_bets:\n")],
                 [(f"sequence: {FRSEQ}", f"sequence: {AMSEQ}"), ("series_bets:\n  offered: true\n", "series_bets:\n  offered: false\n")],
                 {"PT-AROUL-SERIES"}, id="PT series bets on the American wheel, n.º 25"),
    pytest.param(LU_BJ, [("shuffler: {used: true, cards_rested_one_session: true}", "shuffler: {cards_rested_one_session: false}")],
                 [("shuffler: {used: true, cards_rested_one_session: true}", "shuffler: {used: false, cards_rested_one_session: false}")],
                 {"LU-TABLE-SHUFFLER-REST"}, id="LU shuffling machine rest, Art. 7"),
    pytest.param(PT_PSD, [("shuffler: {used: true, approved: true}", "shuffler: {approved: false}"), ("decks: 2,", "decks: 1,")],
                 [("shuffler: {used: true, approved: true}", "shuffler: {used: false, approved: false}"), ("decks: 2,", "decks: 1,")],
                 {"PT-PSD-SHUFFLER"}, id="PT póquer shuffler approval, n.º 16"),
    pytest.param(MACHINE, [("  accepts: [coins, tokens]", "  accepts: [coins]"), ("token_value_eur: 1.00", "token_value_eur: 0.25")], [],
                 {"LU-SLOT-TOKEN-MIN"}, id="LU token value shown, tokens not listed, Art. 18-4"),
    pytest.param(LU_ER, [("media: [chips, plaques], colour_series: 7, plaque_value_in_chips: 20", "media: [chips], colour_series: 7, plaque_value_in_chips: 25")], [],
                 {"LU-EROUL-PLAQUES"}, id="LU plaque value shown, plaques not listed, Art. 37-1"),
    pytest.param(MACHINE, [("  serial_number: NV-232-0048817\ndevices", "  serial_number: NV-232-0048817\n  location_number: A-1\ndevices")],
                 [("  serial_number: NV-232-0048817\ndevices", "  serial_number: NV-232-0048817\n  location_number: A-1\nlocation_number: {number: A-1, on_front: true}\ndevices")],
                 {"LU-SLOT-LOCATION-PLATE"}, id="LU location number on the plate, Art. 18-2"),
    pytest.param(MACHINE, [("  all_wins_paid_by_machine: false\n", ""), ("  - {role: hand_paid_jackpot, technology: electronic, automatic: true, inside_machine: true, capacity_digits: 10}\n", "")],
                 [("  all_wins_paid_by_machine: false\n", "  all_wins_paid_by_machine: true\n"), ("  hand_paid_at_cashier: true", "  hand_paid_at_cashier: false"),
                  ("  - {role: hand_paid_jackpot, technology: electronic, automatic: true, inside_machine: true, capacity_digits: 10}\n", "")],
                 {"LU-SLOT-METER-JACKPOT", "LU-SLOT-PAYOUT-MODE"}, id="LU hand-paid meter, Art. 18-3, 5°"),
    pytest.param(MACHINE, [("  all_wins_paid_by_machine: false", "  all_wins_paid_by_machine: true"),
                           ("  - {role: hand_paid_jackpot, technology: electronic, automatic: true, inside_machine: true, capacity_digits: 10}\n", "")],
                 [("  all_wins_paid_by_machine: false", "  all_wins_paid_by_machine: true"), ("  hand_paid_at_cashier: true", "  hand_paid_at_cashier: false"),
                  ("  - {role: hand_paid_jackpot, technology: electronic, automatic: true, inside_machine: true, capacity_digits: 10}\n", "")],
                 {"LU-SLOT-PAYOUT-MODE-CONSISTENT"}, id="LU pays every win yet pays at the desk, Art. 16"),
    pytest.param(LU_PB7, [("seats: 7, ", "")], [],
                 {"LU-PB-STAFF", "LU-PB-SEATS"}, id="LU punto banco staffing with no seat count, Art. 37-4"),
]


@pytest.mark.parametrize("example, unsaid, said_not, expected", UNSAID)
def test_a_feature_shown_counts_unless_the_filing_says_otherwise(tmp_path, example, unsaid, said_not, expected):
    assert ids(tmp_path, example) == set(), f"{example} is no longer compliant"
    assert ids(tmp_path, example, unsaid) == expected
    if said_not:
        assert not (ids(tmp_path, example, said_not) & expected)


def test_a_double_bacara_table_that_does_not_say_is_judged_both_ways(tmp_path):
    found = ids(tmp_path, PT_BAC, [("table: {number: B9, double: false, seats: 9, standing_places: 8}",
                                    "table: {number: B9, seats_per_layout: 7, standing_places: 8}"), ("decks: 6,", "decks: 8,")])
    assert found == {"PT-BAC-DECKS-SINGLE", "PT-BAC-SEATS-SINGLE", "PT-BAC-STANDING-DOUBLE"}


def test_seats_per_layout_on_a_table_that_says_it_is_single_is_refused(tmp_path):
    found = findings(tmp_path, PT_BAC, [("double: false, seats: 9", "double: false, seats: 9, seats_per_layout: 7")])
    assert [(f.rule_id, f.pointer) for f in found] == [("SHAPE-INVALID", "/table/double")]
    assert "double table" in found[0].message


# --- 2. Closed names ---------------------------------------------------------------------------------------

def test_a_misspelt_side_bet_is_an_unknown_field_with_a_suggestion(tmp_path):
    found = findings(tmp_path, LU_BJ, [("  super_jack:\n", "  superjack:\n"), ("gold_jack: 300", "gold_jack: 250")])
    # The shape finding suggests the name; the law's closed list of side bets says it is not one it allows.
    assert sorted((f.rule_id, f.pointer) for f in found) == [("LU-BJ-SIDE-BETS", "/side_bets/superjack"),
                                                             ("SHAPE-UNKNOWN-FIELD", "/side_bets/superjack")]
    assert "did you mean `super_jack`?" in [f for f in found if f.rule_id.startswith("SHAPE")][0].message


@pytest.mark.parametrize("example, edits, rule_id", [
    (LU_BJ, [("side_bets:\n", "side_bets:\n  jackpot: {offered: true, approved: true, stake_eur: 1, starting_value_eur: 10000}\n")], "LU-BJ-SIDE-BETS"),
    (PT_BJ, [("side_bets:\n", "side_bets:\n" + SUPER_JACK)], "PT-BJ-SIDE-BETS"),
])
def test_another_jurisdictions_side_bet_at_blackjack_is_a_breach(tmp_path, example, edits, rule_id):
    assert ids(tmp_path, example, edits) == {rule_id}


@pytest.mark.parametrize("example, edits, field", [
    (PT_PSD, [("side_bets:\n", "side_bets:\n" + SUPER_JACK)], "side_bets/super_jack"),
    (LU_STUD, [("signage:", "side_bets:\n  jackpot: {offered: true, approved: true, stake_eur: 1, starting_value_eur: 10000}\nsignage:")], "side_bets/jackpot"),
    (LU_BJ, [("chips:", "wheel: {cylinder_diameter_cm: 50, pockets: 37}\nchips:")], "wheel"),
    (LU_ROUL, [("chips:", "dice: {count: 2}\nchips:")], "dice"),
    (LU_ROUL, [("seats: 10, double: false}", "seats: 7, double: false, compartments: 7}")], "table/compartments"),
    (LU_ROUL, [("chips: {media: [chips, plaques]}", "chips: {media: [chips, plaques], colour_series: 7}")], "chips/colour_series"),
    (LU_ROUL, [("chips: {media: [chips, plaques]}", "chips: {media: [chips, plaques], plaque_value_in_chips: 20}")], "chips/plaque_value_in_chips"),
    (PT_MAC, [("chips:", "series_bets: {offered: true}\nchips:")], "series_bets"),
    (LU_STUD, [("chips:", "insurance: {maximum_fraction_of_bet: 0.5}\nchips:")], "insurance"),
    (LU_ROUL, [("chips:", "cards: {decks: 6}\nchips:")], "cards"),
])
def test_another_games_feature_is_a_shape_finding_that_names_it(tmp_path, example, edits, field):
    found = findings(tmp_path, example, edits)
    assert [(f.rule_id, f.pointer) for f in found] == [("SHAPE-INVALID", "/game")]
    message = found[0].message
    assert f"`{field}`" in message and "tables only" in message and "file the table under the game" in message


def test_super_jack_chances_cannot_hide_among_the_blackjack_payouts(tmp_path):
    moved = ("side_bets:\n  super_jack:\n    offered: true\n    minimum_eur: 10\n"
             "    payouts: {bust: 2.5, black_jack: 19, silver_jack: 77, gold_jack: 300}\n",
             "payouts: {bust: 2.5, black_jack: 19, silver_jack: 77, gold_jack: 250}\n")
    found = findings(tmp_path, LU_BJ, [moved])
    assert {(f.rule_id, f.pointer) for f in found} == {("SHAPE-INVALID", "/payouts")}
    assert any("'gold_jack'" in f.message and "side_bets/super_jack/payouts" in f.message for f in found)


def test_every_compliant_example_fits_its_games_sections(tmp_path):
    readme = (EXAMPLES / "README.md").read_text("utf-8")
    compliant = [line.split("`")[1] for line in readme.splitlines() if line.startswith("| `") and line.endswith("| none |")]
    assert len(compliant) >= 15
    for example in compliant:
        result = run([str(EXAMPLES / example)], checker())
        assert not [f for f in result.findings if f.rule_id.startswith("SHAPE")], example


# --- 3. Articles once misread ------------------------------------------------------------------------------

def test_poker_sem_descarte_high_cards_pay_once_the_stake(tmp_path):
    assert ids(tmp_path, PT_PSD) == set()  # the compliant example lists cartas_maiores: 1 (n.º 6, j)
    assert ids(tmp_path, PT_PSD, [("cartas_maiores: 1", "cartas_maiores: 2")]) == {"PT-PSD-HIGH-CARD"}
    assert ids(tmp_path, PT_PSD, [(", cartas_maiores: 1", "")]) == {"PT-PSD-HIGH-CARD"}
    assert ids(tmp_path, PT_PSD, [("cartas_maiores: 1", "cartas_maiores: 1, carta_alta: 1")]) == {"PT-PSD-PAYOUTS"}


@pytest.mark.parametrize("pockets, expected", [(37, set()), (25, {"LU-ROUL-POCKETS"}), (38, {"LU-ROUL-POCKETS"})])
def test_luxembourg_roulette_is_the_37_pocket_wheel_of_art_24(tmp_path, pockets, expected):
    assert ids(tmp_path, LU_ROUL, [("pockets: 37", f"pockets: {pockets}")]) == expected


MACHINE_SHUFFLE = ("chips:", "shuffler: {used: true, cards_rested_one_session: true}\nchips:")


def test_luxembourg_stud_poker_keeps_the_cuts_when_a_machine_shuffles(tmp_path):
    # Art. 7 lets the machine do the shuffle (no five hand shuffles) ...
    assert ids(tmp_path, LU_STUD, [("shuffles: 5, cuts: 2", "cuts: 2"), MACHINE_SHUFFLE]) == set()
    # ... but not the cuts: the croupier's two and the player's on the blue card (Art. 37-6).
    no_cut = ("shuffles: 5, cuts: 2, player_cut: true, cut_card_colour: blue}", "player_cut: false}")
    assert ids(tmp_path, LU_STUD, [no_cut, MACHINE_SHUFFLE]) == {"LU-STUD-CUT"}
    assert ids(tmp_path, LU_STUD, [("cut_card_colour: blue", "cut_card_colour: black"), MACHINE_SHUFFLE,
                                   ("shuffles: 5, ", "")]) == {"LU-STUD-CUT"}
    # By hand, the five shuffles are required.
    assert ids(tmp_path, LU_STUD, [("shuffles: 5, ", "")]) == {"LU-STUD-SHUFFLE"}


def test_monaco_shuffler_dealer_still_waives_the_cut(tmp_path):
    assert ids(tmp_path, "mc/table-stud-poker-shuffler.yaml") == set()


@pytest.mark.parametrize("insurance, expected", [
    ("insurance: {maximum_fraction_of_bet: 0.5}", set()),
    ("insurance: {maximum_fraction_of_bet: 0.25}", set()),
    ("insurance: {maximum_fraction_of_bet: 0.51}", {"PT-BJ-INSURANCE"}),
    ("insurance: {maximum_fraction_of_bet: 1}", {"PT-BJ-INSURANCE"}),
    ("insurance: {}", set()),
])
def test_portuguese_insurance_is_at_most_half_the_bet(tmp_path, insurance, expected):
    assert ids(tmp_path, PT_BJ, [("insurance: {maximum_fraction_of_bet: 0.5}", insurance)]) == expected


@pytest.mark.parametrize("code, article, words", [
    ("LU", "Art. 18-2, al. 2 (2nd and 3rd sentences)", "floor plan"),
    ("LU", "Art. 37-6, al. 10", "game logs"),
    ("PT", "Título I, Capítulo III, Secção IV, n.º 11 (2nd sentence)", "game logs"),
])
def test_log_only_provisions_are_listed_as_not_encoded(code, article, words):
    entries = {entry["article"]: entry for entry in RULESETS[code].not_encoded}
    assert article in entries, sorted(entries)
    assert words in entries[article]["reason"] and "game-log issue" in entries[article]["reason"]
