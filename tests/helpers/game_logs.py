"""Game logs written record by record for the log and replay tests: headers of a few tables, coups of dice and
roulette, the blackjack base log and the parameters its rules of play need, and a run that keeps the errors."""

from __future__ import annotations

import json
from pathlib import Path
from decimal import Decimal


CRAPS = {"kind": "game-log", "jurisdiction": "PT", "game": "craps", "casino": "Casino Lisboa", "table": "C1",
         "limits": {"minimum": 10, "maximum": 1000}}
STAYS = {"status": "stays"}


def dice_coup(n, dice, *bets, point=None, time=None):
    return {"coup": n, "time": time or f"2026-11-02T21:{n:02d}:00", "session": "2026-11-02", "dice": dice,
            "point": point, "bets": [dict(zip(("seat", "chance", "stake", "net"), b[:4]), **(b[4] if len(b) > 4 else {}))
                                     for b in bets]}


def run_log(cli, tmp_path, header, coups, *options):
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(line, default=str) + "\n" for line in [header, *coups]))
    done = cli("check", str(path), "--format", "json", *options)
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    return done.returncode, sorted(
        (f["rule_id"], f["line"], f["pointer"]) for f in report["findings"] if f["severity"] == "error")


CRAPS_PARAMS = ("--param", "craps_bar_total=12")


# --- a stake split over two records of one seat's bet does not dodge the maximum ------------------------------
CASINO_2000 = "Casino 2000 Mondorf-les-Bains"  # the examples' tables' casino, for a log naming one of them
LU_ENGLISH = {"kind": "game-log", "jurisdiction": "LU", "game": "english_roulette", "casino": CASINO_2000,
              "table": "E1", "limits": {"minimum": 2, "maximum": 720}}


def roulette_coup(n, number, *bets):
    return {"coup": n, "time": f"2026-11-02T20:{n:02d}:00", "session": "2026-11-02", "number": number,
            "bets": list(bets)}


BASES = Path(__file__).resolve().parents[2] / "rulesets" / "cases" / "bases" / "lu"
FRENCH = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "Casino Estoril",
          "table": "F1", "limits": {"minimum": 5, "maximum": 1000}}
RED = {"seat": 9, "chance": "encarnado", "stake": 5, "net": 5}  # 1 is red


LU_BJ = BASES / "log-blackjack.jsonl"
BJ_PARAMS = [f"--param={name}={value}" for name, value in (
    ("blackjack_dealer_rule", "stands_on_17"), ("blackjack_pays", "1.5"), ("blackjack_win_pays", "1"),
    ("blackjack_dealer_blackjack_takes", "all"), ("blackjack_insurance_pays", "2"),
    ("blackjack_insurance_maximum", "0.5"), ("blackjack_doubling", "9,10,11"), ("blackjack_double_after_split", "yes"),
    ("blackjack_split_hands", "4"), ("blackjack_surrender_loses", "none"))]


def blackjack_log():
    header, *coups = [json.loads(line) for line in LU_BJ.read_text("utf-8").splitlines()]
    return header, coups


HEADER = {"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco", "casino": "C", "table": "P2",
          "limits": {"minimum": 20, "maximum": 2000}}


def coup(number: int, **changes) -> dict:
    # banker 5 (5c Qh) against player 9 (9h Kd): the player wins; banco loses its stake
    found = {"coup": number, "time": f"2026-11-02T{20 + number // 3600:02d}:{number // 60 % 60:02d}:{number % 60:02d}",
             "session": "S1", "shoe": 1, "burned": ["3d", "2s", "8c", "Jd"],  # a three turned, three burnt
             "player": ["9h", "Kd"], "banker": ["5c", "Qh"], "outcome": "player",
             "bets": [{"seat": 1, "chance": "banco", "stake": 100, "net": -100}]}
    found.update(changes)
    return found


def report(cli, *args):
    done = cli("check", *args, "--format", "json")
    return done, json.loads(done.stdout)


def ids_at(report_data):
    return sorted((f["rule_id"], f["line"]) for f in report_data["findings"] if f["file"])


LU_PARAMS = {"blackjack_dealer_rule": "stands_on_17", "blackjack_pays": Decimal("1.5"),
             "blackjack_win_pays": Decimal(1), "blackjack_dealer_blackjack_takes": "all",
             "blackjack_insurance_pays": Decimal(2), "blackjack_insurance_maximum": Decimal("0.5"),
             "blackjack_doubling": "9,10,11", "blackjack_double_after_split": "yes", "blackjack_split_hands": 4,
             "blackjack_surrender_loses": "none"}
