"""The dice engine against the law's words, checked by an independent brute force over every throw."""

from decimal import Decimal
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, strategies as st

from casino_audit.edge import edges
from casino_audit.law.schedules import law_schedule
from casino_audit.games import dice
from casino_audit.law.rulesets import load_builtin

PT = load_builtin("pt")
PLAY = {game: PT.play[game].data for game in ("banca_francesa", "craps", "cussec")}
PAYS = {game: {key: dice.payout_value(value) for key, value in law_schedule(PT, game, "/payouts").items()}
        for game in PLAY}
# what the law leaves out, as a run would give it (values of the common casino tables, for the test only)
GIVEN = {**{f"place_{n}": Fraction(p) for n, p in zip((4, 5, 6, 8, 9, 10), ("9/5", "7/5", "7/6", "7/6", "7/5", "9/5"))},
         **{f"lay_{n}": Fraction(p) for n, p in zip((4, 5, 6, 8, 9, 10), ("1/2", "2/3", "5/6", "5/6", "2/3", "1/2"))},
         "dont_odds_4_10": Fraction(1, 2), "dont_odds_5_9": Fraction(2, 3), "dont_odds_6_8": Fraction(5, 6)}
THREE, TWO = list(product(range(1, 7), repeat=3)), list(product(range(1, 7), repeat=2))


# --- the brute force: each chance as the text words it, written without the ruleset's data ---------------
def banca(name, d, other):
    wins = {"ases": {3}, "pequeno": {5, 6, 7}, "grande": {14, 15, 16}}
    s = sum(d)
    if s in wins[name]:
        return "win", {"ases": 61, "pequeno": 1, "grande": 1}[name]
    if any(s in totals for totals in wins.values()):
        return "lose", None
    return other, None


def cussec(name, on, d):
    s, triple, n = sum(d), len(set(d)) == 1, d.count(on[0]) if on else 0
    if name in ("pequeno", "grande"):
        inside = 4 <= s <= 10 if name == "pequeno" else 11 <= s <= 17
        return ("win", 1) if inside and not triple else ("lose", None)
    if name == "numero":
        return ("win", n) if n else ("lose", None)
    if name == "combinacao_dois_dados":
        return ("win", 5) if on[0] in d and on[1] in d else ("lose", None)
    if name == "par":
        return ("win", 30 if n == 3 else 10) if n >= 2 else ("lose", None)
    if name == "trio":
        return ("win", 190) if n == 3 else ("lose", None)
    if name == "qualquer_trio":
        return ("win", 32) if triple else ("lose", None)
    total = int(name.split("_")[1])
    pays = {4: 65, 17: 65, 5: 32, 16: 32, 6: 19, 15: 19, 7: 12, 14: 12, 8: 8, 13: 8, 9: 7, 12: 7, 10: 6, 11: 6}
    return ("win", pays[total]) if s == total else ("lose", None)


ODDS = {4: 2, 10: 2, 5: Fraction(3, 2), 9: Fraction(3, 2), 6: Fraction(6, 5), 8: Fraction(6, 5)}
DONT_ODDS = {n: GIVEN[f"dont_odds_{'4_10' if n in (4, 10) else '5_9' if n in (5, 9) else '6_8'}"] for n in ODDS}


def craps(name, d, point, bar):
    s = sum(d)
    if name in ("pass_line", "come"):
        if point is None:
            return ("win", 1) if s in (7, 11) else ("lose", None) if s in (2, 3, 12) else ("stays", None)
        return ("win", 1) if s == point else ("lose", None) if s == 7 else ("stays", None)
    if name in ("dont_pass_line", "dont_come"):
        if point is None:
            if s == bar:
                return "push", None
            return ("win", 1) if s in (2, 3, 12) else ("lose", None) if s in (7, 11) else ("stays", None)
        return ("win", 1) if s == 7 else ("lose", None) if s == point else ("stays", None)
    if name in ("pass_line_odds", "come_odds"):
        return ("win", ODDS[point]) if s == point else ("lose", None) if s == 7 else ("stays", None)
    if name in ("dont_pass_line_odds", "dont_come_odds"):
        return ("win", DONT_ODDS[point]) if s == 7 else ("lose", None) if s == point else ("stays", None)
    if name in ("big_6", "big_8"):
        return ("win", 1) if s == int(name[-1]) else ("lose", None) if s == 7 else ("stays", None)
    if name == "under_seven":
        return ("win", 1) if s < 7 else ("lose", None)
    if name == "over_seven":
        return ("win", 1) if s > 7 else ("lose", None)
    if name == "craps":
        return ("win", 7) if s in (2, 3, 12) else ("lose", None)
    if name.startswith("hardway_"):
        n = int(name.split("_")[1])
        if s == n and d[0] == d[1]:
            return "win", 7 if n in (4, 10) else 9
        return ("lose", None) if s in (7, n) else ("stays", None)
    if name.startswith("total_"):
        n = int(name.split("_")[1])
        return ("win", {7: 4, 2: 30, 3: 15, 11: 15, 12: 30}[n]) if s == n else ("lose", None)
    if name == "field":
        return ("win", 2) if s in (2, 12) else ("win", 1) if s in (3, 4, 9, 10, 11) else ("lose", None)
    n = int(name.split("_")[1])
    if name.startswith("place_"):
        return ("win", GIVEN[name]) if s == n else ("lose", None) if s == 7 else ("stays", None)
    return ("win", GIVEN[name]) if s == 7 else ("lose", None) if s == n else ("stays", None)


def outcome(chance, payouts, d, on=(), point=None, bar=None):
    found = dice.resolve(chance, d, on, point, bar)
    return found.result, (payouts[found.pays] if found.result == dice.WIN else None)


@pytest.mark.parametrize("other", ["stays", "lose"])
def test_banca_francesa_every_throw(other):
    for name, chance in PLAY["banca_francesa"]["chances"].items():
        chance = dice.concrete(chance, {"banca_francesa_other_totals": other})
        for d in THREE:
            assert outcome(chance, PAYS["banca_francesa"], d) == banca(name, d, other), (name, d)


def test_cussec_every_throw_and_choice():
    for name, chance in PLAY["cussec"]["chances"].items():
        for on in dice.choices(chance):
            for d in THREE:
                assert outcome(chance, PAYS["cussec"], d, on) == cussec(name, on, d), (name, on, d)
    assert len(PLAY["cussec"]["chances"]) == 21  # n.º 7 a) to g), and h)'s fourteen totals


@pytest.mark.parametrize("bar", [2, 12])
def test_craps_every_throw_point_and_bar(bar):
    payouts = {**PAYS["craps"], **GIVEN}
    for name, chance in PLAY["craps"]["chances"].items():
        points = (4, 5, 6, 8, 9, 10) if chance.get("needs") == "own_point" or name.endswith("line_odds") else \
            (None, 4, 5, 6, 8, 9, 10)
        for point in points:
            for d in TWO:
                assert outcome(chance, payouts, d, (), point, bar) == craps(name, d, point, bar), (name, d, point)


def test_a_come_out_total_becomes_the_point():
    chance = PLAY["craps"]["chances"]["come"]
    found = dice.resolve(chance, (4, 4))
    assert found.result == dice.STAYS and dice.point_after(chance, found, (4, 4), None) == 8
    assert dice.point_after(chance, dice.resolve(chance, (4, 2), point=8), (4, 2), 8) == 8


def test_the_bar_is_needed_only_where_it_decides():
    chance = PLAY["craps"]["chances"]["dont_pass_line"]
    with pytest.raises(dice.MissingValue):
        dice.resolve(chance, (6, 6))
    assert dice.resolve(chance, (3, 4), point=6).result == dice.WIN  # a point's throws never read the bar


def test_banca_francesa_without_the_parameter_is_not_resolved_on_other_totals():
    chance = PLAY["banca_francesa"]["chances"]["pequeno"]
    assert dice.resolve(chance, (1, 2, 3)).result == dice.WIN
    with pytest.raises(dice.MissingValue) as missing:
        dice.resolve(chance, (4, 4, 4))
    assert missing.value.what == "banca_francesa_other_totals"


# --- edges ---------------------------------------------------------------------------------------------
def pass_line_by_formula() -> Fraction:
    ways = {n: 6 - abs(7 - n) for n in range(2, 13)}
    win = Fraction(ways[7] + ways[11], 36) + sum(Fraction(ways[p], 36) * Fraction(ways[p], ways[p] + 6)
                                                 for p in (4, 5, 6, 8, 9, 10))
    return 1 - 2 * win


def test_edges_exact():
    assert pass_line_by_formula() == Fraction(7, 495)
    found = {edge.bet: edge for edge in edges(PT, "craps")}
    assert found["pass_line"].house_edge == found["come"].house_edge == Fraction(7, 495)
    assert found["dont_pass_line"].house_edge == Fraction(3, 220)
    assert found["pass_line_odds on 6 or 8"].house_edge == 0
    assert found["field"].house_edge == Fraction(1, 18) and found["hardway_6"].house_edge == Fraction(1, 11)
    assert "place_6" not in found and "place_6" in found["pass_line"].note  # no payout in the text: left out
    assert all(edge.exact and isinstance(edge.house_edge, Fraction) for edge in found.values())
    cussec_edges = {edge.bet: edge.house_edge for edge in edges(PT, "cussec")}
    assert cussec_edges["numero"] == Fraction(17, 216) and cussec_edges["pequeno"] == Fraction(1, 36)
    banca_edges = {edge.bet: edge.house_edge for edge in edges(PT, "banca_francesa")}
    assert banca_edges["ases (stays)"] == banca_edges["pequeno (stays)"] == Fraction(1, 63)


def test_a_table_schedule_gives_the_place_bets_an_edge():
    table = {"payouts": {**law_schedule(PT, "craps", "/payouts"), "place_6": "7/6", "place_4": "9/5"}}
    found = {edge.bet: edge.house_edge for edge in edges(PT, "craps", table)}
    assert found["place_6"] == Fraction(1, 66) and found["place_4"] == Fraction(1, 15)


def test_edge_by_enumeration_equals_brute_force_for_single_throw_bets():
    for name, chance in PLAY["cussec"]["chances"].items():
        for on in dice.choices(chance):
            expected = -sum((Fraction(pay) if result == "win" else -1) for result, pay in
                            (cussec(name, on, d) for d in THREE)) / 216
            assert dice.house_edge(chance, PAYS["cussec"], 3, on) == expected


# --- money -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [("6 para 5", Fraction(6, 5)), ("7/6", Fraction(7, 6)), ("3:2", Fraction(3, 2)),
                                         ("1.2", Fraction(6, 5)), (61, 61), (Decimal("0.5"), Fraction(1, 2))])
def test_payouts_read_exactly(text, value):
    assert dice.payout_value(text) == value


@pytest.mark.parametrize("text", [1.2, True, "x", "6 para 0", None, "-1"])
def test_inexact_or_no_payouts_refused(text):
    assert dice.payout_value(text) is None


@given(st.decimals(min_value=Decimal("0.01"), max_value=Decimal("100000"), places=2),
       st.tuples(*[st.integers(1, 6)] * 3), st.sampled_from(sorted(PLAY["cussec"]["chances"])))
def test_net_is_exact_to_the_cent(stake, d, name):
    chance = PLAY["cussec"]["chances"][name]
    on = dice.choices(chance)[0]
    found = dice.resolve(chance, d, on)
    owed = dice.net(stake, found, PAYS["cussec"])
    assert owed == (Fraction(stake) * PAYS["cussec"][found.pays] if found.result == dice.WIN else -Fraction(stake))
    assert (owed * 100).denominator == 1  # whole payouts: a stake in cents nets whole cents


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
