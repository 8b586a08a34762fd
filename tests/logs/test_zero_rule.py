"""LU roulette's text says nothing of the simple chances on zero (the parameter roulette_zero_rule): without it,
only the bets that rule decides (a simple chance when a zero comes out) go unjudged, said; every other bet is
settled at the table's schedule. A plein paid 1,000 for 5 never passes for want of the zero rule."""

import json

SCHEDULE = {"plein": 35, "cheval": 17, "transversale": 11, "carre": 8, "sixain": 5, "douzaine": 2, "colonne": 2,
            "rouge": 1, "noir": 1, "pair": 1, "impair": 1, "manque": 1, "passe": 1}


def _check(cli, tmp_path, coups, *options):
    (tmp_path / "table.json").write_text(json.dumps({"kind": "table", "jurisdiction": "LU", "game": "roulette",
                                                      "wheel": {"pockets": 37}, "payouts": SCHEDULE}))
    header = {"kind": "game-log", "jurisdiction": "LU", "game": "roulette", "casino": "Casino 2000", "table": "R1",
              "table_config": "table.json", "limits": {"minimum": 5, "maximum": 1000}}
    records = [header, *[{"coup": n, "time": f"2026-11-02T20:{n:02d}:00", "session": "2026-11-02", "number": number,
                          "bets": [{"seat": 1, "chance": chance, "stake": 5, "net": net}
                                   | ({"numbers": numbers} if numbers else {})]}
                         for n, (number, chance, numbers, net) in enumerate(coups, 1)]]
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    done = cli("check", str(path), "--format", "json", "--select", "LU-ROUL-LOG-SETTLEMENT", *options)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    found = [f for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "LU-ROUL-LOG-SETTLEMENT"]
    return ([(f["line"], f["pointer"]) for f in found if f["severity"] == "error"],
            [f["message"] for f in found if f["severity"] == "info"])


def test_without_the_zero_rule_every_bet_it_does_not_decide_is_settled(cli, tmp_path):
    coups = [(17, "plein", [17], 1000), (17, "rouge", None, 10), (0, "rouge", None, -5), (0, "douzaine",
             list(range(1, 13)), 10)]
    errors, said = _check(cli, tmp_path, coups)
    assert errors == [(2, "/bets/0/net"), (3, "/bets/0/net"), (5, "/bets/0/net")]
    assert said and "roulette_zero_rule" in said[0]
    errors, said = _check(cli, tmp_path, [(17, "plein", [17], 175), (17, "noir", None, 5), (0, "rouge", None, 0)])
    assert errors == [] and said


def test_with_the_zero_rule_a_simple_chance_on_zero_is_settled_too(cli, tmp_path):
    errors, said = _check(cli, tmp_path, [(0, "rouge", None, 0)], "--param", "roulette_zero_rule=half_back")
    assert errors == [(2, "/bets/0/net")] and not said
    errors, _ = _check(cli, tmp_path, [(0, "rouge", None, "-2.5")], "--param", "roulette_zero_rule=half_back")
    assert errors == []
