"""What is kept through a session, read as the law words it: LU stud poker's maximum until the next day's session
(Art. 37-8), LU blackjack's maximum through the session it begins (Art. 33, al. 4), a staff member's turn ending with
the session or the day, once the table stood idle longer than a turn (PT n.º 33: «permanência na banca»); and ten
coups stamped with one second is no log of play."""

import json
from pathlib import Path

import pytest

from helpers.command import log_findings
from helpers.game_logs import roulette_coup, run_log
from helpers.game_logs import BASES, BJ_PARAMS, FRENCH, RED, blackjack_log


STUD_PARAMS = ("--param", "stud_poker_high_card_raise=push")


def stud_log():
    header, *coups = [json.loads(line) for line in (BASES / "log-stud-poker.jsonl").read_text("utf-8").splitlines()]
    return header, coups


# --- LU stud poker: «ne peut plus être modifié avant la séance du lendemain» (Art. 37-8, al. 4) ------------------
def test_a_stud_maximum_changed_after_midnight_within_the_session_is_a_breach(cli, tmp_path):
    """The session began at 23:50; the maximum raised at 00:10 (a new calendar day, the same session) passed."""
    header, coups = stud_log()
    for n, coup in enumerate(coups):
        coup["time"] = f"2026-11-02T23:{50 + n:02d}:00" if n < 8 else "2026-11-03T00:10:00"
    coups[7]["time"] = "2026-11-03T00:10:00"
    coups[7]["limits"] = {"minimum": 5, "maximum": 150}
    code, found = run_log(cli, tmp_path, header, coups, *STUD_PARAMS)
    assert code == 1 and found == [("LU-STUD-LOG-MAXIMUM-UNCHANGED", 9, "/limits/maximum")]


@pytest.mark.parametrize("session, time, breach", [
    ("S-002", "2026-11-02T23:30:00", True),   # another session, the same day: not the next day's session
    ("S-002", "2026-11-03T21:00:00", False),  # the next day's session
    ("S-001", "2026-11-03T21:00:00", True),   # the same session, on the next day
])
def test_a_stud_maximum_is_kept_until_a_session_of_a_later_day(cli, tmp_path, session, time, breach):
    header, coups = stud_log()
    coups[7].update(session=session, time=time, limits={"minimum": 5, "maximum": 150})
    code, found = run_log(cli, tmp_path, header, coups, *STUD_PARAMS)
    assert (("LU-STUD-LOG-MAXIMUM-UNCHANGED", 9, "/limits/maximum") in found) is breach, found


# --- LU blackjack: «fixé en début de séance» (Art. 33, al. 4) ---------------------------------------------------
def test_a_blackjack_maximum_changed_within_the_session_is_a_breach(cli, tmp_path):
    header, coups = blackjack_log()
    coups[5]["limits"] = {"minimum": 10, "maximum": 2000}  # 200 times: an allowed coefficient, within session S1
    code, found = run_log(cli, tmp_path, header, coups, *BJ_PARAMS)
    assert code == 1 and found == [("LU-BJ-LOG-MAXIMUM-UNCHANGED", 7, "/limits/maximum")]
    coups[5].update(session="S2", time="2026-11-03T21:00:00")  # set at the start of the next day's session: legal
    assert run_log(cli, tmp_path, header, coups, *BJ_PARAMS, "--param", "session_break_minutes=60") == (0, [])


def test_a_session_relabelled_while_the_table_plays_on_keeps_the_seance_s_maximum(cli, tmp_path):
    """A new label 55 seconds after the last coup is no new séance: the maximum it raises is raised within one."""
    header, coups = blackjack_log()
    coups[5].update(session="S2", limits={"minimum": 10, "maximum": 2000})
    code, found = run_log(cli, tmp_path, header, coups, *BJ_PARAMS, "--param", "session_break_minutes=30")
    assert code == 1 and found == [("LOG-SESSION", 7, "/session"), ("LU-BJ-LOG-MAXIMUM-UNCHANGED", 7, "/limits/maximum")]
    coups[5]["time"] = "2026-11-02T21:37:00"  # after a pause of 30 minutes: a new séance
    assert run_log(cli, tmp_path, header, coups, *BJ_PARAMS, "--param", "session_break_minutes=30") == (0, [])


def test_without_the_least_pause_between_seances_the_session_rules_say_they_narrowed(cli, tmp_path):
    header, coups = blackjack_log()
    coups[5].update(session="S2", limits={"minimum": 10, "maximum": 2000})
    assert run_log(cli, tmp_path, header, coups, *BJ_PARAMS) == (0, [])
    code, found = run_log(cli, tmp_path, header, coups, *BJ_PARAMS, "--require-params")
    assert ("LU-BJ-LOG-MAXIMUM-UNCHANGED", 1, "") in found and ("LU-BJ-LOG-MINIMUM-UNCHANGED", 1, "") in found
    done = cli("check", str(tmp_path / "log.jsonl"), "--format", "json", *BJ_PARAMS)
    notes = [f["message"] for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "LU-BJ-LOG-MAXIMUM-UNCHANGED"]
    assert notes and "session_break_minutes" in notes[0] and notes[0].startswith("narrowed in this log")
    coups[5].update(session="S1", limits={"minimum": 10, "maximum": 1000})  # one session: nothing narrowed
    run_log(cli, tmp_path, header, coups, *BJ_PARAMS)
    done = cli("check", str(tmp_path / "log.jsonl"), "--format", "json", *BJ_PARAMS)
    assert not [f for f in json.loads(done.stdout)["findings"] if f["message"].startswith("narrowed")]


# --- a log that continues another: the day its first séance began is not in it ---------------------------------
def _stud_log(first_coup: int, times: list[tuple[str, str]]):
    header, (coup, *_) = stud_log()
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
STUD_MAXIMUM = ("--select", "LU-STUD-LOG-MAXIMUM-UNCHANGED", "--param", "session_break_minutes=60")


def test_the_day_after_a_continued_seance_may_set_its_maximum(cli, tmp_path):
    """LU Art. 37-8, al. 4: the maximum «ne peut plus être modifié avant la séance du lendemain». The night's
    séance S-001, opened on 2 November at 21:00, is filed in two logs cut at midnight: the 3 November log
    (`first_coup: 500`) starts at 00:05 inside it. S-001 was taken to begin on the log's first day, 3 November, and
    the maximum set anew at S-002 (3 November, 21:00: the séance of the day after S-001 began) was an error. The
    log says it continues another: S-001 is taken to have begun before the log's first day, and that is said."""
    header, coups = _stud_log(1, [("2026-11-02T21:00:00", "S-001"), *NIGHT, *EVENING])
    coups[4]["limits"] = {"maximum": "150"}
    whole = log_findings(cli, tmp_path, [header, *coups], *STUD_MAXIMUM)
    assert [f for f in whole if f["severity"] == "error"] == []
    header, coups = _stud_log(500, [*NIGHT, *EVENING])
    coups[3]["limits"] = {"maximum": "150"}
    found = log_findings(cli, tmp_path, [header, *coups], *STUD_MAXIMUM)
    assert [f for f in found if f["severity"] == "error"] == [], found
    said = [f for f in found if f["severity"] == "info" and "`first_coup` 500" in f["message"]]
    assert [f["line"] for f in said] == [5] and "before 2026-11-03" in said[0]["message"]


def test_a_maximum_changed_within_a_continued_seance_is_still_a_breach(cli, tmp_path):
    """Whatever day S-001 began on, 01:20 is within it."""
    header, coups = _stud_log(500, [*NIGHT, *EVENING])
    coups[2]["limits"] = {"maximum": "150"}
    found = log_findings(cli, tmp_path, [header, *coups], *STUD_MAXIMUM)
    breach = [f for f in found if f["severity"] == "error"]
    assert [(f["rule_id"], f["line"]) for f in breach] == [("LU-STUD-LOG-MAXIMUM-UNCHANGED", 4)]
    assert "or before (in the log this one continues)" in breach[0]["message"]
    # a séance the continuation log opens itself is held to its own day: S-003 the same evening is no later day's
    header, coups = _stud_log(500, [*NIGHT, *EVENING, ("2026-11-03T23:30:00", "S-003")])
    coups[5]["limits"] = {"maximum": "150"}
    found = log_findings(cli, tmp_path, [header, *coups], *STUD_MAXIMUM)
    assert [(f["rule_id"], f["line"]) for f in found if f["severity"] == "error"] == \
        [("LU-STUD-LOG-MAXIMUM-UNCHANGED", 7)]


# --- a session label by day, over a pause the table may have closed in ---------------------------------------------
def _day_labelled(times, evening_minimum=40):
    records = [json.loads(line) for line in (BASES / "log-punto-banco.jsonl").read_text("utf-8").splitlines()]
    for record, time in zip(records[1:], times):
        record["time"] = time
    evening = records[3]  # coup 3, the first after the pause
    evening["limits"] = {"minimum": evening_minimum, "maximum": evening_minimum * 100}
    for bet in evening["bets"]:
        if bet["stake"] == 20:
            bet["stake"], bet["net"] = evening_minimum, bet["net"] * evening_minimum // 20
    assert all(record["session"] == "2026-11-02" for record in records[1:])
    return records


AFTERNOON_EVENING = ("2026-11-02T15:00:05", "2026-11-02T15:01:10", "2026-11-02T21:02:30", "2026-11-02T21:03:40")


def test_a_closure_longer_than_the_session_break_opens_a_new_seance_under_one_day_label(cli, tmp_path):
    """LU Art. 37-5, al. 3: «Durant une même séance le minimum pratiqué à une table ne peut être modifié». The
    schema's `session` is «the session (or day)», and the example log labels its coups by day. Given
    `session_break_minutes=60`, the least time a table stands closed between two séances, a table that plays until
    15:01 and again from 21:02 may have closed: the evening's new minimum (20 to 40, the maximum 2,000 to 4,000)
    was an error "within session 2026-11-02". Whether it closed is not known (a table may stand open with no
    coup): the change is not held against the log, and the reading is said (an info)."""
    found = log_findings(cli, tmp_path, _day_labelled(AFTERNOON_EVENING), "--param", "session_break_minutes=60")
    assert [(f["rule_id"], f["line"]) for f in found if f["severity"] == "error"] == []
    said = [f for f in found if f["rule_id"] == "LOG-SESSION"]
    assert [(f["severity"], f["line"]) for f in said] == [("info", 4)]
    assert "LU-PB-LOG-MINIMUM-UNCHANGED" in said[0]["message"] and "361 minutes" in said[0]["message"]


def test_a_pause_shorter_than_the_session_break_keeps_the_day_label_s_seance(cli, tmp_path):
    """Thirty minutes is less than the least closure given: the table played on, the evening's minimum is changed
    within the séance; and without the parameter the label is the séance, as written."""
    times = ("2026-11-02T15:00:05", "2026-11-02T15:01:10", "2026-11-02T15:31:30", "2026-11-02T15:32:40")
    for records, options in ((_day_labelled(times), ("--param", "session_break_minutes=60")),
                             (_day_labelled(AFTERNOON_EVENING), ())):
        found = log_findings(cli, tmp_path, records, *options)
        assert ("LU-PB-LOG-MINIMUM-UNCHANGED", 4) in [(f["rule_id"], f["line"]) for f in found
                                                        if f["severity"] == "error"], options
        assert not [f for f in found if f["rule_id"] == "LOG-SESSION"]


def test_a_change_after_the_pause_within_the_evening_seance_is_still_a_breach(cli, tmp_path):
    """The evening's minimum set at its first coup, then changed at its second: within one séance either way."""
    records = _day_labelled(AFTERNOON_EVENING)
    records[4]["limits"] = {"minimum": 20, "maximum": 2000}
    found = log_findings(cli, tmp_path, records, "--param", "session_break_minutes=60")
    assert ("LU-PB-LOG-MINIMUM-UNCHANGED", 5) in [(f["rule_id"], f["line"]) for f in found if f["severity"] == "error"]


def test_a_day_labelled_stud_log_s_evening_may_set_its_maximum(cli, tmp_path):
    """Art. 37-8: labelled by day, the night's séance (2 November, 23:30, on past midnight under the label
    "2026-11-03", the table playing on) and the next evening's (3 November, 21:00, the same label) are two, the
    second of the day after the first began: its maximum may be set anew. The label changed at midnight with the
    table playing on was an error (a séance claimed that the table never opened): a day's label is no such claim.
    A séance of the same day may not set the maximum anew."""
    times = [("2026-11-02T23:30:00", "2026-11-02"), ("2026-11-02T23:50:00", "2026-11-02"),
             ("2026-11-03T00:10:00", "2026-11-03"), ("2026-11-03T21:00:00", "2026-11-03")]
    header, coups = _stud_log(1, times)
    coups[3]["limits"] = {"maximum": "150"}
    found = log_findings(cli, tmp_path, [header, *coups], *STUD_MAXIMUM)
    assert [(f["rule_id"], f["line"]) for f in found if f["severity"] == "error"] == []
    # the label changed at midnight, the table playing on: the day's label, read through (said, no error)
    assert [(f["severity"], f["line"]) for f in found if f["rule_id"] == "LOG-SESSION"] == [("info", 4), ("info", 5)]
    header, coups = _stud_log(1, [("2026-11-03T00:30:00", "2026-11-03"), ("2026-11-03T01:00:00", "2026-11-03"),
                                  ("2026-11-03T21:00:00", "2026-11-03")])
    coups[2]["limits"] = {"maximum": "150"}
    found = log_findings(cli, tmp_path, [header, *coups], *STUD_MAXIMUM)
    assert [(f["rule_id"], f["line"]) for f in found if f["severity"] == "error"] == \
        [("LU-STUD-LOG-MAXIMUM-UNCHANGED", 4)]


# --- a staff turn ends with its session -------------------------------------------------------------------------
def spins(times, session_of, who="C-7"):
    coups = []
    for n, time in enumerate(times, start=1):
        coup = roulette_coup(n, 1, RED)
        coup.update(time=time, session=session_of(time), staff={"spinner": who})
        coups.append(coup)
    return coups


def test_the_same_spinner_at_the_next_days_session_starts_a_new_turn(cli, tmp_path):
    """C-7 spins 20:00 to 20:50 one evening and 20:00 to 20:30 the next: two turns of under an hour. The turn was
    measured from the first evening (24 hours), a false breach."""
    times = [f"2026-11-02T20:{m:02d}:00" for m in range(0, 51, 10)] + \
            [f"2026-11-03T20:{m:02d}:00" for m in range(0, 31, 10)]
    assert run_log(cli, tmp_path, FRENCH, spins(times, lambda t: t[:10])) == (0, [])
    # an afternoon and an evening session of the same day: two turns as well
    times = [f"2026-11-02T15:{m:02d}:00" for m in range(0, 51, 10)] + \
            [f"2026-11-02T21:{m:02d}:00" for m in range(0, 31, 10)]
    assert run_log(cli, tmp_path, FRENCH, spins(times, lambda t: "tarde" if t < "2026-11-02T18" else "noite")) \
        == (0, [])


def test_a_session_relabelled_with_the_ball_in_play_ends_no_turn(cli, tmp_path):
    """A new session label every 50 minutes, the coups ten minutes apart throughout: three hours at the ball."""
    times = [f"2026-11-02T{20 + i // 6}:{i % 6 * 10:02d}:00" for i in range(19)]
    coups = spins(times, lambda t: f"S{(int(t[11:13]) * 60 + int(t[14:16])) // 50}")
    code, found = run_log(cli, tmp_path, FRENCH, coups)
    assert code == 1 and found == [("PT-ROUL-LOG-SPINNER", 9, "/staff/spinner")]
    # a table idle two hours within one session and day: nothing says the spinner left the ball either
    times = ["2026-11-02T20:00:00", "2026-11-02T20:30:00", "2026-11-02T22:30:00"]
    code, found = run_log(cli, tmp_path, FRENCH, spins(times, lambda t: "noite"))
    assert code == 1 and found == [("PT-ROUL-LOG-SPINNER", 4, "/staff/spinner")]


def test_a_pause_the_table_may_have_closed_in_may_end_a_turn_under_one_label(cli, tmp_path):
    """C-7 spins 15:00 to 15:50 and 21:00 to 21:30 under the day's label: given the least closure between two
    séances, the table may have closed in the pause, and the turn may have ended; not held against the log."""
    times = [f"2026-11-02T15:{m:02d}:00" for m in range(0, 51, 10)] + \
            [f"2026-11-02T21:{m:02d}:00" for m in range(0, 31, 10)]
    coups = spins(times, lambda t: t[:10])
    assert run_log(cli, tmp_path, FRENCH, coups, "--param", "session_break_minutes=60") == (0, [])
    assert run_log(cli, tmp_path, FRENCH, coups)[1] == [("PT-ROUL-LOG-SPINNER", 8, "/staff/spinner")]


def test_a_session_name_kept_from_day_to_day_still_starts_a_turn_each_day(cli, tmp_path):
    times = ["2026-11-02T23:00:00", "2026-11-02T23:40:00", "2026-11-03T21:00:00", "2026-11-03T21:40:00"]
    assert run_log(cli, tmp_path, FRENCH, spins(times, lambda t: "noite")) == (0, [])


def test_a_turn_within_one_session_is_measured_across_midnight(cli, tmp_path):
    times = [f"2026-11-02T23:{m:02d}:00" for m in range(30, 60, 10)] + \
            [f"2026-11-03T00:{m:02d}:00" for m in range(0, 41, 10)]
    code, found = run_log(cli, tmp_path, FRENCH, spins(times, lambda t: "noite"))
    assert code == 1 and found == [("PT-ROUL-LOG-SPINNER", 9, "/staff/spinner")]


# --- ten coups stamped with one second ---------------------------------------------------------------------------
def test_ten_coups_stamped_with_the_same_second_are_a_finding(cli, tmp_path):
    """A spinner three hours at the ball, every coup stamped 20:00:00: no turn was ever long, and the log passed."""
    coups = spins(["2026-11-02T20:00:00"] * 19, lambda t: "noite")
    code, found = run_log(cli, tmp_path, FRENCH, coups)
    assert code == 1 and found == [("LOG-TIME", 11, "/time")]  # the tenth coup, once
    coups = spins(["2026-11-02T20:00:00.100"] * 5 + ["2026-11-02T20:00:00.900"] * 4 + ["2026-11-02T20:00:01"] * 9,
                  lambda t: "noite")
    code, found = run_log(cli, tmp_path, FRENCH, coups)  # nine in one second, then nine in the next: two runs
    assert (code, found) == (0, [])
    coups = spins(["2026-11-02T20:00:00.250+00:00"] * 5 + ["2026-11-02T20:00:00.750+00:00"] * 5, lambda t: "noite")
    code, found = run_log(cli, tmp_path, FRENCH, coups)  # the same second, whatever its fraction
    assert code == 1 and found == [("LOG-TIME", 11, "/time")]
