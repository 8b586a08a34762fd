"""Dice coups (banca francesa, craps, cussec) under the PT rules of play, with the parameters the law leaves open."""

from casino_audit.law.rulesets import load_builtin


PT = load_builtin("pt")
PARAMS = {"craps_bar_total": 12, "banca_francesa_other_totals": "stays",
          **{f"craps_place_{n}_pays": p for n, p in zip((4, 5, 6, 8, 9, 10), ("9/5", "7/5", "7/6", "7/6", "7/5", "9/5"))},
          **{f"craps_lay_{n}_pays": p for n, p in zip((4, 5, 6, 8, 9, 10), ("1/2", "2/3", "5/6", "5/6", "2/3", "1/2"))},
          "craps_dont_odds_4_10_pays": "1/2", "craps_dont_odds_5_9_pays": "2/3", "craps_dont_odds_6_8_pays": "5/6"}


def coup(number, dice, *bets, **extra):
    return {"coup": number, "time": f"2026-11-02T21:{number:02d}:00", "session": "s1", "dice": dice,
            "bets": [dict(zip(("seat", "chance", "stake", "net"), bet[:4]), **(bet[4] if len(bet) > 4 else {}))
                     for bet in bets], **extra}
