"""Dice games (banca francesa, craps, cussec): which bets a throw wins, loses, returns or leaves standing, and
what a win pays. Pure functions over the rules of play as data (a ruleset's `play:` entry, see PLAY_SCHEMA).

A chance's rules are tried in order; the first whose condition holds decides, else `otherwise`:

    pass_line:
      point: table                      the bet follows the table's point (own: its own point, as a come bet)
      rules:
        - {when: {point_on: false, total: [7, 11]}, result: win, pays: pass_line}
        - {when: {point_on: true, total: [point]}, result: win, pays: pass_line}
        - {when: {point_on: true, total: [7]}, result: lose}
      otherwise: stays                  lose | stays (a multi-roll bet waits for the next throw)

A condition holds when all its keys do:
    total: [..]       the dice's sum is one of these; "point" is the bet's point, "bar" the don't bets' barred total
    point_on: bool    the bet has a point (or not yet)
    doubles: true     every die shows the same face (craps: a hardway; cussec: a triple)
    shows: N          exactly N dice show the bet's chosen face (`on`)
    shows_all: true   every face the bet names (`on`) shows on at least one die
results: win, lose, push (the stake is returned, neither won nor lost), stays.
`pays`: the schedule key paying the win, or {by_point: {4: odds_4_10, ...}} for an odds bet.

A standing bet with a point in `point: table|own` takes the throw's total as its point when the throw
leaves it standing with none (the come-out). Money is Fraction or Decimal, exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import product
from typing import Any, Mapping, Sequence

from casino_audit.core.values import to_decimal

WIN, LOSE, PUSH, STAYS = "win", "lose", "push", "stays"
RESULTS = (WIN, LOSE, PUSH, STAYS)
FACES = range(1, 7)
POINT_NUMBERS = (4, 5, 6, 8, 9, 10)

_CITATION = {"$ref": "#/$defs/provision"}  # {article, text[, instrument, covers]}: casino_audit/law/checks/metaschema
_TOTALS = {"type": "array", "minItems": 1, "uniqueItems": True,
           "items": {"anyOf": [{"type": "integer", "minimum": 2, "maximum": 18}, {"enum": ["point", "bar"]}]}}
_CONDITION = {"type": "object", "additionalProperties": False, "minProperties": 1, "properties": {
    "total": _TOTALS, "point_on": {"type": "boolean"}, "doubles": {"const": True},
    "shows": {"type": "integer", "minimum": 1, "maximum": 3}, "shows_all": {"const": True}}}
_PAYS = {"anyOf": [{"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                   {"type": "object", "additionalProperties": False, "required": ["by_point"],
                    "properties": {"by_point": {"type": "object", "propertyNames": {"pattern": "^(4|5|6|8|9|10)$"},
                                                "additionalProperties": {"type": "string"}}}}]}
_RULE = {"type": "object", "additionalProperties": False, "required": ["when", "result"], "properties": {
    "when": _CONDITION, "result": {"enum": list(RESULTS)}, "pays": _PAYS}}
_PARAM_REF = {"type": "object", "additionalProperties": False, "required": ["param"],
              "properties": {"param": {"type": "string"}}}
CHANCE_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["rules", "otherwise", "citations"],
    "properties": {
        "on": {"type": "object", "additionalProperties": False, "required": ["faces"],
               "properties": {"faces": {"type": "integer", "minimum": 1, "maximum": 2},
                              "distinct": {"type": "boolean"}},
               "description": "the faces the player chooses for the bet (cussec: a number, two numbers, a triple)"},
        "point": {"enum": ["table", "own"], "description": "the point the bet follows (craps)"},
        "needs": {"enum": ["table_point", "own_point"],
                  "description": "the bet is made only once the table's point (come) or its own (odds) is on"},
        "contract": {"const": True, "description": "once its first throw is made, the bet stays until decided"},
        "rules": {"type": "array", "items": _RULE, "minItems": 1},
        "otherwise": {"anyOf": [{"enum": [LOSE, STAYS]}, _PARAM_REF],
                      "description": "when no rule decides: lose, stays, or what a ruleset parameter says"},
        "citations": {"type": "array", "items": _CITATION, "minItems": 1},
    }}
# The properties a dice game's `play:` entry adds to the rulesets' meta-schema (casino_audit/law/checks/metaschema).
PLAY_PROPERTIES = {
    "dice": {"type": "integer", "minimum": 1, "maximum": 3, "description": "dice thrown at each coup"},
    "chances": {"type": "object", "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                "additionalProperties": CHANCE_SCHEMA,
                "description": "each dice chance: which throws win, lose, return or leave it standing"},
    "bar": {**_PARAM_REF, "description": "the parameter giving the don't bets' barred total (craps)"},
    "payout_params": {"type": "object", "additionalProperties": {"type": "string"},
                      "description": "schedule keys the law's text leaves out -> the parameter that gives each"},
}


class MissingValue(Exception):
    """A throw cannot be resolved: the rules need a value the law leaves out (the bar) and none is given."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


@dataclass(frozen=True)
class Resolution:
    result: str  # WIN, LOSE, PUSH or STAYS
    pays: str | None  # the schedule key paying a win
    rule: int | None  # the index of the deciding rule, None for `otherwise`


def total(dice: Sequence[int]) -> int:
    return sum(dice)


def holds(condition: Mapping, dice: Sequence[int], on: Sequence[int] = (), point: int | None = None,
          bar: int | None = None) -> bool:
    """Whether a throw meets a condition (see the module's docstring)."""
    if "point_on" in condition and condition["point_on"] != (point is not None):
        return False
    if "total" in condition:
        wanted = set()
        for item in condition["total"]:
            if item == "point":
                if point is not None:
                    wanted.add(point)
            elif item == "bar":
                if bar is None:
                    raise MissingValue("bar")
                wanted.add(bar)
            else:
                wanted.add(item)
        if sum(dice) not in wanted:
            return False
    if condition.get("doubles") and len(set(dice)) != 1:
        return False
    if "shows" in condition and (not on or sum(1 for die in dice if die == on[0]) != condition["shows"]):
        return False
    if condition.get("shows_all") and not (on and set(on) <= set(dice)):
        return False
    return True


def resolve(chance: Mapping, dice: Sequence[int], on: Sequence[int] = (), point: int | None = None,
            bar: int | None = None) -> Resolution:
    """What a throw does to a bet on a chance: the first rule whose condition holds, else `otherwise` (which
    must be concrete here: a parameter's value put in by the caller)."""
    for index, rule in enumerate(chance["rules"]):
        if holds(rule["when"], dice, on, point, bar):
            return Resolution(rule["result"], pays_key(rule.get("pays"), point), index)
    otherwise = chance["otherwise"]
    if not isinstance(otherwise, str):
        raise MissingValue(otherwise["param"])
    return Resolution(otherwise, None, None)


def pays_key(pays, point: int | None) -> str | None:
    if pays is None or isinstance(pays, str):
        return pays
    return {int(number): key for number, key in pays["by_point"].items()}.get(point)


def point_after(chance: Mapping, resolution: Resolution, dice: Sequence[int], point: int | None) -> int | None:
    """The point a bet follows after the throw: a standing bet with none takes the throw's total."""
    if resolution.result != STAYS or "point" not in chance:
        return None
    return point if point is not None else sum(dice)


def payout_value(value: Any) -> Fraction | None:
    """A payout per unit staked, exactly: 61, "1.2", Decimal("1.5"), or a ratio as the law writes odds ("6 para
    5", "6:5", "6/5": 6 won for 5 staked). None when it is no such value (a float is already inexact)."""
    if isinstance(value, bool) or isinstance(value, float):
        return None
    if isinstance(value, (int, Decimal)):
        number = to_decimal(value)
        return Fraction(number) if number is not None and number >= 0 else None
    if not isinstance(value, str):
        return None
    ratio = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(?:/|:|para|for|to)\s*([0-9]+(?:\.[0-9]+)?)\s*", value)
    if ratio:
        over = Fraction(Decimal(ratio.group(2)))
        return Fraction(Decimal(ratio.group(1))) / over if over else None
    number = to_decimal(value.strip())
    return Fraction(number) if number is not None and number >= 0 else None


def net(stake: Fraction | Decimal, resolution: Resolution, payouts: Mapping[str, Fraction]) -> Fraction:
    """The player's net on the throw: +stake x payout on a win (the winning stake stays his), -stake on a loss,
    0 when returned or standing. KeyError when the schedule gives nothing for the paying key."""
    stake = Fraction(stake)
    if resolution.result == WIN:
        return stake * payouts[resolution.pays]
    return -stake if resolution.result == LOSE else Fraction(0)


def throws(count: int) -> list[tuple[int, ...]]:
    """Every throw of `count` dice, each equally likely (216 for three, 36 for two)."""
    return list(product(FACES, repeat=count))


def choices(chance: Mapping) -> list[tuple[int, ...]]:
    """Every choice of faces a bet on the chance may name: () when it names none."""
    spec = chance.get("on")
    if not spec:
        return [()]
    if spec["faces"] == 1:
        return [(face,) for face in FACES]
    return [(a, b) for a in FACES for b in FACES if a < b or (a == b and not spec.get("distinct"))]


def value(chance: Mapping, payouts: Mapping[str, Fraction], count: int, on: Sequence[int] = (),
          point: int | None = None, bar: int | None = None) -> Fraction:
    """The player's exact expected net of a unit bet from a state (its point) until it is decided.

    A throw that leaves the bet standing with the same point is a self-loop, solved in closed form
    (v = decided / (1 - p_stay)); the only other move is from no point to a point, which never returns."""
    decided, staying = Fraction(0), Fraction(0)
    possible = throws(count)
    p = Fraction(1, len(possible))
    for dice in possible:
        found = resolve(chance, dice, on, point, bar)
        if found.result != STAYS:
            decided += p * net(1, found, payouts)
            continue
        after = point_after(chance, found, dice, point)
        if after == point:
            staying += p
        else:
            decided += p * value(chance, payouts, count, on, after, bar)
    if staying == 1:
        raise ValueError("the bet is never decided")
    return decided / (1 - staying)


def house_edge(chance: Mapping, payouts: Mapping[str, Fraction], count: int, on: Sequence[int] = (),
               point: int | None = None, bar: int | None = None) -> Fraction:
    """The bank's expected gain per unit staked, over the bet's whole life."""
    return -value(chance, payouts, count, on, point, bar)


def concrete(chance: Mapping, params: Mapping[str, Any]) -> Mapping:
    """The chance with `otherwise` taken from the run's parameter where the ruleset leaves it to one; left as
    it is (resolve raises MissingValue) when the run gives none."""
    otherwise = chance["otherwise"]
    if isinstance(otherwise, str) or params.get(otherwise["param"]) is None:
        return chance
    given = str(params[otherwise["param"]]).strip().lower()
    if given not in (LOSE, STAYS):
        raise ValueError(f"parameter {otherwise['param']} takes {LOSE} or {STAYS}, not {given!r}")
    return {**chance, "otherwise": given}
