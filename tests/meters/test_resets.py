"""No reset hides as anything else: a RAM clear is a reset, a meter going back by any amount that is no rollover at
its filed capacity is an error naming the meter, and a period set aside from the return is counted and said."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from casino_audit.core.findings import Severity
from helpers.meters import (AGREE, COIN_IN_RESET, DEPARTURE, EXAMPLE_HEADER, MACHINE_TEXT, METER_RESET, MINIMUM, check,
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
    records[-1]["games_played"] += 6_000  # 60,000 more staked: games to stake it (10 units at most)
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



# The 8-digit coin-in meter of the example machine M-001 passing its capacity more than once between two readings
# (its 10-digit twin counting 120,000,000 coins) is a rollover the law provides for, never a reset and never two
# meters that "counted differently".
#
# Art. 18-3, 5°, 1st indent: "deux compteurs des entrées ... qui enregistrent le nombre de pièces ou de "token"
# introduits dans l'appareil par les clients. ... La remise à zéro se fait automatiquement, lorsque le nombre cumulé
# des pièces ou "token" enregistrés dépasse la capacité numérique du compteur". Art. 18-7, al. 3: "Le taux de
# redistribution des appareils à sous ne peut être inférieur à 85 pour cent."
#
# Readings four weeks apart, denomination 0.05 (the paytable's credit, which machine-m-001.yaml gives: 200 units a
# game at its EUR 10 maximum stake, 1,200,000 games staking 120,000,000 units). coin_in_1 (10 digits) counts
# 120,000,000; coin_in_2 (8 digits) shows the same count modulo 10^8, as it must, having rolled over at 10^8. The tool
# (increments.py) compares the two meters' raw increments and not their increments modulo the smaller capacity,
# which its own agreement check (LU-SLOT-LOG-COIN-IN-AGREE) uses:
# - where coin_in_2 shows +20,000,000 (forward), the period is set aside as "the coin-in meters counted
#   differently" (an info): a period returning 50 % over 120,000,000 units drops out and a machine returning 53 %
#   over the log passes clean (exit 0) - a false pass of LU-SLOT-LOG-RETURN-MIN / -RATE;
# - where coin_in_2 shows 90,000,000 then 10,000,000 (two rollovers), a machine returning 92.5 % throughout is
#   reported LU-SLOT-LOG-COIN-IN-RESET "reset by hand" - a false flag.
MONTHLY_HEADER = {**EXAMPLE_HEADER, "denomination": "0.05", "reading_interval_hours": 720,
          "period": {"from": "2026-01-01", "to": "2026-02-26"}}


def _monthly_reading(time: str, coin_in: int, coin_out: int, games: int) -> dict:
    return {"time": time, "machine": "M-001", "coin_in_1": coin_in, "coin_in_2": coin_in % 10 ** 8,
            "drop": 2_000_000, "coin_out": coin_out, "hand_paid_jackpots": 0, "games_played": games,
            "drop_box_counted": True}


def test_a_low_return_over_a_period_the_small_meter_wrapped_is_judged(tmp_path):
    # 10,000,000 staked at 92.5 %, then 120,000,000 staked paying 60,000,000 (50 %): 53 % over the log.
    readings = [_monthly_reading("2026-01-01T06:00:00", 200_000_000, 40_000_000, 9_000_000),
                _monthly_reading("2026-01-29T06:00:00", 210_000_000, 49_250_000, 9_100_000),   # coin_in_2 10,000,000
                _monthly_reading("2026-02-26T06:00:00", 330_000_000, 109_250_000, 10_300_000)]  # coin_in_2 30,000,000
    findings = check(write_example(tmp_path, MONTHLY_HEADER, readings)).findings
    assert [f for f in findings if f.rule_id in (MINIMUM, RATE) and f.severity == Severity.ERROR], \
        [(f.rule_id, f.severity.name, f.message) for f in findings]


def test_a_small_coin_in_meter_rolling_over_twice_is_no_reset(tmp_path):
    # 92.5 % throughout; coin_in_2 shows 90,000,000 then 10,000,000: 120,000,000 counted, as coin_in_1 says.
    readings = [_monthly_reading("2026-01-01T06:00:00", 200_000_000, 40_000_000, 9_000_000),
                _monthly_reading("2026-01-29T06:00:00", 290_000_000, 123_250_000, 9_900_000),
                _monthly_reading("2026-02-26T06:00:00", 410_000_000, 234_250_000, 11_100_000)]
    findings = check(write_example(tmp_path, MONTHLY_HEADER, readings)).findings
    assert [(f.rule_id, f.message) for f in findings if f.rule_id == COIN_IN_RESET] == []



# The 10-digit coin-in meter's display pushed forward by 100,000,000 - exactly the 8-digit twin's capacity - in a
# day of 1,600 games is passed: the two meters "agree" modulo 10^8, and the period is set aside as an info.
#
# Art. 18-3, 5°, 1st indent: "deux compteurs des entrées ... qui enregistrent le nombre de pièces ou de "token"
# introduits dans l'appareil par les clients. Ces compteurs ne peuvent être remis à zéro ou voir modifier leur
# affichage par intervention manuelle." (LU-SLOT-LOG-COIN-IN-AGREE, LU-SLOT-LOG-COIN-IN-RESET, errors).
#
# Machine M-1 (machine-compliant.yaml: coin-in meters of 10 and 8 digits, at most 10 units a game at denomination
# 1.00) read daily, 4,000 units staked over 1,600 games a day. From day 20 on coin_in_1 reads 100,000,000 more: that
# day it counted 100,004,000 coins where 1,600 games can stake 16,000 at the most, and coin_in_2 counted 4,000. The
# coin-in agreement compares the meters modulo 10^8 (so sees none), the reset check reads only meters that go back,
# and the period is set aside as "the coin-in meters counted differently" (LOG-SET-ASIDE, an info): exit 0.
def test_a_coin_in_display_pushed_on_by_the_other_meter_s_capacity_is_found(tmp_path):
    records = [header(), *month(40)]
    for record in records[21:]:
        record["coin_in_1"] += 100_000_000
    findings = check(write(tmp_path, records)).findings
    assert [f for f in findings if f.rule_id in (AGREE, COIN_IN_RESET) and f.severity == Severity.ERROR], \
        [(f.rule_id, f.severity.name, f.message[:200]) for f in findings]



# A coin-out (or hand-paid jackpot) meter set back by hand far from its capacity is taken for a rollover, for
# nothing bounds what a rollover of it counted: a reset reported only as a warning on the return.
#
# Art. 18-3, 5°: "cinq compteurs de contrôle automatique" - the 3rd indent "un compteur des sorties qui enregistre le
# nombre de pièces ou de "token" payés directement par l'appareil aux clients", the 4th the hand-paid jackpot meter;
# the 1st indent: "La remise à zéro se fait automatiquement, lorsque le nombre cumulé des pièces ou "token" enregistrés
# dépasse la capacité numérique du compteur" (LU-SLOT-LOG-METER-RESET, an error).
#
# Machine M-001 (examples/lu/machine-m-001.yaml, 10-digit coin-out meter, at most 10 units a game at denomination
# 1.00, no game paying more than about 5,035 times its stake by its pay table) stakes 6,000 units over 2,500 games a
# day. Its coin-out meter reads 6,000,049,950 one day and 56,500 the next: a "rollover" would mean 4,000,006,550 coins
# paid out in one day, some 130 times what 6,000 units staked can win at the machine's top award - a set-back, not a
# rollover. The tool bounds a coin-in rollover by the games played and a drop rollover by the coins put in, but a
# coin-out or jackpot rollover only by half the capacity (increments.py, _rollovers): no LU-SLOT-LOG-METER-RESET, the
# run exits 0 with a RETURN-DEPARTURE warning (a realised return of 1,149,518 %).
def _set_back(tmp_path, meter, machine_text=None):
    readings = []
    for day in range(59):  # 2026-01-01 to 2026-02-28, one reading a day, counted weekly
        reading = example_reading(f"2026-{1 + day // 31:02d}-{day % 31 + 1:02d}T06:00:00", "M-001", day,
                                  counted=day % 7 == 0)
        reading[meter] += 6_000_000_000 - (6_000_000_000 - 1_000 if day >= 10 else 0)
        readings.append(reading)
    path = write_example(tmp_path, EXAMPLE_HEADER, readings)
    if machine_text is not None:
        (tmp_path / "machine-m-001.yaml").write_text(machine_text(path.with_name("machine-m-001.yaml")
                                                                  .read_text("utf-8")), "utf-8")
    return [(f.pointer, f.severity) for f in check(path).findings if f.rule_id == METER_RESET]


def _without_progressive(text: str) -> str:
    start = text.index("progressive_jackpot:")
    end = text.index("\npar:", start)
    return text[:start] + text[end + 1:]


def test_coin_out_set_back_from_far_below_its_capacity_is_a_reset(tmp_path):
    assert _set_back(tmp_path, "coin_out") == [("/coin_out", Severity.ERROR)]


def test_hand_paid_jackpots_set_back_is_a_reset_unless_a_progressive_jackpot_can_pay_it(tmp_path):
    # M-001 shows a linked progressive jackpot, paid by hand beyond the paytable: the rollover is taken, and said
    assert _set_back(tmp_path, "hand_paid_jackpots") == [("", Severity.INFO)]
    assert _set_back(tmp_path, "hand_paid_jackpots", _without_progressive) == \
        [("/hand_paid_jackpots", Severity.ERROR)]


def test_coin_out_moved_on_beyond_what_the_stakes_can_win_is_found(tmp_path):
    readings = [example_reading(f"2026-01-{day + 1:02d}T06:00:00", "M-001", day, counted=day % 7 == 0)
                for day in range(31)]
    for reading in readings[10:]:
        reading["coin_out"] += 1_000_000_000  # a day's 6,000 units staked win at most 6,000 x 5,035
    found = [(f.pointer, f.severity, f.line) for f in check(write_example(tmp_path, EXAMPLE_HEADER, readings)).findings
             if f.rule_id == METER_RESET]
    assert found == [("/coin_out", Severity.ERROR, 12)]
