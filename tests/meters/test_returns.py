"""Meter logs' returns, meters and dates: each test is an input a filer could have got a breach through with, or a legal
log the tool flagged, found by running it."""

from __future__ import annotations

from fractions import Fraction


from casino_audit.meters.stats import bet_squares
from helpers.meters import DEPARTURE, MACHINE_TEXT, MINIMUM, START, check, header, reading, write


def _low_return_log(games_per_day: int) -> list[dict]:
    """60 days of 4,000 units staked a day and 2,800 paid (a return of 70 %), the games_played meter moving by
    `games_per_day`."""
    return [header(), *(reading(day, coin_out=START["coin_out"] + day * 2800,
                                games_played=START["games_played"] + day * games_per_day) for day in range(60))]


def test_a_games_played_meter_that_barely_moves_does_not_hide_a_low_return(tmp_path):
    # The machine's maximum stake is 10 units: 4,000 units staked in 10 games a day cannot be. The equal stakes'
    # bound (400 units a game) made the variance large enough for a 70 % return to pass; b <= 10 bounds it.
    for games in (1600, 10, 1):
        path = write(tmp_path, _low_return_log(games), name=f"games-{games}.jsonl")
        rules = {f.rule_id for f in check(path).findings}
        assert {DEPARTURE, MINIMUM} <= rules, games


def test_the_bound_on_squared_stakes_never_exceeds_every_stake_at_the_maximum():
    assert bet_squares(4000, 10, 10) == Fraction(40000)
    assert bet_squares(4000, 1, 10) == Fraction(40000)
    assert bet_squares(4000, 1600, 10) == Fraction(11 * 4000 - 10 * 1600)
    assert bet_squares(4000, 0, 10) == Fraction(40000)


def _games_going_down(**changes) -> list[dict]:
    """A 70 % return whose games_played meter goes down by one at every reading (no law rule reads that meter)."""
    return [header(**changes), *(reading(day, coin_out=START["coin_out"] + day * 2800,
                                         games_played=START["games_played"] - day) for day in range(60))]


def test_a_games_played_meter_set_back_at_every_reading_does_not_take_the_return_out_of_the_judgement(tmp_path):
    # Every period was left out of the realised return for its games_played count, so a 70 % machine had no return
    # to judge and the log passed clean. With the maximum stake known, each game is taken to stake it.
    path = write(tmp_path, _games_going_down())
    findings = [f for f in check(path).findings if f.rule_id in (DEPARTURE, MINIMUM)]
    assert sorted(f.rule_id for f in findings) == sorted([MINIMUM, DEPARTURE])
    assert all("games_played not known over 59 period(s)" in f.message for f in findings)


def test_a_machine_whose_every_period_is_left_out_is_said_not_checked(tmp_path):
    # No maximum stake (the file gives none) to bound the games: the return cannot be judged, and that is said.
    path = write(tmp_path, _games_going_down(), machine_text=MACHINE_TEXT.replace("  maximum_eur: 10.00\n", ""))
    findings = [f for f in check(path).findings if f.rule_id in (DEPARTURE, MINIMUM)]
    assert sorted((f.rule_id, f.severity.name) for f in findings) == sorted([(MINIMUM, "INFO"), (DEPARTURE, "INFO")])
    assert all("not checked" in f.message and "games_played not known: 59" in f.message for f in findings)
    assert {f.severity.name for f in check(path, require_params=True).findings if f.rule_id == MINIMUM} == {"ERROR"}


def test_a_machine_never_played_still_has_no_return_to_judge(tmp_path):
    from helpers.meters import _day

    path = write(tmp_path, [header(), *(reading(0, time=_day(day)) for day in range(40))])
    assert not [f for f in check(path).findings if f.rule_id in (DEPARTURE, MINIMUM)]


def test_an_interval_or_denomination_of_zero_written_as_text_is_refused(tmp_path):
    # The number 0 was refused (exclusiveMinimum) but the text "0" matched the pattern: gaps were then never judged
    # (no interval) and the maximum stake never known (no denomination), in silence.
    days = [0, 1, 2, 5, 6, 7]  # a gap of 72 hours
    for field, text in (("reading_interval_hours", "0"), ("reading_interval_hours", "0.00"), ("denomination", "0"),
                        ("denomination", "000.0")):
        path = write(tmp_path, [header(**{field: text}), *(reading(day) for day in days)], name=f"{field}-{text}.jsonl")
        assert [(f.rule_id, f.line) for f in check(path).findings if f.pointer == f"/{field}"] == \
            [("SHAPE-INVALID", 1)], (field, text)
    for text in ("24", "0.5", "010"):
        path = write(tmp_path, [header(reading_interval_hours=text), *(reading(day) for day in days)],
                     name=f"fine-{text}.jsonl")
        assert not [f for f in check(path).findings if f.rule_id == "SHAPE-INVALID"]


def test_a_denomination_over_the_maximum_stake_is_a_finding_not_a_silent_loss_of_the_stake_bound(tmp_path):
    # A unit of 20 EUR on a machine whose stake is at most 10 EUR: no maximum in units, so equal stakes were
    # assumed, and 4,000 units in 5 games a day let a 70 % return pass clean.
    records = [header(denomination="20"), *(reading(day, coin_out=START["coin_out"] + day * 2800,
                                                    games_played=START["games_played"] + day * 5) for day in range(60))]
    text = MACHINE_TEXT.replace("coin_denominations_eur: [0.50, 1.00, 2.00]", "coin_denominations_eur: [0.50, 20]")
    path = write(tmp_path, records, machine_text=text)  # a coin the file gives (issue 22), over the maximum stake
    findings = sorted((f.rule_id, f.line, f.pointer, f.severity.name) for f in check(path).findings)
    # and the return, judged on equal stakes alone, is said to be so, never passed unseen
    assert findings == [("LOAD-AMBIGUOUS", 1, "/denomination", "ERROR"), ("LU-SLOT-LOG-DROP-COUNT", 1, "", "INFO"),
                        ("LU-SLOT-LOG-RETURN-DEPARTURE", 1, "", "INFO"), ("LU-SLOT-LOG-RETURN-MIN", 1, "", "INFO"),
                        ("LU-SLOT-LOG-RETURN-RATE", 1, "", "INFO")]


def test_a_coin_in_meter_set_back_is_a_reset_whatever_capacity_it_could_have(tmp_path):
    # With no capacity given (no homologation file, none in the header), a coin-in meter set back from 123,492,789
    # to 4,000 was only "not checked" (info, exit 0); a meter that showed 9 digits has 10^9 or more, over which a
    # rollover would have counted more than half: a reset by hand, whatever the capacity.
    from helpers.meters import COIN_IN_RESET, PER_DAY

    def day(number, back=0):
        found = reading(number, start={"coin_in_1": START["coin_in_1"] - back})
        found["coin_in_2"] = found["coin_in_1"]
        return found

    records = [header(machine=None, capacity_digits=None), *(day(n) for n in range(10)),
               *(day(n, back=123_456_789 - 4000) for n in (10, 11))]
    path = write(tmp_path, records, machine_text=None)
    resets = [(f.rule_id, f.line, f.pointer, f.severity.name) for f in check(path).findings
              if f.rule_id == COIN_IN_RESET]
    assert resets == [(COIN_IN_RESET, 12, "/coin_in_1", "ERROR"), (COIN_IN_RESET, 12, "/coin_in_2", "ERROR")]
    # 9,999,000 to 3,000 may be a 7-digit meter rolling over 4,000 coins, but no homologation file gives it that
    # capacity: a meter rolls over only at its filed capacity, so it was set back (issue 22)
    records = [header(machine=None, capacity_digits=None), day(0, back=START["coin_in_1"] - 9_999_000),
               day(1, back=START["coin_in_1"] + PER_DAY["coin_in_1"] - 3000)]
    path = write(tmp_path, records, name="roll.jsonl", machine_text=None)
    resets = {(f.rule_id, f.severity.name) for f in check(path).findings if f.pointer in ("/coin_in_1", "/coin_in_2")}
    assert resets == {(COIN_IN_RESET, "ERROR")}


def test_a_log_at_the_last_day_a_date_can_be_is_checked_not_an_internal_error(tmp_path):
    # A period ending 9999-12-31, or a machine last read that day with its drop box not counted: the day after was
    # computed, an OverflowError, and the file's verdict was INTERNAL-ERROR.
    from helpers.meters import COUNT

    records = [header(period={"from": "9999-12-01", "to": "9999-12-31"}), reading(0, time="9999-12-01T06:00:00"),
               reading(1, time="9999-12-02T06:00:00")]
    assert [(f.rule_id, f.line) for f in check(write(tmp_path, records)).findings] == [("LOG-GAP", 3)]
    records = [header(reading_interval_hours=1000), reading(0, time="9999-12-01T06:00:00", counted=False),
               reading(1, time="9999-12-31T06:00:00", counted=False)]
    assert [(f.rule_id, f.line) for f in check(write(tmp_path, records, name="b.jsonl")).findings] == [(COUNT, 3)]


def test_a_csv_header_value_is_reported_at_its_own_line(tmp_path):
    # Every finding about a `# key: value` line was put at the header's first line (`# kind:`), not at the key's.
    from helpers.command import EXAMPLES

    (tmp_path / "machine-compliant.yaml").write_text((EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8"),
                                                     "utf-8")
    lines = (EXAMPLES / "lu/meters-compliant.csv").read_text("utf-8").splitlines(keepends=True)
    at = {line.split(":")[0]: number for number, line in enumerate(lines, start=1) if line.startswith("#")}
    changed = [line.replace(": 24", ": 24h") if line.startswith("# reading_interval_hours") else
               line.replace(": 10", ": 99") if line.startswith("# capacity_digits.drop") else line for line in lines]
    path = tmp_path / "log.csv"
    path.write_text("".join(changed), "utf-8")
    shape = sorted((f.pointer, f.line) for f in check(path).findings if f.rule_id.startswith("SHAPE"))
    assert shape == sorted([("/reading_interval_hours", at["# reading_interval_hours"]),
                            ("/capacity_digits/drop", at["# capacity_digits.drop"])])


def test_a_sample_stopped_by_sigterm_leaves_no_file_under_its_name(tmp_path):
    # The file was opened under its own name and removed only on a Python exception: a SIGTERM (a CI timeout) left
    # a half-written meter log there, which `check` reads as a whole, shorter one.
    import signal
    import subprocess
    import sys
    import time

    from helpers.command import REPO

    output = tmp_path / "big.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "casino_audit", "sample-meters", "-j", "LU", "--days",
                                "100000", "-o", str(output)], cwd=REPO, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.iterdir()) and time.monotonic() < deadline:  # it has started writing
            time.sleep(0.05)
        time.sleep(0.3)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    assert process.returncode == 128 + signal.SIGTERM  # stopped mid-write, as SIGTERM stops it
    assert list(tmp_path.iterdir()) == []  # neither the log under its name nor the temporary it was writing


def test_a_sample_to_a_missing_folder_is_a_usage_error_not_an_internal_one(tmp_path):
    from helpers.command import run_in_process

    done = run_in_process("sample-meters", "-j", "LU", "-o", str(tmp_path / "no" / "such" / "log.jsonl"))
    assert done.returncode == 2
    assert "internal error" not in done.stderr and "cannot write" in done.stderr


def test_a_machine_name_of_a_hundred_thousand_characters_is_quoted_short(tmp_path):
    # The reading's `machine` has no length limit and every finding about the machine quoted it whole: a 430 KB
    # gzip log of one 1 MB name gave a 22 MB report. Now cut short as every other quoted value.
    name = "M" * 100_000
    records = [header(), *(reading(day, name) for day in range(3)),
               reading(3, name, coin_in_1=5, coin_in_2=5, time="2026-01-05T07:00:00")]
    findings = check(write(tmp_path, records)).findings
    assert {f.rule_id for f in findings} >= {"LOG-GAP", "LU-SLOT-LOG-COIN-IN-RESET"}
    assert all(len(f.message) < 1000 and "(99,920 more characters)" in f.message for f in findings)


def test_an_interval_or_denomination_too_long_to_read_written_as_text_is_said_not_taken_for_none(tmp_path):
    # Text the schema takes (digits) but no amount can be (over 30 digits of magnitude or 60 digits in all) was
    # read as no value at all: gaps silently not judged, the maximum stake silently unknown. As a number it was
    # already a finding.
    days = [0, 1, 2, 5, 6, 7]
    for field, text in (("reading_interval_hours", "1" + "0" * 40), ("reading_interval_hours", "24." + "0" * 70),
                        ("denomination", "1" + "0" * 40), ("denomination", "0." + "0" * 40 + "1")):
        path = write(tmp_path, [header(**{field: text}), *(reading(day) for day in days)], name=f"{field}.jsonl")
        assert [(f.rule_id, f.line) for f in check(path).findings if f.pointer == f"/{field}"] == \
            [("SHAPE-INVALID", 1)], (field, text)


def test_a_period_that_ends_before_it_starts_is_a_finding(tmp_path):
    # from 2026-01-31 to 2026-01-01: every reading was 'after the end' and 'before the start', so neither gap was
    # ever more than the interval, and a machine read only from the 10th to the 20th passed in silence.
    records = [header(period={"from": "2026-01-31", "to": "2026-01-01"}), *(reading(day) for day in range(9, 20))]
    assert [(f.rule_id, f.line, f.pointer) for f in check(write(tmp_path, records)).findings] == \
        [("LOG-TIME", 1, "/period")]


def test_a_machine_renamed_by_a_space_case_or_lookalike_is_a_finding(tmp_path):
    # Its meters set back to 0 from the 31st day on, under "M-1 " (a trailing space), "m-1" or "Ｍ-1" (fullwidth):
    # a new machine to the tool, so the reset (an error) was only two LOG-GAP warnings, or nothing.
    from helpers.meters import PER_DAY

    back = {meter: -30 * PER_DAY[meter] for meter in PER_DAY}  # 0 on day 30
    for other in ("M-1 ", "m-1", "\uff2d-1"):
        records = [header(), *(reading(day) for day in range(30)),
                   *(reading(day, other, start=back) for day in range(30, 32))]
        found = [(f.rule_id, f.line) for f in check(write(tmp_path, records)).findings if f.severity.name == "ERROR"]
        # read under the name its file is filed for (M-1) as one sees it: that machine, its reset an error
        assert found and {line for _, line in found} == {32} and ("LU-SLOT-LOG-COIN-IN-RESET", 32) in found, other
    records = [header(), *(reading(day) for day in range(3)), *(reading(day, "M-10") for day in range(3))]
    assert not [f for f in check(write(tmp_path, records, name="two.jsonl", each=True)).findings
                if f.rule_id != "LOG-GAP"]


def test_a_fake_coin_out_rollover_does_not_turn_a_low_return_into_a_high_one(tmp_path):
    # A 70 % machine (RETURN-MIN, an error) whose coin_out meter is written near 6 * 10^9 and then 'rolls over' once
    # on a 10-digit meter: 4 * 10^9 coins counted paid in a day of 4,000 coins in and 1,600 games staking at most
    # 10 units. The return becomes 1,694,985 %, only a DEPARTURE warning 'above' its theory.
    from helpers.meters import METER_RESET

    records = [header(), *(reading(day, coin_out=6_000_000_000 + day * 2800) for day in range(30)),
               *(reading(day, coin_out=day * 2800) for day in range(30, 60))]
    rules = {f.rule_id for f in check(write(tmp_path, records)).findings}
    assert MINIMUM in rules or METER_RESET in rules
