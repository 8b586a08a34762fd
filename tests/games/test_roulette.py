"""The roulette engine: the layout's bets counted from its geometry, every pocket against every bet, the zero
rules the texts state (quoted words checked against rulesets/sources/), and the classic edges as exact Fractions."""

import re
from decimal import Decimal
from fractions import Fraction
from itertools import combinations

import pytest

from casino_audit.games import roulette as r
from casino_audit.law.rulesets import load_builtin
from helpers.command import REPO
from casino_audit.games import roulette

PLAY = {code: load_builtin(code.lower()).play for code in ("LU", "PT")}  # the rules of play, with citations
LU_ENGLISH_ROULETTE_ZERO = r.zero_rule_for(PLAY["LU"]["english_roulette"])
PT_ROLETA_AMERICANA_ZERO = r.zero_rule_for(PLAY["PT"]["american_roulette"])
PT_ROLETA_FRANCESA_ZERO = r.zero_rule_for(PLAY["PT"]["french_roulette"])

CLASSIC = {"plein": 35, "cheval": 17, "transversale": 11, "carre": 8, "sixain": 5, "cinq_numeros": 6,
           "colonne": 2, "douzaine": 2, "deux_colonnes": "0.5", "deux_douzaines": "0.5", "simples": 1}
LU_ENGLISH = {"plein": 35, "cheval": 17, "transversale": 11, "carre": 8, "sixain": 5, "douzaine": 2, "colonne": 2,
              "deux_douzaines": Decimal("0.5"), "deux_colonnes": Decimal("0.5"), "pair": 1, "impair": 1,
              "manque": 1, "passe": 1, "rouge": 1, "noir": 1}  # examples/lu/table-english-roulette.yaml
PT = {"pleno": 35, "cavalo": 17, "rua": 11, "quadro": 8, "linha": 5, "duzia": 2, "coluna": 2,
      "cavalo_de_duzia": Decimal("0.5"), "cavalo_de_coluna": Decimal("0.5"), "par": 1, "impar": 1, "menor": 1,
      "maior": 1, "encarnado": 1, "preto": 1}  # examples/pt/table-french-roulette.yaml
LOSE = r.ZeroRule("lose")
WHEELS = [r.SINGLE_ZERO, r.DOUBLE_ZERO]


def every_bet(wheel, stake=10):
    return [r.bet(kind, stake, numbers) for kind, sets in r.legal_bets(wheel).items() for numbers in sets]


# --- The layout ---------------------------------------------------------------------------------------------
def test_colours_and_simple_chances():
    assert r.RED == {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
    assert all(len(numbers) == 18 for numbers in r.SIMPLE_CHANCES.values())
    assert r.SIMPLE_CHANCES["rouge"] | r.SIMPLE_CHANCES["noir"] == set(range(1, 37))
    assert r.COLUMNS[0] == {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34}  # "a partir do 34"
    assert set(r.PAYOUT_NAMES) == set(r.BET_SHAPES)


def brute_force_chevaux():
    """Two cells of the 12 x 3 grid one step apart in a row or in a column."""
    cell = {n: divmod(n - 1, 3) for n in range(1, 37)}
    return {frozenset((a, b)) for a, b in combinations(range(1, 37), 2)
            if abs(cell[a][0] - cell[b][0]) + abs(cell[a][1] - cell[b][1]) == 1}


def test_chevaux_counted_from_the_geometry():
    among_numbers = brute_force_chevaux()
    # 12 rows x 2 in a row + 11 gaps x 3 columns = 57 among 1-36; the French single zero spans the first row
    # and borders 1, 2 and 3 (PT n.º 24: "2 números adjacentes"): 60 on a single-zero layout.
    assert len(among_numbers) == 24 + 33 == 57
    single = r.legal_bets(r.SINGLE_ZERO)["cheval"]
    assert single == among_numbers | {frozenset({0, n}) for n in (1, 2, 3)} and len(single) == 60
    # American: 0-1, 0-2, 00-2, 00-3 and 0-00.
    double = r.legal_bets(r.DOUBLE_ZERO)["cheval"]
    assert len(double) == 62 and double - among_numbers == {
        frozenset(p) for p in ((0, 1), (0, 2), ("00", 2), ("00", 3), (0, "00"))}


def test_other_bets_counted_from_the_geometry():
    grid = {n: divmod(n - 1, 3) for n in range(1, 37)}
    squares = {frozenset(q) for q in combinations(range(1, 37), 4)
               if len({grid[n][0] for n in q}) == 2 and len({grid[n][1] for n in q}) == 2
               and max(grid[n][0] for n in q) - min(grid[n][0] for n in q) == 1
               and max(grid[n][1] for n in q) - min(grid[n][1] for n in q) == 1}
    assert len(squares) == 11 * 2 == 22
    single, double = r.legal_bets(r.SINGLE_ZERO), r.legal_bets(r.DOUBLE_ZERO)
    assert single["carre"] == squares | {frozenset({0, 1, 2, 3})}  # LU 37-2: "comprenant éventuellement le zéro"
    assert double["carre"] == squares and double["cinq_numeros"] == {frozenset({0, "00", 1, 2, 3})}
    assert not single["cinq_numeros"]
    rows = {frozenset(range(n, n + 3)) for n in range(1, 37, 3)}
    assert single["transversale"] == rows | {frozenset({0, 1, 2}), frozenset({0, 2, 3})}  # PT n.º 25 "rua 0-2-3"
    assert double["transversale"] == rows | {frozenset(t) for t in ((0, 1, 2), (0, "00", 2), ("00", 2, 3))}
    assert len(single["sixain"]) == 11 and frozenset(range(1, 7)) in single["sixain"]
    assert frozenset(range(2, 8)) not in single["sixain"]
    for wheel in WHEELS:
        bets = r.legal_bets(wheel)
        assert len(bets["plein"]) == len(wheel.pockets)
        assert [len(bets[k]) for k in ("colonne", "douzaine", "deux_colonnes", "deux_douzaines")] == [3, 3, 2, 2]


@pytest.mark.parametrize("wheel", WHEELS, ids=lambda w: w.name)
def test_every_pocket_against_every_bet(wheel):
    coverage = {"plein": 1, "cheval": 2, "transversale": 3, "carre": 4, "cinq_numeros": 5, "sixain": 6,
                "colonne": 12, "douzaine": 12, "deux_colonnes": 24, "deux_douzaines": 24}
    for placed in every_bet(wheel):
        assert r.validate(wheel, placed) == []
        payout = r.payout_for(placed.kind, CLASSIC)
        results = [r.settle(placed, pocket, CLASSIC, LOSE) for pocket in wheel.pockets]
        winning = [pocket for pocket, net in zip(wheel.pockets, results) if net > 0]
        assert set(winning) == placed.numbers
        assert len(winning) == coverage.get(placed.kind, 18), placed
        assert {net for net in results if net > 0} == {Decimal(10) * payout}
        assert results.count(Decimal(-10)) == len(wheel.pockets) - len(winning)


# --- Validation: problems, never exceptions -------------------------------------------------------------------
@pytest.mark.parametrize("wheel, kind, numbers, words", [
    (r.SINGLE_ZERO, "cheval", [1, 5], "cheval on 1-5 is not two adjacent numbers"),
    (r.SINGLE_ZERO, "cheval", [3, 4], "cheval on 3-4 is not"),  # a row ends at 3
    (r.SINGLE_ZERO, "cheval", [0, 4], "cheval on 0-4 is not"),
    (r.SINGLE_ZERO, "cheval", [1, 2, 3], "(3 numbers, a cheval covers 2)"),
    (r.SINGLE_ZERO, "carre", [1, 2, 3, 4], "carre on 1-2-3-4 is not four numbers in a square"),
    (r.SINGLE_ZERO, "carre", [2, 3, 4, 5], "carre on 2-3-4-5 is not"),
    (r.DOUBLE_ZERO, "carre", [0, 1, 2, 3], "carre on 0-1-2-3 is not"),
    (r.SINGLE_ZERO, "sixain", [2, 3, 4, 5, 6, 7], "sixain on 2-3-4-5-6-7 is not two adjacent rows"),
    (r.SINGLE_ZERO, "transversale", [0, 1, 3], "transversale on 0-1-3 is not"),
    (r.SINGLE_ZERO, "cinq_numeros", [0, "00", 1, 2, 3], "00 not on the single-zero wheel"),
    (r.SINGLE_ZERO, "plein", ["00"], "00 not on the single-zero wheel"),
    (r.SINGLE_ZERO, "plein", [37], "37 not on the single-zero wheel"),
    (r.SINGLE_ZERO, "plein", ["seven"], "seven not on the single-zero wheel"),
    (r.SINGLE_ZERO, "deux_douzaines", r.DOZENS[0] | r.DOZENS[2], "is not two adjacent dozens"),
    (r.SINGLE_ZERO, "rouge", r.SIMPLE_CHANCES["noir"], "rouge on 2-4-"),
    (r.SINGLE_ZERO, "orphelins", [1], "unknown bet 'orphelins'"),
])
def test_bad_bets_are_problems(wheel, kind, numbers, words):
    problems = r.validate(wheel, r.bet(kind, 10, numbers))
    assert len(problems) == 1 and words in problems[0], problems


@pytest.mark.parametrize("stake", [0, -5, "ten", 2.5, Decimal("NaN")])
def test_bad_stakes_are_problems(stake):
    [problem] = r.validate(r.SINGLE_ZERO, r.bet("plein", stake, [7]))
    assert problem.startswith("the stake must be a positive Decimal amount")


def test_pockets_read_from_text():
    assert r.bet("cheval", "10", ["0", "00"]) == r.Bet("cheval", frozenset({0, "00"}), Decimal(10))
    assert r.validate(r.DOUBLE_ZERO, r.bet("cheval", "10", ["0", "00"])) == []


# --- Settling a coup -----------------------------------------------------------------------------------------
def test_settle_exact_money():
    straight = r.bet("plein", 10, [17])
    assert r.settle(straight, 17, LU_ENGLISH, None) == Decimal(350)
    assert r.settle(straight, "17", LU_ENGLISH, None) == Decimal(350)
    assert r.settle(straight, 0, LU_ENGLISH, None) == Decimal(-10)
    assert r.settle(r.bet("deux_douzaines", 10, r.DOZENS[0] | r.DOZENS[1]), 5, LU_ENGLISH, None) == Decimal(5)
    assert r.settle(r.bet("cheval", "0.01", [1, 2]), 2, PT, None) == Decimal("0.17")
    assert r.settle(r.bet("rouge", "0.01"), 0, LU_ENGLISH, LU_ENGLISH_ROULETTE_ZERO) == Decimal("-0.005")
    # Past the 28 digits of Decimal's default context, nothing is rounded.
    huge = Decimal("1000.0000000000000000000000001")
    assert r.settle(r.bet("plein", huge, [3]), 3, PT, None) == Decimal("35000.0000000000000000000000035")
    assert r.settle(r.bet("plein", huge, [3]), 4, PT, None) == Decimal("-1000.0000000000000000000000001")
    assert r.settle(r.bet("manque", huge), 0, PT, r.ZeroRule("half_back")) == Decimal("-500.00000000000000000000000005")
    with pytest.raises(ValueError, match="not a finite amount"):
        r.settle(r.bet("plein", 10, [3]), 3, {"plein": "many"}, None)
    with pytest.raises(ValueError, match="no pocket"):
        r.settle(straight, 37, PT, None)


def test_zero_on_the_simple_chances():
    red = r.bet("rouge", 10)
    assert r.settle(red, 0, LU_ENGLISH, LU_ENGLISH_ROULETTE_ZERO) == Decimal(-5)
    assert r.settle(red, 0, PT, PT_ROLETA_FRANCESA_ZERO) == Decimal(-10)
    assert r.settle(red, "00", PT, r.ZeroRule("half_back")) == Decimal(-5)  # 00 is a zero too
    prison = r.ZeroRule("en_prison_one_spin")
    assert r.settle(red, 0, PT, prison) == r.IMPRISONED
    assert r.settle(red, 1, PT, prison, imprisoned=True) == Decimal(0)  # freed: the stake comes back, unpaid
    assert r.settle(red, 2, PT, prison, imprisoned=True) == Decimal(-10)
    assert r.settle(red, 0, PT, prison, imprisoned=True) == Decimal(-10)
    # Other bets that miss the zero lose whole, whatever the rule (PT n.º 28: dúzias, colunas, cavalos).
    assert r.settle(r.bet("douzaine", 10, r.DOZENS[0]), 0, PT, r.ZeroRule("half_back")) == Decimal(-10)
    assert r.settle(red, 3, PT, prison) == Decimal(10)


def test_a_missing_zero_rule_is_never_guessed():
    with pytest.raises(r.ZeroRuleMissing, match="rouge bet needs the zero rule"):
        r.settle(r.bet("rouge", 10), 3, LU_ENGLISH, None)  # even on a red number: no luck involved
    # LU roulette (Art. 24 to 28) and American roulette (Art. 29): the amended text says nothing of the zero.
    assert "roulette" not in PLAY["LU"] and "american_roulette" not in PLAY["LU"]
    with pytest.raises(r.ZeroRuleMissing, match="must be given"):
        r.zero_rule_for(PLAY["LU"].get("roulette"))
    assert r.zero_rule_for(None, r.ZeroRule("en_prison_one_spin")).simple_chances == "en_prison_one_spin"
    assert LU_ENGLISH_ROULETTE_ZERO.simple_chances == "half_back" and "Art. 37-2" in LU_ENGLISH_ROULETTE_ZERO.citation
    assert PT_ROLETA_AMERICANA_ZERO.simple_chances == "lose"
    with pytest.raises(ValueError, match="unknown zero rule 'la_partage'"):
        r.ZeroRule("la_partage")
    with pytest.raises(ValueError, match="the law states 'lose'"):
        r.zero_rule_for(PLAY["PT"]["french_roulette"], r.ZeroRule("half_back"))


def test_payouts_by_the_laws_names():
    assert r.payout_for("carre", PT) == 8 and r.payout_for("carre", LU_ENGLISH) == 8
    assert r.payout_for("deux_colonnes", PT) == Decimal("0.5")
    assert r.payout_for("rouge", {"vermelho": 1}) == 1  # PT n.º 27 b)
    assert r.payout_for("noir", {"simples": 1, "noir": 2}) == 2  # a chance's own entry wins over the group
    with pytest.raises(KeyError, match="none for cinq_numeros"):
        r.payout_for("cinq_numeros", LU_ENGLISH)
    with pytest.raises(ValueError, match="twice"):
        r.payout_for("plein", {"plein": 35, "pleno": 36})
    with pytest.raises(TypeError, match="exact"):
        r.payout_for("plein", {"plein": 35.0})


# --- House edges, exact -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("payouts", [CLASSIC, LU_ENGLISH, PT], ids=["classic", "LU", "PT"])
def test_single_zero_edge_is_one_in_37_on_every_bet(payouts):
    for placed in every_bet(r.SINGLE_ZERO):
        assert r.house_edge(r.SINGLE_ZERO, placed, payouts, LOSE) == Fraction(1, 37), placed
    assert float(Fraction(1, 37)) == pytest.approx(0.027027, abs=1e-6)


def test_double_zero_edges():
    for placed in every_bet(r.DOUBLE_ZERO):
        expected = Fraction(3, 38) if placed.kind == "cinq_numeros" else Fraction(2, 38)
        assert r.house_edge(r.DOUBLE_ZERO, placed, CLASSIC, LOSE) == expected, placed
    assert float(Fraction(2, 38)) == pytest.approx(0.05263, abs=1e-5)
    assert float(Fraction(3, 38)) == pytest.approx(0.0789, abs=1e-4)


def test_simple_chance_edges_under_each_zero_rule():
    for chance in r.SIMPLE_CHANCES:
        placed = r.bet(chance, 10)
        assert r.house_edge(r.SINGLE_ZERO, placed, LU_ENGLISH, LU_ENGLISH_ROULETTE_ZERO) == Fraction(1, 74)
        assert r.house_edge(r.SINGLE_ZERO, placed, PT, PT_ROLETA_AMERICANA_ZERO) == Fraction(1, 37)
        # One spin en prison: zero (1/37) then anything but the chance (19/37) loses the stake.
        assert r.house_edge(r.SINGLE_ZERO, placed, PT, r.ZeroRule("en_prison_one_spin")) == Fraction(19, 37 ** 2)
        assert r.house_edge(r.DOUBLE_ZERO, placed, CLASSIC, r.ZeroRule("half_back")) == Fraction(1, 38)
        with pytest.raises(r.ZeroRuleMissing):
            r.house_edge(r.SINGLE_ZERO, placed, PT, None)
    with pytest.raises(ValueError, match="cheval on 1-5"):
        r.house_edge(r.SINGLE_ZERO, r.bet("cheval", 10, [1, 5]), PT, LOSE)


# --- The texts say what the constants quote -------------------------------------------------------------------
def test_quoted_words_are_in_the_sources():
    sources = {"LU": "lu-rgd-2002-03-08.txt", "PT": "pt-portaria-217-2007.txt"}
    for code, rule in (("LU", LU_ENGLISH_ROULETTE_ZERO), ("PT", PT_ROLETA_AMERICANA_ZERO), ("PT", PT_ROLETA_FRANCESA_ZERO)):
        text = " ".join((REPO / "rulesets" / "sources" / sources[code]).read_text("utf-8").split())
        [quoted] = re.findall(r"[«\u00ab]\s?(.*?)\s?[»\u00bb]", rule.citation)
        assert quoted in text, (code, quoted)


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


@pytest.mark.parametrize("text", ["\u0661\u0667", "\u00b2", "\uff11\uff17"])
def test_a_pocket_written_in_other_digits_is_no_pocket(text):
    # Arabic-Indic 17, a superscript 2, fullwidth 17: str.isdigit() says digits, a log's pocket is ASCII.
    assert roulette.pocket(text) == text
    assert roulette.validate(roulette.SINGLE_ZERO, roulette.bet("plein", 5, [text])) == [
        f"{text} not on the single-zero wheel"]


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


def test_the_sixains_are_the_eleven_pairs_of_adjacent_rows():
    sixains = roulette.legal_bets(roulette.SINGLE_ZERO)["sixain"]
    assert sixains == {frozenset(range(first, first + 6)) for first in range(1, 32, 3)} and len(sixains) == 11
    assert frozenset({1, 2, 3, 34, 35, 36}) not in sixains


def test_the_simple_chances_payout_names_no_other_bet():
    assert roulette.payout_for("rouge", {"simples": "1"}) == 1  # the six chances' one payout
    for kind in ("plein", "douzaine", "colonne"):
        with pytest.raises(KeyError, match=f"give none for {kind}"):
            roulette.payout_for(kind, {"simples": "1", "chances_simples": "1"})
