"""A log's table held to the law: its declared limits, the configuration it names, payouts, misdeals,
offsets, burns; breaches a filer could get through, and legal filings flagged, each reproduced (a failing test on
the code before) and judged right now, at its line."""

import copy
import json
import shutil
from decimal import Decimal

import pytest

from helpers.command import EXAMPLES, log_findings
from helpers.game_logs import CRAPS, CRAPS_PARAMS, STAYS, dice_coup, roulette_coup, run_log


# --- craps: the point follows the throws whatever the session label (n.º 10.1, 10.9) ------------------------
def test_a_new_session_label_does_not_reset_the_point_or_the_standing_bets(cli, tmp_path):
    # Point 6 is on and seat 1's pass bet stands; the next throw is a 7: the pass bet loses. Relabelled as a
    # new session with the point written off, the 7 read as a come-out win and the log passed clean, exit 0.
    coups = [dice_coup(1, [3, 3], (1, "pass_line", 10, 0, STAYS)),
             dice_coup(2, [4, 3], (1, "pass_line", 10, 10), point=None)]
    coups[1]["session"] = "2026-11-02-b"
    code, found = run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS)
    assert code == 1 and ("PT-CRAPS-LOG-RESOLUTION", 3, "/point") in found
    # a bet standing on the layout cannot vanish with the label either (n.º 10.9)
    coups[1]["bets"], coups[1]["point"] = [], 6
    code, found = run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS)
    assert code == 1 and found == [("PT-CRAPS-LOG-RESOLUTION", 3, "/bets")]
    # written as the throws have it, the new label is no finding: the 7 loses the pass bet, exit 0
    coups[1]["bets"] = [{"seat": 1, "chance": "pass_line", "stake": 10, "net": -10}]
    assert run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS) == (0, [])


# --- the limits a log is played under are held to the law's table rules on limits ---------------------------
FRENCH = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "Casino Estoril",
          "table": "F1"}
RED = {"seat": 9, "chance": "encarnado", "stake": 50000, "net": 50000}  # 1 is red


def test_a_log_declaring_maxima_the_law_does_not_allow_is_a_finding(cli, tmp_path):
    """PT n.º 24, b): the simple chances' maximum is at most 540 times the minimum. A log whose header limits
    put it at 100,000 on a minimum of 5 passed clean with a stake of 50,000 on red, exit 0."""
    coups = [roulette_coup(1, 1, RED)]
    header = {**FRENCH, "limits": {"minimum": 5, "maximum": 1000, "maxima": {"chances_simples": 100000}}}
    code, found = run_log(cli, tmp_path, header, coups)
    assert code == 1 and found == [("PT-FROUL-MAXIMA", 1, "/limits/maxima/chances_simples")]
    # one simple chance's own maximum, under any of its names, has the same ceiling
    header["limits"]["maxima"] = {"chances_simples": 2700, "rouge": 100000}
    code, found = run_log(cli, tmp_path, header, coups)
    assert code == 1 and ("PT-FROUL-MAXIMA", 1, "/limits/maxima/rouge") in found
    # within the ceiling, the stake is held to the maximum: the 50,000 is the finding, not the limits
    header["limits"]["maxima"] = {"chances_simples": 2700}
    code, found = run_log(cli, tmp_path, header, coups)
    assert code == 1 and [f[0] for f in found] == ["PT-ROUL-LOG-LIMITS"]
    coups[0]["bets"] = [{**RED, "stake": 2700, "net": 2700}]
    assert run_log(cli, tmp_path, header, coups) == (0, [])


def test_a_minimum_lowered_mid_log_is_held_to_the_ceiling_from_that_coup_on(cli, tmp_path):
    header = {**FRENCH, "limits": {"minimum": 5, "maximum": 1000, "maxima": {"chances_simples": 2700}}}
    coups = [roulette_coup(1, 1, {**RED, "stake": 5, "net": 5}), roulette_coup(2, 1, {**RED, "stake": 5, "net": 5})]
    coups[1]["limits"] = {"minimum": 2}  # 2,700 is now 1,350 times the minimum
    code, found = run_log(cli, tmp_path, header, coups)
    assert code == 1 and ("PT-FROUL-MAXIMA", 3, "/limits") in found


def test_the_table_configuration_a_log_names_is_held_to_the_law_with_it(cli, tmp_path):
    """The named configuration's own breach showed only if the configuration was checked too: a log checked
    alone (a CI gate on the log) passed clean, exit 0."""
    table = (EXAMPLES / "pt/table-french-roulette.yaml").read_text("utf-8")
    assert "chances_simples: 2700" in table
    (tmp_path / "table.yaml").write_text(table.replace("chances_simples: 2700", "chances_simples: 100000"))
    coups = [roulette_coup(1, 1, {**RED, "stake": 10, "net": 10})]
    header = {**FRENCH, "table": "RF1", "table_config": "table.yaml"}
    code, found = run_log(cli, tmp_path, header, coups)
    # the configuration is checked with the log: its breach is found once, in it, at its line
    assert code == 1 and found == [("PT-FROUL-MAXIMA", 19, "/stakes/maxima_eur/chances_simples")]
    (tmp_path / "table.yaml").write_text(table)
    assert run_log(cli, tmp_path, header, coups) == (0, [])


def test_a_log_naming_another_tables_configuration_is_a_finding(cli, tmp_path):
    """A log of table F1 replayed under the (legal) configuration of table RF1, or of another casino, passed."""
    (tmp_path / "table.yaml").write_text((EXAMPLES / "pt/table-french-roulette.yaml").read_text("utf-8"))
    coups = [roulette_coup(1, 1, {**RED, "stake": 10, "net": 10})]
    code, found = run_log(cli, tmp_path, {**FRENCH, "casino": "Casino Lisboa", "table_config": "table.yaml"}, coups)
    assert code == 1 and found == [("LOAD-UNREADABLE", 1, "/table_config")] * 2  # table RF1, Casino Estoril
    header = {**FRENCH, "table": " rf1", "casino": "casino  estoril", "table_config": "table.yaml"}
    assert run_log(cli, tmp_path, header, coups) == (0, [])


# --- craps: the place and lay payouts the run gives are the law's (n.º 12), whatever the table says -----------
def test_the_given_place_payout_settles_the_coups_over_the_tables_own():
    """n.º 12's payout table is missing from the source: the run gives it (craps_place_6_pays=7/6). A table
    configuration paying place 6 at even money took precedence: a won place 6 of 60 paid 60, not 70, passed."""
    from casino_audit.replay import Terms
    from casino_audit.replay import dice as family
    from casino_audit.law.schedules import law_schedule
    from helpers.dice_logs import PARAMS, PT, coup

    table = {**law_schedule(PT, "craps", "/payouts"), "place_6": 1}
    prepared = family.prepare("craps", Terms(PT.play["craps"].data, table, params=PARAMS))
    underpaid = coup(1, [2, 4], (1, "place_6", 60, 60))
    assert [(a, p) for a, p, _ in family.replay(prepared, family.start(prepared), underpaid)] == \
        [("given_payouts", "/bets/0/net")]
    # without the parameter, the table's own schedule is all there is to settle by
    params = {k: v for k, v in PARAMS.items() if k != "craps_place_6_pays"}
    try:
        prepared = family.prepare("craps", Terms(PT.play["craps"].data, table, params=params))
    except family.Unavailable as unavailable:
        prepared = unavailable.prepared
    assert list(family.replay(prepared, family.start(prepared), underpaid)) == []


# --- stud poker: a wrong card count voids the coup (LU Art. 37-7, MC, PT n.º 19) ------------------------------
@pytest.mark.parametrize("code", ["lu", "mc", "pt"])
def test_a_misdealt_coup_settled_void_is_no_breach(code):
    """«Le coup est nul quand le nombre de cartes composant la main d'un joueur ou du croupier est incorrect»:
    a log recording the misdeal and returning every stake (each box nets 0) was a deal error, exit 1; and the other
    boxes of such a coup were settled as if it had been played."""
    from helpers.stud_logs import box, coup, findings

    misdealt = coup("As Kd 9c 7h 2s", box("Qh Qd 5c 4s 3d 8h", net="0"), box("Jc Jd 6c 6h 2h", net="0", number=2))
    assert findings(code, misdealt) == []
    misdealt["boxes"][1]["net"] = Decimal(20)  # played on as if dealt right: the deal's breach
    assert findings(code, misdealt) == [("deal", "/boxes/0/cards")]
    misdealt["dealer"].pop()
    misdealt["boxes"][1]["net"] = Decimal(0)
    assert findings(code, misdealt) == []


# --- a log's clock: its offset from UTC moves only with summer time ---------------------------------------------
def test_a_drifting_utc_offset_is_a_finding_and_summer_time_is_not(cli, tmp_path):
    """Each coup's offset moved on by its minutes (21:30:20+00:30, 21:59:40+00:59 ...): every coup one instant in
    UTC, so a spinner at the ball 65 minutes passed PT-ROUL-LOG-SPINNER, exit 0."""
    header = {**FRENCH, "limits": {"minimum": 5, "maximum": 1000}}
    coups = []
    for i in range(14):  # a coup every 5 minutes of the wall clock, the offset moved on as much
        coup = roulette_coup(i + 1, 1, {**RED, "stake": 5, "net": 5})
        coup["time"] = f"2026-11-02T21:{i * 5:02d}:00+00:{i * 5:02d}" if i < 12 else \
            f"2026-11-02T22:{(i - 12) * 5:02d}:00+01:{(i - 12) * 5:02d}"
        coup["staff"] = {"spinner": "C-7"}
        coups.append(coup)
    code, found = run_log(cli, tmp_path, header, coups)
    # (and the tenth of these coups, all one instant, is ten coups stamped with the same second: one more LOG-TIME)
    assert code == 1 and found[0] == ("LOG-TIME", 3, "/time") and len(found) == 14
    # summer time ends in Lisbon: 01:59+01:00 then 01:01+00:00 (01:00 UTC on October's last Sunday), two minutes
    # apart (offsets its clock shows: +02:00 on a Portuguese table is said, `test_an_offset_...table_zone_is_said`)
    coups = [roulette_coup(1, 1, {**RED, "stake": 5, "net": 5}), roulette_coup(2, 1, {**RED, "stake": 5, "net": 5})]
    coups[0]["time"], coups[1]["time"] = "2026-10-25T01:59:00+01:00", "2026-10-25T01:01:00+00:00"
    assert run_log(cli, tmp_path, header, coups) == (0, [])
    coups[0]["time"], coups[1]["time"] = "2026-10-24T01:59:00+01:00", "2026-10-24T01:01:00+00:00"  # a day early
    code, found = run_log(cli, tmp_path, header, coups)
    assert code == 1 and found == [("LOG-TIME", 3, "/time")]


# --- CSV amounts: read as a JSON text amount is, and a thousands point is no decimal point -----------------------
CSV_HEAD = ("# kind: game-log\n# jurisdiction: LU\n# game: punto_banco\n# casino: C\n# table: P\n"
            "# limits.minimum: 20\n# limits.maximum: 2000\n"
            "coup,time,session,shoe,burned,player,banker,outcome,seat,chance,stake,net\n")
CSV_PARAMS = ("--param", "punto_banco_minimum_multiple_eur=20", "--param", "punto_banco_minimum_floor_eur=20",
              "--param", "punto_banco_stake_minimum_eur=20")


def _csv(cli, tmp_path, stake, net):
    log = tmp_path / "log.csv"
    log.write_text(CSV_HEAD + f"1,2026-11-02T21:00:00,S1,1,3d 2s 8c Jd,9h Kd,5c Qh,player,1,punto,{stake},{net}\n")
    done = cli("check", str(log), *CSV_PARAMS, "--format", "json")
    return done.returncode, [(f["rule_id"], f["line"], f["column"]) for f in json.loads(done.stdout)["findings"]]


@pytest.mark.parametrize("written", ["２０４０", "2_040", "+2040", "2.04e3"])
def test_a_csv_amount_is_written_as_a_json_text_amount_is(cli, tmp_path, written):
    """A stake of 2,040 (over the maximum of 2,000) written in fullwidth digits, with an underscore, a plus sign or
    an exponent was read as 2040 in CSV, refused in JSON: one log, two readings. Now refused in both."""
    code, found = _csv(cli, tmp_path, written, "2040")
    assert code == 1 and [f[0] for f in found] == ["SHAPE-INVALID"]
    assert _csv(cli, tmp_path, "40", "40") == (0, [])


def test_a_csv_amount_with_a_thousands_point_is_ambiguous(cli, tmp_path):
    """Luxembourg and Portugal write 2020 as 2.020: read as 2.02, a stake of 2,020 over the maximum of 2,000 (and
    no multiple of 20) passed as two euros and two cents, exit 0."""
    code, found = _csv(cli, tmp_path, "2.020", "2.020")
    assert code == 1 and ("LOAD-AMBIGUOUS", 9, 11) in found and ("LOAD-AMBIGUOUS", 9, 12) in found
    assert _csv(cli, tmp_path, "2020.00", "2020.00")[1] != []  # over the maximum, read as written
    assert _csv(cli, tmp_path, "40.00", "40.00") == (0, [])
    assert ("LOAD-AMBIGUOUS", 9, 11) not in _csv(cli, tmp_path, "0.050", "0.050")[1]  # no thousands: as written


# --- baselines hold a breach to what it was -----------------------------------------------------------------
def test_a_baselined_breach_that_grows_worse_is_a_new_finding(cli, tmp_path):
    """A baseline kept file, rule, document and place: a machine baselined at a return of 84.999 % and filed
    again at 70 % stayed baselined, exit 0. A version-1 baseline (no messages) is still read, as before."""
    import shutil

    from helpers.suppressions import EXAMPLES as LU_EXAMPLES, Place, run_json

    (tmp_path / ".git").mkdir()
    shutil.copy(LU_EXAMPLES / "machine-rtp-below-85.yaml", tmp_path / "rtp.yaml")
    cli = Place(cli, tmp_path)
    assert cli("check", "rtp.yaml", "--write-baseline", "b.json").returncode == 1
    written = json.loads((tmp_path / "b.json").read_text())
    assert written["version"] >= 2 and all(isinstance(e["message"], str) for e in written["findings"])
    assert cli("check", "rtp.yaml", "--baseline", "b.json").returncode == 0
    rtp = tmp_path / "rtp.yaml"
    rtp.write_text(rtp.read_text().replace("redistribution_rate: 84.999 %", "redistribution_rate: 70 %"))
    done, report = run_json(cli, "rtp.yaml", "--baseline", "b.json")
    assert done.returncode == 1
    assert [f["rule_id"] for f in report["findings"] if f["suppression"] is None and f["severity"] == "error"] == \
        ["LU-SLOT-RTP-MIN"]
    # version 1: any message at the place, as it was written
    legacy = {**written, "version": 1, "findings": [{k: v for k, v in e.items() if k != "message"}
                                                   for e in written["findings"]]}
    (tmp_path / "b1.json").write_text(json.dumps(legacy))
    done, report = run_json(cli, "rtp.yaml", "--baseline", "b1.json")
    assert done.returncode == 0
    # ... and said so in every report: rewriting a baseline as version 1 is no silent way back
    [setting] = [s for s in report["settings"] if s["name"] == "baseline"]
    assert "version 1" in setting["value"] and "whatever its message" in setting["value"]
    done, report = run_json(cli, "rtp.yaml", "--baseline", "b.json")
    assert "version 1" not in json.dumps(report["settings"])
    shown = cli("check", "rtp.yaml", "--baseline", "b1.json", "--format", "github").stdout
    assert "::warning" in shown and "version 1" in shown  # on the run's page, not only in its settings


# --- punto banco: each shoe starts with its burn (LU Art. 37-4) --------------------------------------------------
def test_a_shoe_started_without_its_burn_is_a_finding(cli, tmp_path):
    """«La valeur de cette carte ... indique le nombre de cartes qui seront brûlées»: a shoe whose first coup
    burns one card under a king turned, or records no burn at all, passed (the provision was not encoded)."""
    from helpers.game_logs import HEADER, coup

    first, second = coup(1, burned=["Kd", "2s"]), coup(2)
    del second["burned"]  # burnt at the shoe's start alone
    code, found = run_log(cli, tmp_path, HEADER, [first, second], *CSV_PARAMS)
    assert code == 1 and found == [("LU-PB-LOG-BURN", 2, "/burned")]
    del first["burned"]
    assert run_log(cli, tmp_path, HEADER, [first, second], *CSV_PARAMS)[1] == [("LU-PB-LOG-BURN", 2, "/shoe")]
    # a king turned, then ten burnt (or nine, the king counted): either reading of the text
    for burnt in (10, 9):
        first["burned"] = ["Kd", *["2s", "8c", "Jd", "4h", "7s", "Ac", "Th", "3c", "9d", "6h"][:burnt]]
        assert run_log(cli, tmp_path, HEADER, [first, second], *CSV_PARAMS) == (0, [])
    # a new shoe burns anew
    second["shoe"] = 2
    assert run_log(cli, tmp_path, HEADER, [first, second], *CSV_PARAMS)[1] == [("LU-PB-LOG-BURN", 3, "/shoe")]


def test_header_limits_other_than_the_named_configurations_are_said(cli, tmp_path):
    """The header said a minimum of 10 and the table configuration it names 5: the coups were held to the
    configuration's, and nothing said the log's own header was set aside."""
    (tmp_path / "table.yaml").write_text((EXAMPLES / "pt/table-french-roulette.yaml").read_text("utf-8"))
    header = {**FRENCH, "table": "RF1", "table_config": "table.yaml", "limits": {"minimum": 10, "maximum": 1000}}
    coups = [roulette_coup(1, 1, {**RED, "stake": 10, "net": 10})]
    code, found = run_log(cli, tmp_path, header, coups)
    assert code == 1 and found == [("LOAD-AMBIGUOUS", 1, "/limits/minimum")]
    header["limits"]["minimum"] = 5  # the same, and the maximum the configuration does not give: the header's
    assert run_log(cli, tmp_path, header, coups) == (0, [])


# --- a filer cannot switch today's checks off by a spelling or an option that nothing reports -------------------
def test_a_misspelt_burn_or_limits_key_switches_nothing_off(cli, tmp_path):
    from helpers.game_logs import HEADER, coup

    first = coup(1)
    first["Burned"] = first.pop("burned")  # refused as a field (its coup not replayed), the shoe's burn still due
    second = coup(2)
    del second["burned"]
    code, found = run_log(cli, tmp_path, HEADER, [first, second], *CSV_PARAMS)
    assert code == 1 and sorted(found) == [("LU-PB-LOG-BURN", 3, "/shoe"), ("SHAPE-UNKNOWN-FIELD", 2, "/Burned")]
    # a header's maxima under another spelling is refused, not read as no limit
    header = {**FRENCH, "limits": {"minimum": 5, "maximum": 1000, "Maxima": {"chances_simples": 100000}}}
    code, found = run_log(cli, tmp_path, header, [roulette_coup(1, 1, {**RED, "stake": 5, "net": 5})])
    assert code == 1 and found
    # switched off by an option, the rule is named in the report's settings
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in (HEADER, first)))
    done = cli("check", str(log), *CSV_PARAMS, "--ignore", "LU-PB-LOG-BURN", "--format", "json")
    assert {"name": "ignore", "value": ["LU-PB-LOG-BURN"], "source": "option --ignore"} in \
        json.loads(done.stdout)["settings"]


# --- a coup's limits narrow the table configuration's, never widen them ---------------------------------------
def _configured_blackjack(tmp_path, stake, limits):
    shutil.copy(EXAMPLES / "pt/table-blackjack.yaml", tmp_path / "table.yaml")
    header, coup = [json.loads(line) for line in
                    (EXAMPLES / "pt/log-blackjack.jsonl").read_text("utf-8").splitlines()][:2]
    header = {**header, "table": "BJ5", "table_config": "table.yaml"}
    header.pop("limits")
    coup = copy.deepcopy(coup)
    coup["boxes"] = coup["boxes"][:1]
    coup["boxes"][0]["hands"][0].update(stake=stake, net=stake)
    coup["limits"] = limits
    return [header, coup]


def test_a_coup_cannot_raise_the_configuration_maximum_in_silence(cli, tmp_path):
    """PT blackjack n.º 14: «até atingir o máximo» fixed for the table. The configuration of BJ5 approves 10 to
    300; coup 1 wrote 20 to 600 and a box staked 500: the coup's limits replaced the configuration's, exit 0."""
    found = log_findings(cli, tmp_path, _configured_blackjack(tmp_path, "500", {"minimum": "20", "maximum": "600"}))
    said = {(f["rule_id"], f["pointer"]) for f in found if f["severity"] == "error"}
    assert ("LOAD-AMBIGUOUS", "/limits/maximum") in said, said
    assert any(rule == "PT-BJ-LOG-LIMITS" for rule, _ in said), said  # the 500 held to the configuration's 300
    found = log_findings(cli, tmp_path, _configured_blackjack(tmp_path, "5", {"minimum": "5", "maximum": "300"}))
    assert any(f["rule_id"] == "LOAD-AMBIGUOUS" and f["pointer"] == "/limits/minimum" for f in found), found


def test_a_coup_may_narrow_the_configuration_limits(cli, tmp_path):
    found = log_findings(cli, tmp_path, _configured_blackjack(tmp_path, "200", {"minimum": "20", "maximum": "200"}))
    assert not [f for f in found if f["pointer"].startswith("/limits") or f["rule_id"] == "PT-BJ-LOG-LIMITS"], found
