"""The law's maximum in times the table's minimum (LU punto banco Art. 37-5, al. 4; LU blackjack Art. 33; PT
blackjack n.º 37 ...) is a ceiling on every stake the log's limit rules hold, whatever the log's `limits` declare:
a chance's own maximum, or its own higher minimum, never lifts it."""

import json


def _write(tmp_path, header, coups, name="log.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(record) + "\n" for record in (header, *coups)), "utf-8")
    return path


def _found(cli, path, *extra):
    done = cli("check", str(path), "--format", "json", *extra)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)["findings"]


def _punto_banco(limits, stake, chance="banco"):
    header = {"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco", "casino": "C", "table": "P2",
              "limits": limits}
    coup = {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02", "shoe": 1,
            "burned": ["Kd", "2s", "8c", "Jd", "4h", "7s", "Ac", "Th", "3c", "9d", "6h"],
            "player": ["9h", "Kd"], "banker": ["5c", "Qh"], "outcome": "player",
            "bets": [{"seat": 1, "chance": chance, "stake": stake, "net": -stake}]}
    return header, [coup]


def _stake_breaches(found):
    return [f["rule_id"] for f in found if f["pointer"] == "/bets/0/stake"]


def test_a_chance_s_own_maximum_over_the_law_s_coefficient_does_not_lift_it(cli, tmp_path):
    # Art. 37-5, al. 4: the maximum is 50, 100 or 200 times the minimum: 4,000 at 20; maxima {banco: 100,000}
    # let a stake of 50,000 through
    header, coups = _punto_banco({"minimum": 20, "maximum": 4000, "maxima": {"banco": 100000}}, 50000)
    assert _stake_breaches(_found(cli, _write(tmp_path, header, coups))) == ["LU-PB-LOG-COEFFICIENT"]


def test_a_chance_s_own_maximum_within_the_coefficient_is_the_chance_s(cli, tmp_path):
    header, coups = _punto_banco({"minimum": 20, "maximum": 4000, "maxima": {"egalite": 1000}}, 2000, "egalite")
    assert _stake_breaches(_found(cli, _write(tmp_path, header, coups))) == ["LU-PB-LOG-LIMITS"]
    header, coups = _punto_banco({"minimum": 20, "maximum": 4000, "maxima": {"banco": 4000}}, 4000)
    assert _stake_breaches(_found(cli, _write(tmp_path, header, coups))) == []


def test_a_chance_s_higher_minimum_does_not_raise_the_table_s_coefficient(cli, tmp_path):
    # the law's ratio is of «le minimum des mises», the table's: a chance's own minimum of 1,000 is no
    # ground for a stake of 150,000 (200 times 20 is 4,000)
    header, coups = _punto_banco({"minimum": 20, "minima": {"banco": 1000}}, 150000)
    assert _stake_breaches(_found(cli, _write(tmp_path, header, coups))) == ["LU-PB-LOG-COEFFICIENT"]


def _american(limits, stakes):
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "american_roulette", "casino": "C", "table": "A1",
              "limits": limits}
    bets = [{"seat": 1, "chance": "pleno", "numbers": [17], "stake": stake, "net": 35 * stake} for stake in stakes]
    coup = {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02", "number": 17, "bets": bets}
    return header, [coup]


def test_one_player_s_stake_split_over_records_is_one_stake_under_the_law_s_ceiling(cli, tmp_path):
    # n.º 32, a): a pleno at most 30 times the minimum (150 at 5), the stakes of one player on one bet one stake
    header, coups = _american({"minimum": 5, "maximum": 2500}, [100, 100])
    found = _found(cli, _write(tmp_path, header, coups))
    assert [(f["rule_id"], f["pointer"]) for f in found if "/bets/" in (f["pointer"] or "")] == [
        ("PT-AROUL-MAXIMA", "/bets/1/stake")]
    header, coups = _american({"minimum": 5, "maximum": 2500}, [100, 50])
    assert [f for f in _found(cli, _write(tmp_path, header, coups)) if "/bets/" in (f["pointer"] or "")] == []


def test_a_split_stake_over_the_coefficient_is_found_once(cli, tmp_path):
    header, coups = _punto_banco({"minimum": 20, "maximum": 4000, "maxima": {"banco": 100000}}, 3000)
    coups[0]["bets"].append(dict(coups[0]["bets"][0]))
    coups[0]["bets"].append(dict(coups[0]["bets"][0]))
    found = _found(cli, _write(tmp_path, header, coups))
    assert [(f["rule_id"], f["pointer"]) for f in found if "/bets/" in (f["pointer"] or "")] == [
        ("LU-PB-LOG-COEFFICIENT", "/bets/1/stake")]
