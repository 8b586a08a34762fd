"""PT roleta francesa has 37 numbers (Secção II, n.º 2; the spin, n.º 23: «num dos 37 compartimentos do prato»).
A table configuration declaring a 38-pocket wheel is refused (PT-FROUL-POCKETS), yet the log's coups are then
replayed on a double-zero wheel: a coup on "00", and a pleno on it paid 35, pass PT-ROUL-LOG-SPIN and -CHANCES,
which report both when no configuration is named. A declaration may only tighten the law (the wheel_of reading
in casino_audit/replay/roulette.py takes the configuration's pockets as given)."""

import json

from helpers.command import EXAMPLES


def test_a_refused_38_pocket_wheel_does_not_make_00_a_french_roulette_pocket(cli, tmp_path):
    table = (EXAMPLES / "pt/table-french-roulette.yaml").read_text("utf-8").replace("pockets: 37", "pockets: 38")
    (tmp_path / "table.yaml").write_text(table.replace("number: RF1", "number: F1"), "utf-8")
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "Casino Estoril",
              "table": "F1", "table_config": "table.yaml"}
    coup = {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02",
            "staff": {"croupier": "C-3", "spinner": "C-7"}, "number": "00",
            "bets": [{"seat": 1, "chance": "pleno", "numbers": ["00"], "stake": 5, "net": 175}]}
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(coup) + "\n", "utf-8")
    done = cli("check", str(path), "--format", "json")
    rules = {f["rule_id"] for f in json.loads(done.stdout)["findings"]}
    assert {"PT-ROUL-LOG-SPIN", "PT-ROUL-LOG-CHANCES"} <= rules
