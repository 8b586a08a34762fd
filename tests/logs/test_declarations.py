"""What a game log's header and the table configuration it names declare is held to the law first: the decks, the
payout schedule, the limits; and stakes with no seat are one player's for the limits."""

import json

import pytest


def _write(tmp_path, header, coups, name="log.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(record) + "\n" for record in (header, *coups)), "utf-8")
    return path


def findings(cli, *paths, extra=()):
    done = cli("check", *map(str, paths), "--format", "json", *extra)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)["findings"]


def ids(found, prefix=""):
    return sorted((f["rule_id"], f["pointer"]) for f in found if f["rule_id"].startswith(prefix))


def _coup(n, **fields):
    return {"coup": n, "time": f"2026-11-02T21:{n:02d}:05", "session": "2026-11-02", **fields}


# --- stakes with no seat are one player's for the limits ------------------------------------------------------

def test_seatless_bacara_stakes_on_one_chance_are_added_up_against_the_maximum(cli, tmp_path):
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca", "table": "B1", "decks": 6,
              "limits": {"minimum": 10, "maximum": 700}}
    bets = [{"chance": "banca", "stake": 400, "net": -400}, {"chance": "banca", "stake": 400, "net": -400}]
    coup = _coup(1, shoe=1, player=["9h", "Kd"], banker=["5c", "Qh"], outcome="player", bets=bets)
    found = findings(cli, _write(tmp_path, header, [coup]), extra=("--select", "PT-BAC-LOG-LIMITS"))
    assert ids(found, "PT-BAC-LOG-LIMITS") == [("PT-BAC-LOG-LIMITS", "/bets/1/stake")]
    seated = [{**bets[0], "seat": 1}, {**bets[1], "seat": 2}]  # two players: each within the maximum
    found = findings(cli, _write(tmp_path, header, [{**coup, "bets": seated}]), extra=("--select", "PT-BAC-LOG-LIMITS"))
    assert ids(found, "PT-BAC-LOG-LIMITS") == []


def test_seatless_roulette_stakes_on_one_chance_are_added_up_against_the_maximum(cli, tmp_path):
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "table": "F1",
              "limits": {"minimum": 5, "maximum": 2500}}
    bets = [{"chance": "encarnado", "stake": 1300, "net": 1300}, {"chance": "encarnado", "stake": 1300, "net": 1300}]
    found = findings(cli, _write(tmp_path, header, [_coup(1, number=1, bets=bets)]),
                     extra=("--select", "PT-ROUL-LOG-LIMITS"))
    assert ("PT-ROUL-LOG-LIMITS", "/bets/1/stake") in ids(found)
# (a dice game's coup names each bet's seat: its schema requires it)


# --- the decks a header or table configuration declares are held to the law ---------------------------------

def _aces(n, shoe=1):
    """n coups of one shoe, each dealing two aces of hearts to the player (LU punto banco, the first with its burn)."""
    coups = []
    for number in range(1, n + 1):
        coup = _coup(number, shoe=shoe, player=["Ah", "Ah"], banker=["5c", "Qh"], outcome="banker",
                     bets=[{"seat": 1, "chance": "punto", "stake": 100, "net": -100}])
        if number == 1:
            coup["burned"] = ["2c", "3c", "4c"]
        coups.append(coup)
    return coups


LU_PB = {"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco", "casino": "C", "table": "P2",
         "limits": {"minimum": 20, "maximum": 2000}}


def test_eight_decks_declared_for_an_lu_shoe_is_an_error_and_the_cards_are_counted_against_six(cli, tmp_path):
    # Art. 37-4: «six jeux de cinquante-deux cartes»; eight A♥ out of one shoe are two too many
    found = findings(cli, _write(tmp_path, {**LU_PB, "decks": 8}, _aces(4)), extra=("--select", "LU-PB-LOG-DEAL"))
    assert ids(found) == [("LU-PB-LOG-DEAL", "/decks"), ("LU-PB-LOG-DEAL", "/player/0"),
                          ("LU-PB-LOG-DEAL", "/player/1")]
    header = next(f for f in found if f["pointer"] == "/decks")
    assert header["severity"] == "error" and header["line"] == 1 and "counted against 6" in header["message"]
    assert "Art. 37-4" in header["citation"]["article"]
    found = findings(cli, _write(tmp_path, {**LU_PB, "decks": 6}, _aces(3)), extra=("--select", "LU-PB-LOG-DEAL"))
    assert ids(found) == []  # six A♥: what six decks hold
    found = findings(cli, _write(tmp_path, LU_PB, _aces(4)), extra=("--select", "LU-PB-LOG-DEAL"))
    assert ids(found) == [("LU-PB-LOG-DEAL", "/player/0"), ("LU-PB-LOG-DEAL", "/player/1")]  # the law's six


def test_a_table_configuration_declaring_eight_decks_for_lu_punto_banco_is_counted_against_six(cli, tmp_path):
    from helpers.command import EXAMPLES
    table = (EXAMPLES / "lu/table-punto-banco.yaml").read_text("utf-8")
    assert "decks: 6" in table
    (tmp_path / "table.yaml").write_text(table.replace("decks: 6", "decks: 8"), "utf-8")
    header = {**LU_PB, "table_config": "table.yaml"}
    del header["limits"]
    found = findings(cli, _write(tmp_path, header, _aces(4)), extra=("--select", "LU-PB-LOG-DEAL"))
    assert ("LU-PB-LOG-DEAL", "/table_config") in ids(found)
    assert ("LU-PB-LOG-DEAL", "/player/1") in ids(found)


def _blackjack(cards_out, decks):
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "blackjack", "casino": "C", "table": "BJ2",
              "limits": {"minimum": 10, "maximum": 300}}
    if decks is not None:
        header["decks"] = decks
    coups = []
    for number in range(1, cards_out + 1):  # one A♠ a coup, to the box's first card
        coups.append(_coup(number, shoe=1, **({"burned": ["5d"]} if number == 1 else {}), dealer=["Th", "7d"],
                           boxes=[{"box": 1, "seat": 1, "hands": [{"cards": ["As", "9c"], "stake": "10",
                                                                   "decisions": ["stand"], "net": "10"}]}]))
    return header, coups


@pytest.mark.parametrize("decks, aces, flagged, at_header", [
    (4, 4, False, False), (4, 5, True, False),  # n.º 3: «quatro ou seis baralhos»; the declared four hold
    (6, 6, False, False), (6, 7, True, False),
    (5, 6, False, True), (5, 7, True, True),  # five is no count the law allows: counted against six, said
    (8, 7, True, True),
])
def test_pt_blackjack_decks_are_four_or_six(cli, tmp_path, decks, aces, flagged, at_header):
    header, coups = _blackjack(aces, decks)
    found = ids(findings(cli, _write(tmp_path, header, coups), extra=("--select", "PT-BJ-LOG-DEAL")))
    assert (("PT-BJ-LOG-DEAL", "/decks") in found) == at_header
    assert any(pointer.startswith("/boxes") for _, pointer in found) == flagged


@pytest.mark.parametrize("decks, aces, flagged, at_header", [
    (6, 6, False, False), (6, 7, True, False), (8, 8, False, False), (8, 9, True, False),
    (7, 8, False, True), (7, 9, True, True), (10, 9, True, True),  # n.º 1: six or eight
])
def test_pt_bacara_decks_are_six_or_eight(cli, tmp_path, decks, aces, flagged, at_header):
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca", "casino": "C", "table": "B1",
              "decks": decks, "limits": {"minimum": 10, "maximum": 700}}
    coups = [_coup(n, shoe=1, player=["Ah", "Ah"], banker=["5c", "Qh"], outcome="banker",
                   bets=[{"seat": 1, "chance": "ponto", "stake": 10, "net": -10}]) for n in range(1, aces + 1)]
    coups = coups[:(aces + 1) // 2]  # two aces of hearts a coup, the last one alone where `aces` is odd
    if aces % 2:
        coups[-1]["player"] = ["Ah", "2c"]
    found = ids(findings(cli, _write(tmp_path, header, coups), extra=("--select", "PT-BAC-LOG-DEAL")))
    assert (("PT-BAC-LOG-DEAL", "/decks") in found) == at_header
    assert any(pointer.startswith("/player") for _, pointer in found) == flagged


# --- a header without limits leaves the law's own limits in force ---------------------------------------------

def _pb_stakes(stakes):
    coups = []
    for number, stake in enumerate(stakes, start=1):
        coup = _coup(number, shoe=1, player=["9h", "Kd"], banker=["5c", "Qh"], outcome="player",
                     bets=[{"seat": 1, "chance": "punto", "stake": stake, "net": stake}])
        if number == 1:
            coup["burned"] = ["2c", "3c", "4c"]
        coups.append(coup)
    return coups


PB_PARAMS = ("--param", "punto_banco_minimum_multiple_eur=1", "--param", "punto_banco_stake_minimum_eur=20",
             "--param", "punto_banco_minimum_floor_eur=1")


def test_a_minimum_without_a_maximum_leaves_the_laws_coefficient_in_force(cli, tmp_path):
    # Art. 37-5, al. 4: the maximum is 50, 100 or 200 times the minimum; over 200 times it is over any
    header = {**LU_PB, "limits": {"minimum": 20}}
    found = findings(cli, _write(tmp_path, header, _pb_stakes([4001, 4000])), extra=PB_PARAMS)
    assert ids(found, "LU-PB-LOG-C") == [("LU-PB-LOG-COEFFICIENT", "/bets/0/stake")]
    assert next(f for f in found if f["rule_id"] == "LU-PB-LOG-COEFFICIENT")["line"] == 2
    # with a maximum declared beyond the law's (a coefficient of 500), the stakes are still held to 200 times
    header = {**LU_PB, "limits": {"minimum": 20, "maximum": 10000}}
    found = findings(cli, _write(tmp_path, header, _pb_stakes([4001, 4000])), extra=PB_PARAMS)
    assert ("LU-PB-LOG-COEFFICIENT", "/bets/0/stake") in ids(found)


def test_the_pleno_is_held_to_thirty_times_the_minimum_without_a_maximum(cli, tmp_path):
    # PT n.º 32, a): «em pleno, o valor máximo da aposta é até 30 vezes superior ao valor mínimo»
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "american_roulette", "casino": "C", "table": "A1",
              "limits": {"minimum": 5}}
    bets = [{"seat": 1, "chance": "pleno", "numbers": [17], "stake": 151, "net": 151 * 35}]
    found = findings(cli, _write(tmp_path, header, [_coup(1, number=17, bets=bets)]), extra=("--select", "PT-"))
    assert ("PT-AROUL-MAXIMA", "/bets/0/stake") in ids(found)


def test_no_limits_at_all_holds_stakes_to_the_laws_least_minimum_and_names_the_stakes_held_to_no_maximum(
        cli, tmp_path):
    header = {key: value for key, value in LU_PB.items() if key != "limits"}
    path = _write(tmp_path, header, _pb_stakes([5, 3000, 100]))
    found = findings(cli, path, extra=PB_PARAMS)
    limits = [f for f in found if f["rule_id"] == "LU-PB-LOG-LIMITS"]
    assert [(f["severity"], f["pointer"]) for f in limits if f["severity"] == "error"] == [("error", "/bets/0/stake")]
    named = [f for f in limits if "held to no maximum" in f["message"]]
    assert len(named) == 1 and "'punto' (3 stakes)" in named[0]["message"] and named[0]["severity"] == "info"
    found = findings(cli, path, extra=(*PB_PARAMS, "--require-params"))
    named = [f for f in found if "held to no maximum" in f["message"]]
    assert [f["severity"] for f in named] == ["error"]


def test_a_pt_blackjack_minimum_without_a_maximum_holds_each_box_to_thirty_times_it(cli, tmp_path):
    # PT-BJ-MAXIMUM (n.º 37): the table's maximum is at most 30 times its minimum
    header, coups = _blackjack(1, 6)
    header["limits"] = {"minimum": 10}
    coups[0]["boxes"][0]["hands"][0].update(stake="301", net="301")
    found = findings(cli, _write(tmp_path, header, coups), extra=("--param", "blackjack_jackpot_stake_eur=1"))
    assert ("PT-BJ-MAXIMUM", "/boxes/0/hands/0/stake") in ids(found)
    coups[0]["boxes"][0]["hands"][0].update(stake="300", net="300")
    found = findings(cli, _write(tmp_path, header, coups), extra=("--param", "blackjack_jackpot_stake_eur=1"))
    assert ("PT-BJ-MAXIMUM", "/boxes/0/hands/0/stake") not in ids(found)


# --- the table configuration a log names is checked with it, and the law settles what it fixes ---------------

def _stud(tmp_path, pays_two_pairs, net):
    from helpers.command import EXAMPLES
    table = (EXAMPLES / "lu/table-stud-poker.yaml").read_text("utf-8")
    assert "deux_paires: 2," in table
    (tmp_path / "tables").mkdir(exist_ok=True)
    (tmp_path / "tables/stud.yaml").write_text(table.replace("deux_paires: 2,", f"deux_paires: {pays_two_pairs},"),
                                               "utf-8")
    records = [json.loads(line) for line in (EXAMPLES / "lu/log-stud-poker.jsonl").read_text("utf-8").splitlines()]
    header = records[0]
    header.pop("limits")
    header.update(table_config="tables/stud.yaml", table="S1")
    first = records[1]
    two_pairs = first["boxes"][2]
    assert two_pairs["cards"] == ["2s", "As", "Tc", "Td", "2d"] and two_pairs["net"] == "100"  # 20 + 40 x 2
    two_pairs["net"] = net
    return _write(tmp_path, header, records[1:2]), tmp_path / "tables/stud.yaml"


@pytest.mark.parametrize("given", [False, True])
def test_an_lu_stud_table_paying_two_pairs_at_evens_is_found_and_the_coups_are_settled_by_the_law(
        cli, tmp_path, given):
    # Art. 37-7's table pays two pairs 2 to 1; a configuration paying 1 is its own breach, and the coup is settled
    # as the law pays whether or not the configuration was among the paths given (and found once)
    log, table = _stud(tmp_path, 1, "100")
    found = findings(cli, log, *([table] if given else []))
    on_table = [f for f in found if f["file"] == str(table) and f["severity"] == "error"]
    assert [f["rule_id"] for f in on_table] == ["LU-STUD-PAYOUTS"]
    on_log = [(f["rule_id"], f["pointer"], f["severity"]) for f in found if f["file"] == str(log)]
    assert ("LOAD-AMBIGUOUS", "/table_config", "warning") in on_log
    assert not [rule for rule, _, severity in on_log if rule == "LU-STUD-LOG-SETTLEMENT" and severity == "error"]
    log, table = _stud(tmp_path, 1, "60")  # underpaid at the configuration's 1 to 1
    found = findings(cli, log, *([table] if given else []))
    assert ("LU-STUD-LOG-SETTLEMENT", "/boxes/2/net") in ids(found, "LU-STUD-LOG-SETTLEMENT")
    assert len([f for f in found if f["rule_id"] == "LU-STUD-PAYOUTS"]) == 1


def test_a_compliant_named_table_is_checked_with_the_log_and_adds_nothing(cli, tmp_path):
    log, table = _stud(tmp_path, 2, "100")
    done = cli("check", str(log), "--format", "json")
    data = json.loads(done.stdout)
    assert done.returncode == 0, data["findings"]
    assert str(table) in [f["path"] for f in data["files"]]
