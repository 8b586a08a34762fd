"""`casino-audit edge`: each bet's house edge, exactly, from the law's rules of play and schedule (or a table's)."""

import json

from helpers.command import EXAMPLES

PUNTO_BANCO_TABLE = (EXAMPLES / "lu/table-punto-banco.yaml").read_text("utf-8")


def edges_of(cli, *args, **options) -> dict[str, str]:
    done = cli("edge", *args, "--format", "json", **options)
    assert done.returncode == 0, done.stderr
    return {row["bet"]: row["fraction"] for row in json.loads(done.stdout)}


def test_luxembourg_punto_banco_with_the_laws_six_decks_and_schedule(cli):
    edges = edges_of(cli, "punto_banco", "-j", "LU")
    assert edges == {"punto": "18880657128/1525814595305", "banco": "460294100/43594702723",
                     "egalite": "220299549488/1525814595305"}  # 1.2374 %, 1.0558 %, 14.4382 %
    assert edges_of(cli, "punto_banco", "-j", "LU", "--decks", "8")["banco"] == "114753351728/10847218479825"


def test_a_tables_own_schedule_is_used_when_given(cli, tmp_path):
    table = tmp_path / "pb.yaml"
    table.write_text(PUNTO_BANCO_TABLE.replace("egalite: 8", "egalite: 9"))
    edges = edges_of(cli, "punto_banco", "-j", "LU", "--table", str(table))
    assert edges["egalite"] != edges_of(cli, "punto_banco", "-j", "LU")["egalite"]
    assert edges["banco"] == "460294100/43594702723"


def test_roulettes_under_each_laws_zero_rule(cli):
    english = edges_of(cli, "english_roulette", "-j", "LU")  # Art. 37-2: simple chances lose half
    assert english["plein"] == "1/37" and english["rouge"] == "1/74" and english["deux_douzaines"] == "1/37"
    portuguese = edges_of(cli, "american_roulette", "-j", "PT")  # n.º 28: they lose
    assert set(portuguese.values()) == {"1/37"} and "encarnado" not in portuguese  # engine names, law's values


def test_what_the_law_leaves_out_is_never_guessed(cli, tmp_path):
    done = cli("edge", "bacara_ponto_banca", "-j", "PT")  # the drawing table is missing from the source
    assert done.returncode == 2 and "no drawing table" in done.stderr
    done = cli("edge", "roulette", "-j", "LU")  # no payout schedule in the law's encoded text
    assert done.returncode == 2 and "payout schedule" in done.stderr
    table = tmp_path / "roulette.yaml"
    table.write_text("kind: table\njurisdiction: LU\ngame: roulette\npayouts: {plein: 35, rouge: 1}\n")
    done = cli("edge", "roulette", "-j", "LU", "--table", str(table))
    assert done.returncode == 2 and "--zero-rule" in done.stderr  # LU roulette: the text says nothing of the zero
    edges = edges_of(cli, "roulette", "-j", "LU", "--table", str(table), "--zero-rule", "en_prison_one_spin")
    assert edges == {"plein": "1/37", "rouge": "19/1369"}
    done = cli("edge", "english_roulette", "-j", "LU", "--zero-rule", "lose")  # the law states half_back
    assert done.returncode == 2 and "the law states 'half_back'" in done.stderr
    done = cli("edge", "poker_sem_descarte", "-j", "PT")  # the dealer's not playing: the raise is a parameter
    assert done.returncode == 2 and "poker_sem_descarte_unqualified_raise" in done.stderr
    assert cli("edge", "punto_banco", "-j", "LU", "--table", str(table)).returncode == 2  # another game's table


def test_the_rich_table_names_the_source_of_the_schedule(cli):
    done = cli("edge", "punto_banco", "-j", "LU")
    words = " ".join(done.stdout.split())  # the title may wrap on a narrow terminal
    assert done.returncode == 0 and "the law's schedule (lu)" in words and "1.0558%" in words


def test_edge_takes_the_values_the_law_leaves_out_as_check_does(cli):
    missing = cli("edge", "poker_sem_descarte", "-j", "PT", "--rounds", "2000")
    assert missing.returncode == 2 and "poker_sem_descarte_unqualified_raise with --param" in missing.stderr
    given = cli("edge", "poker_sem_descarte", "-j", "PT", "--rounds", "2000", "--format", "json",
                "--param", "poker_sem_descarte_unqualified_raise=push")
    assert given.returncode == 0, given.stderr
    [ante] = json.loads(given.stdout)
    assert ante["bet"] == "ante" and ante["exact"] is False and ante["rounds"] == 2000
    assert ante["ci95"][0] < ante["house_edge"] < ante["ci95"][1]
    craps = json.loads(cli("edge", "craps", "-j", "PT", "--format", "json", "--param", "craps_place_6_pays=7/6").stdout)
    assert {e["bet"]: e["fraction"] for e in craps}["place_6"] == "1/66"
    assert cli("edge", "craps", "-j", "PT", "--param", "no_such_value=1").returncode == 2
