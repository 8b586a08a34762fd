"""A log header's `decks` and the table configuration it names that disagree: the configuration's count is
taken, and the disagreement is said (as two limits for one are), never a declaration set aside in silence."""

import json

from helpers.command import EXAMPLES


def _found(cli, tmp_path, header_decks):
    lines = (EXAMPLES / "pt/log-blackjack.jsonl").read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    table = (EXAMPLES / "pt/table-blackjack.yaml").read_text("utf-8")
    (tmp_path / "table.yaml").write_text(table, "utf-8")
    header.update({"table_config": "table.yaml", "decks": header_decks})
    header.pop("limits", None)
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", "utf-8")
    done = cli("check", str(path), "--format", "json", "--param", "blackjack_jackpot_stake_eur=1")
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return [(f["rule_id"], f["pointer"]) for f in json.loads(done.stdout)["findings"]
            if f["file"] == str(path) and f["pointer"] == "/decks"]


def test_a_header_s_decks_other_than_the_configuration_s_is_said(cli, tmp_path):
    assert "decks: 6" in (EXAMPLES / "pt/table-blackjack.yaml").read_text("utf-8")
    assert _found(cli, tmp_path, 4) == [("LOAD-AMBIGUOUS", "/decks")]
    assert _found(cli, tmp_path, 6) == []
