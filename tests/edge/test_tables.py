"""The gaming-table configurations `casino-audit edge` reads: each test is a filing or a table
that went through (or broke the command) before, and what is found now."""

import json

import pytest


def edge(cli, tmp_path, game, jurisdiction, table_text, *args):
    table = tmp_path / "table.yaml"
    table.write_text(table_text, "utf-8")
    return cli("edge", game, "-j", jurisdiction, "--table", str(table), "--format", "json", *args)


@pytest.mark.parametrize("payouts, said", [
    ("{plein: 'x', rouge: 1}", "`payouts/plein` is 'x' (text); expected a number"),
    ("{plein: null, rouge: 1}", "`payouts/plein` is null"),
    ("{plein: true, rouge: 1}", "`payouts/plein` is true"),
    ("{plein: 35, rouge: -1}", "less than the minimum of 0"),  # was computed: a house edge of 100 %, exit 0
    ("[35, 1]", "`payouts` is [35, 1] (a list); expected a mapping"),  # was an empty table of edges, exit 0
])
def test_an_edge_table_whose_payouts_are_of_the_wrong_shape_is_refused_at_its_line(cli, tmp_path, payouts, said):
    done = edge(cli, tmp_path, "roulette", "LU", f"kind: table\ngame: roulette\npayouts: {payouts}\n",
                "--zero-rule", "lose")
    assert done.returncode == 2 and "internal error" not in done.stderr
    assert "table.yaml:3:" in done.stderr and said in done.stderr


def test_an_edge_table_whose_wheel_or_cards_are_no_mapping_is_refused_not_an_internal_error(cli, tmp_path):
    done = edge(cli, tmp_path, "roulette", "LU", "game: roulette\nwheel: 5\npayouts: {plein: 35}\n",
                "--zero-rule", "lose")
    assert done.returncode == 2 and "internal error" not in done.stderr and "table.yaml:2:1: `wheel` is 5" in done.stderr
    done = edge(cli, tmp_path, "punto_banco", "LU", "game: punto_banco\ncards: 6\n"
                "payouts: {punto: 1, banco: 0.95, egalite: 8}\n")
    assert done.returncode == 2 and "internal error" not in done.stderr and "table.yaml:2:1: `cards` is 6" in done.stderr


def test_a_misspelt_payouts_field_is_not_replaced_by_the_laws_schedule_in_silence(cli, tmp_path):
    # Before: `payout:` was not read, the law's schedule (pleno 35) was used, and the report said "the schedule of
    # table.yaml": a table paying 30 to 1 was shown the edge of one paying 35.
    done = edge(cli, tmp_path, "french_roulette", "PT", "kind: table\ngame: french_roulette\npayout: {pleno: 30}\n")
    assert done.returncode == 2 and "table.yaml:3:1: unknown field `payout`; did you mean `payouts`?" in done.stderr


@pytest.mark.parametrize("pockets", ["25", "39", "'38'"])
def test_a_wheel_the_edge_does_not_compute_is_refused_not_taken_as_single_zero(cli, tmp_path, pockets):
    # Before: any pocket count but the integer 38 (a 25-pocket wheel, 39, the text '38') was computed as a
    # single-zero wheel, exit 0.
    done = edge(cli, tmp_path, "american_roulette", "LU", f"game: american_roulette\nwheel: {{pockets: {pockets}}}\n"
                "payouts: {plein: 35, rouge: 1}\n", "--zero-rule", "lose")
    assert done.returncode == 2 and "internal error" not in done.stderr
    assert "pockets" in done.stderr


def test_a_double_zero_wheel_still_gives_the_american_edge(cli, tmp_path):
    done = edge(cli, tmp_path, "american_roulette", "LU", "game: american_roulette\nwheel: {pockets: 38}\n"
                "payouts: {plein: 35, rouge: 1}\n", "--zero-rule", "lose")
    assert done.returncode == 0, done.stderr
    assert {row["bet"]: row["fraction"] for row in json.loads(done.stdout)} == {"plein": "1/19", "rouge": "1/19"}


def test_a_bet_named_twice_with_two_payouts_is_a_clear_error_not_an_internal_one(cli, tmp_path):
    done = edge(cli, tmp_path, "roulette", "LU", "game: roulette\npayouts: {plein: 35, pleno: 30}\n",
                "--zero-rule", "lose")
    assert done.returncode == 2 and "internal error" not in done.stderr and "plein twice" in done.stderr


@pytest.mark.parametrize("game, jurisdiction, payouts, bet", [
    ("roulette", "LU", "{plein: 35, premier_quatre: 8, rouge: 1}", "premier_quatre"),
    ("punto_banco", "LU", "{punto: 1, banco: 0.95, egalite: 8, dragon: 30}", "dragon"),
    ("craps", "PT", "{pass_line: 1, horn: 30}", "horn"),
])
def test_a_bet_of_the_tables_schedule_no_engine_computes_is_said_left_out(cli, tmp_path, game, jurisdiction,
                                                                          payouts, bet):
    # Before: the bet was dropped from the edges in silence, as if the table did not offer it.
    done = edge(cli, tmp_path, game, jurisdiction, f"game: {game}\npayouts: {payouts}\n", "--zero-rule", "lose")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert bet not in {row["bet"] for row in rows} and f"{bet} left out" in rows[0]["note"]


@pytest.mark.parametrize("decks", ["0", "-3"])
def test_a_shoe_of_no_decks_is_refused_not_computed_as_an_infinite_deck(cli, decks):
    # Before: `edge blackjack -j PT --decks 0` (or -3) printed the infinite-deck edge, exit 0.
    done = cli("edge", "blackjack", "-j", "PT", "--decks", decks, "--format", "json")
    assert done.returncode == 2 and "--decks" in done.stderr + done.stdout


def test_an_unknown_zero_rule_is_a_clear_error_not_an_internal_one(cli, tmp_path):
    # Before: `--zero-rule bogus` was read outside the engine's guard: "internal error: ValueError".
    done = edge(cli, tmp_path, "roulette", "LU", "game: roulette\npayouts: {plein: 35, rouge: 1}\n",
                "--zero-rule", "bogus")
    assert done.returncode == 2 and "internal error" not in done.stderr
    assert "unknown zero rule 'bogus'" in done.stderr
