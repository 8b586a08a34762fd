"""A game log's header limits held to what a stake is; the log kinds' reference pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casino_audit.documents import kinds
from casino_audit.replay import STAKE_SCHEMA

REPO = Path(__file__).resolve().parents[2]
HEADER = {"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco", "casino": "C", "table": "T1"}
BURN = ["3d", "2s", "8c", "Jd"]  # a shoe's burn (LU Art. 37-4): a three turned, three cards burnt after it
COUP = {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S1", "shoe": 1, "burned": BURN, "player": ["9h", "Kd"],
        "banker": ["5c", "Qh"], "outcome": "player", "bets": [{"seat": 1, "chance": "punto", "stake": 100,
                                                               "net": 100}]}


def _check(cli, tmp_path, limits):
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(json.dumps(record) for record in ({**HEADER, "limits": limits}, COUP)) + "\n")
    done = cli("check", str(log), "--param", "punto_banco_minimum_multiple_eur=20", "--param",
               "punto_banco_minimum_floor_eur=20", "--param", "punto_banco_stake_minimum_eur=20", "--format", "json")
    return done.returncode, [(f["rule_id"], f["line"], f["pointer"]) for f in json.loads(done.stdout)["findings"]]


@pytest.mark.parametrize("minimum", ["0", "0.00", 0, -20, "-20"])
def test_a_header_minimum_of_nothing_is_refused_not_a_coefficient_check_switched_off(cli, tmp_path, minimum):
    """A header minimum written "0" was taken, and a maximum 5,000 times it was never held to LU Art. 37-3."""
    rc, found = _check(cli, tmp_path, {"minimum": minimum, "maximum": 100000})
    assert rc == 1 and ("SHAPE-INVALID", 1, "/limits/minimum") in found


@pytest.mark.parametrize("where", ["maximum", "minima", "maxima"])
def test_every_header_limit_is_more_than_nothing(cli, tmp_path, where):
    limits = {"minimum": 20, "maximum": 2000}
    limits[where] = {"punto": "0"} if where in ("minima", "maxima") else "0"
    rc, found = _check(cli, tmp_path, limits)
    assert rc == 1 and any(f[0] == "SHAPE-INVALID" and f[2].startswith(f"/limits/{where}") for f in found), found


def test_the_header_limits_take_what_a_coup_limit_takes():
    limits = kinds.schema("game-log")["properties"]["limits"]["properties"]
    for amount in (limits["minimum"], limits["maximum"], limits["minima"]["additionalProperties"],
                   limits["maxima"]["additionalProperties"]):
        assert amount["anyOf"] == STAKE_SCHEMA["anyOf"]


def test_a_legal_header_is_taken(cli, tmp_path):
    assert _check(cli, tmp_path, {"minimum": "20", "maximum": 2000}) == (0, [])


@pytest.mark.parametrize("name", ["game-log", "meter-log"])
def test_the_log_reference_pages_are_current(cli, name):
    done = cli("schema", name, "--format", "markdown")
    assert done.returncode == 0
    committed = (REPO / "docs" / f"{name}s.md").read_text("utf-8")
    assert done.stdout == committed, f"run: casino-audit schema {name} --format markdown > docs/{name}s.md"


def test_a_reference_page_lists_every_field_and_csv_column(cli):
    from casino_audit.logs.schema import game_log_schema
    from casino_audit.games import registry
    from casino_audit.replay import families

    page = cli("schema", "game-log", "--format", "markdown").stdout
    schema = game_log_schema()
    for name in schema["properties"]:
        if name != "$schema":
            assert f"| `{name}` |" in page
    for family, coup in schema["$defs"].items():
        assert f"## {coup['title']}" in page
        for name in coup["properties"]:
            assert f"| `{name}` |" in page
    for family in registry.FAMILIES:
        for column in getattr(families.module(family), "CSV_COLUMNS", None) or {}:
            assert f"| `{column}` |" in page
    assert "| `bets[].stake` | number or text | yes |" in page
    assert "JSON Lines only" in page  # blackjack and stud have no CSV layout, and say so


def test_every_schema_has_a_reference_page_and_a_bad_format_is_a_usage_error(cli):
    for name in ("machine", "table", "ruleset", "report"):
        done = cli("schema", name, "--format", "markdown")
        assert done.returncode == 0 and done.stdout.startswith("# ") and "| field | type |" in done.stdout
    done = cli("schema", "game-log", "--format", "yaml")
    assert done.returncode == 2 and "unknown format" in done.stderr


def _numbered(cli, tmp_path, numbers, header=None, name="log.jsonl"):
    log = tmp_path / name
    coups = [{**COUP, "coup": n, "time": f"2026-11-02T21:{i:02}:00"} for i, n in enumerate(numbers)]
    for coup in coups[1:]:
        del coup["burned"]  # burnt at the shoe's start alone
    log.write_text("\n".join(json.dumps(r) for r in ({**HEADER, "limits": {"minimum": 20, "maximum": 2000},
                                                      **(header or {})}, *coups)) + "\n")
    done = cli("check", str(log), "--param", "punto_banco_minimum_multiple_eur=20", "--param",
               "punto_banco_minimum_floor_eur=20", "--param", "punto_banco_stake_minimum_eur=20", "--format", "json")
    return done.returncode, [(f["rule_id"], f["line"], f["message"]) for f in json.loads(done.stdout)["findings"]]


def test_coups_cut_from_a_logs_start_are_missing_coups(cli, tmp_path):
    """A log starting at coup 57 passed: the 56 coups before it (and their breaches) were gone unseen."""
    rc, found = _numbered(cli, tmp_path, [57, 58])
    assert rc == 1 and [(f[0], f[1]) for f in found] == [("LOG-NUMBERING", 2)]
    assert "starts at coup 57: coups 1 to 56 are not in it" in found[0][2]
    assert _numbered(cli, tmp_path, [2, 3])[1][0][2].startswith("the log starts at coup 2: coup 1 is not in it")


def test_a_log_that_continues_another_says_where_it_starts(cli, tmp_path):
    assert _numbered(cli, tmp_path, [57, 58], {"first_coup": 57}) == (0, [])
    assert _numbered(cli, tmp_path, [1, 2]) == (0, [])
    rc, found = _numbered(cli, tmp_path, [56, 57], {"first_coup": 57})  # before its own declared start
    assert rc == 1 and found[0][:2] == ("LOG-NUMBERING", 2) and "its header says it starts at 57" in found[0][2]
    rc, found = _numbered(cli, tmp_path, [57], {"first_coup": "57"})  # a number, not text
    assert rc == 1 and found[0][0] == "SHAPE-INVALID"


def test_a_csv_log_says_where_it_starts_in_its_header(cli, tmp_path):
    head = ("# kind: game-log\n# jurisdiction: LU\n# game: punto_banco\n# casino: C\n# table: P\n"
            "# limits.minimum: 20\n# limits.maximum: 2000\n{}"
            "coup,time,session,shoe,burned,player,banker,outcome,seat,chance,stake,net\n"
            "57,2026-11-02T21:00:00,S1,1,3d 2s 8c Jd,9h Kd,5c Qh,player,1,punto,100,100\n")
    for first, expected in (("# first_coup: 57\n", []), ("", ["LOG-NUMBERING"])):
        log = tmp_path / "log.csv"
        log.write_text(head.format(first))
        done = cli("check", str(log), "--param", "punto_banco_minimum_multiple_eur=20", "--param",
                   "punto_banco_minimum_floor_eur=20", "--param", "punto_banco_stake_minimum_eur=20", "--format", "json")
        assert [f["rule_id"] for f in json.loads(done.stdout)["findings"]] == expected


def test_edge_says_when_a_table_is_computed_under_another_law_than_its_own(cli):
    args = ("edge", "english_roulette", "--zero-rule", "lose", "--table", str(REPO / "examples/lu/table-english-roulette.yaml"),
            "--format", "rich")
    other = " ".join(cli(*args, "-j", "PT").stdout.split())
    assert "a table filed under LU, its edges computed under PT's rules: -j" in other
    assert "filed under" not in cli(*args, "-j", "LU").stdout


@pytest.mark.parametrize("stakes_and_payouts, where", [
    ("stakes: {minimum_eur: 0, maximum_eur: 100000}", "stakes/minimum_eur"),  # the coefficient check was off
    ("stakes: {minimum_eur: '0', maximum_eur: 100000}", "stakes/minimum_eur"),
    ("stakes: {minimum_eur: 20, maximum_eur: 2000}\npayout: {punto: 2, banco: 0.95, egalite: 8}", "payout"),
    ("stakes: {minimum_eur: 20, maximum_eur: 2000}\npayouts: {punto: x, banco: 0.95, egalite: 8}", "payouts/punto"),
    ("stakes: [20, 2000]", "stakes"),  # an internal error
])
def test_a_logs_table_configuration_is_shape_checked_before_its_coups_are_replayed_under_it(
        cli, tmp_path, stakes_and_payouts, where):
    """A log's table configuration outside the run was read for its payouts and limits unchecked: a minimum of 0
    switched the coefficient check off (exit 0), a misspelt `payouts:` let the law's schedule stand, a payout
    that is text crashed the replay."""
    table = [line for line in (REPO / "examples/lu/table-punto-banco.yaml").read_text().splitlines()
             if not line.startswith(("stakes:", "payouts:"))]
    (tmp_path / "logs" / "tables").mkdir(parents=True)  # below the log's directory: read though not named
    (tmp_path / "logs" / "tables" / "t.yaml").write_text("\n".join(table) + "\n" + stakes_and_payouts + "\n")
    log = tmp_path / "logs" / "log.jsonl"
    coups = [{**COUP, "coup": n, "time": f"2026-11-02T21:0{n}:00"} for n in (1, 2)]
    del coups[1]["burned"]
    header = {**HEADER, "casino": "Casino 2000 Mondorf-les-Bains", "table": "P1", "table_config": "tables/t.yaml"}
    log.write_text("\n".join(json.dumps(r) for r in (header, *coups)) + "\n")
    done = cli("check", str(log), "--param", "punto_banco_minimum_multiple_eur=20", "--format", "json")
    found = [f for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "LOAD-UNREADABLE"]
    assert done.returncode == 1 and len(found) == 1 and found[0]["pointer"] == "/table_config"
    assert "is not well-formed" in found[0]["message"] and f"t.yaml:" in found[0]["message"]
    assert where.split("/")[-1] in found[0]["message"]
    (tmp_path / "logs" / "tables" / "t.yaml").write_text("\n".join(table) + "\nstakes: {minimum_eur: 20, maximum_eur: 2000}\n"
                                                "payouts: {punto: 1, banco: 0.95, egalite: 8}\n")
    done = cli("check", str(log), "--param", "punto_banco_minimum_multiple_eur=20", "--format", "json")
    assert done.returncode == 0, done.stdout


def test_a_meter_return_passed_on_equal_stakes_alone_is_said_so(tmp_path):
    """Without a maximum stake (no `denomination`), the realised return is judged as if every game staked the
    same: a games_played meter that barely moves widens the interval at will, and a 70 % machine passed with
    nothing said. Where it passes so, each return rule says how it was judged; --require-params fails it."""
    from helpers.meters import MACHINE_TEXT, START, check, header, reading, write

    plain = header()
    plain.pop("denomination", None)
    records = [plain, *(reading(day, coin_out=START["coin_out"] + day * 2800,
                                games_played=START["games_played"] + day * 5) for day in range(60))]
    # no maximum stake in the file either (without a denomination its smallest unit bounds the stakes)
    path = write(tmp_path, records, machine_text=MACHINE_TEXT.replace("  maximum_eur: 10.00\n", ""))
    said = [f for f in check(path).findings if f.rule_id.startswith("LU-SLOT-LOG-RETURN")]
    assert sorted(f.rule_id for f in said) == ["LU-SLOT-LOG-RETURN-DEPARTURE", "LU-SLOT-LOG-RETURN-MIN",
                                               "LU-SLOT-LOG-RETURN-RATE"]
    assert all(f.severity.name == "INFO" and ("as if every game staked the same" in f.message or
                                              "stakes assumed equal" in f.message) for f in said)


@pytest.mark.parametrize("maxima, flagged", [
    ({"preto": 10}, []), ({"cavalo": 10, "chances_simples": 1000}, []),  # chances of the game, bet on or not
    ({"Preto": 10}, ["/limits/maxima/Preto"]), ({"preto ": 10, "preto": 10}, ["/limits/maxima/preto "]),
])
def test_a_per_chance_limit_under_no_chance_of_the_game_is_found(cli, tmp_path, maxima, flagged):
    """A per-chance maximum filed under `Preto` limited nothing and the table's maximum held the stakes, in
    silence (exit 0 with stakes of 50 on preto against a maximum of 10 meant for it)."""
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "C", "table": "T",
              "limits": {"minimum": 5, "maximum": 5000, "maxima": maxima}}
    coup = {"coup": 1, "time": "2026-11-02T15:00:00", "session": "S", "number": 10,
            "bets": [{"seat": 1, "chance": "preto", "stake": 5, "net": 5}]}
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(header) + "\n" + json.dumps(coup) + "\n")
    done = cli("check", str(log), "--format", "json")
    found = [(f["line"], f["pointer"], f["severity"]) for f in json.loads(done.stdout)["findings"]
             if f["rule_id"] == "LOAD-AMBIGUOUS"]
    assert found == [(1, pointer, "error") for pointer in flagged]
    assert done.returncode == (1 if flagged else 0)


def test_a_table_configurations_per_chance_limit_under_no_chance_is_found(cli, tmp_path):
    table = (REPO / "examples/lu/table-punto-banco.yaml").read_text().replace(
        "stakes: {minimum_eur: 20, maximum_eur: 2000}",
        "stakes: {minimum_eur: 20, maximum_eur: 2000, maxima_eur: {egalite: 200, tie: 100}}")
    assert "maxima_eur" in table
    (tmp_path / "t.yaml").write_text(table)
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(json.dumps(r) for r in ({**HEADER, "table_config": "t.yaml"}, COUP)) + "\n")
    done = cli("check", str(log), "--param", "punto_banco_minimum_multiple_eur=20", "--format", "json")
    found = [f for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "LOAD-AMBIGUOUS"]
    assert [(f["pointer"], "'tie'" in f["message"]) for f in found] == [("/table_config", True)]


@pytest.mark.parametrize("name, value", [("blackjack_dealer_rule", "H17"), ("blackjack_double_after_split", "true"),
                                         ("blackjack_dealer_blackjack_takes", "All"), ("roulette_zero_rule", "bogus")])
def test_a_parameter_outside_its_values_is_a_usage_error(cli, tmp_path, name, value):
    """`blackjack_dealer_rule=H17` was taken, and every blackjack check of the log became an info note (exit 0,
    a stake of 10 settled at -500 unseen). A parameter that lists its values refuses any other, as a config does."""
    done = cli("check", str(REPO / "examples"), "--param", f"{name}={value}")
    assert done.returncode == 2 and f"parameter {name} takes" in done.stderr
    (tmp_path / "casino-audit.yaml").write_text(f"params: {{{name}: {value!r}}}\n")
    done = cli("check", str(REPO / "examples/lu/machine-compliant.yaml"), "--config",
               str(tmp_path / "casino-audit.yaml"))
    assert done.returncode == 2 and f"parameter {name} takes" in done.stderr


def test_rules_of_play_a_parameter_makes_unreadable_are_an_error_not_a_note(cli):
    """`blackjack_surrender_loses=half` (no amount) made the rules of play unreadable: every blackjack check was an
    info note, exit 0. What was given and cannot be read is an error of the run."""
    from helpers.game_logs import LU_PARAMS

    params = [x for k, v in {**LU_PARAMS, "blackjack_surrender_loses": "half"}.items()
              for x in ("--param", f"{k}={v}")]
    done = cli("check", str(REPO / "examples/lu/log-blackjack.jsonl"), *params, "--format", "json")
    found = [f for f in json.loads(done.stdout)["findings"] if "cannot be read" in f["message"]]
    assert done.returncode == 1 and found and all(f["severity"] == "error" for f in found)


def test_only_a_string_parameter_may_list_its_values(tmp_path, cli):
    ruleset = tmp_path / "house.yaml"
    for kind, valid in (("integer", False), ("string", True)):
        ruleset.write_text(f"ruleset: house\nextends: lu\nparams:\n  house_count:\n    type: {kind}\n"
                           "    one_of: ['1']\n    description: a count\n    citation: {article: Art. 1, text: x}\n"
                           "rules: []\n")
        done = cli("rulesets", "validate", str(ruleset))
        said = done.stdout + done.stderr
        assert (done.returncode == 0) == valid and ("`params/house_count/type`" in said) != valid, said


def test_a_misspelt_first_coup_declares_nothing(cli, tmp_path):
    """`First_coup: 57` is no declaration: refused as a field, and the coups before 57 are still missing."""
    rc, found = _numbered(cli, tmp_path, [57, 58], {"First_coup": 57})
    assert rc == 1 and [f[0] for f in found] == ["SHAPE-UNKNOWN-FIELD", "LOG-NUMBERING"]


def test_a_listed_parameter_written_as_a_yaml_1_1_boolean_is_refused_not_read_as_true(cli, tmp_path):
    config = tmp_path / "casino-audit.yaml"
    config.write_text("params: {blackjack_double_after_split: yes}\n")
    done = cli("check", str(REPO / "examples/lu/machine-compliant.yaml"), "--config", str(config))
    assert done.returncode == 2 and "blackjack_double_after_split" in done.stderr
    config.write_text("params: {blackjack_double_after_split: 'yes'}\n")
    assert cli("check", str(REPO / "examples/lu/machine-compliant.yaml"), "--config", str(config)).returncode == 0
