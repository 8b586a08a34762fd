"""Stud poker boxes and coups replayed under the LU, MC and PT terms (each text's game and open parameters)."""

from decimal import Decimal as D

from casino_audit.law.rulesets import load_builtin
from casino_audit.law.schedules import law_schedule
from casino_audit.replay import Terms
from casino_audit.replay import stud


GAME = {"lu": "stud_poker", "mc": "stud_poker", "pt": "poker_sem_descarte"}
PARAMS = {"lu": {"stud_poker_high_card_raise": "push"}, "mc": {},
          "pt": {"poker_sem_descarte_unqualified_raise": "push"}}


def terms(code, params=None):
    ruleset = load_builtin(code)
    return Terms(ruleset.play[GAME[code]], law_schedule(ruleset, GAME[code], "/payouts"),
                 params=PARAMS[code] if params is None else params)


def prepared(code):
    return stud.prepare(GAME[code], terms(code))


def box(cards, ante="10", decision="raise", net="0", number=1, **more):
    record = {"box": number, "seat": number, "cards": cards.split(), "ante": D(ante), "decision": decision,
              "net": D(net), **more}
    if decision == "raise" and "raise" not in more:
        record["raise"] = 2 * D(ante)
    return record


def coup(dealer, *boxes):
    return {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S-1", "dealer": dealer.split(), "boxes": list(boxes)}


def findings(code, record):
    ready = prepared(code)
    return [(aspect, pointer) for aspect, pointer, _ in stud.replay(ready, stud.start(ready), record)]
