"""The house edge of every dice-game bet (banca francesa, craps, cussec), exact, by enumerating the dice; a bet that
stands over several throws is valued over its whole life (casino_audit/games/dice.py, `value`).

What the law leaves out is never guessed: a bet whose payout the schedule does not give (the craps bets on the
numbers, odds laid on the don't side) is left out, and said so in the first row's note; where the text leaves
a resolution open (banca francesa's totals of no chance, the craps bar), every reading is computed and named.
"""

from __future__ import annotations

from fractions import Fraction

from casino_audit.edge.common import Edge, EdgeError, schedule_of, with_left_out
from casino_audit.games import dice

BANCA_READINGS = ((dice.STAYS, "if a total of no chance leaves the bets standing (banca_francesa_other_totals=stays)"),
                  (dice.LOSE, "if a total of no chance loses them (banca_francesa_other_totals=lose)"))


def edges(ruleset, game, play, payouts, table, options) -> list[Edge]:
    if play is None or "chances" not in play.data:
        raise EdgeError(f"the {ruleset.code} ruleset has no rules of play for {game} under `play:`")

    count = play.data["dice"]
    pays = {}
    for key, given in schedule_of(ruleset, game, payouts).items():
        found = dice.payout_value(given)
        if found is None:
            raise EdgeError(f"the payout of {key} is no exact amount: {given!r}")
        pays[key] = found
    for key, param in (play.data.get("payout_params") or {}).items():  # what the text leaves to a parameter
        if key not in pays and options.params.get(param) is not None:
            pays[key] = dice.payout_value(options.params[param])
    found, left_out, read = [], [], set()
    for name, chance in play.data["chances"].items():
        keys = {key for rule in chance["rules"] if rule["result"] == dice.WIN
                for key in ((rule["pays"]["by_point"].values()) if isinstance(rule["pays"], dict) else [rule["pays"]])}
        read |= keys
        if not keys <= set(pays):
            left_out.append(name)
            continue
        found.extend(_bet(name, chance, pays, count))
    if not found:
        raise EdgeError(f"no bet of {game} has all its payouts in the schedule")

    found = with_left_out(found, left_out, "the schedule gives no payout for them (n.º 12's table is missing from "
                                           "the source; give a table whose schedule states them)")
    return with_left_out(found, [key for key in pays if key not in read],
                         f"the schedule pays them but {game} has no such chance under the {ruleset.code} rules of play")


def _bet(name, chance, pays, count) -> list[Edge]:
    if not isinstance(chance["otherwise"], str):
        return [Edge(f"{name} ({reading})", _over_choices(dice.concrete(chance, {chance["otherwise"]["param"]: reading}),
                                                          pays, count, None)[0], note=note)
                for reading, note in BANCA_READINGS]
    if chance.get("needs") and chance.get("point") in ("table", "own") and not _has_come_out(chance):
        rows = []  # an odds bet: its edge depends on the point it is laid on
        for low, high in ((4, 10), (5, 9), (6, 8)):
            values = {_over_choices(chance, pays, count, point)[0] for point in (low, high)}
            rows.append(Edge(f"{name} on {low} or {high}", max(values)))
        return rows
    edge, note = _over_choices(chance, pays, count, None)
    return [Edge(name, edge, note=note)]


def _has_come_out(chance) -> bool:
    return any(rule["when"].get("point_on") is False for rule in chance["rules"])


def _over_choices(chance, pays, count, point) -> tuple[Fraction, str]:
    """The edge over every choice of faces and either bar total; the worst, with a note when they differ."""
    uses_bar = any("bar" in rule["when"].get("total", ()) for rule in chance["rules"])
    values = {dice.house_edge(chance, pays, count, on, point, bar)
              for on in dice.choices(chance) for bar in ((2, 12) if uses_bar else (None,))}
    note = "the same with the bar on 2 or on 12" if uses_bar and len(values) == 1 else ""
    if len(values) > 1:
        note = f"from {float(min(values)):.4%} for some choices"
    return max(values), note
