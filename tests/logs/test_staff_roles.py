"""A turn rule's role named by the law's own word: PT banca francesa's n.º 18 limits the «deitador de dados»;
a log naming its thrower `deitador` beside a rotating croupier is held to the thrower's hour, not passed on the
croupier's turns."""

import copy
import json

import pytest

from helpers.command import EXAMPLES, log_findings, run_in_process


def _log(staffs):
    lines = (EXAMPLES / "pt/log-banca-francesa.jsonl").read_text("utf-8").splitlines()
    header, coup = json.loads(lines[0]), json.loads(lines[1])
    coups = []
    for number, staff in enumerate(staffs, 1):
        minutes = 21 * 60 + 20 * number
        coups.append({**coup, "coup": number, "time": f"2026-11-02T{minutes // 60:02d}:{minutes % 60:02d}:00",
                      "staff": staff})
    return [header, *coups]


def _turns(cli, tmp_path, records):
    found = log_findings(cli, tmp_path, records, "--select", "PT-BF-LOG-THROWER-TURN")
    return [(f["rule_id"], f["line"], f["pointer"]) for f in found if f["severity"] == "error"]


def test_a_deitador_named_beside_rotating_croupiers_is_held_to_the_hour(cli, tmp_path):
    staffs = [{"croupier": f"C-{n}", "deitador": "C-9"} for n in range(1, 6)]  # C-9 throws 21:20 to 22:40
    assert _turns(cli, tmp_path, _log(staffs)) == [("PT-BF-LOG-THROWER-TURN", 6, "/staff/deitador")]


def test_the_croupier_is_the_thrower_where_no_deitador_is_named(cli, tmp_path):
    assert _turns(cli, tmp_path, _log([{"croupier": "C-1"}] * 5)) == [("PT-BF-LOG-THROWER-TURN", 6, "/staff/croupier")]
    staffs = [{"croupier": "C-1", "deitador": f"C-{n}"} for n in range(2, 7)]  # the throwers change: no breach
    assert _turns(cli, tmp_path, _log(staffs)) == []


# --- a placeholder where a name goes names no one: it relieves no spinner ---------------------------------------
def _roulette_spinners(spinners):
    header, coup = [json.loads(line) for line in
                    (EXAMPLES / "pt/log-french-roulette.jsonl").read_text("utf-8").splitlines()][:2]
    records = [header]
    for index, spinner in enumerate(spinners):
        record = copy.deepcopy(coup)
        minutes = 21 * 60 + index * 10
        record.update(coup=index + 1, time=f"2026-11-02T{minutes // 60:02d}:{minutes % 60:02d}:05",
                      staff={"croupier": "C-3", "spinner": spinner})
        records.append(record)
    return records


@pytest.mark.parametrize("placeholder", ["-", "?", "N/A", "—", "unknown", "TBD"])
def test_a_placeholder_spinner_relieves_no_one(cli, tmp_path, placeholder):
    """PT n.º 33: «nunca podendo a sua permanência na banca ser superior a uma hora». One coup whose spinner was
    "-" ended C-7's turn and began another: C-7 spun from 21:00 to 23:00 in silence."""
    found = log_findings(cli, tmp_path, _roulette_spinners(["C-7"] * 6 + [placeholder] + ["C-7"] * 6))
    assert any(f["rule_id"] == "PT-ROUL-LOG-SPINNER" and f["severity"] == "error" for f in found), \
        [(f["rule_id"], f["message"][:80]) for f in found]
    assert any(f["pointer"] == "/staff/spinner"
               and f["rule_id"] == "LOAD-AMBIGUOUS" for f in found), [(f["rule_id"], f["pointer"]) for f in found]


def test_a_name_with_a_dash_or_a_letter_x_in_it_is_a_name(cli, tmp_path):
    found = log_findings(cli, tmp_path, _roulette_spinners(["C-7"] * 3 + ["X-2", "Xavier", "Na-Young"]))
    assert not [f for f in found if f["pointer"] == "/staff/spinner"], found



# A deitador written `Deitador` throws the dice for eighty minutes and the log passes, exit 0, without a word.
#
# PT banca francesa, Título I, Capítulo II, Secção I, n.º 18 (PT-BF-LOG-THROWER-TURN): «A substituição do deitador
# de dados é definida pela concessionária, nunca podendo a sua permanência na banca ser superior a uma hora.» The
# rule reads `staff.deitador` (n.º 18's word, `named_as`) before `staff.croupier`. Every coup of the log below
# names `"Deitador": "D-9"` (a capital D) beside a croupier relieved after forty minutes: D-9 throws from 21:00 to
# 22:20. Written `deitador`, the turn is a breach (line 59). Written `Deitador`, it is read as no deitador at all,
# the croupier's short turns are measured instead, and nothing is said: turns.py's `_misnamed` (which says «the
# staff role 'Spinner' differs from 'spinner' only in case» for the role) looks at the rule's `role` alone, and
# only when no coup names that role; a `named_as` role written otherwise is never said. A false pass, and a
# silent one.
BANCA_PARAMS = ("--param", "banca_francesa_other_totals=stays")
BANCA_HEADER = {"kind": "game-log", "jurisdiction": "PT", "game": "banca_francesa", "casino": "Casino Sample",
          "table": "T1", "limits": {"minimum": 5, "maximum": 500}}


def _banca_log(role: str) -> list:
    coups = []
    for n in range(1, 82):  # a throw a minute, 21:00 to 22:20
        coups.append({"coup": n, "time": f"2026-11-02T{21 + n // 60:02d}:{n % 60:02d}:00", "session": "2026-11-02",
                      "staff": {role: "D-9", "croupier": "C-1" if n <= 40 else "C-2"}, "dice": [5, 1, 3],
                      "bets": [{"seat": 1, "chance": "pequeno", "stake": 10, "net": 0, "status": "stays"}]})
    return [BANCA_HEADER, *coups]


def test_a_deitador_written_with_a_capital_is_not_passed_in_silence(tmp_path):
    turn = [f for f in log_findings(run_in_process, tmp_path, _banca_log("deitador"), *BANCA_PARAMS)
            if f["rule_id"] == "PT-BF-LOG-THROWER-TURN" and f["severity"] == "error"]
    assert len(turn) == 1, turn  # the turn, as the law's word names the role
    found = log_findings(run_in_process, tmp_path, _banca_log("Deitador"), *BANCA_PARAMS)
    said = [f for f in found if f["rule_id"] == "PT-BF-LOG-THROWER-TURN" and f["severity"] == "error"
            or "Deitador" in f["message"]]
    assert said, [(f["rule_id"], f["severity"], f["message"][:80]) for f in found]
