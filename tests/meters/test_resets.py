"""No reset hides as anything else: a RAM clear is a reset, a meter going back by any amount that is no rollover at
its filed capacity is an error naming the meter, and a period set aside from the return is counted and said."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from casino_audit.core.findings import Severity
from helpers.meters import (COIN_IN_RESET, DEPARTURE, EXAMPLE_HEADER, MACHINE_TEXT, METER_RESET, MINIMUM, check,
                            example_reading, header, month, rule_ids, write, write_example)

RATE = "LU-SLOT-LOG-RETURN-RATE"

EIGHT = MACHINE_TEXT.replace("resets_only_on_overflow: true, capacity_digits: 10}",
                             "resets_only_on_overflow: true, capacity_digits: 8}")  # both coin-in meters of 8 digits
ROLE = {"drop": "drop", "coin_out": "coin_out", "hand_paid_jackpots": "hand_paid_jackpot"}


def test_a_ram_clear_is_a_reset_never_a_pair_of_rollovers(tmp_path):
    # Every meter near its capacity, then all of them 0, games_played too: each would pass for a rollover of a few
    # thousand coins; together they are a RAM clear.
    near = {"coin_in_1": 99_990_000, "drop": 9_999_990_000, "coin_out": 9_999_990_000,
            "hand_paid_jackpots": 9_999_999_000, "games_played": 9_999_990_000, "door_openings": 10}
    records = [header(), *month(3, start=near)]
    records[3].update({meter: 0 for meter in ("coin_in_1", "coin_in_2", "drop", "coin_out", "hand_paid_jackpots",
                                              "games_played", "door_openings")})
    findings = [f for f in check(write(tmp_path, records, machine_text=EIGHT)).findings if f.line == 4]
    assert sorted((f.rule_id, f.pointer, f.severity) for f in findings) == [
        (COIN_IN_RESET, "/coin_in_1", Severity.ERROR), (COIN_IN_RESET, "/coin_in_2", Severity.ERROR),
        (METER_RESET, "/coin_out", Severity.ERROR), (METER_RESET, "/drop", Severity.ERROR),
        (METER_RESET, "/hand_paid_jackpots", Severity.ERROR)]
    assert all("a RAM clear" in f.message and "games_played" in f.message for f in findings)


def test_meters_rolling_over_together_with_games_played_moving_on_are_rollovers(tmp_path):
    near = {"coin_in_1": 99_990_000}
    records = [header(), *month(4, start=near)]
    for record in records[1:]:
        record["coin_in_1"] %= 10 ** 8  # 99,998,000 -> 2,000: both 8-digit meters roll over 4,000 coins
    assert [f for f in check(write(tmp_path, records, machine_text=EIGHT)).findings if f.file] == []


@settings(max_examples=40, deadline=None)
@given(meter=st.sampled_from(sorted(ROLE)), back=st.integers(1, 10 ** 9))
def test_a_meter_going_back_with_no_filed_capacity_is_an_error_naming_it(tmp_path_factory, meter, back):
    text = MACHINE_TEXT.replace(f"{{role: {ROLE[meter]}, technology: electronic, automatic: true, inside_machine: "
                                "true, capacity_digits: 10}", f"{{role: {ROLE[meter]}}}")
    records = [header(), *month(3, start={meter: 2_000_000_000})]
    records[3][meter] = records[2][meter] - back
    path = write(tmp_path_factory.mktemp("back"), records, machine_text=text)
    [said] = [f for f in check(path).findings if f.line == 4]
    assert (said.rule_id, said.pointer, said.severity) == (METER_RESET, f"/{meter}", Severity.ERROR)
    assert f"{meter} goes back from" in said.message


@settings(max_examples=40, deadline=None)
@given(back=st.integers(1, 10 ** 8))
def test_a_coin_in_meter_going_back_with_no_filed_capacity_is_an_error_whatever_the_amount(tmp_path_factory, back):
    text = MACHINE_TEXT.replace(", capacity_digits: 10}", "}").replace(", capacity_digits: 8}", "}")
    records = [header(capacity_digits=10), *month(3, start={"coin_in_1": 300_000_000})]
    for meter in ("coin_in_1", "coin_in_2"):
        records[3][meter] = records[2]["coin_in_1"] - back
    records[1]["coin_in_2"] = records[1]["coin_in_1"]
    records[2]["coin_in_2"] = records[2]["coin_in_1"]
    path = write(tmp_path_factory.mktemp("coin"), records, machine_text=text)
    found = sorted((f.rule_id, f.pointer, f.severity) for f in check(path).findings if f.line == 4)
    assert found == [(COIN_IN_RESET, "/coin_in_1", Severity.ERROR), (COIN_IN_RESET, "/coin_in_2", Severity.ERROR)]


def test_a_period_set_aside_is_counted_and_said_and_the_rest_still_judged(tmp_path):
    records = [header(), *month(40)]
    offset = records[20]["coin_out"] - records[19]["coin_out"] + 1000
    for record in records[20:]:
        record["coin_out"] -= offset  # set back 1,000 coins, counting on from there: one period set aside
    result = check(write(tmp_path, records))
    assert [f for f in result.findings if f.rule_id in (DEPARTURE, MINIMUM, RATE)] == []  # the rest passes
    [said] = [f for f in result.findings if f.rule_id == "LOG-SET-ASIDE"]
    assert (said.line, said.severity) == (1, Severity.INFO)
    assert "M-1: 1 period(s) between readings set aside from its realised return (coin_out not known: 1); it is " \
        "judged over the periods that remain" in said.message
    # and the rest is still judged: a low return over it is found, the set-aside period counted in the finding
    records[-1]["coin_in_1"] += 60_000
    records[-1]["coin_in_2"] += 60_000
    found = [f for f in check(write(tmp_path, records)).findings if f.rule_id == MINIMUM]
    assert [(f.line, f.severity) for f in found] == [(41, Severity.ERROR)]
    assert "(1 period(s) between readings left out: coin_out not known: 1)" in found[0].message


def test_coin_in_set_back_with_games_played_is_a_reset_not_a_rollover(cli, tmp_path):
    # both coin-in meters near capacity go back to 1,000 with games_played, which has no filed capacity and so
    # cannot roll over, going back from 9,025,000 to 100: cleared, so the coin-in going back is a reset too
    readings = [example_reading(f"2026-01-{day:02d}T06:00:00", "M-001", day, counted=day == 1) for day in range(1, 11)]
    for day, record in enumerate(readings, 1):
        record["coin_in_1"] = 9_999_000_000 + 6000 * (day - 10)
        record["coin_in_2"] = 99_000_000 + 6000 * (day - 10)
    last = readings[-1]
    for day in range(11, 32):
        played = day - 11
        readings.append(dict(last, time=f"2026-01-{day:02d}T06:00:00", coin_in_1=1000 + 6000 * played,
                             coin_in_2=1000 + 6000 * played, games_played=100 + 2500 * played,
                             coin_out=last["coin_out"] + 925_925 + 5550 * played,
                             drop=last["drop"] + 500 * (played + 1)))
    header = dict(EXAMPLE_HEADER, period={"from": "2026-01-01", "to": "2026-01-31"})
    done = cli("check", str(write_example(tmp_path, header, readings)), "--format", "json")
    assert done.returncode == 1, done.stdout
    assert "LU-SLOT-LOG-COIN-IN-RESET" in rule_ids(done), done.stdout
