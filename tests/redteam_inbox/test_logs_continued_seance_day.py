"""A continuation log's first séance is taken to begin on the log's first day: the next evening's séance is then
held to a maximum it may change.

LU Art. 37-8, al. 4 (LU-STUD-LOG-MAXIMUM-UNCHANGED): «Le maximum des mises est fixé à l'ouverture de chaque table
par le directeur responsable à 10, 20 ou 30 fois le minimum des mises et ne peut plus être modifié avant la séance
du lendemain.» A casino that cuts its logs at midnight files the night's séance S-001 (opened on 2 November at
21:00) in two: the 3 November log continues the other (`first_coup: 500`: coups 1 to 499 are in the 2 November log)
and starts at 00:05 inside S-001. Its next séance, S-002, opens on 3 November at 21:00: the séance of the day after
S-001 began, at which the maximum may be set anew (100 to 150, 30 times the minimum of 5). The tool takes the day
S-001 began as the day of the log's first coup (3 November), so S-002 "began on the same day" and the new
maximum is an error. The log says it continues another (as `shoe_continues` lets a log say of its shoe, whose
start is in the other log): the day its first séance began is not in it, and a legal change is flagged. A false
flag. (A 2 November log of coups 1 to 499 followed by this one, read as one file, is clean.)
"""

from __future__ import annotations

import json

from helpers.command import EXAMPLES, log_findings, run_in_process


def _records(first_coup: int, times: list[str]) -> list:
    lines = (EXAMPLES / "lu/log-stud-poker.jsonl").read_text("utf-8").splitlines()
    header, coup = json.loads(lines[0]), json.loads(lines[1])
    if first_coup > 1:
        header["first_coup"] = first_coup
    coups = []
    for number, (time, session) in enumerate(times, first_coup):
        record = {**json.loads(json.dumps(coup)), "coup": number, "time": time, "session": session}
        record.pop("limits", None)
        coups.append(record)
    return header, coups


NIGHT = [("2026-11-03T00:05:00", "S-001"), ("2026-11-03T00:40:00", "S-001"), ("2026-11-03T01:20:00", "S-001")]
EVENING = [("2026-11-03T21:00:00", "S-002"), ("2026-11-03T21:05:00", "S-002")]


def test_the_day_after_a_continued_seance_may_set_its_maximum(tmp_path):
    args = ("--select", "LU-STUD-LOG-MAXIMUM-UNCHANGED", "--param", "session_break_minutes=60")
    # read as one log from the opening on 2 November: the change at S-002 is legal
    header, coups = _records(1, [("2026-11-02T21:00:00", "S-001"), *NIGHT, *EVENING])
    coups[4]["limits"] = {"maximum": "150"}
    whole = log_findings(run_in_process, tmp_path, [header, *coups], *args)
    assert [f for f in whole if f["severity"] == "error"] == []
    # the 3 November log alone, continuing the other: the same change
    header, coups = _records(500, [*NIGHT, *EVENING])
    coups[3]["limits"] = {"maximum": "150"}
    found = log_findings(run_in_process, tmp_path, [header, *coups], *args)
    assert [(f["rule_id"], f["line"]) for f in found if f["severity"] == "error"] == [], found
