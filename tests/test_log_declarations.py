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
