"""What a game log's header declares besides its game and limits: the period it covers, the currency of its
amounts, and, in a CSV log, the `# key: value` lines typed as the header's schema types them.

- `period` («The period the log covers, ISO 8601 dates»): read as a meter log's is; a period that is not two dates
  or ends before it starts is LOG-TIME, and a coup played outside it (a log filed as October's holding November's
  coups) is LOG-TIME at the first such coup, the others counted at the close.
- `currency` («ISO 4217 code of the amounts (default EUR)»): the law's amounts are in euros (LU Art. 37-8, al. 2:
  «Il ne saurait être inférieur à 1 Euro»); a log in another currency is not held to them as if they were euros.
  Every rule comparing its amounts with the law's euros is not checked, a warning at `/currency`; the ratios the
  law fixes (a maximum so many times the minimum) stay checked.
- CSV: `# shoe_continues: true` is the boolean the header's schema asks for, not the text 'true'.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from helpers.command import EXAMPLES, log_findings, run_in_process

STUD_PARAMS = ("--param", "stud_poker_high_card_raise=push")


def _example(name: str) -> list:
    return [json.loads(line) for line in (EXAMPLES / name).read_text("utf-8").splitlines()]


def _brief(found: list) -> list:
    return [(f["rule_id"], f["severity"], f["pointer"], f["message"][:70]) for f in found]


# --- period -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("period", [{"from": "yesterday", "to": "x"}, {"from": "2026-10-31", "to": "2026-10-01"},
                                    {"from": "2026-10-01", "to": "2026-10-31"}])
def test_a_game_log_period_is_read_or_said(tmp_path, period):
    records = _example("lu/log-punto-banco.jsonl")
    assert not [f for f in log_findings(run_in_process, tmp_path, records) if f["severity"] != "info"]
    records[0]["period"] = period
    found = log_findings(run_in_process, tmp_path, records)
    assert [f for f in found if f["rule_id"] == "LOG-TIME" and f["severity"] == "error"
            and (f["pointer"] == "/period" or f["pointer"] == "/time")], _brief(found)


def test_a_period_holding_every_coup_is_clean(tmp_path):
    records = _example("lu/log-punto-banco.jsonl")
    records[0]["period"] = {"from": "2026-11-02", "to": "2026-11-02"}
    assert not [f for f in log_findings(run_in_process, tmp_path, records) if f["severity"] != "info"]


def test_coups_outside_the_period_are_said_at_the_first_and_counted(tmp_path):
    records = _example("lu/log-punto-banco.jsonl")
    records[0]["period"] = {"from": "2026-10-01", "to": "2026-10-31"}
    found = [f for f in log_findings(run_in_process, tmp_path, records) if f["rule_id"] == "LOG-TIME"]
    coups = len(records) - 1
    assert [(f["pointer"], f["line"]) for f in found] == [("/period", 1), ("/time", 2)], _brief(found)
    assert "2026-11-02, outside the period the log declares (2026-10-01 to 2026-10-31)" in found[1]["message"]
    assert f"{coups:,} coups of the log are outside" in found[0]["message"]


def test_a_seance_begun_in_the_period_may_run_past_its_last_midnight(tmp_path):
    records = _example("lu/log-punto-banco.jsonl")[:3]
    records[0]["period"] = {"from": "2026-11-02", "to": "2026-11-02"}
    records[1]["time"], records[2]["time"] = "2026-11-02T23:59:00", "2026-11-03T00:01:00"
    assert not [f for f in log_findings(run_in_process, tmp_path, records) if f["rule_id"] == "LOG-TIME"]
    records[2]["time"], records[2]["session"] = "2026-11-03T21:00:00", "2026-11-03"  # the next day's séance
    found = [f for f in log_findings(run_in_process, tmp_path, records) if f["rule_id"] == "LOG-TIME"]
    assert [(f["pointer"], f["line"]) for f in found] == [("/time", 3)], _brief(found)


# --- currency ---------------------------------------------------------------------------------------------


def _scaled(records: list, times: int) -> list:
    for record in records[1:]:
        if "limits" in record:
            record["limits"] = {k: str(Decimal(str(v)) * times) for k, v in record["limits"].items()}
        for box in record["boxes"]:
            for key in ("ante", "raise", "net", "jackpot"):
                if key in box:
                    box[key] = str(Decimal(str(box[key])) * times)
    return records


def _stud_in_yen(maximum: int = 2000) -> list:
    records = _scaled(_example("lu/log-stud-poker.jsonl"), 20)
    records[0]["limits"] = records[1]["limits"] = {"minimum": 100, "maximum": maximum}  # coup 1 sets them too
    return records


def test_a_log_in_yen_is_not_held_to_the_law_s_euros_as_euros(tmp_path):
    records = _stud_in_yen()
    assert not [f for f in log_findings(run_in_process, tmp_path, records, *STUD_PARAMS) if f["severity"] == "error"]
    records[0]["currency"] = "JPY"  # ¥100: under the 1 euro of Art. 37-8, al. 2, or not: no rate says
    found = log_findings(run_in_process, tmp_path, records, *STUD_PARAMS)
    said = {f["rule_id"]: f for f in found if f["pointer"] == "/currency"}
    assert said["LU-STUD-MINIMUM"]["severity"] == "warning", _brief(found)
    assert "the log's amounts are in JPY (`currency`), the law's in euros" in said["LU-STUD-MINIMUM"]["message"]
    assert said["LU-STUD-MINIMUM"]["line"] == 1 and "1 Euro" in said["LU-STUD-MINIMUM"]["citation"]["text"]


def test_a_log_declaring_euros_is_judged_as_one_that_says_nothing(tmp_path):
    records = _example("lu/log-stud-poker.jsonl")
    before = _brief(log_findings(run_in_process, tmp_path, records, *STUD_PARAMS))
    records[0]["currency"] = "EUR"
    assert _brief(log_findings(run_in_process, tmp_path, records, *STUD_PARAMS)) == before


def test_the_law_s_ratios_hold_a_log_in_any_currency(tmp_path):
    # a maximum of 50 times the minimum: not 10, 20 or 30 times it (Art. 37-8, al. 2), whatever the unit
    records = _stud_in_yen(maximum=5000)
    records[0]["currency"] = "JPY"
    found = log_findings(run_in_process, tmp_path, records, *STUD_PARAMS)
    assert [f["line"] for f in found if f["rule_id"] == "LU-STUD-LOG-COEFFICIENT" and f["severity"] == "error"] \
        == [2], _brief(found)


def test_a_stake_multiple_of_euros_is_not_checked_in_another_currency(tmp_path):
    records = _example("lu/log-punto-banco.jsonl")
    param = ("--param", "punto_banco_minimum_multiple_eur=20")
    assert not [f for f in log_findings(run_in_process, tmp_path, records, *param)
                if f["rule_id"] == "LU-PB-LOG-STAKE-MULTIPLE"]
    records[0]["currency"] = "CHF"
    found = log_findings(run_in_process, tmp_path, records, *param)
    said = [(f["severity"], f["pointer"]) for f in found if f["rule_id"] == "LU-PB-LOG-STAKE-MULTIPLE"]
    assert said == [("warning", "/currency")], _brief(found)


# --- a CSV header, typed by the schema ---------------------------------------------------------------------

HEADER = ["# kind: game-log", "# jurisdiction: LU", "# game: punto_banco", "# casino: Casino Sample",
          "# table: T1", "# limits.minimum: 20", "# limits.maximum: 2000", "# first_coup: 11"]
COLUMNS = "coup,time,session,staff_croupier,shoe,burned,player,banker,outcome,seat,chance,stake,net"
ROWS = ["11,2026-11-02T21:08:45,S1,C-1,1,,Qs 5d 3h,Qd Td 9h,banker,3,banco,100,95",
        "12,2026-11-02T21:09:30,S1,C-1,1,,Jd Js,4h 4d,banker,7,punto,100,-100"]


def _csv_errors(tmp_path, *header: str) -> tuple[list, int]:
    path = tmp_path / "cont.csv"
    path.write_text("\n".join([*HEADER, *header, COLUMNS, *ROWS]) + "\n", "utf-8")
    done = run_in_process("check", str(path), "--format", "json")
    found = json.loads(done.stdout)["findings"]
    return [(f["rule_id"], f["pointer"]) for f in found if f["severity"] == "error"], done.returncode


def test_csv_continuation_log_may_say_its_shoe_continues(tmp_path):
    assert _csv_errors(tmp_path, "# shoe_continues: true") == ([], 0)
    # without it, the log's first shoe is held to the start burn it does not show
    assert ("LU-PB-LOG-BURN", "/shoe") in _csv_errors(tmp_path)[0]


@pytest.mark.parametrize("written", ["yes", "on", "1", "True!"])
def test_a_csv_header_boolean_is_true_or_false_never_a_yaml_1_1_word(tmp_path, written):
    errors, code = _csv_errors(tmp_path, f"# shoe_continues: {written}")
    assert ("SHAPE-INVALID", "/shoe_continues") in errors and code == 1, errors
