"""PT bacará with an automatic shuffling shoe (n.º 5, a): no burn at a shoe's start (n.os 6 and 7 set aside), but
one card before every lance but the first (n.º 13). Where nothing is burnt at a shoe's start, the log's `shoe`
numbers mark no first lance: numbering every coup a new shoe burns nothing and must not pass."""

import json

from helpers.command import EXAMPLES


def _lines(name):
    return [json.loads(line) for line in (EXAMPLES / name).read_text("utf-8").splitlines()]


def _burn_findings(cli, tmp_path, records, table, *options):
    (tmp_path / "table.yaml").write_text(table, "utf-8")
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    done = cli("check", str(path), "--format", "json", "--select", "PT-BAC-LOG-BURN", *options)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return sorted((f["rule_id"], f["pointer"]) for f in json.loads(done.stdout)["findings"]
                  if f["file"] == str(path) and (f["rule_id"].startswith("PT-BAC-LOG-BURN") or f["rule_id"] == "LOG-SESSION"))


def _shuffled():
    table = (EXAMPLES / "pt/table-bacara.yaml").read_text("utf-8").replace(
        "shoe: {used: true}", "shoe: {used: true}\nshuffler: {approved: true, deals: true}")
    records = _lines("pt/log-bacara.jsonl")
    records[0].update({"table_config": "table.yaml", "casino": "Casino Lisboa", "table": "B9"})
    records[0].pop("limits")
    records[1]["burned"] = []
    return table, records


def test_a_new_shoe_number_at_every_coup_does_not_set_aside_the_burn_before_each_lance(cli, tmp_path):
    table, records = _shuffled()
    for coup in records[1:]:
        coup["shoe"] = coup["coup"]
        coup.pop("burned", None)
    assert _burn_findings(cli, tmp_path, records, table) == [("PT-BAC-LOG-BURN-EACH", "/shoe")] * 3


def test_the_first_lance_of_a_shuffling_shoe_table_and_of_a_new_session_burn_nothing(cli, tmp_path):
    table, records = _shuffled()
    assert _burn_findings(cli, tmp_path, records, table) == []
    records[3]["session"] = records[4]["session"] = "2026-11-03"  # the next day's play
    records[3]["time"], records[4]["time"] = "2026-11-03T21:00:00", "2026-11-03T21:01:00"
    records[3].pop("burned")
    assert _burn_findings(cli, tmp_path, records, table, "--param", "session_break_minutes=60") == []


def test_a_session_relabelled_while_play_goes_on_starts_no_seance_of_a_shuffling_shoe(cli, tmp_path):
    """The label changed a minute after the previous lance: no new session began, n.º 13's card is due."""
    table, records = _shuffled()
    records[3]["session"] = records[4]["session"] = "2026-11-03"
    records[3].pop("burned")
    found = _burn_findings(cli, tmp_path, records, table, "--param", "session_break_minutes=60")
    assert found == [("LOG-SESSION", "/session"), ("PT-BAC-LOG-BURN-EACH", "/shoe")]
    # without the parameter each label is a new session: said, as the rule narrowed
    assert _burn_findings(cli, tmp_path, records, table) == [("PT-BAC-LOG-BURN-EACH", "")]


def test_without_a_shuffling_shoe_a_new_shoe_burns_eight_and_its_first_coup_no_other(cli, tmp_path):
    table, records = _shuffled()
    table = table.replace("deals: true", "deals: false")
    records[1]["burned"] = ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]
    records[3]["shoe"] = records[4]["shoe"] = 2
    records[3]["burned"] = ["2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d"]
    assert _burn_findings(cli, tmp_path, records, table) == []
