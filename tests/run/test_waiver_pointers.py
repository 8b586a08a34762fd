"""A waiver's `pointer: /` is, by RFC 6901, the member named "" of the document, which no coup has; yet it waived
every finding of its rule in the record (casino_audit/run/suppressions.py `_under`: `prefix.rstrip("/") + "/"`
makes "/" a prefix of every pointer). A waiver covers only "findings at this JSON pointer or under it"."""

import json

HEADER = {"kind": "game-log", "jurisdiction": "PT", "game": "craps", "casino": "Casino Sample", "table": "T1",
          "limits": {"minimum": "5", "maximum": "5000"}}
COUP = {"coup": 1, "time": "2026-11-02T21:01:00", "session": "2026-11-02", "staff": {"croupier": "C-1"},
        "dice": [3, 3], "point": 6,
        "bets": [{"seat": 1, "chance": "pass_line", "stake": "10", "net": "10"},
                 {"seat": 1, "chance": "pass_line_odds", "stake": "10", "net": "10"}]}  # owed 12 (6 para 5)
CONFIG = """waivers:
  - rule: PT-CRAPS-LOG-SETTLEMENT
    files: "log.jsonl"
    pointer: /
    justification: trial
    granted_by: SRIJ
    reference: D-1
    expires: 2099-05-31
"""


def test_waiver_pointer_slash_does_not_cover_the_whole_record(cli, tmp_path):
    (tmp_path / "log.jsonl").write_text(json.dumps(HEADER) + "\n" + json.dumps(COUP) + "\n", "utf-8")
    (tmp_path / "casino-audit.yaml").write_text(CONFIG, "utf-8")
    done = cli("check", str(tmp_path / "log.jsonl"), "--config", str(tmp_path / "casino-audit.yaml"),
               "--param", "craps_bar_total=12", "--format", "json")
    report = json.loads(done.stdout)
    assert report["summary"]["waived"] == 0 and done.returncode == 1, report["summary"]
