"""A log's limits per chance, the minimum by order and the header's amounts, red-teamed as a filer who wants a
breach through and as an inspector who must not see a legal filing flagged. Each test failed on the code before its fix."""

import json

import pytest

from helpers.command import EXAMPLES, log_findings
from helpers.game_logs import roulette_coup, run_log

FRENCH = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "Casino Estoril",
          "table": "F1"}
AMERICAN = {**FRENCH, "game": "american_roulette"}


# --- the law's ratio is read over the minimum a stake the maximum limits is held to ------------------------
def test_a_chance_minimum_under_another_name_does_not_inflate_the_divisor(cli, tmp_path):
    """PT n.º 24, b): simple chances at most 540 times the minimum. minima {chances_simples: 200, encarnado: 5}
    beside maxima {chances_simples: 100000}: the ratio read 500 (over 200), yet a stake on red is held to the 5
    of `encarnado` (the first of its names the limits give) and to the 100,000: 50,000 on red passed, exit 0."""
    red = {"seat": 9, "chance": "encarnado", "stake": 50000, "net": 50000}
    header = {**FRENCH, "limits": {"minimum": 5, "maximum": 1000, "maxima": {"chances_simples": 100000},
                                   "minima": {"chances_simples": 200, "encarnado": 5}}}
    code, found = run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)])
    assert code == 1 and found == [("PT-FROUL-MAXIMA", 1, "/limits/maxima/chances_simples")]
    # a chance's own maximum, its minimum given under another of its names
    header["limits"]["maxima"] = {"rouge": 100000}
    header["limits"]["minima"] = {"rouge": 200, "encarnado": 5}
    code, found = run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)])
    assert code == 1 and found == [("PT-FROUL-MAXIMA", 1, "/limits/maxima/rouge")]
    # no table minimum, one chance's minimum alone: the maximum over it is still judged
    header["limits"] = {"maximum": 1000, "maxima": {"chances_simples": 100000}, "minima": {"encarnado": 5}}
    code, found = run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)])
    assert code == 1 and found == [("PT-FROUL-MAXIMA", 1, "/limits/maxima/chances_simples")]
    # PT n.º 32, a): a plein at most 30 times the minimum, its minimum 1 under `plein` beside pleno's 100
    plein = {"seat": 1, "chance": "plein", "numbers": [17], "stake": 1, "net": 35}
    header = {**AMERICAN, "limits": {"minimum": 5, "maximum": 1000, "maxima": {"pleno": 3000},
                                     "minima": {"pleno": 100, "plein": 1}}}
    code, found = run_log(cli, tmp_path, header, [roulette_coup(1, 17, plein)])
    assert code == 1 and found == [("PT-AROUL-MAXIMA", 1, "/limits/maxima/pleno")]


def test_a_chance_minimum_that_holds_every_stake_it_limits_is_legal(cli, tmp_path):
    red = {"seat": 9, "chance": "encarnado", "stake": 200, "net": 200}
    header = {**FRENCH, "limits": {"minimum": 5, "maximum": 1000, "maxima": {"chances_simples": 100000},
                                   "minima": {"chances_simples": 200}}}
    assert run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)]) == (0, [])
    header["limits"]["maxima"] = {"rouge": 100000}
    header["limits"]["minima"] = {"rouge": 200, "noir": 5}  # noir is held to the table's 1,000
    assert run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)]) == (0, [])


# --- a game-log rule citing the same article leaves a table rule to it only if it holds the limits to the law -
BANCA = {"kind": "game-log", "jurisdiction": "PT", "game": "banca_francesa", "casino": "Casino Estoril", "table": "BF1"}
BACARA = {"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca", "casino": "Casino Estoril",
          "table": "B1", "decks": 6}


def test_a_log_rule_holding_stakes_to_the_declared_limits_does_not_set_the_ratio_aside(cli, tmp_path):
    """PT-BF-LOG-LIMITS and PT-BAC-LOG-LIMITS cite the n.º whose proportions PT-BF-MAXIMA and PT-BAC-MAXIMA hold
    the limits to, but judge each stake against the limits as declared: the ratio was dropped as 'one article,
    one finding', and ases at 100 times the minimum (n.º 17: at most 6) passed, exit 0."""
    ases = {"coup": 1, "time": "2026-11-02T21:01:30", "session": "2026-11-02", "staff": {"croupier": "C-1"},
            "dice": [1, 1, 1], "bets": [{"seat": 3, "chance": "ases", "stake": 1000, "net": 61000}]}
    header = {**BANCA, "limits": {"minimum": 10, "maximum": 2000, "maxima": {"ases": 1000}}}
    assert run_log(cli, tmp_path, header, [ases]) == (1, [("PT-BF-MAXIMA", 1, "/limits/maxima/ases")])
    header["limits"]["maxima"]["ases"] = 60
    ases["bets"] = [{"seat": 3, "chance": "ases", "stake": 60, "net": 3660}]
    assert run_log(cli, tmp_path, header, [ases]) == (0, [])
    ponto = {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02", "staff": {"croupier": "P-3"},
             "shoe": 1, "burned": ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"], "player": ["9h", "Kd"],
             "banker": ["5c", "Qh"], "outcome": "player",
             "bets": [{"seat": 2, "chance": "ponto", "stake": 4000, "net": 4000}]}
    header = {**BACARA, "limits": {"minimum": 10, "maximum": 700, "maxima": {
        "ponto": 7000, "empate": 150, "par_do_ponto": 80, "par_da_banca": 80}}}
    assert run_log(cli, tmp_path, header, [ponto]) == (1, [("PT-BAC-MAXIMA", 1, "/limits/maxima/ponto")])


def test_a_log_minimum_under_the_ministers_order_is_a_finding(cli, tmp_path):
    """LU Art. 37-3, al. 1: the minimum is fixed by order. LU-EROUL-LOG-MINIMUM-UNCHANGED cites the same
    paragraph (the minimum kept through a day), and a log at a minimum of 1 under an order's 2 passed, exit 0."""
    header = {"kind": "game-log", "jurisdiction": "LU", "game": "english_roulette",
              "casino": "Casino 2000 Mondorf-les-Bains", "table": "E1", "limits": {"minimum": 1, "maximum": 360}}
    coup = roulette_coup(1, 17, {"seat": 2, "chance": "rouge", "stake": 4, "net": -4})
    found = run_log(cli, tmp_path, header, [coup], "--param", "english_roulette_stake_minimum_eur=2")
    assert found == (1, [("LU-EROUL-STAKE-MIN-ORDER", 1, "/limits/minimum")])
    header["limits"]["minimum"] = 2
    assert run_log(cli, tmp_path, header, [coup], "--param", "english_roulette_stake_minimum_eur=2") == (0, [])


# --- blackjack with a parameter missing: each hand judged up to where it needs it ---------------------------
LU_BLACKJACK = {"kind": "game-log", "jurisdiction": "LU", "game": "blackjack",
                "casino": "Casino 2000 Mondorf-les-Bains", "table": "BJ1", "decks": 6,
                "limits": {"minimum": 10, "maximum": 1000}}


def test_a_hand_needing_a_missing_parameter_does_not_set_the_coups_other_hands_aside(cli, tmp_path):
    """Without blackjack_win_pays, a won hand's pay is unknown; the settlement stopped at the first hand that
    needed it, so a winning hand in the coup's first box let a bust paid +10 in the next box pass, exit 0."""
    won = {"box": 1, "seat": 1, "hands": [{"cards": ["Ts", "9d"], "stake": 10, "decisions": ["stand"], "net": 10}]}
    bust = {"box": 2, "seat": 2, "hands": [{"cards": ["Td", "6d", "9h"], "stake": 10, "decisions": ["hit"],
                                            "net": 10}]}
    coup = {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S1", "shoe": 1, "burned": ["5d"],
            "dealer": ["Tc", "7d"], "boxes": [won, bust]}
    code, found = run_log(cli, tmp_path, LU_BLACKJACK, [coup], "--param", "blackjack_stake_minimum_eur=10")
    assert code == 1 and ("LU-BJ-LOG-SETTLEMENT", 2, "/boxes/1/hands/0/net") in found
    bust["hands"][0]["net"] = -10
    code, found = run_log(cli, tmp_path, LU_BLACKJACK, [coup], "--param", "blackjack_stake_minimum_eur=10")
    assert not [f for f in found if f[0] == "LU-BJ-LOG-SETTLEMENT"]


# --- CSV: a header's amount in the thousands form is as ambiguous as a row's ---------------------------------
def test_a_csv_header_amount_with_a_thousands_point_is_ambiguous(cli, tmp_path):
    """`# limits.minimum: 1.000` (1000, as Luxembourg writes it) was read as 1 with nothing said, where the same
    text in a row's limits_minimum is LOAD-AMBIGUOUS: one log, two readings."""
    from helpers.command import EXAMPLES

    text = (EXAMPLES / "lu/log-punto-banco.csv").read_text("utf-8")
    assert "# limits.minimum: 20\n" in text
    path = tmp_path / "log.csv"
    path.write_text(text.replace("# limits.minimum: 20\n", "# limits.minimum: 1.000\n"), "utf-8")
    done = cli("check", str(path), "--format", "json", "--config", str(EXAMPLES / "example.casino-audit.yaml"))
    import json

    found = [(f["rule_id"], f["line"]) for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "LOAD-AMBIGUOUS"]
    assert found == [("LOAD-AMBIGUOUS", 6)] and done.returncode == 1
    path.write_text(text.replace("# limits.minimum: 20\n", "# limits.minimum: 20.00\n"), "utf-8")
    done = cli("check", str(path), "--format", "json", "--config", str(EXAMPLES / "example.casino-audit.yaml"))
    assert not [f for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "LOAD-AMBIGUOUS"]


# --- a chance the limits give no maximum of its own: the law's ratio holds its stakes ------------------------
def test_a_stake_on_a_chance_without_its_own_maximum_is_held_to_the_laws_ratio(cli, tmp_path):
    """The limits holding only the table's maximum left each chance at it: at a minimum of 5 and a maximum of
    100,000, 50,000 on red (PT n.º 24, b): at most 540 times, 2,700) passed, exit 0; so did a pleno of 1,000 at an
    American table's maximum of 1,000 (n.º 32, a): 30 times, 150), ases of 1,000 at a banca francesa's 2,000 (n.º
    17: 6 times) and a ponto of 4,000 at a bacará's 7,000 (n.º 21: 70 times)."""
    red = {"seat": 9, "chance": "encarnado", "stake": 50000, "net": 50000}
    header = {**FRENCH, "limits": {"minimum": 5, "maximum": 100000}}
    assert run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)]) == (1, [("PT-FROUL-MAXIMA", 2, "/bets/0/stake")])
    red.update(stake=2700, net=2700)  # 540 times the minimum: legal
    assert run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)]) == (0, [])
    plein = {"seat": 1, "chance": "pleno", "numbers": [17], "stake": 1000, "net": 35000}
    header = {**AMERICAN, "limits": {"minimum": 5, "maximum": 1000}}
    assert run_log(cli, tmp_path, header, [roulette_coup(1, 17, plein)]) == (
        1, [("PT-AROUL-MAXIMA", 2, "/bets/0/stake")])
    plein.update(stake=150, net=5250)
    assert run_log(cli, tmp_path, header, [roulette_coup(1, 17, plein)]) == (0, [])
    ases = {"coup": 1, "time": "2026-11-02T21:01:30", "session": "2026-11-02", "staff": {"croupier": "C-1"},
            "dice": [1, 1, 1], "bets": [{"seat": 3, "chance": "ases", "stake": 1000, "net": 61000}]}
    header = {**BANCA, "limits": {"minimum": 10, "maximum": 2000}}
    assert run_log(cli, tmp_path, header, [ases]) == (1, [("PT-BF-MAXIMA", 2, "/bets/0/stake")])
    ponto = {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02", "staff": {"croupier": "P-3"},
             "shoe": 1, "burned": ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"], "player": ["9h", "Kd"],
             "banker": ["5c", "Qh"], "outcome": "player",
             "bets": [{"seat": 2, "chance": "ponto", "stake": 4000, "net": 4000}]}
    header = {**BACARA, "limits": {"minimum": 10, "maximum": 7000, "maxima": {
        "empate": 150, "par_do_ponto": 80, "par_da_banca": 80}}}
    assert run_log(cli, tmp_path, header, [ponto]) == (1, [("PT-BAC-MAXIMA", 2, "/bets/0/stake")])
    ponto["bets"][0].update(stake=700, net=700)
    assert run_log(cli, tmp_path, header, [ponto]) == (0, [])


# --- time zones: an offset change at the calendar's edges is said, never a crash ------------------------------
def test_an_offset_change_at_the_calendars_edge_is_log_time_not_an_internal_error(cli, tmp_path):
    """Weighing an offset change against summer time put each instant in UTC: year 1 at +01:00 or year 9999 at
    -01:00 is past the calendar there, and the log's verdict was INTERNAL-ERROR, exit 2."""
    red = {"seat": 9, "chance": "encarnado", "stake": 10, "net": 10}
    header = {**FRENCH, "limits": {"minimum": 5, "maximum": 2700}}
    for first, second in (("0001-01-01T00:30:00+01:00", "0001-01-01T00:40:00+00:00"),
                          ("9999-12-31T23:30:00-01:00", "9999-12-31T23:40:00-02:00")):
        coups = [roulette_coup(1, 1, red), roulette_coup(2, 1, red)]
        coups[0]["time"], coups[1]["time"] = first, second
        assert run_log(cli, tmp_path, header, coups) == (1, [("LOG-TIME", 3, "/time")])


# --- a limit the named configuration leaves out is the header's; none at all is said --------------------------
def test_a_maximum_the_table_configuration_leaves_out_is_the_headers_and_none_is_said(cli, tmp_path):
    """A PT blackjack log naming its table's configuration, which gave the minimum and no maximum: the header's
    maximum of 300 was set aside (only a configuration with no `stakes` at all gave way to it) and the coups were
    held to no maximum; a box staked 50,000 passed, exit 0, with nothing said."""
    from helpers.command import EXAMPLES

    table = (EXAMPLES / "pt/table-blackjack.yaml").read_text("utf-8")
    assert "stakes: {minimum_eur: 10, maximum_eur: 300}" in table and "number: BJ5" in table
    (tmp_path / "table.yaml").write_text(table.replace("stakes: {minimum_eur: 10, maximum_eur: 300}",
                                                       "stakes: {minimum_eur: 10}"), "utf-8")
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "blackjack", "casino": "Casino Estoril",
              "table": "BJ5", "decks": 6, "table_config": "table.yaml", "limits": {"minimum": 10, "maximum": 300}}
    coup = {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S1", "shoe": 1, "burned": ["5d"],
            "dealer": ["4h", "Td", "9d"], "boxes": [{"box": 3, "seat": 3, "hands": [
                {"cards": ["Js", "9d"], "stake": "50000", "decisions": ["stand"], "net": "50000"}]}]}
    params = ("--param", "blackjack_jackpot_stake_eur=1")
    # (the configuration, checked with the log, is found without its maximum)
    assert run_log(cli, tmp_path, header, [coup], *params) == (1, [("PT-BJ-LOG-LIMITS", 2, "/boxes/0/hands/0/stake"),
                                                                   ("PT-BJ-MAXIMUM", 11, "/stakes/maximum_eur")])
    # no maximum anywhere: the law's stays in force, at most 30 times the minimum (n.º 37, PT-BJ-MAXIMUM)
    del header["limits"]
    path = tmp_path / "log.jsonl"
    import json

    path.write_text("".join(json.dumps(line) + "\n" for line in [header, coup]), "utf-8")
    done = cli("check", str(path), "--format", "json", *params)
    found = json.loads(done.stdout)["findings"]
    assert done.returncode == 1 and [(f["rule_id"], f["pointer"]) for f in found if f["severity"] == "error"
                                     and f["file"] == str(path)] == [("PT-BJ-MAXIMUM", "/boxes/0/hands/0/stake")]
    assert not [f for f in found if f["rule_id"] == "PT-BJ-LOG-LIMITS"]  # the stake was held to a maximum
    # a maximum alone: the minimum is the one said
    header["limits"] = {"maximum": 300}
    del header["table_config"]
    coup["boxes"][0]["hands"][0].update(stake="0.01", net="0.01")
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, coup]), "utf-8")
    done = cli("check", str(path), "--format", "json", *params)
    notes = [f["message"] for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "PT-BJ-LOG-LIMITS"]
    assert done.returncode == 0 and len(notes) == 1 and "no minimum stake is known" in notes[0]


# --- a maximum given per chance alone is the table's maximum: held to the law's coefficient -----------------
def _example_lines(name):
    return [json.loads(line) for line in (EXAMPLES / name).read_text("utf-8").splitlines()]


@pytest.mark.parametrize("name, limits, rule, chance", [
    ("lu/log-punto-banco.jsonl", {"minimum": 20, "maxima": {"punto": 10000, "banco": 10000, "egalite": 10000}},
     "LU-PB-LOG-COEFFICIENT", "punto"),
    ("lu/log-blackjack.jsonl", {"minimum": 10, "maxima": {"box": 10000}}, "LU-BJ-LOG-COEFFICIENT", "box"),
])
def test_a_maximum_declared_per_chance_is_held_to_the_law_coefficient(cli, tmp_path, name, limits, rule, chance):
    """LU Art. 37-5, al. 4 (Art. 33, al. 4 for blackjack): «à 50, 100 ou 200 fois le minimum des mises». A table
    maximum of 10,000 at a minimum of 20 (500 times) was flagged; the same 10,000 written per chance passed."""
    records = _example_lines(name)
    records[0]["limits"] = limits
    for coup in records[1:]:
        coup.pop("limits", None)  # the header's limits stay in force
    found = log_findings(cli, tmp_path, records)
    assert any(f["rule_id"] == rule and f["severity"] == "error" and f["pointer"] == f"/limits/maxima/{chance}"
               for f in found), [(f["rule_id"], f["pointer"], f["message"][:80]) for f in found]
    # 100 times per chance, and a narrower cap (égalité at 10 times) under it: legal, nothing said of the coefficient
    legal = {**limits, "maxima": {key: limits["minimum"] * 100 for key in limits["maxima"]}}
    if "egalite" in legal["maxima"]:
        legal["maxima"]["egalite"] = limits["minimum"] * 10
    records[0]["limits"] = legal
    assert not [f for f in log_findings(cli, tmp_path, records) if f["rule_id"] == rule]
