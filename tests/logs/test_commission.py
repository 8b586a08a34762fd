"""PT bacará's commission on banca wins (n.º 20) is the concessionaire's option «comunicada antecipadamente à
Inspecção-Geral de Jogos»: a table configuration whose commission the law does not allow (not communicated) is
its own breach, and the log's coups are settled as the law pays without it (n.º 17), never under it."""

import json

import pytest

from helpers.command import EXAMPLES

TABLE = (EXAMPLES / "pt/table-bacara.yaml").read_text("utf-8")


def _settlements(cli, tmp_path, table, net_on_eight, net_on_five):
    (tmp_path / "table.yaml").write_text(table, "utf-8")
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca", "casino": "Casino Lisboa",
              "table": "B9", "table_config": "table.yaml"}
    first = {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02", "staff": {"croupier": "P-3"},
             "shoe": 1, "burned": ["2s", "7d", "Jc", "3h", "Qs", "8d", "4c", "Ts"], "player": ["Tc", "Jd"],
             "banker": ["8c", "Th"], "outcome": "banker",
             "bets": [{"seat": 1, "chance": "banca", "stake": 100, "net": net_on_eight}]}
    second = {**first, "coup": 2, "time": "2026-11-02T21:01:05", "burned": ["2d"], "player": ["Tc", "4d"],
              "banker": ["5c", "Th"], "bets": [{"seat": 1, "chance": "banca", "stake": 100, "net": net_on_five}]}
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (header, first, second)), "utf-8")
    done = cli("check", str(path), "--format", "json")
    assert done.returncode in (0, 1), done.stdout + done.stderr
    found = json.loads(done.stdout)["findings"]
    return sorted((f["line"], f["pointer"]) for f in found if f["rule_id"] == "PT-BAC-LOG-SETTLEMENT"), found


@pytest.mark.parametrize("commission", ["{mode: five_percent, communicated: false}", "{mode: five_percent}",
                                        "{mode: half_on_five, communicated: false}"])
def test_a_commission_not_communicated_is_not_deducted_from_the_coups(cli, tmp_path, commission):
    table = TABLE.replace("commission: {mode: five_percent, communicated: true}", f"commission: {commission}")
    settled, found = _settlements(cli, tmp_path, table, 95, 50)
    assert settled == [(2, "/bets/0/net"), (3, "/bets/0/net")]  # n.º 17: the banca's win is the stake
    assert any(f["rule_id"] == "PT-BAC-COMMISSION" for f in found)  # the configuration's own breach
    settled, _ = _settlements(cli, tmp_path, table, 100, 100)
    assert settled == []


def test_a_commission_communicated_is_the_table_s(cli, tmp_path):
    assert _settlements(cli, tmp_path, TABLE, 95, 95)[0] == []
    half = TABLE.replace("mode: five_percent", "mode: half_on_five")
    assert _settlements(cli, tmp_path, half, 100, 50)[0] == []
