"""LU Art. 37-7 fixes the whole stud poker schedule (a closed LU-STUD-PAYOUTS schedule), and the replay settles
a coup at the law's payouts whatever the table says (casino_audit/logs/terms.py `_law_fixed`). Yet one payout
key the law does not know added to the table configuration (`bonus: 9`, refused by LU-STUD-PAYOUTS) makes
`paytable_from_payouts` refuse the merged schedule, and every coup's settlement turns "not checked": a two
pairs paid 1 to 1 instead of «2 fois la mise» (Art. 37-7) passes, though the law's schedule settles it."""

import json

from helpers.command import EXAMPLES


def test_an_unknown_payout_key_in_the_table_does_not_turn_off_the_law_s_schedule(cli, tmp_path):
    table = (EXAMPLES / "lu/table-stud-poker.yaml").read_text("utf-8").replace(
        "payouts: {une_paire: 1,", "payouts: {une_paire: 1, bonus: 9,")
    (tmp_path / "table.yaml").write_text(table, "utf-8")
    header = {"kind": "game-log", "jurisdiction": "LU", "game": "stud_poker",
              "casino": "Casino 2000 Mondorf-les-Bains", "table": "S1", "table_config": "table.yaml"}
    coup = {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S-001", "dealer": ["8d", "8h", "As", "Kc", "2s"],
            "boxes": [{"box": 1, "seat": 1, "cards": ["9c", "9s", "5d", "5h", "3c"], "ante": "10",
                       "decision": "raise", "raise": "20", "net": "30"}],
            "staff": {"chef_de_table": "T-22", "croupier": "C-65"}}
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(coup) + "\n", "utf-8")
    done = cli("check", str(path), "--format", "json", "--param", "stud_poker_high_card_raise=push")
    found = [f["pointer"] for f in json.loads(done.stdout)["findings"]
             if f["rule_id"] == "LU-STUD-LOG-SETTLEMENT" and f["severity"] == "error"]
    assert found == ["/boxes/0/net"]
