"""PT French roulette coups and bets, checked through the command (a table's wheel given when asked)."""

import json


PT_FRENCH = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "Casino Estoril",
             "table": "F1", "limits": {"minimum": 5, "maximum": 2500}}


SCHEDULE = {"plein": 35, "cheval": 17, "transversale": 11, "carre": 8, "sixain": 5, "cinq_numeros": 6,
            "douzaine": 2, "colonne": 2, "rouge": 1, "noir": 1, "pair": 1, "impair": 1, "manque": 1, "passe": 1}


def coup(number, *bets, n=1, time="2026-11-02T20:00:00", **extra):
    return {"coup": n, "time": time, "session": time[:10], "number": number, "bets": list(bets), **extra}


def bet(chance, stake, net, numbers=None, seat=1):
    placed = {"seat": seat, "chance": chance, "stake": stake, "net": net}
    return {**placed, "numbers": numbers} if numbers is not None else placed


def check(cli, tmp_path, header, coups, *options, pockets=None):
    if pockets:
        (tmp_path / "table.json").write_text(json.dumps({
            "kind": "table", "jurisdiction": header["jurisdiction"], "game": header["game"],
            "wheel": {"pockets": pockets}, "payouts": SCHEDULE}))
    path = tmp_path / "log.jsonl"
    lines = [header, *[{**c, "coup": i + 1} for i, c in enumerate(coups)]]
    path.write_text("".join(json.dumps(line, default=str) + "\n" for line in lines))
    done = cli("check", str(path), "--format", "json", *options)
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    # the log's findings (a table configuration it names is checked with it: its own are the table rules')
    return sorted((f["rule_id"], f["line"], f["pointer"]) for f in report["findings"] if f["severity"] == "error"
                  and f["file"] == str(path)), report
