"""LU stud poker's maximum «ne peut plus être modifié avant la séance du lendemain» (Art. 37-8, al. 4) is kept
through the day its session began: a session whose first coup's time cannot be read began no later than the
first time of it that can, and its maximum is kept from there, never left unjudged for the whole session."""

import json

from helpers.command import EXAMPLES, log_findings


def _stud(times, change_at, maximum="150"):
    lines = (EXAMPLES / "lu/log-stud-poker.jsonl").read_text("utf-8").splitlines()
    header, coup = json.loads(lines[0]), json.loads(lines[1])
    coups = []
    for number, time in enumerate(times, 1):
        record = {**json.loads(json.dumps(coup)), "coup": number, "time": time}
        record.pop("limits", None)
        if number == change_at:
            record["limits"] = {"maximum": maximum}
        coups.append(record)
    return [header, *coups]


def _found(cli, tmp_path, records):
    found = log_findings(cli, tmp_path, records, "--select", "LU-STUD-LOG-MAXIMUM-UNCHANGED")
    return sorted((f["rule_id"], f["line"]) for f in found)


def test_a_session_whose_first_time_is_unreadable_keeps_its_maximum_from_its_first_readable_time(cli, tmp_path):
    times = ["2026-11-02 at 21:50", "2026-11-02T21:58:00", "2026-11-02T22:05:00", "2026-11-02T22:10:00"]
    assert _found(cli, tmp_path, _stud(times, 4)) == [("LOG-TIME", 2), ("LU-STUD-LOG-MAXIMUM-UNCHANGED", 5)]


def test_a_maximum_set_at_the_first_readable_time_and_kept_passes(cli, tmp_path):
    times = ["2026-11-02 at 21:50", "2026-11-02T21:58:00", "2026-11-02T22:05:00", "2026-11-02T22:10:00"]
    assert _found(cli, tmp_path, _stud(times, None)) == [("LOG-TIME", 2)]
