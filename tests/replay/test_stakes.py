"""Stakes and payouts replayed at roulette, dice games and punto banco / bacará: each breach a filer could get
through, reproduced (a failing test on the code before) and found now, at its line, by the aspect that owns it."""

import json

from helpers.command import EXAMPLES, log_findings
from decimal import Decimal
from helpers.game_logs import CASINO_2000, CRAPS, CRAPS_PARAMS, LU_ENGLISH, STAYS, dice_coup, roulette_coup, run_log


# --- craps odds (n.º 11.1): only behind the player's own line or come bet, and never more than it ------------
def test_craps_odds_behind_no_line_bet_are_a_finding(cli, tmp_path):
    coups = [dice_coup(1, [3, 3]),  # point 6, nobody on the pass line
             dice_coup(2, [4, 2], (1, "pass_line_odds", Decimal("12.50"), Decimal("15.00")), point=6)]
    code, found = run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS)
    assert found == [("PT-CRAPS-LOG-CHANCES", 3, "/bets/0/chance")] and code == 1


def test_craps_odds_over_the_line_bet_are_a_finding(cli, tmp_path):
    coups = [dice_coup(1, [3, 3], (1, "pass_line", 10, 0, STAYS)),
             dice_coup(2, [4, 2], (1, "pass_line", 10, 10), (1, "pass_line_odds", 100, 120), point=6)]
    code, found = run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS)
    assert found == [("PT-CRAPS-LOG-CHANCES", 3, "/bets/1/stake")] and code == 1
    # odds split in two records are added up; another seat's line bet is no cover
    coups[1]["bets"][1:] = [{"seat": 1, "chance": "pass_line_odds", "stake": 10, "net": 12},
                            {"seat": 1, "chance": "pass_line_odds", "stake": 10, "net": 12},
                            {"seat": 2, "chance": "pass_line_odds", "stake": 10, "net": 12}]
    code, found = run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS)
    assert found == [("PT-CRAPS-LOG-CHANCES", 3, "/bets/2/stake"), ("PT-CRAPS-LOG-CHANCES", 3, "/bets/3/chance")]
    # at most the line bet itself: legal, exit 0
    coups[1]["bets"][1:] = [{"seat": 1, "chance": "pass_line_odds", "stake": 10, "net": 12}]
    assert run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS) == (0, [])


def test_craps_come_odds_need_the_come_bet_on_their_own_point(cli, tmp_path):
    coups = [dice_coup(1, [3, 3]),
             dice_coup(2, [2, 2], (1, "come", 10, 0, {**STAYS}), point=6),  # the come bet moves to 4
             dice_coup(3, [5, 5], (1, "come", 10, 0, {**STAYS, "point": 4}),
                       (1, "come_odds", 10, 0, {**STAYS, "point": 4}), point=6)]
    assert run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS) == (0, [])
    coups[2]["bets"][1]["point"] = 10  # odds on 10, where seat 1 has no come bet
    code, found = run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS)
    assert ("PT-CRAPS-LOG-CHANCES", 4, "/bets/1/chance") in found and code == 1


LU_PB = {"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco", "casino": CASINO_2000, "table": "P1",
         "limits": {"minimum": 20, "maximum": 2000}}


def test_a_roulette_stake_split_over_two_records_is_held_to_the_maximum(cli, tmp_path):
    split = [roulette_coup(1, 1, {"seat": 1, "chance": "rouge", "stake": 700, "net": 700},
                           {"seat": 1, "chance": "red", "stake": 700, "net": 700})]  # the same chance, in English
    code, found = run_log(cli, tmp_path, LU_ENGLISH, split)  # over the table's 720, and Art. 37-3's 360 times 2
    assert found == [("LU-EROUL-LOG-MAXIMA", 2, "/bets/1/stake"), ("LU-ROUL-LOG-LIMITS", 2, "/bets/1/stake")] \
        and code == 1
    pleins = [roulette_coup(1, 17, {"seat": 3, "chance": "plein", "numbers": [17], "stake": 30, "net": 1050},
                            {"seat": 3, "chance": "plein", "numbers": ["17"], "stake": 30, "net": 1050})]
    # 60 on one plein: over its maximum of 20 times the minimum of 2 (Art. 37-3), under the table's 720
    assert run_log(cli, tmp_path, LU_ENGLISH, pleins)[1] == [("LU-EROUL-LOG-MAXIMA", 2, "/bets/1/stake")]
    # two players, or one player's two different bets, each within the maximum: legal
    apart = [roulette_coup(1, 1, {"seat": 1, "chance": "rouge", "stake": 700, "net": 700},
                           {"seat": 2, "chance": "rouge", "stake": 700, "net": 700},
                           {"seat": 1, "chance": "impair", "stake": 700, "net": 700},
                           {"seat": 1, "chance": "plein", "numbers": [1], "stake": 40, "net": 1400},
                           {"seat": 1, "chance": "plein", "numbers": [2], "stake": 40, "net": -40})]
    assert run_log(cli, tmp_path, LU_ENGLISH, apart) == (0, [])


def test_a_punto_banco_and_a_banca_francesa_stake_split_over_two_records_is_held_to_the_maximum(cli, tmp_path):
    coup = {"coup": 1, "time": "2026-11-02T21:01:06", "session": "S1", "shoe": 1,
            "burned": ["3d", "2s", "8c", "Jd"], "player": ["5c", "9c", "3c"],
            "banker": ["8s", "7h"], "outcome": "player",
            "bets": [{"seat": 5, "chance": "punto", "stake": 1200, "net": 1200},
                     {"seat": 5, "chance": "punto", "stake": 1200, "net": 1200}]}
    assert run_log(cli, tmp_path, LU_PB, [coup])[1] == [("LU-PB-LOG-LIMITS", 2, "/bets/1/stake")]
    # banca francesa: a standing grande added to, over the maximum (PT-BF-LOG-LIMITS)
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "banca_francesa", "casino": "Casino Estoril",
              "table": "B1", "limits": {"minimum": 10, "maximum": 2000}}
    added = [dice_coup(1, [5, 1, 3], (8, "grande", 1500, 0, STAYS)),
             dice_coup(2, [1, 4, 4], (8, "grande", 1500, 0, STAYS), (8, "grande", 1000, 0, STAYS))]
    for coup in added:
        del coup["point"]
    code, found = run_log(cli, tmp_path, header, added, "--param", "banca_francesa_other_totals=stays")
    assert found == [("PT-BF-LOG-LIMITS", 3, "/bets/1/stake")] and code == 1


# --- craps line bets are made before the series' first throw (n.º 10.1, 10.2, 10.9) ---------------------------
def test_a_craps_line_bet_made_with_the_point_on_is_a_finding(cli, tmp_path):
    # a don't pass of 500 put down once the point is 6, won on the 7 that follows
    coups = [dice_coup(1, [3, 3], (1, "pass_line", 10, 0, STAYS)),
             dice_coup(2, [5, 2], (1, "pass_line", 10, -10), (2, "dont_pass_line", 500, 500), point=6)]
    code, found = run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS)
    assert found == [("PT-CRAPS-LOG-CHANCES", 3, "/bets/1/chance")] and code == 1
    # made at the come-out and standing since: legal
    coups[0]["bets"].append({"seat": 2, "chance": "dont_pass_line", "stake": 500, "net": 0, "status": "stays"})
    assert run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS) == (0, [])


# --- LU English roulette's maxima on «12 numéros» and «24 numéros» (Art. 37-3) hold the douzaines and colonnes ---
def test_the_maxima_on_twelve_and_twenty_four_numbers_hold_douzaines_and_colonnes(cli, tmp_path):
    (tmp_path / "table.yaml").write_text((EXAMPLES / "lu" / "table-english-roulette.yaml").read_text("utf-8"), "utf-8")
    header = {**LU_ENGLISH, "table_config": "table.yaml"}
    del header["limits"]
    dozen, first_two = list(range(1, 13)), [n for n in range(1, 37) if n % 3 != 0]
    coups = [roulette_coup(1, 1, {"seat": 1, "chance": "douzaine", "numbers": dozen, "stake": 5000, "net": 10000},
                           {"seat": 2, "chance": "colonne", "numbers": list(range(1, 37, 3)), "stake": 500,
                            "net": 1000},
                           {"seat": 3, "chance": "deux_colonnes", "numbers": first_two, "stake": 962, "net": 481},
                           {"seat": 4, "chance": "douzaine", "numbers": dozen, "stake": 480, "net": 960},
                           {"seat": 5, "chance": "deux_colonnes", "numbers": first_two, "stake": 960, "net": 480})]
    code, found = run_log(cli, tmp_path, header, coups)
    # each over the table's maximum and over the law's, the same multiples of the minimum (Art. 37-3)
    assert found == [(rule, 2, f"/bets/{i}/stake") for rule in ("LU-EROUL-LOG-MAXIMA", "LU-ROUL-LOG-LIMITS")
                     for i in (0, 1, 2)] and code == 1


# --- a payout the law fixes is settled at the law's value, whatever the table configuration says -------------
def test_a_table_configuration_paying_under_the_law_does_not_settle_the_coups(cli, tmp_path):
    table = (EXAMPLES / "lu" / "table-english-roulette.yaml").read_text("utf-8")
    (tmp_path / "table.yaml").write_text(table.replace("payouts: {plein: 35,", "payouts: {plein: 30,"), "utf-8")
    header = {**LU_ENGLISH, "table_config": "table.yaml"}
    del header["limits"]
    paid_30 = [roulette_coup(1, 1, {"seat": 3, "chance": "plein", "numbers": [1], "stake": 10, "net": 300})]
    code, found = run_log(cli, tmp_path, header, paid_30)
    # the configuration, checked with the log, is found at its line (LU-EROUL-PAYOUTS); the log's coups by the law
    assert found == [("LU-EROUL-LOG-SETTLEMENT", 2, "/bets/0/net"), ("LU-EROUL-PAYOUTS", 14, "/payouts/plein")]
    assert code == 1  # Art. 37-2: 35 times
    paid_30[0]["bets"][0]["net"] = 350
    assert run_log(cli, tmp_path, header, paid_30) == (1, [("LU-EROUL-PAYOUTS", 14, "/payouts/plein")])
    # punto banco: a table paying banco at 0.90 does not make 0.90 the law's 19 for 20 (Art. 37-4)
    (tmp_path / "table.yaml").write_text((EXAMPLES / "lu" / "table-punto-banco.yaml").read_text("utf-8")
                                         .replace("banco: 0.95", "banco: 0.90"), "utf-8")
    pb = {**LU_PB, "table_config": "table.yaml"}
    del pb["limits"]
    coup = {"coup": 1, "time": "2026-11-02T21:01:06", "session": "S1", "shoe": 1,
            "burned": ["3d", "2s", "8c", "Jd"], "player": ["5c", "2c"],
            "banker": ["8s", "Th"], "outcome": "banker", "bets": [{"seat": 5, "chance": "banco", "stake": 100,
                                                                   "net": 90}]}
    assert ("LU-PB-LOG-SETTLEMENT", 2, "/bets/0/net") in run_log(cli, tmp_path, pb, [coup])[1]


def test_the_law_fixed_payout_holds_under_another_name_or_the_simple_chances_group(cli, tmp_path):
    table = (EXAMPLES / "lu" / "table-english-roulette.yaml").read_text("utf-8")
    header = {**LU_ENGLISH, "table_config": "table.yaml"}
    del header["limits"]
    for changed, coup in (
            (table.replace("payouts: {plein: 35,", "payouts: {pleno: 30,"),  # the plein under its PT name
             roulette_coup(1, 1, {"seat": 3, "chance": "plein", "numbers": [1], "stake": 10, "net": 300})),
            (table.replace("pair: 1, impair: 1, manque: 1, passe: 1, rouge: 1, noir: 1}", "chances_simples: 2}"),
             roulette_coup(1, 1, {"seat": 3, "chance": "rouge", "stake": 10, "net": 20}))):
        assert changed != table
        (tmp_path / "table.yaml").write_text(changed, "utf-8")
        code, found = run_log(cli, tmp_path, header, [coup])
        on_log = [f for f in found if "-LOG-" in f[0]]  # (the configuration's own breach is found in it)
        assert on_log == [("LU-EROUL-LOG-SETTLEMENT", 2, "/bets/0/net")] and code == 1, changed


# --- a turn rule whose role no coup names is said not checked, not passed in silence -------------------------
def test_a_log_that_names_no_spinner_has_the_spinner_rule_said_not_checked(cli, tmp_path):
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "Casino Estoril",
              "table": "F1", "limits": {"minimum": 5, "maximum": 2500}}
    coups = [{**roulette_coup(i + 1, 1, {"seat": 1, "chance": "pleno", "numbers": [1], "stake": 5, "net": 175}),
              "time": f"2026-11-02T{20 + i // 60:02d}:{i % 60:02d}:00"} for i in range(150)]  # two and a half hours
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *coups]))
    done = cli("check", str(path), "--format", "json")
    notes = [f for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "PT-ROUL-LOG-SPINNER"]
    assert [(f["severity"], f["line"]) for f in notes] == [("info", 1)] and "spinner" in notes[0]["message"]
    assert cli("check", str(path), "--require-params").returncode == 1
    # named on the coups: checked, nothing to say of a spinner relieved every half hour
    for i, coup in enumerate(coups):
        coup["staff"] = {"spinner": f"C-{i // 30}"}
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *coups]))
    assert run_log(cli, tmp_path, header, coups) == (0, [])
    assert not [f for f in json.loads(cli("check", str(path), "--format", "json").stdout)["findings"]
                if f["rule_id"] == "PT-ROUL-LOG-SPINNER"]


def test_a_spinner_named_once_and_then_left_out_holds_the_ball_as_long_as_the_coups_go_on(cli, tmp_path):
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "Casino Estoril",
              "table": "F1", "limits": {"minimum": 5, "maximum": 2500}}
    coups = [{**roulette_coup(i + 1, 1, {"seat": 1, "chance": "pleno", "numbers": [1], "stake": 5, "net": 175}),
              "time": f"2026-11-02T{20 + i // 60:02d}:{i % 60:02d}:00"} for i in range(90)]
    coups[0]["staff"] = {"spinner": "C-7"}  # named at the first coup only
    code, found = run_log(cli, tmp_path, header, coups)
    assert found == [("PT-ROUL-LOG-SPINNER", 63, "/staff")] and code == 1  # coup 62, 61 minutes on
    coups[45]["staff"] = {"spinner": "C-8"}  # relieved after 45 minutes: the turn of C-8 runs 44 more
    assert run_log(cli, tmp_path, header, coups) == (0, [])


# --- a maximum filed under a name no stake carries holds nothing: said, not passed over (merged with main's check) --
def test_a_limit_filed_under_no_chance_of_the_game_is_a_finding(cli, tmp_path):
    header = {**LU_ENGLISH, "limits": {"minimum": 2, "maxima": {"Plein": 40, "chances_simples": 720}}}
    coups = [roulette_coup(1, 1, {"seat": 3, "chance": "plein", "numbers": [1], "stake": 40, "net": 1400})]
    code, found = run_log(cli, tmp_path, header, coups)
    assert found == [("LOAD-AMBIGUOUS", 1, "/limits/maxima/Plein")] and code == 1
    pb = {**LU_PB, "limits": {"minimum": 20, "maximum": 2000, "maxima": {"banker": 500, "egalite": 200}}}
    coup = {"coup": 1, "time": "2026-11-02T21:01:06", "session": "S1", "shoe": 1,
            "burned": ["3d", "2s", "8c", "Jd"], "player": ["5c", "9c", "3c"],
            "banker": ["8s", "7h"], "outcome": "player", "bets": [{"seat": 5, "chance": "punto", "stake": 20, "net": 20}]}
    assert run_log(cli, tmp_path, pb, [coup], "--param", "punto_banco_minimum_multiple_eur=20")[1] == [
        ("LOAD-AMBIGUOUS", 1, "/limits/maxima/banker")]
    # the law's own names (LU Art. 37-3's «12 numéros», «24 numéros»): nothing to say
    assert run_log(cli, tmp_path, {**header, "limits": {"minimum": 2, "maxima": {
        "plein": 40, "chances_simples": 720, "douze_numeros": 480, "vingt_quatre_numeros": 960}}}, coups) == (0, [])


# --- a seatless stake beside a seat's on one bet could be that seat's: said, never guessed ----------------------
def test_a_seatless_stake_beside_a_seat_stake_is_said(cli, tmp_path):
    """PT roulette n.º 32, d): «para cada jogador». Seat 1's 1,500 on pleno 17 and a seatless 1,500 on it (3,000
    over a maximum of 2,500) passed in silence: a seatless stake may be any seat's. Held as one player apart
    from the seats (the sums unchanged), and that is said once."""
    records = [json.loads(line) for line in
               (EXAMPLES / "pt/log-french-roulette.jsonl").read_text("utf-8").splitlines()][:2]
    records[1]["bets"] = [{"seat": 1, "chance": "pleno", "numbers": [17], "stake": 1500, "net": 52500},
                          {"chance": "pleno", "numbers": [17], "stake": 1500, "net": 52500}]
    found = log_findings(cli, tmp_path, records)
    notes = [f for f in found if f["rule_id"] == "LOAD-AMBIGUOUS" and f["severity"] == "info"]
    assert len(notes) == 1 and "no seat" in notes[0]["message"] and notes[0]["pointer"] == "/bets/1/stake", found
    records[1]["bets"][1]["seat"] = 2  # two seats: two players, nothing to say
    assert not [f for f in log_findings(cli, tmp_path, records) if f["rule_id"] == "LOAD-AMBIGUOUS"]
