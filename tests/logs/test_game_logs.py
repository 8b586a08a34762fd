"""Game logs through the whole command: every record accounted for, and no way for a filer to make a replay rule
stop applying in silence (a field left out or misspelt, another game, an option, a wrong amount's spelling)."""

from __future__ import annotations

import gzip
import json

import pytest

from helpers.command import EXAMPLES
from helpers.game_logs import HEADER, coup, ids_at, report


def write_log(path, records, raw_lines=()) -> str:
    text = "".join(json.dumps(record) + "\n" for record in records) + "".join(raw_lines)
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_every_line_is_accounted_for(cli, tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join([
        json.dumps(HEADER).encode() + b"\n",
        json.dumps(coup(1)).encode() + b"\n",
        b'{"coup": 2, "coup": 3}\n',                      # a key twice
        b"\xff\xfe not text\n",                           # not UTF-8
        b'{"coup": 4, "time": NaN}\n',                     # NaN is no amount a log can hold
        b'{"coup": 5, "time": \n',                         # cut mid-record
        json.dumps(coup(6)).encode(),                      # the last line, its newline lost
    ]))
    done, data = report(cli, str(path))
    assert done.returncode == 1
    found = ids_at(data)
    for expected in [("LOAD-DUPLICATE-KEY", 3), ("LOAD-ENCODING", 4), ("LOAD-SYNTAX", 5), ("LOAD-SYNTAX", 6),
                     ("LOAD-TRUNCATED", 7), ("LOG-NUMBERING", 7)]:
        assert expected in found, found
    [record] = data["files"]
    assert record["records"] == {"read": 3, "checked": 2, "with_findings": 1, "unreadable": 4}
    assert data["summary"]["records_unreadable"] == 4


def test_a_stream_without_a_log_header_is_a_finding_not_a_skip(cli, tmp_path):
    headless = write_log(tmp_path / "a.jsonl", [coup(1), coup(2)])
    table = write_log(tmp_path / "b.jsonl", [{"kind": "table", "jurisdiction": "LU", "game": "punto_banco"}, coup(1)])
    done, data = report(cli, headless, table)
    assert done.returncode == 1
    assert {(f["file"].rsplit("/", 1)[-1], f["rule_id"]) for f in data["findings"] if f["line"] == 1} >= {
        ("a.jsonl", "KIND-MISSING"), ("b.jsonl", "KIND-UNKNOWN")}


@pytest.mark.parametrize("change, rule_id", [
    ({"bets": [{"seat": 1, "chance": "banco", "stake": 100}]}, "SHAPE-INVALID"),          # net left out
    ({"bets": [{"seat": 1, "chance": "banco", "stake": 100, "nett": 95}]}, "SHAPE-"),     # net misspelt
    ({"bets": [{"seat": 1, "chance": "banco", "stake": "1:40", "net": -100}]}, "SHAPE-INVALID"),  # base 60
    ({"bets": [{"seat": 1, "chance": "banco", "stake": True, "net": -100}]}, "SHAPE-INVALID"),
    ({"player": ["9h", "10d"]}, "SHAPE-INVALID"),                                       # a card spelt loosely
    ({"outcome": "punto"}, "SHAPE-INVALID"),
    ({"shoe": None}, "SHAPE-INVALID"),
])
def test_a_coup_that_leaves_out_or_misspells_what_a_rule_reads_is_never_passed(cli, tmp_path, change, rule_id):
    done, data = report(cli, write_log(tmp_path / "log.jsonl", [HEADER, coup(1, **change)]))
    assert done.returncode == 1
    assert any(f["rule_id"].startswith(rule_id) and f["line"] == 2 for f in data["findings"]), data["findings"]


def test_an_amount_with_a_point_is_read_exactly(cli, tmp_path):
    banker_wins = {"player": ["2h", "3d", "Kc"], "banker": ["8c", "Qh"], "outcome": "banker"}
    right = coup(1, **banker_wins, bets=[{"seat": 1, "chance": "banco", "stake": 10.10, "net": 9.595}])
    wrong = coup(2, **banker_wins, bets=[{"seat": 1, "chance": "banco", "stake": 10.10, "net": 9.6}])
    done, data = report(cli, write_log(tmp_path / "log.jsonl", [HEADER, right, wrong]))
    assert [(f["rule_id"], f["line"]) for f in data["findings"] if f["rule_id"] == "LU-PB-LOG-SETTLEMENT"] == [
        ("LU-PB-LOG-SETTLEMENT", 3)]
    assert "comes to 9.595, not 9.60" in data["findings"][-1]["message"] or any(
        "9.595" in f["message"] for f in data["findings"])


def test_filing_a_log_under_a_game_the_law_has_no_rules_for_is_said(cli, tmp_path):
    done, data = report(cli, write_log(tmp_path / "log.jsonl", [{**HEADER, "game": "bacara_macau"}, coup(1)]))
    assert done.returncode == 1
    assert [f["rule_id"] for f in data["findings"]] == ["JURISDICTION-NO-RULES"]
    assert data["files"][0]["records"]["checked"] == 0 and data["files"][0]["records"]["read"] == 2


def test_log_integrity_cannot_be_ignored_and_an_ignored_law_rule_is_named(cli, tmp_path):
    path = write_log(tmp_path / "log.jsonl", [HEADER, coup(1), coup(3)])
    assert cli("check", path, "--ignore", "LOG-NUMBERING").returncode == 2
    done, data = report(cli, path, "--ignore", "LU-PB-LOG", "--ignore", "LU-PB-MINIMUM", "--ignore",
                        "LU-PB-STAKE-MIN-ORDER")
    assert [f["rule_id"] for f in data["findings"]] == ["LOG-NUMBERING"]
    assert {"name": "ignore", "value": ["LU-PB-LOG", "LU-PB-MINIMUM", "LU-PB-STAKE-MIN-ORDER"],
            "source": "option --ignore"} in data["settings"]


def test_leaving_the_limits_out_is_said_and_fails_under_require_params(cli, tmp_path):
    header = {key: value for key, value in HEADER.items() if key != "limits"}
    path = write_log(tmp_path / "log.jsonl", [header, coup(1, bets=[{"seat": 1, "chance": "banco",
                                                                      "stake": 1000000, "net": -1000000}])])
    done, data = report(cli, path, "--param", "punto_banco_minimum_multiple_eur=20")
    said, named = [f for f in data["findings"] if f["rule_id"] == "LU-PB-LOG-LIMITS"]
    assert said["severity"] == "info" and "no stake limits are known" in said["message"] and done.returncode == 0
    assert named["severity"] == "info" and "held to no maximum: 'banco' (1 stake)" in named["message"]
    done, data = report(cli, path, "--param", "punto_banco_minimum_multiple_eur=20", "--require-params")
    assert done.returncode == 1


def test_a_table_configuration_that_cannot_be_read_is_a_finding_at_the_header(cli, tmp_path):
    path = write_log(tmp_path / "log.jsonl", [{**HEADER, "table_config": "nowhere.yaml"}, coup(1)])
    _, data = report(cli, path)
    assert ("LOAD-UNREADABLE", 1) in ids_at(data)
    table = (EXAMPLES / "lu/table-punto-banco.yaml").read_text("utf-8")  # banco 0.95, limits 20 to 2,000
    (tmp_path / "table.yaml").write_text(table.replace("maximum_eur: 2000", "maximum_eur: 1000"), encoding="utf-8")
    over = coup(1, bets=[{"seat": 1, "chance": "banco", "stake": 1500, "net": -1500}])
    _, data = report(cli, write_log(tmp_path / "log2.jsonl", [{**HEADER, "table_config": "table.yaml"}, over]))
    assert ("LU-PB-LOG-LIMITS", 2) in ids_at(data)  # the table's 1,000, not the header's 2,000


def test_a_breach_on_every_coup_is_counted_exactly_and_shown_up_to_the_cap(cli, tmp_path):
    coups = [coup(n, shoe=n, bets=[{"seat": 1, "chance": "banco", "stake": 100, "net": 100}]) for n in range(1, 501)]
    done, data = report(cli, write_log(tmp_path / "log.jsonl", [HEADER, *coups]), "--max-per-rule", "5")
    assert [f["rule_id"] for f in data["findings"] if f["file"]] == ["LU-PB-LOG-SETTLEMENT"] * 5
    assert data["omitted"] == [{"file": str(tmp_path / "log.jsonl"), "rule_id": "LU-PB-LOG-SETTLEMENT",
                                "shown": 5, "total": 500, "suppression": None}]
    assert data["files"][0]["records"]["with_findings"] == 500


def test_gzip_and_csv_give_what_json_lines_gives(cli, tmp_path):
    plain = EXAMPLES / "lu/log-punto-banco-breaches.jsonl"
    packed = tmp_path / "log.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    _, one = report(cli, str(plain))
    _, other = report(cli, str(packed))
    assert ids_at(one) == ids_at(other) and one["summary"]["records_checked"] == 40
    rows = tmp_path / "conflict.csv"
    rows.write_text("# kind: game-log\n# jurisdiction: LU\n# game: punto_banco\n# casino: C\n# table: P\n"
                    "coup,time,session,shoe,player,banker,outcome,seat,chance,stake,net\n"
                    "1,2026-11-02T21:00:00,S1,1,9h Kd,5c Qh,player,1,banco,100,-100\n"
                    "1,2026-11-02T21:00:00,S1,1,9h Kd,5c Qh,banker,2,punto,100,100\n")
    _, data = report(cli, str(rows))
    assert ("LOAD-AMBIGUOUS", 8) in ids_at(data)  # one coup's rows must not disagree on its outcome


def test_sample_log_is_the_same_for_the_same_seed_and_takes_parameters(cli, tmp_path):
    outputs = []
    for name in ("a", "b"):
        done = cli("sample-log", "stud_poker", "-j", "LU", "--coups", "50", "--seed", "9", "--param",
                   "stud_poker_high_card_raise=push", "-o", str(tmp_path / f"{name}.jsonl"))
        assert done.returncode == 0, done.stderr
        outputs.append((tmp_path / f"{name}.jsonl").read_bytes())
    assert outputs[0] == outputs[1]
    missing = cli("sample-log", "stud_poker", "-j", "LU", "--coups", "5", "-o", str(tmp_path / "c.jsonl"))
    assert missing.returncode == 2 and "stud_poker_high_card_raise" in missing.stderr
    assert not (tmp_path / "c.jsonl").exists()
    assert cli("sample-log", "punto_banco", "-j", "LU", "-o", str(tmp_path / "a.jsonl")).returncode == 2  # no overwrite
    assert (tmp_path / "a.jsonl").read_bytes() == outputs[0]


def test_a_csv_sample_keeps_every_field_or_refuses(cli, tmp_path):
    """A coup's change of limits and every staff role reach the CSV (its `limits_*` and `staff_ROLE` columns), so
    the CSV log gives the findings its JSON Lines twin gives."""
    reports = []
    for fmt in ("jsonl", "csv"):
        done = cli("sample-log", "punto_banco", "-j", "LU", "--coups", "300", "--seed", "5", "--inject",
                   "minimum_changed", "--format", fmt, "-o", str(tmp_path / f"log.{fmt}"))
        assert done.returncode == 0, done.stderr
        reports.append(report(cli, str(tmp_path / f"log.{fmt}"))[1])
    assert ids_at(reports[0]) and "LU-PB-LOG-MINIMUM-UNCHANGED" in {f["rule_id"] for f in reports[0]["findings"]}
    assert sorted(f["rule_id"] for f in reports[0]["findings"]) == sorted(f["rule_id"] for f in reports[1]["findings"])


def test_a_house_ruleset_cannot_narrow_a_log_rule_unseen(cli, tmp_path):
    house = tmp_path / "house.yaml"
    head = ("ruleset: house\nextends: lu\ninstruments: {policy: {title: House policy, language: en}}\nrules:\n"
            "  - id: LU-PB-LOG-COEFFICIENT\n    title: any maximum\n    severity: warning\n"
            "    applies_to: {kind: game-log, game: [punto_banco]}\n    scope: record\n"
            "    citation: {instrument: policy, article: HP-1, text: words}\n    rationale: r\n")
    house.write_text(head + "    check: {kind: replay, verify: maximum_coefficient, one_of: [50, 100, 150, 200]}\n")
    _, data = report(cli, str(EXAMPLES / "lu/log-punto-banco.jsonl"), "--ruleset", str(house))
    [change] = data["rulesets"][0]["law_changes"]
    assert change["rule_id"] == "LU-PB-LOG-COEFFICIENT" and change["change"] == "loosened"
    assert "the check differs; compare the two" in change["reasons"]
    house.write_text(head + "    when: [{target: /casino, equals: C}]\n"
                            "    check: {kind: replay, verify: maximum_coefficient, one_of: [50, 100, 200]}\n")
    done = cli("check", str(EXAMPLES / "lu/log-punto-banco.jsonl"), "--ruleset", str(house))
    assert done.returncode == 2 and "`when:` reads one document" in done.stdout + done.stderr
