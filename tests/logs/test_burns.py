"""A shoe's burns as the law says them: PT bacará's eight at a shoe's start (n.º 6) and one before every coup
but the first (n.º 13); PT blackjack's one before a shoe's deal starts (n.º 10); LU punto banco's (Art. 37-4). A
continuation log that starts mid-shoe says so (`shoe_continues`) and is then not held to a burn it could not record."""

import json

import pytest

from helpers.command import EXAMPLES


def _lines(name):
    return [json.loads(line) for line in (EXAMPLES / name).read_text("utf-8").splitlines()]


def _found(cli, tmp_path, records, *extra, table=None):
    if table is not None:
        (tmp_path / "table.yaml").write_text(table, "utf-8")
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    done = cli("check", str(path), "--format", "json", *extra)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return [f for f in json.loads(done.stdout)["findings"] if f["file"] == str(path)]


def _burns(found):
    return sorted((f["rule_id"], f["pointer"], f["severity"]) for f in found if "BURN" in f["rule_id"]
                  or f["pointer"] == "/shoe_continues")


BAC = "pt/log-bacara.jsonl"


def test_the_compliant_bacara_log_burns_eight_then_one_a_coup():
    coups = _lines(BAC)[1:]
    assert [len(c["burned"]) for c in coups] == [8, 1, 1, 1]


@pytest.mark.parametrize("first, later, found", [
    (8, 1, []),
    (7, 1, [("PT-BAC-LOG-BURN", "/burned")]), (9, 1, [("PT-BAC-LOG-BURN", "/burned")]),
    (0, 1, [("PT-BAC-LOG-BURN", "/shoe")]),
    (8, 0, [("PT-BAC-LOG-BURN-EACH", "/shoe")] * 3), (8, 2, [("PT-BAC-LOG-BURN-EACH", "/burned")] * 3),
])
def test_pt_bacara_burns_eight_at_a_shoes_start_and_one_before_each_later_coup(cli, tmp_path, first, later, found):
    records = _lines(BAC)
    deck = [r + s for r in "A23456789TJQK" for s in "cdhs"]
    for coup in records[1:]:
        coup.pop("burned")
        n = first if coup["coup"] == 1 else later
        if n:
            coup["burned"] = deck[:n]
    got = _found(cli, tmp_path, records, "--select", "PT-BAC-LOG-BURN")
    assert [(rule, pointer) for rule, pointer, _ in _burns(got)] == sorted(found)


def test_a_new_shoe_is_held_to_its_start_burn_and_its_first_coup_to_no_other(cli, tmp_path):
    records = _lines(BAC)
    records[3]["shoe"] = records[4]["shoe"] = 2  # coup 3 opens shoe 2 with one card burnt, not eight
    got = _burns(_found(cli, tmp_path, records, "--select", "PT-BAC-LOG"))
    assert got == [("PT-BAC-LOG-BURN", "/burned", "error")]
    records[3]["burned"] = ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]
    assert _burns(_found(cli, tmp_path, records, "--select", "PT-BAC-LOG")) == []


def test_an_automatic_shuffling_shoe_burns_none_at_its_start_but_one_before_each_later_coup(cli, tmp_path):
    # n.º 5, a): «Não há lugar ao corte nem à aplicação do disposto nos n.os 6 e 7»; n.º 13 still holds
    table = (EXAMPLES / "pt/table-bacara.yaml").read_text("utf-8").replace(
        "shoe: {used: true}", "shoe: {used: true}\nshuffler: {approved: true, deals: true}")
    records = _lines(BAC)
    records[0].update({"table_config": "table.yaml", "casino": "Casino Lisboa", "table": "B9"})
    records[0].pop("limits")
    records[1]["burned"] = []
    got = _burns(_found(cli, tmp_path, records, "--select", "PT-BAC-LOG-BURN", table=table))
    assert got == []
    records[2].pop("burned")
    got = _burns(_found(cli, tmp_path, records, "--select", "PT-BAC-LOG-BURN", table=table))
    assert got == [("PT-BAC-LOG-BURN-EACH", "/shoe", "error")]
    got = _burns(_found(cli, tmp_path, records, "--select", "PT-BAC-LOG-BURN",
                        table=table.replace("deals: true", "deals: false")))
    assert ("PT-BAC-LOG-BURN", "/burned", "error") in got  # a shuffler that does not deal: n.º 6 holds


BJ = "pt/log-blackjack.jsonl"


def test_pt_blackjack_burns_one_card_before_each_shoes_deal(cli, tmp_path):
    records = _lines(BJ)
    params = ("--param", "blackjack_jackpot_stake_eur=1", "--select", "PT-BJ-LOG-BURN")
    assert _burns(_found(cli, tmp_path, records, *params)) == []
    records[1].pop("burned")
    assert _burns(_found(cli, tmp_path, records, *params)) == [("PT-BJ-LOG-BURN", "/shoe", "error")]
    records[1]["burned"] = []
    assert _burns(_found(cli, tmp_path, records, *params)) == [("PT-BJ-LOG-BURN", "/burned", "error")]
    records[1]["burned"] = ["5d"]
    for coup in records[2:]:  # coup 2 opens shoe 2; its later coups burn nothing (n.º 10 is once per shoe, n.º 11)
        coup["shoe"] = 2
        coup.pop("burned", None)
    assert _burns(_found(cli, tmp_path, records, *params)) == [("PT-BJ-LOG-BURN", "/shoe", "error")]
    records[2]["burned"] = ["7c"]
    assert _burns(_found(cli, tmp_path, records, *params)) == []


# --- continuation logs -----------------------------------------------------------------------------------------

def _continued(name, first_coup):
    """The log's coups renumbered from first_coup, its first shoe's start burn left out (it is in the log before)."""
    records = _lines(name)
    records[0]["first_coup"] = first_coup
    for offset, coup in enumerate(records[1:]):
        coup["coup"] = first_coup + offset
    return records


@pytest.mark.parametrize("name, rule, params, later", [
    ("lu/log-punto-banco.jsonl", "LU-PB-LOG-BURN", (), None),
    (BAC, "PT-BAC-LOG-BURN", (), ["6h"]),
    (BJ, "PT-BJ-LOG-BURN", ("--param", "blackjack_jackpot_stake_eur=1"), None),
])
def test_a_continuation_log_that_says_its_shoe_continues_is_not_held_to_that_shoes_start_burn(
        cli, tmp_path, name, rule, params, later):
    records = _continued(name, 41)
    if later is None:
        records[1].pop("burned")
    else:  # PT bacará: its first coup is a later coup of the shoe, held to n.º 13's one card
        records[1]["burned"] = later
    select = ("--select", rule, *params)
    # without `shoe_continues`, held to the burn as any log
    assert (rule, "/shoe" if later is None else "/burned", "error") in _burns(_found(cli, tmp_path, records, *select))
    records[0]["shoe_continues"] = True
    got = _burns(_found(cli, tmp_path, records, *select))
    assert got == [(rule, "", "info")]  # said: that shoe's start is in the other log
    if later is not None:  # its first coup is held to the burn before a later coup
        records[1].pop("burned")
        got = _burns(_found(cli, tmp_path, records, *select))
        assert ("PT-BAC-LOG-BURN-EACH", "/shoe", "error") in got


def test_a_continuation_log_is_held_to_the_burn_of_each_later_shoe(cli, tmp_path):
    records = _continued("lu/log-punto-banco.jsonl", 41)
    records[0]["shoe_continues"] = True
    records[1].pop("burned")
    shoes = {coup["shoe"] for coup in records[1:]}
    records[-1]["shoe"] = max(shoes) + 1  # the log's last coup opens a new shoe, without its burn
    records[-1].pop("burned", None)
    got = _burns(_found(cli, tmp_path, records, "--select", "LU-PB-LOG-BURN"))
    assert ("LU-PB-LOG-BURN", "/shoe", "error") in got


def test_a_log_starting_at_coup_one_cannot_say_its_shoe_continues(cli, tmp_path):
    records = _lines("lu/log-punto-banco.jsonl")
    records[0]["shoe_continues"] = True
    records[1].pop("burned")
    got = _burns(_found(cli, tmp_path, records, "--select", "LU-PB-LOG-BURN"))
    assert got == [("LOAD-AMBIGUOUS", "/shoe_continues", "error"), ("LU-PB-LOG-BURN", "/shoe", "error")]


def test_shoe_continues_is_in_the_header_schema_and_the_docs():
    from casino_audit.logs.schema import game_log_schema
    assert game_log_schema()["properties"]["shoe_continues"]["type"] == "boolean"
    assert "shoe_continues" in (EXAMPLES.parent / "docs/game-logs.md").read_text("utf-8")
