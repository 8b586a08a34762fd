"""What is kept through a session, read as the law words it: LU stud poker's maximum until the next day's session
(Art. 37-8), LU blackjack's maximum through the session it begins (Art. 33, al. 4), a staff member's turn ending with
the session or the day, once the table stood idle longer than a turn (PT n.º 33: «permanência na banca»); and ten
coups stamped with one second is no log of play."""

import json
from pathlib import Path

import pytest

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
