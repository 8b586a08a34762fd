"""Tests written where mutation testing (tools/mutate.py) showed the suite did not bite: each names the fact of
the law or of the game that a mutant broke without any test failing."""

import itertools
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest

from casino_audit.games import baccarat
from casino_audit.games.baccarat import BANKER, OUTCOMES, PLAYER, TIE
from casino_audit.law.rulesets import load_builtin

RULES = load_builtin("lu").play["punto_banco"].data["drawing"]  # LU Art. 37-4, as the ruleset has it
LU_PAYOUTS = {  # Art. 37-4: punto at evens, banco 19 for 20, égalité 8 for 1; a tie hands punto and banco back
    "punto": {"wins_on": PLAYER, "pays": "1", "returned_on": [TIE]},
    "banco": {"wins_on": BANKER, "pays": "0.95", "returned_on": [TIE]},
    "egalite": {"wins_on": TIE, "pays": "8"},
}
# PT Secção III, n.º 19: «quando as duas cartas inicialmente distribuídas a um daqueles grupos tiverem a mesma
# denominação», the pair bet is paid 11 to 1, whatever the coup's outcome.
PT_PAIRS = {"par_ponto": {"wins_on": "player_pair", "pays": "11"},
            "par_banca": {"wins_on": "banker_pair", "pays": "11"}}


# --- games/baccarat.py -----------------------------------------------------------------------------------------

def test_deal_refuses_cards_beyond_those_the_drawing_table_requires():
    # The player's natural 8 ends the coup: a fifth card is one too many, not a card left in the shoe.
    with pytest.raises(ValueError, match=r"1 card\(s\) more than the rules require: '5'"):
        baccarat.deal(["8", "K", "K", "K", "5"], RULES)
    assert baccarat.deal_from_shoe(["8", "K", "K", "K", "5"], RULES).cards_used == 4  # from a shoe: left in it


def test_check_deal_on_three_cards_names_the_fourth_and_never_raises():
    assert baccarat.check_deal(["A", "2", "3"], RULES) == ["missing: the banker's second card"]


@pytest.mark.parametrize("cards, used", [(["8", "K", "K", "K"], 4), (["K", "6", "K", "K", "5"], 5),
                                         (["K", "K", "K", "K", "5", "3"], 6), (["6", "K", "K", "K", "2"], 5)])
def test_cards_used_counts_both_hands(cards, used):
    coup = baccarat.deal(cards, RULES)
    assert coup.cards_used == used == len(coup.player_cards) + len(coup.banker_cards)


@pytest.mark.parametrize("stake", ["0", 0, "-5", Decimal("0.00")])
def test_a_stake_of_nothing_or_less_is_refused(stake):
    with pytest.raises(ValueError, match="must be positive"):
        baccarat.settle(BANKER, {"banco": stake}, LU_PAYOUTS)


@pytest.mark.parametrize("stake", [0.5, True, [5], None])
def test_an_inexact_or_strange_stake_is_refused_as_not_exact(stake):
    with pytest.raises(ValueError, match="must be exact"):
        baccarat.settle(BANKER, {"banco": stake}, LU_PAYOUTS)
    with pytest.raises(ValueError, match="must be exact"):
        baccarat.settle(BANKER, {"banco": 10}, {"banco": {**LU_PAYOUTS["banco"], "pays": stake}})


@pytest.mark.parametrize("outcome", OUTCOMES)
def test_pair_bets_win_on_their_hands_pair_whatever_the_outcome(outcome):
    bets = {"par_ponto": 10, "par_banca": 10}
    assert baccarat.settle(outcome, bets, PT_PAIRS, pairs=frozenset({PLAYER})) == {"par_ponto": 110, "par_banca": -10}
    assert baccarat.settle(outcome, bets, PT_PAIRS, pairs=frozenset({BANKER})) == {"par_ponto": -10, "par_banca": 110}
    assert baccarat.settle(outcome, bets, PT_PAIRS, pairs=frozenset({PLAYER, BANKER})) == {
        "par_ponto": 110, "par_banca": 110}
    assert baccarat.settle(outcome, bets, PT_PAIRS) == {"par_ponto": -10, "par_banca": -10}


def test_the_edge_of_a_pair_bet_is_refused_not_computed_by_outcome():
    with pytest.raises(ValueError, match="pair bet"):
        baccarat.house_edge(baccarat.full_shoe(1), RULES, {**LU_PAYOUTS, **PT_PAIRS})


@pytest.mark.parametrize("counts", [{0: True, 1: 4, 2: 4, 3: 4}, {0: 4.0, 1: 4, 2: 4}, {0: 8, 1: -1},
                                    {0: "4", 1: 4, 2: 4}])
def test_a_shoe_of_strange_counts_is_refused(counts):
    with pytest.raises(ValueError, match="whole, non-negative number"):
        baccarat.outcome_probabilities(counts, RULES)


@pytest.mark.parametrize("key", ["A", 10, -1, True, "0"])
def test_a_shoe_counted_under_anything_but_a_point_value_is_refused(key):
    with pytest.raises(ValueError, match="counted per point value 0 to 9"):
        baccarat.outcome_probabilities({key: 4, **{v: n for v, n in baccarat.full_shoe(1).items() if v != key}}, RULES)


def test_a_value_the_shoe_has_run_out_of_is_counted_zero_not_refused():
    shoe = {0: 2, 1: 0, 4: 1, 5: 1, 6: 1, 9: 1}  # no more aces: a count of 0 is what a shoe can come to
    assert baccarat.outcome_probabilities(shoe, RULES) == baccarat.outcome_probabilities(
        {value: n for value, n in shoe.items() if n}, RULES)


def test_a_shoe_of_exactly_six_cards_is_enough_for_a_coup():
    shoe = [0, 1, 4, 5, 6, 9]  # every coup takes at most six cards: 720 orderings, each one a coup
    finals = Counter(baccarat.deal_from_shoe(order, RULES).outcome for order in itertools.permutations(shoe))
    assert baccarat.outcome_probabilities(Counter(shoe), RULES) == {
        outcome: Fraction(finals[outcome], 720) for outcome in OUTCOMES}
    with pytest.raises(ValueError, match="six cards"):
        baccarat.outcome_probabilities(Counter(shoe[:5]), RULES)


# --- checks/schedule.py ----------------------------------------------------------------------------------------

def _schedule(spec, data):
    from casino_audit.law.checks import CHECK_KINDS
    return list(CHECK_KINDS["schedule"].compile({"kind": "schedule", **spec})(data))


@pytest.mark.parametrize("value, ok", [(10, True), (9, True), (0, True), (Decimal("10.0"), True), ("10", True),
                                       (11, False), (Decimal("10.000000000000000000000000000001"), False),
                                       ("lots", False), (True, False)])
def test_a_ceiling_without_a_divisor_lets_every_value_up_to_it_through(value, ok):
    # «até N vezes»: at most, so anything below the ceiling is legal, the ceiling itself included.
    found = _schedule({"target": "/m", "max": {"plein": 10}}, {"m": {"plein": value}})
    assert (found == []) is ok
    if not ok:
        assert found[0][1].endswith("must be at most 10")


def test_a_missing_divisor_is_reported_once_not_once_per_entry():
    spec = {"target": "/max", "per": "/min", "equals": {"simple": 360, "plein": 20, "cheval": 10}}
    assert _schedule(spec, {"max": {"simple": 1800, "plein": 100, "cheval": 50}}) == [
        ("/min", "`min` is missing or not a number, so `max` cannot be checked")]


def test_an_entry_that_is_no_number_is_a_finding_against_a_divisor_not_a_crash():
    spec = {"target": "/max", "per": "/min", "equals": {"simple": 360, "plein": 20}}
    assert _schedule(spec, {"min": 5, "max": {"simple": "lots", "plein": 100}}) == [
        ("/max/simple", "`max/simple` is 'lots', not a number")]


def test_missing_allowed_lets_an_absent_schedule_pass_and_only_then():
    spec = {"target": "/p", "equals": {"plein": 35}}
    assert _schedule(spec, {}) == [("/p", "`p` is not declared (must give plein)")]
    assert _schedule({**spec, "missing": "allowed"}, {}) == []
    assert _schedule({**spec, "missing": {"reported_by": "LU-X"}}, {}) == []


def test_a_schedule_listing_no_entry_is_no_rule():
    # An empty `equals:` or `max:` would check nothing, in silence: the ruleset's schema refuses it.
    from casino_audit.law.checks import CHECK_KINDS
    from casino_audit.documents.shape import ShapeValidator
    validator = ShapeValidator(CHECK_KINDS["schedule"].parameters)
    assert validator.errors({"kind": "schedule", "target": "/p", "equals": {}})
    assert validator.errors({"kind": "schedule", "target": "/p", "max": {}})
    assert not validator.errors({"kind": "schedule", "target": "/p", "max": {"plein": 35}})


def test_a_schedule_describes_its_values_bounds_divisor_and_closure():
    from casino_audit.law.checks import CHECK_KINDS
    describe = CHECK_KINDS["schedule"].describe
    assert describe({"kind": "schedule", "target": "/p", "equals": {"plein": 35, "cheval": "17"}, "closed": True}) \
        == "`p` must give plein 35, cheval '17'; no other entry is allowed"
    assert describe({"kind": "schedule", "target": "/max", "per": ["/minima", "/min"], "max": {"plein": "40.0"},
                     "missing": "allowed"}) == "`max` must give plein at most 40.0 times `minima` (where given)"
    assert describe({"kind": "schedule", "target": "/max", "max": {"plein": "40.0"}}) \
        == "`max` must give plein at most '40.0'"
    assert _schedule({"target": "/max", "max": {"plein": "40.0"}, "per": "/min"}, {"max": {}, "min": 5}) == [
        ("/max/plein", "`max/plein` is not declared (must be at most 40.0 times `min`)")]
    assert _schedule({"target": "/max", "max": {"plein": "40"}}, {"max": {}}) == [
        ("/max/plein", "`max/plein` is not declared (must be at most '40')")]
    assert _schedule({"target": "/max", "equals": {"plein": "40"}}, {"max": {}}) == [
        ("/max/plein", "`max/plein` is not declared (must be '40')")]


@pytest.mark.parametrize("minimum", [0, "0", Decimal("0.00")])
def test_a_divisor_of_zero_is_a_finding_not_a_division_by_zero(minimum):
    spec = {"target": "/max", "per": ["/minima", "/min"], "max": {"plein": 40}}
    expected = [("/min", "`min` is missing or not a number, so `max` cannot be checked")]
    assert _schedule(spec, {"min": minimum, "max": {"plein": 200}}) == expected
    assert _schedule(spec, {"minima": {"plein": minimum}, "max": {"plein": 200}}) == [
        ("/minima/plein", "`minima/plein` is missing or not a number, so `max` cannot be checked")]
    assert _schedule(spec, {"max": {"plein": 200}}) == expected  # none given: the last, the general one, is named


def test_a_ceiling_that_is_no_number_holds_every_value_as_a_finding_not_a_crash():
    assert _schedule({"target": "/m", "max": {"plein": "many"}}, {"m": {"plein": 1}}) == [
        ("/m/plein", "`m/plein` is 1, must be at most 'many'")]


def test_a_non_number_law_value_against_a_divisor_is_a_finding_not_a_crash():
    found = _schedule({"target": "/m", "per": "/min", "max": {"plein": "many"}}, {"min": 5, "m": {"plein": 5}})
    assert [(pointer, message.startswith("`m/plein` is 5 (1 times `min`)")) for pointer, message in found] == [
        ("/m/plein", True)]


# --- games/roulette.py -----------------------------------------------------------------------------------------
from casino_audit.games import roulette  # noqa: E402

PLEINS_35 = {"plein": "35", "rouge": "1"}


@pytest.mark.parametrize("stake", [True, False])
def test_a_boolean_stake_is_no_stake_of_one(stake):
    # Python counts True as 1: bet() must not read it as a stake of 1.
    assert roulette.bet("plein", stake, [17]).stake is stake
    assert roulette.validate(roulette.SINGLE_ZERO, roulette.bet("plein", stake, [17])) == [
        f"the stake must be a positive Decimal amount, not {stake!r}"]


@pytest.mark.parametrize("stake", ["5", 5])
def test_a_bet_built_with_a_stake_that_is_no_decimal_is_a_problem_not_a_crash(stake):
    assert roulette.validate(roulette.SINGLE_ZERO, roulette.Bet("plein", frozenset({17}), stake)) == [
        f"the stake must be a positive Decimal amount, not {stake!r}"]


def test_pockets_are_named_in_layout_order_zero_double_zero_then_numbers_then_strangers():
    assert roulette.validate(roulette.DOUBLE_ZERO, roulette.bet("carre", 5, [36, 1, "00", 0])) == [
        "carre on 0-00-1-36 is not four numbers in a square (or 0-1-2-3 with a single zero) on the double-zero "
        "(American) layout"]
    assert roulette.validate(roulette.SINGLE_ZERO, roulette.bet("cheval", 5, ["x", 37])) == [
        "37-x not on the single-zero wheel"]
    assert roulette.validate(roulette.SINGLE_ZERO, roulette.bet("carre", 5, ["y", "00", "x", 40])) == [
        "00-40-x-y not on the single-zero wheel"]


@pytest.mark.parametrize("payout", [True, 35.0, None])
def test_a_payout_that_is_no_exact_amount_is_a_type_error(payout):
    with pytest.raises(TypeError, match="must be exact"):
        roulette.settle(roulette.bet("plein", 10, [17]), 17, {"plein": payout}, None)


@pytest.mark.parametrize("placed, rule", [
    (roulette.bet("plein", 10, [17]), roulette.ZeroRule("en_prison_one_spin")),  # only a simple chance goes en prison
    (roulette.bet("rouge", 10), roulette.ZeroRule("half_back")),  # and only under the en prison rule
    (roulette.bet("rouge", 10), roulette.ZeroRule("lose"))])
def test_a_stake_is_settled_as_imprisoned_only_where_en_prison_applies(placed, rule):
    with pytest.raises(ValueError, match="not held en prison"):
        roulette.settle(placed, 17, PLEINS_35, rule, imprisoned=True)


def test_a_zero_rule_given_that_agrees_with_the_law_is_accepted():
    play = load_builtin("pt").play["french_roulette"]  # PT n.º 28: the simple chances lose on zero
    stated = roulette.zero_rule_for(play, roulette.ZeroRule("lose"))
    assert stated.simple_chances == "lose" and stated.citation  # the law's, with its words
    with pytest.raises(ValueError, match="the law states 'lose'"):
        roulette.zero_rule_for(play, roulette.ZeroRule("en_prison_one_spin"))


# --- values.py -------------------------------------------------------------------------------------------------
from casino_audit.core import values  # noqa: E402


@pytest.mark.parametrize("number", [0.5, 85.0, float("nan"), 1 + 0j])
def test_a_float_is_never_read_as_a_number(number):
    assert values.to_decimal(number) is None


def test_a_value_is_quoted_whole_up_to_80_characters_and_cut_after():
    assert values.show("x" * 80) == repr("x" * 80)
    assert values.show("x" * 81) == repr("x" * 80) + "... (1 more characters)"
    assert values.show("é" * 1080) == repr("é" * 80) + "... (1,000 more characters)"
    assert str(values.OutOfRange("9" * 80)) == "9" * 80
    assert repr(values.OutOfRange("9" * 81)) == "9" * 80 + "..."
    assert repr(values.OutOfRange("1E+400")) == "1E+400"



@pytest.mark.parametrize("text", ["\u0661\u0667", "\u00b2", "\uff11\uff17"])
def test_a_pocket_written_in_other_digits_is_no_pocket(text):
    # Arabic-Indic 17, a superscript 2, fullwidth 17: str.isdigit() says digits, a log's pocket is ASCII.
    assert roulette.pocket(text) == text
    assert roulette.validate(roulette.SINGLE_ZERO, roulette.bet("plein", 5, [text])) == [
        f"{text} not on the single-zero wheel"]


def test_leading_zeros_do_not_count_as_digits_of_an_amount():
    assert values.bounded_decimal("0" * 70 + "5") == 5  # a long text, one digit
    assert values.bounded_decimal("1." + "0" * 59 + "1") is None  # 61 digits
    assert values.bounded_decimal("1." + "0" * 58 + "1") == Decimal("1." + "0" * 58 + "1")  # 60 digits


@pytest.mark.parametrize("text", ["NaN", "-NaN", "sNaN", "Infinity", "-Infinity", "inf"])
def test_nan_and_the_infinities_are_no_numbers_as_text_or_as_decimals(text):
    assert values.bounded_decimal(text) is None
    assert values.to_decimal(text) is None and values.to_decimal(Decimal(text)) is None
    assert values.log_number(text) == values.OutOfRange(text)


def test_out_of_range_numbers_are_equal_by_their_text():
    big = values.OutOfRange("1E+400")
    assert big == values.OutOfRange("1E+400") and big != values.OutOfRange("1E+401") and big != "1E+400"
    assert hash(big) == hash(values.OutOfRange("1E+400")) and len({big, values.OutOfRange("1E+400")}) == 1


def test_two_columns_are_two_adjacent_ones_and_two_dozens_two_adjacent_ones():
    # PT n.º 24: «cavalo de coluna» and «cavalo de dúzia», two columns (dozens) side by side; 1st and 3rd: none.
    legal = roulette.legal_bets(roulette.SINGLE_ZERO)
    first, second, third = roulette.COLUMNS
    assert legal["deux_colonnes"] == {first | second, second | third}
    low, middle, high = roulette.DOZENS
    assert legal["deux_douzaines"] == {low | middle, middle | high}
    assert roulette.validate(roulette.SINGLE_ZERO, roulette.bet("deux_colonnes", 5, first | third)) != []
    assert roulette.validate(roulette.SINGLE_ZERO, roulette.bet("deux_douzaines", 5, low | high)) != []


def test_a_bet_of_the_wrong_size_says_how_many_numbers_its_kind_covers():
    validate, single = roulette.validate, roulette.SINGLE_ZERO
    assert validate(single, roulette.bet("cheval", 5, [1, 2, 3])) == [
        "cheval on 1-2-3 is not two adjacent numbers on the single-zero layout (3 numbers, a cheval covers 2)"]
    assert validate(single, roulette.bet("cheval", 5, [1, 3])) == [
        "cheval on 1-3 is not two adjacent numbers on the single-zero layout"]
    assert validate(single, roulette.bet("cinq_numeros", 5, [0, 1, 2, 3])) == [
        "cinq_numeros on 0-1-2-3 is not 0-00-1-2-3 (double zero only) on the single-zero layout"]


def test_a_quotient_is_about_only_when_it_is_rounded_whatever_the_flags_before():
    import decimal
    assert values.show_quotient(Fraction(1, 4)) == "0.25" and values.show_quotient(Fraction(400)) == "400"
    assert values.show_quotient(Fraction(1, 3)) == "about 0.3333333333333333333333333333"
    with decimal.localcontext() as context:
        context.flags[decimal.Inexact] = True  # an earlier inexact operation in this thread
        context.prec = 5
        assert values.show_quotient(Fraction(1, 4)) == "0.25"
        assert values.show_quotient(Fraction(10 ** 27 + 1, 10 ** 27)) == "1.000000000000000000000000001"


@pytest.mark.parametrize("text, read", [("1E+30", True), ("9.9E+30", True), ("1E+31", False),
                                        ("1E-30", True), ("1E-31", False), ("-1E+30", True)])
def test_an_amount_is_a_number_of_at_most_30_places_either_side_of_the_point(text, read):
    assert (values.bounded_decimal(text) == Decimal(text)) is read


def test_the_sixains_are_the_eleven_pairs_of_adjacent_rows():
    sixains = roulette.legal_bets(roulette.SINGLE_ZERO)["sixain"]
    assert sixains == {frozenset(range(first, first + 6)) for first in range(1, 32, 3)} and len(sixains) == 11
    assert frozenset({1, 2, 3, 34, 35, 36}) not in sixains


def test_the_simple_chances_payout_names_no_other_bet():
    assert roulette.payout_for("rouge", {"simples": "1"}) == 1  # the six chances' one payout
    for kind in ("plein", "douzaine", "colonne"):
        with pytest.raises(KeyError, match=f"give none for {kind}"):
            roulette.payout_for(kind, {"simples": "1", "chances_simples": "1"})


@pytest.mark.parametrize("text", ["85", "0.85", " 85 ", "85 percent", "%85"])
def test_a_rate_without_its_percent_sign_is_not_read(text):
    assert values.to_decimal(text, "percent") is None  # ambiguous: 85 % or 0.85 %
    assert values.to_decimal(Decimal("85"), "percent") is None and values.to_decimal(85, "percent") is None
    assert values.to_decimal(text + " %" if text.strip().isdigit() else "85 %", "percent") == 85


def test_a_percent_and_the_booleans_are_shown_as_a_person_reads_them():
    assert values.show(Decimal("85.5"), "percent") == "85.5 %" and values.show(Decimal("85.5")) == "85.5"
    assert (values.show(False), values.show(True), values.show(None)) == ("false", "true", "null")


# --- games/dice.py ---------------------------------------------------------------------------------------------
from casino_audit.games import dice  # noqa: E402

PT_DICE = {game: load_builtin("pt").play[game].data["chances"] for game in ("craps", "cussec")}


def test_a_place_bet_stands_on_its_number_until_it_or_a_seven_comes():
    # PT craps n.º 12, 1.ª: «ganha se os totais que lhes corresponderem saírem antes do total 7»: 3 ways of 4
    # (or 10) against 6 of 7, 5 of 6 (or 8) against 6; paid 9 to 5 and 7 to 6, the edges are 1/15 and 1/66.
    place_4, place_6 = PT_DICE["craps"]["place_4"], PT_DICE["craps"]["place_6"]
    stays = dice.resolve(place_6, (2, 3))
    assert stays.result == dice.STAYS and dice.point_after(place_6, stays, (2, 3), None) is None  # no point of its own
    assert dice.house_edge(place_4, {"place_4": Fraction(9, 5)}, 2) == Fraction(1, 15)
    assert dice.house_edge(place_6, {"place_6": Fraction(7, 6)}, 2) == Fraction(1, 66)
    come = PT_DICE["craps"]["come"]
    assert dice.point_after(come, dice.resolve(come, (3, 4)), (3, 4), None) is None  # decided: no point follows


def test_a_bet_on_faces_names_one_face_or_a_pair_of_them():
    cussec = PT_DICE["cussec"]
    assert dice.choices(cussec["numero"]) == [(1,), (2,), (3,), (4,), (5,), (6,)]
    assert len(dice.choices(cussec["combinacao_dois_dados"])) == 15  # two different faces: C(6, 2)
    assert len(dice.choices({"on": {"faces": 2}})) == 21  # a pair may be of one face twice
    assert dice.choices(cussec["pequeno"]) == [()]


def test_a_bet_that_every_throw_leaves_standing_is_never_decided():
    forever = {"rules": [], "otherwise": "stays"}
    with pytest.raises(ValueError, match="never decided"):
        dice.house_edge(forever, {}, 2)


@pytest.mark.parametrize("given", ["win", "push", "returned", "1"])
def test_what_other_totals_do_at_banca_francesa_is_lose_or_stays_and_nothing_else(given):
    # n.º 7, d): on another total «não perdendo nenhuma das outras chances»: the run says lose or stays.
    grande = load_builtin("pt").play["banca_francesa"].data["chances"]["grande"]
    assert dice.concrete(grande, {"banca_francesa_other_totals": " Stays "})["otherwise"] == dice.STAYS
    with pytest.raises(ValueError, match="takes lose or stays"):
        dice.concrete(grande, {"banca_francesa_other_totals": given})



@pytest.mark.parametrize("value, read", [
    (0, Fraction(0)), ("0", Fraction(0)), (Decimal("0.0"), Fraction(0)), (61, Fraction(61)), (" 1.5 ", Fraction(3, 2)),
    ("6 para 5", Fraction(6, 5)), ("6:5", Fraction(6, 5)), ("9/5", Fraction(9, 5)),
    (-1, None), ("-1", None), (Decimal("-0.5"), None), (Decimal("NaN"), None), ("NaN", None), ("1E+40", None),
    (Decimal("1E+40"), None), ("6:0", None), (1.5, None), (True, None), ([61], None)])
def test_a_payout_is_a_non_negative_exact_amount_or_ratio(value, read):
    assert dice.payout_value(value) == read


# --- games/poker.py --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("card", [None, 42, ("A", "s"), b"As", ["As"]])
def test_a_card_that_is_no_text_is_refused_as_not_a_card(card):
    from casino_audit.games import poker
    with pytest.raises(ValueError, match="not a card"):
        poker.parse_card(card)

# --- replay/baccarat.py ----------------------------------------------------------------------------------------
from conftest import EXAMPLES  # noqa: E402


def _pb_terms(tmp_path, game="punto_banco", code="lu", table=None, header_extra=None):
    from casino_audit.logs.terms import terms_for
    header = {"kind": "game-log", "jurisdiction": code.upper(), "game": game, **(header_extra or {})}
    if table is not None:
        (tmp_path / "table.yaml").write_text(table, encoding="utf-8")
        header["table_config"] = "table.yaml"
    from dataclasses import replace

    from casino_audit.replay.baccarat import ASPECTS

    problems = []
    terms = terms_for(header, load_builtin(code), game, {}, str(tmp_path / "log.jsonl"), problems)
    # (a payout the law fixes set aside is said: tests/test_log_declarations.py)
    assert [p for p in problems if "the coups are settled as the law pays" not in p[1]] == []
    return replace(terms, aspects=frozenset(ASPECTS) - {"burn"})  # a shoe's burn is LU-PB-LOG-BURN's, tested apart


def test_a_table_paying_banco_at_evens_is_replayed_at_the_laws_19_for_20(tmp_path):
    """Art. 37-4 fixes banco's 19 for 20: a configuration saying 1 is its rule's breach (LU-PB-PAYOUTS), and
    the coups are still settled as the law pays, so a log paying banco at evens is found at every coup."""
    from casino_audit.replay import baccarat as replay_baccarat
    table = (EXAMPLES / "lu/table-punto-banco.yaml").read_text("utf-8").replace("banco: 0.95", "banco: 1")
    terms = _pb_terms(tmp_path, table=table)
    assert terms.payouts["banco"] == "0.95"
    prepared = replay_baccarat.prepare("punto_banco", terms)
    coup = {"coup": 1, "shoe": 1, "player": ["2c", "3d", "Kh"], "banker": ["7s", "Kc"], "outcome": "banker",
            "bets": [{"seat": 1, "chance": "banco", "stake": 20, "net": 20}]}
    assert [(aspect, pointer) for aspect, pointer, _ in replay_baccarat.replay(
        prepared, replay_baccarat.start(prepared), coup)] == [("settlement", "/bets/0/net")]


def test_what_a_punto_banco_replay_cannot_check_is_said_aspect_by_aspect(tmp_path):
    from casino_audit.replay import Unavailable
    from casino_audit.replay import baccarat as replay_baccarat
    # PT's text gives no drawing table; a header giving neither decks nor a minimum leaves two more aspects out.
    with pytest.raises(Unavailable) as raised:
        replay_baccarat.prepare("bacara_ponto_banca", _pb_terms(tmp_path, "bacara_ponto_banca", "pt", header_extra={
            "decks": 8, "limits": {"minimum": 20}}))
    assert set(raised.value.reasons) == {"drawing"} and raised.value.prepared is not None
    assert "no drawing table" in raised.value.reasons["drawing"]
    # no decks declared where the law allows six or eight: the cards are counted against eight, and that is said
    from casino_audit.logs.terms import terms_for
    problems = []
    terms = terms_for({"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca"}, load_builtin("pt"),
                      "bacara_ponto_banca", {}, str(tmp_path / "log.jsonl"), problems)
    assert terms.decks == 8 and [p[0] for p in problems] == ["/decks"] and "counted against 8" in problems[0][1]
    with pytest.raises(Unavailable) as raised:
        replay_baccarat.prepare("bacara_ponto_banca", terms)
    assert set(raised.value.reasons) == {"drawing", "both_sides", "burn"} - {"burn"}
    assert "minimum" in raised.value.reasons["both_sides"]
    with pytest.raises(Unavailable) as raised:  # LU's six decks are the law's (Art. 37-4)
        replay_baccarat.prepare("punto_banco", _pb_terms(tmp_path))
    assert set(raised.value.reasons) == {"both_sides"}
    replay_baccarat.prepare("punto_banco", _pb_terms(tmp_path, header_extra={"decks": 6, "limits": {"minimum": 20}}))
    # A commission section without its mode: which deduction applies is not known, so no settlement is judged.
    table = (EXAMPLES / "pt/table-bacara-ten-seats.yaml").read_text("utf-8")
    assert "commission: {mode: five_percent, communicated: true}" in table
    with pytest.raises(Unavailable) as raised:
        replay_baccarat.prepare("bacara_ponto_banca", _pb_terms(
            tmp_path, "bacara_ponto_banca", "pt", table.replace("mode: five_percent, ", "")))
    assert "settlement" in raised.value.reasons and "without its `mode`" in raised.value.reasons["settlement"]
    with pytest.raises(Unavailable) as raised:  # a ruleset stating no chances: nothing can be replayed
        replay_baccarat.prepare("punto_banco", replay_baccarat.Terms(play={}, payouts={}))
    assert raised.value.prepared is None and "states no chances" in str(raised.value)


def _lu_replay(tmp_path, coups, header_extra=None):
    from casino_audit.replay import baccarat as replay_baccarat
    from dataclasses import replace
    terms = _pb_terms(tmp_path, header_extra={"decks": 6, "limits": {"minimum": 20}, **(header_extra or {})})
    # a one-deck shoe, as the engine's count is tested here (a header's decks are held to the law's six apart,
    # tests/test_log_declarations.py)
    prepared = replay_baccarat.prepare("punto_banco", replace(terms, decks=1))
    state = replay_baccarat.start(prepared)
    found = []
    for coup in coups:
        coup = {"coup": 1, "shoe": 1, "outcome": "banker", "bets": [], **coup}
        found += [(aspect, pointer) for aspect, pointer, _ in replay_baccarat.replay(prepared, state, coup)]
    return found


@pytest.mark.parametrize("player, banker, found", [
    (["Tc", "7d"], ["5h", "Kc"], [("drawing", "/banker")]),  # 5, the player stood on 7: the banker draws
    (["Tc", "7d"], ["6h", "Kc", "2s"], [("drawing", "/banker/2")]),  # 6, the player stood: the banker stands
    (["Tc", "2d", "8c"], ["3h", "Kc", "2s"], [("drawing", "/banker/2")]),  # 3 stands on a third card of 8 (R)
    (["Tc", "2d", "9c"], ["3h", "Kc"], [("drawing", "/banker")]),  # ... and draws on a 9 (T)
    (["Tc", "2d", "9c"], ["3h", "Kc", "2s"], []),
    (["Tc", "7d"], ["6h", "Kc"], []),
])
def test_the_bankers_third_card_is_replayed_against_art_37_4s_table(tmp_path, player, banker, found):
    worth = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 0, "J": 0, "Q": 0, "K": 0}
    totals = (sum(worth[c[0]] for c in player) % 10, sum(worth[c[0]] for c in banker) % 10)
    outcome = PLAYER if totals[0] > totals[1] else BANKER if totals[1] > totals[0] else TIE
    assert _lu_replay(tmp_path, [{"player": player, "banker": banker, "outcome": outcome}]) == found


def test_tens_and_faces_are_worth_nothing_in_a_logged_hand(tmp_path):
    # «les valets, dames, rois, dits «bûches» et les dix valent zéro»: T-J and Q-K are 0, both draw.
    assert _lu_replay(tmp_path, [{"player": ["Tc", "Jd", "9h"], "banker": ["Qh", "Ks", "Ac"], "outcome": "player"}]) \
        == []  # 9 to 1: had a bûche any value, the outcome or the drawing would be found wrong
    assert _lu_replay(tmp_path, [{"player": ["Tc", "Jd", "9h"], "banker": ["Qh", "Ks", "Ac"], "outcome": "banker"}]) \
        == [("outcome", "/outcome")]


def test_a_card_out_of_a_one_deck_shoe_twice_is_found_burned_cards_included(tmp_path):
    coups = [{"burned": ["Ah"], "player": ["Tc", "7d"], "banker": ["6h", "Kc"], "outcome": "player"},
             {"player": ["Ah", "7s"], "banker": ["6d", "Kc"], "outcome": "player"}]  # Ah burned, Kc dealt before
    assert _lu_replay(tmp_path, coups) == [("deal", "/player/0"), ("deal", "/banker/1")]
    assert _lu_replay(tmp_path, [{**coups[1], "shoe": 2}]) == []  # a new shoe holds them again


@pytest.mark.parametrize("n, said", [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"),
                                     (13, "13th"), (21, "21st"), (22, "22nd"), (101, "101st"), (111, "111th")])
def test_ordinals(n, said):
    from casino_audit.replay import baccarat as replay_baccarat
    assert replay_baccarat._ordinal(n) == said


def test_a_player_on_both_sides_closer_than_the_minimum_in_force_is_found(tmp_path):
    from casino_audit.replay import baccarat as replay_baccarat
    from casino_audit.replay import Unavailable
    with pytest.raises(Unavailable) as raised:  # the text gives Macau no drawing table and no payouts
        replay_baccarat.prepare("bacara_macau", _pb_terms(
            tmp_path, "bacara_macau", "pt", header_extra={"decks": 8, "limits": {"minimum": 20}}))
    prepared = raised.value.prepared
    assert set(raised.value.reasons) == {"drawing", "settlement"} and prepared.minimum == 20
    state = replay_baccarat.start(prepared)

    def found(bets, limits=None):
        coup = {"coup": 1, "shoe": 1, "player": ["Tc", "7d"], "banker": ["6h", "Kc"], "outcome": "player",
                "bets": [{"net": 0, **bet} for bet in bets], **({"limits": limits} if limits else {})}
        return [(a, p) for a, p, _ in replay_baccarat.replay(prepared, state, coup) if a == "both_sides"]
    assert found([{"seat": 1, "chance": "ponto", "stake": 100}, {"seat": 1, "chance": "banca", "stake": 90}]) == [
        ("both_sides", "/bets/1/stake")]
    assert found([{"seat": 1, "chance": "ponto", "stake": 100}, {"seat": 1, "chance": "banca", "stake": 80}]) == []
    assert found([{"seat": 1, "chance": "ponto", "stake": 100}, {"seat": 2, "chance": "banca", "stake": 90}]) == []
    # A coup raising the minimum to 50 holds this coup and the next to it.
    assert found([{"seat": 1, "chance": "ponto", "stake": 100}, {"seat": 1, "chance": "banca", "stake": 60}],
                 {"minimum": 50}) == [("both_sides", "/bets/1/stake")]
    assert found([{"seat": 3, "chance": "banca", "stake": 100}, {"seat": 3, "chance": "ponto", "stake": 60}]) == [
        ("both_sides", "/bets/1/stake")]
    # Limits giving only a maximum leave the minimum in force as it was.
    assert found([{"seat": 3, "chance": "banca", "stake": 100}, {"seat": 3, "chance": "ponto", "stake": 60}],
                 {"maximum": 1000}) == [("both_sides", "/bets/1/stake")]
    # Where no minimum is known, nothing is judged (the replay says so once) and nothing breaks.
    unknown = replay_baccarat.Prepared(prepared.drawing, prepared.terms, 8, prepared.chances, prepared.sides, None)
    coup = {"coup": 1, "shoe": 1, "player": ["Tc", "7d"], "banker": ["6h", "Kc"], "outcome": "player",
            "bets": [{"seat": 1, "chance": "ponto", "stake": 100, "net": 0},
                     {"seat": 1, "chance": "banca", "stake": 90, "net": 0}]}
    assert [a for a, _, _ in replay_baccarat.replay(unknown, replay_baccarat.start(unknown), coup)
            if a == "both_sides"] == []


def test_a_logged_cards_worth_is_the_engines_reading_of_art_37_4():
    from casino_audit.replay import baccarat as replay_baccarat
    ranks = ["A", *map(str, range(2, 10)), "T", "J", "Q", "K"]
    assert replay_baccarat._WORTH == {rank: baccarat.card_value("10" if rank == "T" else rank) for rank in ranks}
    assert [replay_baccarat._WORTH[rank] for rank in ranks] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]


def test_a_ruleset_without_rules_of_play_leaves_the_whole_replay_out():
    from casino_audit.replay import Terms, Unavailable
    from casino_audit.replay import baccarat as replay_baccarat
    with pytest.raises(Unavailable) as raised:
        replay_baccarat.prepare("punto_banco", Terms(play=None, payouts=None))
    assert raised.value.prepared is None and set(raised.value.aspects) == set(replay_baccarat.ASPECTS)


def test_a_seats_stakes_on_one_chance_are_held_together_against_the_maximum():
    from casino_audit.replay import baccarat as replay_baccarat
    coup = {"bets": [{"seat": 1, "chance": "banco", "stake": 600}, {"seat": 1, "chance": "banco", "stake": 600},
                     {"seat": 2, "chance": "banco", "stake": 5}, {"chance": "banco", "stake": 5},
                     {"seat": True, "chance": "banco", "stake": 5}, {"seat": 1, "chance": 7, "stake": 5}]}
    assert [key for *_, key in replay_baccarat.stakes(coup)] == [(1, "banco"), (1, "banco"), (2, "banco"),
                                                                   (None, "banco"), (None, "banco"), None]
    assert [pointer for pointer, *_ in replay_baccarat.stakes(coup)] == [f"/bets/{i}/stake" for i in range(6)]


def test_a_pair_bet_is_won_on_its_hands_first_two_cards_of_one_rank_only(tmp_path):
    # PT n.º 19: «quando as duas cartas inicialmente distribuídas a um daqueles grupos tiverem a mesma denominação»
    from casino_audit.replay import Unavailable
    from casino_audit.replay import baccarat as replay_baccarat
    with pytest.raises(Unavailable) as raised:  # the text gives no drawing table: the settlement is checked
        replay_baccarat.prepare("bacara_ponto_banca", _pb_terms(
            tmp_path, "bacara_ponto_banca", "pt", header_extra={"decks": 8, "limits": {"minimum": 20}}))
    prepared = raised.value.prepared

    def found(player, banker, net):
        coup = {"coup": 1, "shoe": 1, "player": player, "banker": banker, "outcome": "player",
                "bets": [{"seat": 1, "chance": "par_do_ponto", "stake": 10, "net": net},
                         {"seat": 2, "chance": "par_da_banca", "stake": 10, "net": -10}]}
        return [(a, p) for a, p, _ in replay_baccarat.replay(prepared, replay_baccarat.start(prepared), coup)]
    assert found(["9h", "9d"], ["5c", "Qh"], 110) == []  # 11 to 1
    assert found(["9h", "Kd"], ["5c", "Qh"], -10) == []
    assert found(["9h", "Kd"], ["5c", "Qh"], 110) == [("settlement", "/bets/0/net")]
    assert found(["9h", "Kd"], ["5c", "5h"], -10) == [("settlement", "/bets/1/net")]  # the banker's 5-5 won


def test_the_commission_a_table_chose_is_deducted_from_each_banca_win(tmp_path):
    # PT n.º 20 a): «Dedução de 5% ao montante dos prémios em cada lance ganho pelo grupo da banca»
    from casino_audit.replay import Unavailable
    from casino_audit.replay import baccarat as replay_baccarat
    table = (EXAMPLES / "pt/table-bacara-ten-seats.yaml").read_text("utf-8")
    with pytest.raises(Unavailable) as raised:  # the text gives no drawing table: the settlement is checked
        replay_baccarat.prepare("bacara_ponto_banca", _pb_terms(tmp_path, "bacara_ponto_banca", "pt", table))
    assert set(raised.value.reasons) == {"drawing"}
    prepared = raised.value.prepared
    coup = {"coup": 1, "shoe": 1, "player": ["2c", "Kd"], "banker": ["7s", "Kc"], "outcome": "banker"}

    def found(net):
        bets = [{"seat": 1, "chance": "banca", "stake": 100, "net": net}]
        return [(a, p) for a, p, _ in replay_baccarat.replay(prepared, replay_baccarat.start(prepared),
                                                               {**coup, "bets": bets})]
    assert found(95) == [] and found(100) == [("settlement", "/bets/0/net")]
    terms = _pb_terms(tmp_path, "bacara_ponto_banca", "pt", table)
    with pytest.raises(Unavailable) as raised:  # a mode the rules of play do not know: no settlement judged
        replay_baccarat.prepare("bacara_ponto_banca", replay_baccarat.Terms(
            terms.play, terms.payouts, terms.decks, terms.limits, table={"commission": {"mode": "ten_percent"}}))
    assert "no commission 'ten_percent'" in raised.value.reasons["settlement"]

# --- a house ruleset's drawing table (found from replay/baccarat.py's `if row is None: return`) ----------------
HOUSE_DRAWING = """\
ruleset: house-pt
extends: pt
rules: []
play:
  bacara_ponto_banca:
    citation: {article: "Secção III, n.º 13", text: "observando-se a seguinte tabela"}
    drawing:
      naturals: [8, 9]
      player_draws_on: [0, 1, 2, 3, 4, 5]
      banker:
        0: {draws_on_player_third_card: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], draws_if_player_stood: true}
        1: {draws_on_player_third_card: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], draws_if_player_stood: true}
        2: {draws_on_player_third_card: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], draws_if_player_stood: true}
        3: {draws_on_player_third_card: [0, 1, 2, 3, 4, 5, 6, 7, 9], draws_if_player_stood: true}
        4: {draws_on_player_third_card: [2, 3, 4, 5, 6, 7], draws_if_player_stood: true}
        5: {draws_on_player_third_card: [4, 5, 6, 7], draws_if_player_stood: true}
ROWS
    bets:
      ponto: {wins_on: player, returned_on: [tie]}
      banca: {wins_on: banker, returned_on: [tie]}
      empate: {wins_on: tie}
"""
ROWS_6_7 = """\
        6: {draws_on_player_third_card: [6, 7], draws_if_player_stood: false}
        7: {draws_on_player_third_card: [], draws_if_player_stood: false}
"""


def test_a_house_drawing_table_without_a_row_for_a_total_is_refused_not_left_unchecked(tmp_path):
    """A house ruleset gave PT bacará a drawing table with rows 0 to 5 only: a banker on 6 drawing after the player
    stood (no table allows it) passed every log with no finding and no note, the replay skipping a missing row."""
    from casino_audit.replay import Terms
    from casino_audit.replay import baccarat as replay_baccarat
    from casino_audit.law.model import RulesetError
    from casino_audit.law.rulesets import load_ruleset

    incomplete = tmp_path / "house.yaml"
    incomplete.write_text(HOUSE_DRAWING.replace("ROWS\n", ""), encoding="utf-8")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(incomplete)
    assert "house.yaml:10:7: the drawing table gives no row for a banker total of 6, 7" in str(raised.value)

    complete = tmp_path / "complete.yaml"
    complete.write_text(HOUSE_DRAWING.replace("ROWS\n", ROWS_6_7), encoding="utf-8")
    play = load_ruleset(complete).play["bacara_ponto_banca"].data
    prepared = replay_baccarat.prepare("bacara_ponto_banca", Terms(
        play=play, payouts={"ponto": 1, "banca": 1, "empate": 8}, decks=8, limits={"minimum": 5}))
    coup = {"coup": 1, "shoe": 1, "player": ["7c", "Kd"], "banker": ["6h", "Kc", "9s"], "outcome": "player",
            "bets": []}
    assert [(aspect, pointer) for aspect, pointer, _ in replay_baccarat.replay(
        prepared, replay_baccarat.start(prepared), coup)] == [("drawing", "/banker/2")]
