"""A game log's times without an offset are the table's local times, read in its zone (the header's `timezone`, one
of its jurisdiction's, default the jurisdiction's first): the hour the clock goes back in October is no step back,
an hour the clock skips in March is no time at all, and a day is the table's local day."""

import json

import pytest

from casino_audit.law.rulesets import load_builtin
from helpers.command import EXAMPLES, log_findings
from helpers.game_logs import FRENCH, RED
from helpers.game_logs import LU_ENGLISH, roulette_coup, run_log


def coups_at(*times, who=None):
    coups = []
    for n, time in enumerate(times, start=1):
        coup = roulette_coup(n, 1, RED if "PT" in str(who) else {"seat": 1, "chance": "rouge", "stake": 2, "net": 2})
        coup["time"] = time
        coups.append(coup)
    return coups


PT_BACK = ["2026-10-25T01:20:00", "2026-10-25T01:40:00", "2026-10-25T01:55:00",  # summer time (WEST)
           "2026-10-25T01:05:00", "2026-10-25T01:25:00", "2026-10-25T02:10:00"]   # the hour again (WET)
LU_BACK = [time.replace("T01:", "T02:").replace("T02:10", "T03:10") for time in PT_BACK]


def test_the_october_clock_change_is_no_step_back_in_the_tables_zone(cli, tmp_path):
    """Lisbon goes back from 02:00 to 01:00, Luxembourg from 03:00 to 02:00: the coups 01:55 then 01:05 (02:55 then
    02:05) are ten minutes apart. Read as written, the legal log was LOG-TIME."""
    assert run_log(cli, tmp_path, FRENCH, coups_at(*PT_BACK, who="PT")) == (0, [])
    assert run_log(cli, tmp_path, LU_ENGLISH, coups_at(*LU_BACK)) == (0, [])
    # read in the Luxembourg zone, the Lisbon times are a step back at 01:05: the zone is the table's
    code, found = run_log(cli, tmp_path, LU_ENGLISH, coups_at(*PT_BACK))
    assert code == 1 and found == [("LOG-TIME", 5, "/time")]


def test_a_step_back_outside_the_repeated_hour_is_still_a_finding(cli, tmp_path):
    code, found = run_log(cli, tmp_path, FRENCH, coups_at("2026-10-25T01:55:00", "2026-10-25T00:50:00", who="PT"))
    assert code == 1 and found == [("LOG-TIME", 3, "/time")]
    code, found = run_log(cli, tmp_path, FRENCH, coups_at("2026-11-02T21:00:00", "2026-11-02T20:50:00", who="PT"))
    assert code == 1 and found == [("LOG-TIME", 3, "/time")]


def test_a_turn_across_the_clock_change_is_measured_in_real_time(cli, tmp_path):
    """00:50 to 01:40 written, but the clock went back between: 01:40 of the second pass is 110 minutes on."""
    times = ["2026-10-25T00:50:00", "2026-10-25T01:20:00", "2026-10-25T01:50:00", "2026-10-25T01:10:00",
             "2026-10-25T01:40:00"]
    coups = coups_at(*times, who="PT")
    for coup in coups:
        coup["staff"] = {"spinner": "C-7"}
    code, found = run_log(cli, tmp_path, FRENCH, coups)
    assert code == 1 and found == [("PT-ROUL-LOG-SPINNER", 5, "/staff/spinner")]  # 01:10 again: 80 minutes on


def test_an_hour_the_clock_skips_is_no_time(cli, tmp_path):
    code, found = run_log(cli, tmp_path, LU_ENGLISH, coups_at("2026-03-29T01:50:00", "2026-03-29T02:30:00",
                                                              "2026-03-29T03:10:00"))
    assert code == 1 and found == [("LOG-TIME", 3, "/time")]


@pytest.mark.parametrize("zone", ["Atlantic/Madeira", "Atlantic/Azores", "Europe/Lisbon"])
def test_a_portuguese_table_may_be_in_any_of_portugals_zones(cli, tmp_path, zone):
    assert run_log(cli, tmp_path, {**FRENCH, "timezone": zone}, coups_at("2026-11-02T21:00:00", who="PT")) == (0, [])


def test_another_name_of_the_tables_zone_is_that_zone(cli, tmp_path):
    """`Portugal` is a link of the zone database to Europe/Lisbon: the same clock, the same table; refused, a legal
    log was an error. The October hour again is read in Lisbon's clock: no step back."""
    assert run_log(cli, tmp_path, {**FRENCH, "timezone": "Portugal"}, coups_at(*PT_BACK, who="PT")) == (0, [])


@pytest.mark.parametrize("zone", ["WET", "Europe/Madrid", "Atlantic/Canary"])
def test_a_zone_keeping_another_clock_at_some_time_is_not_the_tables(cli, tmp_path, zone):
    # WET and the Canaries keep Lisbon's clock today, not in 1992-1996 (Lisbon on CET): not its zone
    code, found = run_log(cli, tmp_path, {**FRENCH, "timezone": zone}, coups_at(*PT_BACK, who="PT"))
    assert code == 1 and ("SHAPE-INVALID", 1, "/timezone") in found


@pytest.mark.parametrize("zone", ["Europe/Paris", "UTC", "Mars/Olympus", "../../etc/passwd", "europe/lisbon", ""])
def test_a_zone_that_is_not_the_tables_is_an_error_at_the_header(cli, tmp_path, zone):
    code, found = run_log(cli, tmp_path, {**FRENCH, "timezone": zone}, coups_at(*PT_BACK, who="PT"))
    assert code == 1 and ("SHAPE-INVALID", 1, "/timezone") in found
    assert [f for f in found if f[0] == "LOG-TIME"] == []  # and the times are read in Europe/Lisbon


def test_a_day_is_the_tables_local_day(cli, tmp_path):
    """LU Art. 37-3, al. 1: the minimum kept through a day. 22:50 UTC is 23:50 in Luxembourg, 23:10 UTC is 00:10 the
    next morning: a minimum changed then is changed on the next day, legal; read by its UTC date it was a breach."""
    coups = coups_at("2026-11-02T22:50:00Z", "2026-11-02T23:10:00Z")
    coups[1]["limits"] = {"minimum": 4, "maximum": 1440}
    coups[1]["bets"] = [{"seat": 1, "chance": "rouge", "stake": 4, "net": 4}]
    assert run_log(cli, tmp_path, LU_ENGLISH, coups) == (0, [])
    coups[0]["time"] = "2026-11-02T22:40:00Z"  # 23:40 and 23:50 local: the same day
    coups[1]["time"] = "2026-11-02T22:50:00Z"
    code, found = run_log(cli, tmp_path, LU_ENGLISH, coups)
    assert code == 1 and found == [("LU-EROUL-LOG-MINIMUM-UNCHANGED", 3, "/limits/minimum")]


def test_each_jurisdiction_names_its_tables_zones():
    assert load_builtin("lu").time_zones == ("Europe/Luxembourg",)
    assert load_builtin("pt").time_zones == ("Europe/Lisbon", "Atlantic/Madeira", "Atlantic/Azores")
    assert load_builtin("mc").time_zones == ("Europe/Monaco",)


# --- a time's offset is the one the table's clock shows (or UTC's) ---------------------------------------------
def test_an_offset_that_is_not_the_table_zone_is_said(cli, tmp_path):
    """LU Art. 37-3, al. 1: «Durant une même journée, le minimum des mises ... ne peut être modifié». Two coups
    written on 2 November at +14:00 read as 1 and 2 November in Luxembourg, and a minimum changed between them
    passed, exit 0: the offset, no clock of the table's zone, was read without a word."""
    records = [json.loads(line) for line in
               (EXAMPLES / "lu/log-english-roulette.jsonl").read_text("utf-8").splitlines()][:3]
    records[1]["time"] = "2026-11-02T10:00:05+14:00"
    records[2]["time"] = "2026-11-02T14:00:05+14:00"
    records[2]["limits"] = {"minimum": 1, "maximum": 360}
    found = log_findings(cli, tmp_path, records)
    assert [(f["rule_id"], f["pointer"]) for f in found if f["rule_id"] == "LOG-TIME"] == [("LOG-TIME", "/time")]
    assert "2026-11-01" in next(f["message"] for f in found if f["rule_id"] == "LOG-TIME")
    for record, time in zip(records[1:], ("2026-11-02T10:00:05+01:00", "2026-11-02T10:30:05+01:00")):
        record["time"] = time  # the table's clock (UTC is one too: test_a_day_is_the_tables_local_day)
    assert not [f for f in log_findings(cli, tmp_path, records) if f["rule_id"] == "LOG-TIME"]


# --- UTC names an instant as well as the table's clock does -------------------------------------------------------
def _english(*times):
    records = [json.loads(line) for line in
               (EXAMPLES / "lu/log-english-roulette.jsonl").read_text("utf-8").splitlines()][:len(times) + 1]
    for record, time in zip(records[1:], times):
        record["time"] = time
    return records


def _time_findings(cli, tmp_path, records):
    return [(f["line"], f["message"]) for f in log_findings(cli, tmp_path, records) if f["rule_id"] == "LOG-TIME"]


def test_utc_after_the_table_s_offset_is_no_clock_change(cli, tmp_path):
    """Times written at the table's offset (+01:00), then from one coup on in UTC (an export whose clock source
    changed: 21:01:20+01:00 and 20:02:40Z are 80 seconds apart, in order), were a LOG-TIME error at the switch,
    "the clock's offset from UTC changes only when summer time starts or ends": Z is no clock of the table's that
    could drift, but UTC itself. Each way of writing alone is clean, and so is the switch, either way round."""
    for times in (("2026-11-02T21:00:05+01:00", "2026-11-02T21:01:20+01:00", "2026-11-02T21:02:40+01:00"),
                  ("2026-11-02T20:00:05Z", "2026-11-02T20:01:20Z", "2026-11-02T20:02:40Z"),
                  ("2026-11-02T21:00:05+01:00", "2026-11-02T21:01:20+01:00", "2026-11-02T20:02:40Z"),
                  ("2026-11-02T20:00:05Z", "2026-11-02T21:01:20+01:00", "2026-11-02T20:02:40+00:00")):
        assert _time_findings(cli, tmp_path, _english(*times)) == [], times


def test_utc_across_the_clock_change_is_read_at_the_clock_of_that_instant(cli, tmp_path):
    """Summer time ends at 01:00 UTC on 25 October 2026: 02:50+02:00, then 01:10Z (03:10 in winter time), then
    03:20+01:00 are in order, each at the clock of its instant."""
    times = ("2026-10-25T02:50:00+02:00", "2026-10-25T01:10:00Z", "2026-10-25T03:20:00+01:00")
    assert _time_findings(cli, tmp_path, _english(*times)) == []


def test_a_switch_from_utc_to_an_offset_the_zone_never_shows_is_still_a_finding(cli, tmp_path):
    found = _time_findings(cli, tmp_path, _english("2026-11-02T20:00:05Z", "2026-11-02T20:01:20Z",
                                                   "2026-11-02T23:02:40+03:00"))
    assert [line for line, _ in found] == [4] and "offset from UTC changes only" in found[0][1]


def test_in_lisbon_z_is_utc_and_plus_zero_in_summer_the_winter_clock_out_of_season(cli, tmp_path):
    """Lisbon's clock shows +00:00 in winter: there a written +00:00 may be that clock's, and in summer it is the
    clock written out of season (a drift, test_tables.py); "Z" says UTC, whatever the season."""
    coups = coups_at("2026-07-02T21:00:05+01:00", "2026-07-02T20:01:20Z", who="PT")
    code, found = run_log(cli, tmp_path, FRENCH, coups)
    assert "LOG-TIME" not in [rule for rule, *_ in found], found
    coups = coups_at("2026-07-02T21:00:05+01:00", "2026-07-02T20:01:20+00:00", who="PT")
    assert ("LOG-TIME", 3, "/time") in run_log(cli, tmp_path, FRENCH, coups)[1]
