"""A game log's coups as read and judged: turns, limit names, the CSV rows of a coup, amounts, numbering,
sessions and shoes that come back; each test a breach once passed or a legal log once flagged."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import example, given, settings, strategies as st

from casino_audit.logs.order import _minutes, _seconds
from casino_audit.replay import roulette as replay_roulette


@settings(max_examples=400, deadline=None)
@given(st.decimals(min_value=Decimal("-10"), max_value=Decimal("10000"), places=9, allow_nan=False)
       | st.integers(0, 10**12),
       st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=10**4)))
@example(Decimal(60), timedelta(hours=1))  # exactly the limit: not over it
@example(Decimal(60), timedelta(hours=1, microseconds=1))
@example(Decimal("0.0000001"), timedelta(microseconds=7))  # 6 us, a whole number of microseconds
@example(Decimal("1E-9"), timedelta(0))  # 0.06 us: no timedelta holds it, compared as fractions
def test_a_turn_is_over_its_limit_exactly_as_the_fractions_say(minutes, turn):
    longest = _minutes(minutes)
    over = turn > longest if type(longest) is timedelta else _seconds(turn) > longest
    assert over == (Fraction(turn.days * 86400 + turn.seconds) + Fraction(turn.microseconds, 10**6)
                    > Fraction(minutes) * 60)


def test_a_spinner_one_microsecond_over_the_hour_is_over_it(cli, tmp_path):
    from helpers.roulette_logs import PT_FRENCH, bet, check, coup

    def at(time):
        return coup(3, bet("impar", 5, 5), time=time, staff={"croupier": "C-1", "spinner": "C-7"})
    found, _ = check(cli, tmp_path, PT_FRENCH, [at("2026-11-02T20:00:00"), at("2026-11-02T21:00:00")])
    assert found == []
    found, _ = check(cli, tmp_path, PT_FRENCH, [at("2026-11-02T20:00:00"), at("2026-11-02T21:00:00.000001")])
    assert found == [("PT-ROUL-LOG-SPINNER", 3, "/staff/spinner")]


def test_a_limit_name_is_the_same_read_from_the_table_or_built():
    """The names a stake's limit may be filed under, kept per chance of the layout, are the ones built anew;
    a chance the layout lacks is never kept (a log could name any number of them)."""
    coup = {"bets": [{"chance": name, "stake": 1} for name in
                     ("rouge", "encarnado", "plein", "pleno", "no_such_chance", "rouge")]}
    first = list(replay_roulette.stakes(coup))
    replay_roulette._STAKE_NAMES.clear()
    again = list(replay_roulette.stakes(coup))
    assert first == again
    assert first[0][1][0] == "rouge" and "chances_simples" in first[0][1] and "encarnado" in first[0][1]
    assert first[4][1] == ("no_such_chance",)
    assert "no_such_chance" not in replay_roulette._STAKE_NAMES


def test_the_rows_of_a_csv_coup_cannot_disagree_on_its_staff(cli, tmp_path):
    """The first row's croupier was read and a later row's other name dropped, in silence; now it is a finding
    at the cell, as for every other field of the coup."""
    from helpers.game_logs import ids_at, report

    head = ("# kind: game-log\n# jurisdiction: LU\n# game: punto_banco\n# casino: C\n# table: P\n"
            "coup,time,session,staff_croupier,shoe,burned,player,banker,outcome,seat,chance,stake,net\n")
    rows = tmp_path / "staff.csv"
    rows.write_text(head + "1,2026-11-02T21:00:00,S1,C-1,1,3d 2s 8c Jd,9h Kd,5c Qh,player,1,banco,100,-100\n"
                           "1,2026-11-02T21:00:00,S1,C-2,1,3d 2s 8c Jd,9h Kd,5c Qh,player,2,punto,100,100\n"
                           "2,2026-11-02T21:01:00,S1,C-1,1,,9s Kh,5d Qs,player,1,punto,100,100\n"
                           "2,2026-11-02T21:01:00,S1,,1,,9s Kh,5d Qs,player,2,punto,100,100\n")
    _, data = report(cli, str(rows))
    ambiguous = [(f["line"], f["column"], f["pointer"]) for f in data["findings"] if f["rule_id"] == "LOAD-AMBIGUOUS"]
    assert ambiguous == [(8, 4, "/staff/croupier")]  # an empty cell repeats nothing and contradicts nothing


def test_a_csv_coup_finding_is_at_the_cell_that_gives_its_field(cli, tmp_path):
    """Positions are worked out only for a coup with a finding: a bet's stake, a coup field and a staff cell
    are found at their rows and columns."""
    from helpers.game_logs import report

    head = ("# kind: game-log\n# jurisdiction: LU\n# game: punto_banco\n# casino: C\n# table: P\n"
            "# limits.minimum: 20\n# limits.maximum: 2000\n"
            "coup,time,session,staff_croupier,shoe,burned,player,banker,outcome,seat,chance,stake,net\n")
    rows = tmp_path / "cells.csv"
    rows.write_text(head + "1,2026-11-02T21:00:00,S1,C-1,1,3d 2s 8c Jd,9h Kd,5c Qh,player,1,punto,100,100\n"
                           "1,2026-11-02T21:00:00,S1,C-1,1,3d 2s 8c Jd,9h Kd,5c Qh,player,2,punto,100,90\n"
                           "2,2026-11-02T21:01:00,S1,C-1,1,,9s Kh,5d Qs,banker,1,punto,100,-100\n")
    _, data = report(cli, str(rows), "--param", "punto_banco_minimum_multiple_eur=20")
    found = sorted((f["rule_id"], f["line"], f["column"], f["pointer"]) for f in data["findings"]
                   if f["file"] == str(rows))
    # coup 2 is the player's (9 to 5), declared the banker's: its bet is settled against the outcome the cards give
    assert found == [("LU-PB-LOG-OUTCOME", 11, 9, "/outcome"), ("LU-PB-LOG-SETTLEMENT", 10, 13, "/bets/1/net"),
                     ("LU-PB-LOG-SETTLEMENT", 11, 13, "/bets/0/net")]


# --- amounts a coup cannot be settled with are findings -----------------------------------------------------------

PB_HEADER = ('{"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco", "casino": "C", "table": "T1", '
             '"limits": {"minimum": 20, "maximum": 2000}}')


def _pb_coup(bet: str, limits: str = "") -> str:
    return ('{"coup": 1, "time": "2026-11-02T21:01:06", "session": "S1", "shoe": 1, "burned": ["3d", "2s", "8c", '
            '"Jd"], "player": ["5c", "9c", "3c"], '
            f'"banker": ["8s", "7h"], "outcome": "player", {limits}"bets": [{bet}]}}')


def _pb_findings(cli, tmp_path, line: str) -> list[tuple[str, int, str]]:
    from helpers.game_logs import report

    path = tmp_path / "log.jsonl"
    path.write_text(PB_HEADER + "\n" + line + "\n", encoding="utf-8")
    done, data = report(cli, str(path), "--param", "punto_banco_minimum_multiple_eur=20")
    assert done.returncode == 1, (done.returncode, data["findings"])
    return sorted((f["rule_id"], f["line"], f["pointer"]) for f in data["findings"] if f["file"] == str(path))


@pytest.mark.parametrize("stake, net", [
    ("1E+31", "1E+31"), ("20", "1E+31"), ("0", "5000"), ("-100", "100"), ('"0.00"', "5000"), ('"-5"', "5"),
    ('"0000000000000000000000000000000020"', "20"), ('"1e3"', "1000")])
def test_an_amount_no_reader_can_settle_is_a_shape_finding(cli, tmp_path, stake, net):
    """Too large, zero, negative, or digits past any amount: the coup's shape says so at the bet (the replay
    skipped such a bet, and its breach with it, exit 0)."""
    found = _pb_findings(cli, tmp_path, _pb_coup(f'{{"seat": 5, "chance": "punto", "stake": {stake}, "net": {net}}}'))
    assert found and {rule for rule, _, _ in found} == {"SHAPE-INVALID"} and all(line == 2 for _, line, _ in found)
    assert {pointer.rsplit("/", 1)[0] for _, _, pointer in found} == {"/bets/0"}


def test_a_large_amount_within_the_bound_is_settled_and_shown_not_a_crash(cli, tmp_path):
    """27 digits and cents: Decimal's default context could not quantize it for the message (INTERNAL-ERROR).
    The schema now stops amounts at 18 digits; a message still shows any amount `money` reads."""
    from casino_audit.replay import cents

    assert cents(Decimal("123456789012345678901234567.25")) == "123456789012345678901234567.25"
    assert cents(Decimal("123456789012345678901234567")) == "123456789012345678901234567.00"
    assert cents(Decimal("1E+99")) == "1E+99" and cents(Decimal("12.345")) == "12.345"
    found = _pb_findings(cli, tmp_path, _pb_coup('{"seat": 5, "chance": "punto", "stake": 20, '
                                                 '"net": "123456789012345678.25"}'))
    assert found == [("LU-PB-LOG-SETTLEMENT", 2, "/bets/0/net")]
    found = _pb_findings(cli, tmp_path, _pb_coup('{"seat": 5, "chance": "punto", "stake": 20, '
                                                 '"net": "1234567890123456789.25"}'))
    assert found == [("SHAPE-INVALID", 2, "/bets/0/net")]


@pytest.mark.parametrize("field, value", [("stake", "1E-40"), ("stake", "1E+400"), ("net", "-1E-40"),
                                          ("net", "0.0000000000000000000000000000000001")])
def test_a_number_no_amount_can_be_is_refused_by_the_shape_saying_why(cli, tmp_path, field, value):
    """The schema took 1E-40 (a positive number under its bound) and `money` read no amount in it: the bet was
    skipped by blackjack's and stud's checks. The log's reader now keeps such a number as written."""
    bet = {"stake": "20", "net": "20", field: value}
    found = _pb_findings(cli, tmp_path, _pb_coup(f'{{"seat": 5, "chance": "punto", "stake": {bet["stake"]}, '
                                                 f'"net": {bet["net"]}}}'))
    assert found == [("SHAPE-INVALID", 2, f"/bets/0/{field}")]


def test_an_amount_money_cannot_read_is_said_by_the_settlement_and_limits_not_skipped():
    """Behind the shape check: were one to let such an amount through, the replay says so at the stake."""
    from casino_audit.logs.terms import terms_for
    from casino_audit.replay import baccarat
    from casino_audit.law.rulesets import load_builtin

    header = {"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco", "limits": {"minimum": 20}}
    prepared = baccarat.prepare("punto_banco", terms_for(header, load_builtin("lu"), "punto_banco", {}, "x", []))
    coup = {"coup": 1, "shoe": 1, "burned": ["3d", "2s", "8c", "Jd"], "player": ["5c", "9c", "3c"],
            "banker": ["8s", "7h"], "outcome": "player",
            "bets": [{"chance": "punto", "stake": Decimal("1E-40"), "net": 0},
                     {"chance": "punto", "stake": 20, "net": Decimal("1E+40")}]}
    found = [(aspect, pointer) for aspect, pointer, _ in baccarat.replay(prepared, baccarat.start(prepared), coup)]
    assert found == [("settlement", "/bets/0/stake"), ("settlement", "/bets/1/net")]


@pytest.mark.parametrize("minimum", ["0", '"0.00"', "-20"])
def test_a_coup_cannot_set_a_minimum_of_zero_or_less(cli, tmp_path, minimum):
    """A minimum of 0 read as 'no minimum' turned the coefficient check off in silence."""
    found = _pb_findings(cli, tmp_path, _pb_coup('{"seat": 5, "chance": "punto", "stake": 20, "net": 20}',
                                                 f'"limits": {{"minimum": {minimum}, "maximum": 100000}}, '))
    assert ("SHAPE-INVALID", 2, "/limits/minimum") in found


@pytest.mark.parametrize("game", ["blackjack", "stud_poker"])
def test_a_csv_log_of_a_game_without_a_csv_layout_is_not_passed_unread(cli, tmp_path, game):
    """Its rows were never read and nothing said so (records read 1, checked 0, exit 0)."""
    from helpers.game_logs import report

    path = tmp_path / "log.csv"
    path.write_text(f"# kind: game-log\n# jurisdiction: LU\n# game: {game}\n# casino: C\n# table: T1\n"
                    "coup,time,session,shoe,dealer\n1,2026-11-02T20:00:00,S1,1,As Ks\n"
                    "2,2026-11-02T20:01:00,S1,1,Ad Kd\n")
    done, data = report(cli, str(path))
    assert done.returncode == 1
    [refused] = [f for f in data["findings"] if f["rule_id"] == "LOAD-UNSUPPORTED"]
    assert (refused["line"], refused["severity"]) == (7, "error") and "(2 in all)" in refused["message"]
    assert "JSON Lines only" in refused["message"]
    assert data["files"][0]["records"]["unreadable"] == 2 and data["files"][0]["status"] == "partial"


def test_the_rows_under_refused_column_names_are_counted_unreadable(cli, tmp_path):
    from helpers.game_logs import report

    path = tmp_path / "log.csv"
    path.write_text("# kind: game-log\n# jurisdiction: LU\n# game: punto_banco\n# casino: C\n# table: P\n"
                    "coup,time,session,shoe,player,banker,outcome,seat,chance,stake,net,net\n"
                    + "".join(f"{n},2026-11-02T21:0{n}:00,S1,1,9h Kd,5c Qh,player,1,punto,100,100,100\n"
                              for n in range(1, 5)))
    done, data = report(cli, str(path))
    assert done.returncode == 1
    rows = [f for f in data["findings"] if f["rule_id"] == "LOAD-UNSUPPORTED"]
    assert [(f["line"], "(4 in all)" in f["message"]) for f in rows] == [(7, True)]
    assert ("LOAD-DUPLICATE-KEY", 6) in {(f["rule_id"], f["line"]) for f in data["findings"]}
    assert data["files"][0]["records"]["read"] == 1 and data["files"][0]["records"]["unreadable"] == 5


def _log_findings(cli, tmp_path, lines: list[str], *args) -> list[tuple[str, int]]:
    from helpers.game_logs import report

    path = tmp_path / "log.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    _, data = report(cli, str(path), *args)
    return sorted((f["rule_id"], f["line"]) for f in data["findings"] if f["file"] == str(path))


def test_coups_numbered_as_decimals_are_numbered_all_the_same(cli, tmp_path):
    """The schema's integer takes 2.0; the numbering check skipped any number not an int (a gap, a repeat and a
    step back passed)."""
    coups = [_pb_coup('{"seat": 5, "chance": "punto", "stake": 40, "net": 40}').replace('"coup": 1', f'"coup": {n}')
             for n in ("1.0", "2.0", "5.0", "5.0", "3.0")]
    found = _log_findings(cli, tmp_path, [PB_HEADER, *coups])
    assert [line for rule, line in found if rule == "LOG-NUMBERING"] == [4, 5, 6]


def test_times_with_and_without_a_zone_cannot_hide_a_step_back(cli, tmp_path):
    coups = [_pb_coup('{"seat": 5, "chance": "punto", "stake": 40, "net": 40}').replace(
        '"coup": 1, "time": "2026-11-02T21:01:06"', f'"coup": {n}, "time": "{time}"')
        for n, time in enumerate(["2026-11-02T21:00:00+00:00", "2026-11-02T20:00:00", "2026-11-02T19:00:00+00:00"],
                                 start=1)]
    found = _log_findings(cli, tmp_path, [PB_HEADER, *coups])
    assert [line for rule, line in found if rule == "LOG-TIME"] == [3, 4]


SPIN_HEADER = '{"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "C", "table": "T1"}'


def _spin(n: int, time: str, staff: str) -> str:
    return (f'{{"coup": {n}, "time": "2026-11-02T{time}", "session": "S1", "staff": {staff}, "number": 17, '
            '"bets": []}')


@pytest.mark.parametrize("second", ['{}', '{"Spinner": "C-1"}', '{"spinner": "C-1 "}', '{"spinner": "c-1"}',
                                    '{"spinner": null}'])
def test_a_spinner_is_not_relieved_by_a_coup_that_leaves_the_place_out_or_respells_the_name(cli, tmp_path, second):
    """A coup not naming the spinner, or naming the same one with a space or in other case, relieved nobody."""
    lines = [SPIN_HEADER, _spin(1, "20:00:00", '{"spinner": "C-1"}'), _spin(2, "20:30:00", second),
             _spin(3, "21:10:00", '{"spinner": "C-1"}')]
    found = _log_findings(cli, tmp_path, lines, "--param", "roulette_zero_rule=lose")
    assert ("PT-ROUL-LOG-SPINNER", 4) in found
    relieved = _log_findings(cli, tmp_path, [*lines[:2], _spin(2, "20:30:00", '{"spinner": "C-2"}'), lines[3]],
                             "--param", "roulette_zero_rule=lose")
    assert "PT-ROUL-LOG-SPINNER" not in {rule for rule, _ in relieved}  # a real relief starts a new turn


def test_a_coup_whose_shape_is_refused_still_counts_in_the_numbering(cli, tmp_path):
    """Coup 2 refused by the shape check was 'missing' to the next coup's numbering; a time that is no text is
    the shape's finding alone."""
    good = '{"seat": 5, "chance": "punto", "stake": 40, "net": 40}'
    coups = [_pb_coup(good), _pb_coup('{"seat": 5, "chance": "punto", "stake": 40, "net": 40, "tip": 1}'),
             _pb_coup(good)]
    coups = [line.replace('"coup": 1', f'"coup": {n}') for n, line in enumerate(coups, start=1)]
    found = _log_findings(cli, tmp_path, [PB_HEADER, *coups])
    assert [rule for rule, _ in found] == ["SHAPE-UNKNOWN-FIELD"]
    coups[1] = coups[1].replace('"time": "2026-11-02T21:01:06", ', "").replace(', "tip": 1', "")
    coups[2] = coups[2].replace('"coup": 3', '"coup": 4')
    found = _log_findings(cli, tmp_path, [PB_HEADER, *coups])
    assert found == [("LOG-NUMBERING", 4), ("SHAPE-INVALID", 3)]


def test_a_session_that_comes_back_is_a_finding(cli, tmp_path):
    """S1, then S1b, then S1 again: what is kept through S1 (its minimum) would start anew."""
    bet = '{"seat": 5, "chance": "punto", "stake": 40, "net": 40}'
    coups = [_pb_coup(bet).replace('"coup": 1', f'"coup": {n}').replace('"session": "S1"', f'"session": "{name}"')
             for n, name in enumerate(["S1", "S1", "S1b", "S1", "S2"], start=1)]
    found = _log_findings(cli, tmp_path, [PB_HEADER, *coups], "--param", "punto_banco_minimum_multiple_eur=20",
                          "--param", "session_break_minutes=0")
    assert found == [("LOG-SESSION", 5)]


def test_past_the_sessions_kept_a_coming_back_session_is_said_unlooked_for(tmp_path, monkeypatch):
    from casino_audit.law.engine import Checker
    from casino_audit.logs import order as log_order
    from casino_audit.run.pipeline import run
    from casino_audit.law.rulesets import load_builtin

    monkeypatch.setattr(log_order, "SESSIONS_KEPT", 2)
    bet = '{"seat": 5, "chance": "punto", "stake": 40, "net": 40}'
    coups = [_pb_coup(bet).replace('"coup": 1', f'"coup": {n}').replace('"session": "S1"', f'"session": "{name}"')
             for n, name in enumerate(["A", "B", "C", "D", "A"], start=1)]
    path = tmp_path / "log.jsonl"
    path.write_text("".join(line + "\n" for line in [PB_HEADER, *coups]), encoding="utf-8")
    result = run([str(path)], Checker({"LU": load_builtin("lu")}))
    said = [(f.rule_id, f.severity.label, f.line) for f in result.findings if f.rule_id.startswith("LOG-")]
    assert said == [("LOG-UNTRACKED", "warning", 5)]  # past two ended sessions (at D): A's return not looked for


def test_past_the_shoes_kept_a_coming_back_shoe_is_said_unlooked_for_as_the_tool_s_warning(tmp_path, monkeypatch):
    """Not an error of the law's deal rule on a compliant log: the tool's own warning, once."""
    from casino_audit.law.engine import Checker
    from casino_audit import replay
    from casino_audit.run.pipeline import run
    from casino_audit.law.rulesets import load_builtin

    monkeypatch.setattr(replay, "SHOES_KEPT", 2)
    bet = '{"seat": 5, "chance": "punto", "stake": 40, "net": 40}'
    coups = [_pb_coup(bet).replace('"coup": 1', f'"coup": {n}').replace('"shoe": 1', f'"shoe": {shoe}')
             for n, shoe in enumerate([1, 2, 3, 4, 5, 1], start=1)]
    path = tmp_path / "log.jsonl"
    path.write_text("".join(line + "\n" for line in [PB_HEADER, *coups]), encoding="utf-8")
    result = run([str(path)], Checker({"LU": load_builtin("lu")}))
    said = [(f.rule_id, f.severity.label, f.line) for f in result.findings if f.file == str(path)]
    assert said == [("LOG-UNTRACKED", "warning", 5)]


def test_a_shoe_that_comes_back_is_a_breach_of_the_deal(cli, tmp_path):
    """Shoe 1, 2, then 1 again: shoe 1's cards were counted anew, so a card dealt once too often passed."""
    bet = '{"seat": 5, "chance": "punto", "stake": 40, "net": 40}'
    coups = [_pb_coup(bet).replace('"coup": 1', f'"coup": {n}').replace('"shoe": 1', f'"shoe": {shoe}')
             for n, shoe in enumerate([1, 1, 2, 1], start=1)]
    found = _log_findings(cli, tmp_path, [PB_HEADER, *coups], "--param", "punto_banco_minimum_multiple_eur=20")
    assert found == [("LU-PB-LOG-DEAL", 5)]


def test_a_blackjack_shoe_that_comes_back_is_a_breach_of_the_deal(cli, tmp_path):
    from helpers.command import EXAMPLES

    lines = (EXAMPLES / "pt/log-blackjack.jsonl").read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace('"shoe": 1', '"shoe": 2')  # coup 2 from shoe 2, coup 3 back to shoe 1
    for at in (2, 3):  # each shoe's first coup (the one coming back is started anew) with its burn (n.º 10)
        lines[at] = lines[at].replace('"dealer":', '"burned": ["2c"], "dealer":', 1)
    found = _log_findings(cli, tmp_path, lines, "--param", "blackjack_jackpot_stake_eur=1")
    assert found == [("PT-BJ-LOG-DEAL", 4)]


@pytest.mark.parametrize("args, why", [
    (["roulette", "-j", "LU", "--param", "roulette_zero_rule=lose"], "no payout schedule"),
    (["roulette", "-j", "MC"], "MC ruleset states nothing of roulette"),
    (["french_roulette", "-j", "MC", "--param", "roulette_zero_rule=lose"], "MC ruleset states nothing of french"),
    (["blackjack", "-j", "MC"], "MC ruleset states nothing of blackjack")])
def test_a_sample_the_law_cannot_deal_is_a_usage_error_with_nothing_written(cli, args, why):
    """It was an internal error, after the header line had gone to standard output."""
    done = cli("sample-log", *args, "--coups", "3")
    assert done.returncode == 2 and why in done.stderr and "internal error" not in done.stderr
    assert done.stdout == ""


def test_a_craps_sample_written_as_csv_is_as_compliant_as_its_json_lines_twin(cli, tmp_path):
    """A point not yet set was written `None` in the CSV, refused by the shape check on every such coup."""
    reports = []
    for fmt in ("jsonl", "csv"):
        assert cli("sample-log", "craps", "-j", "PT", "--coups", "200", "--format", fmt,
                   "-o", str(tmp_path / f"log.{fmt}")).returncode == 0
        reports.append(json.loads(cli("check", str(tmp_path / f"log.{fmt}"), "--format", "json").stdout))
    assert [sorted((f["rule_id"], f["severity"]) for f in r["findings"]) for r in reports] == \
        [[("PT-CRAPS-LOG-BAR", "info"), ("PT-CRAPS-LOG-GIVEN-PAYOUTS", "info")]] * 2


# --- records the readers take apart, and amounts written as whole numbers or as text ---------------------------

def test_a_record_the_two_validators_read_apart_is_refused_never_passed(cli, tmp_path):
    """A coup of over 5,000 values is explained by jsonschema, whose `$` matches before a final line break:
    jsonschema-rs refused "40\\n" as a stake, the explanation named nothing, and the coup went unreplayed, exit 0."""
    bets = [{"seat": 5, "chance": "punto", "stake": 40, "net": 40} for _ in range(1400)]
    bets[0]["stake"] = "40\n"
    bets[1]["stake"], bets[1]["net"] = 999999, 5
    found = _pb_findings(cli, tmp_path, _pb_coup(", ".join(json.dumps(bet) for bet in bets)))
    assert [rule for rule, _, _ in found] == ["SHAPE-INVALID"]


def test_whole_numbers_written_with_a_point_are_whole_numbers(cli, tmp_path):
    """5.0, 1E+0: what the schema's integer takes is what every check reads (a die showing Decimal('5.0') was no
    face, a capacity of 1E+1 digits was dropped); 0E-40 is zero."""
    from casino_audit.core.values import OutOfRange, log_number

    assert [(value, type(value)) for value in map(log_number, ["5.0", "1E+1", "0E-40", "-0.0"])] == \
        [(5, int), (10, int), (0, int), (0, int)]
    assert log_number("12.50") == Decimal("12.50") and isinstance(log_number("1E-40"), OutOfRange)
    line = _pb_coup('{"seat": 5.0, "chance": "punto", "stake": 40.0, "net": 40.00}').replace(
        '"coup": 1', '"coup": 1.0').replace('"shoe": 1', '"shoe": 1E+0')
    from helpers.game_logs import report

    path = tmp_path / "log.jsonl"
    path.write_text(PB_HEADER + "\n" + line + "\n", encoding="utf-8")
    done, data = report(cli, str(path), "--param", "punto_banco_minimum_multiple_eur=20")
    assert done.returncode == 0 and [f for f in data["findings"] if f["file"] == str(path)] == []


def test_a_value_of_no_type_an_amount_takes_is_told_what_is_expected(cli, tmp_path):
    from helpers.game_logs import report

    line = _pb_coup('{"seat": 5, "chance": "punto", "stake": null, "net": 1E-40}')[:-1] + ', "note": 1E+99}'
    path = tmp_path / "log.jsonl"
    path.write_text(PB_HEADER + "\n" + line + "\n", encoding="utf-8")
    _, data = report(cli, str(path))
    said = sorted((f["pointer"], f["message"].split(";")[0]) for f in data["findings"] if f["file"] == str(path))
    assert said == [("/bets/0/net", "coup: `bets/0/net` is 1E-40 (a number too large or too small to be an amount)"),
                    ("/bets/0/stake", "coup: `bets/0/stake` is null (null)"),
                    ("/note", "coup: `note` is 1E+99 (a number too large or too small to be an amount)")]
    assert all("expected a number or text" in f["message"] for f in data["findings"]
               if "/bets/" in (f["pointer"] or ""))


def test_the_lu_blackjack_sample_keeps_a_maximum_the_law_allows(cli, tmp_path):
    assert cli("sample-log", "blackjack", "-j", "LU", "--coups", "100", "--seed", "21",
               "-o", str(tmp_path / "log.jsonl")).returncode == 0
    data = json.loads(cli("check", str(tmp_path / "log.jsonl"), "--format", "json").stdout)
    assert "LU-BJ-LOG-COEFFICIENT" not in {f["rule_id"] for f in data["findings"]}


@pytest.mark.parametrize("old, new", [('"session": "S1", ', ''), ('"session"', '"Session"'),
                                      ('"shoe": 1, ', ''), ('"shoe"', '"shoe_number"')])
def test_the_fields_session_and_shoe_checks_read_cannot_be_left_out_or_respelt(cli, tmp_path, old, new):
    """A session or shoe that comes back is found only where the coup names it: a coup that does not is refused."""
    bet = '{"seat": 5, "chance": "punto", "stake": 40, "net": 40}'
    found = _pb_findings(cli, tmp_path, _pb_coup(bet).replace(old, new, 1))
    assert found and {rule for rule, _, _ in found} <= {"SHAPE-INVALID", "SHAPE-UNKNOWN-FIELD"}


@pytest.mark.parametrize("change", ["drop", "respell"])
def test_a_split_hand_cannot_hide_its_stake(cli, tmp_path, change):
    from helpers.command import EXAMPLES

    lines = (EXAMPLES / "pt/log-blackjack.jsonl").read_text(encoding="utf-8").splitlines()
    coup = json.loads(lines[3])
    coup["boxes"][0]["hands"] = [{"cards": ["8h", "Kd"], "stake": "10", "decisions": ["split", "stand"], "net": "10"},
                                 {"cards": ["8d", "Qc"], "stake": "20", "decisions": ["stand"], "net": "20"}]
    split = coup["boxes"][0]["hands"][1]
    if change == "respell":
        split["Stake"] = split["stake"]
    del split["stake"]
    lines[3] = json.dumps(coup)
    found = _log_findings(cli, tmp_path, lines, "--param", "blackjack_jackpot_stake_eur=1")
    assert found and {rule for rule, _ in found} <= {"SHAPE-INVALID", "SHAPE-UNKNOWN-FIELD"}
    assert all(line == 4 for _, line in found)
