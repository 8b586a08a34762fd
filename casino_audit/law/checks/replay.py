"""`kind: replay`: one aspect of a game log, checked coup by coup (scope record, kind game-log).

`verify` names the aspect: the core's own (stake limits and multiples, the minimum and maximum kept through a
session or a day, the maximum's coefficient, a staff member's turn), or one the game's replay engine verifies (the deal,
the drawing, the outcome, the settlement: casino_audit/replay/<family>.py ASPECTS). Whether a log is whole
(coup numbers without gaps, times in order) is the tool's own check (LOG-NUMBERING, LOG-TIME), always on. The
log session
(casino_audit/logs/) runs the engine once per coup and gives each aspect's breaches to the rules that verify it.
"""

from __future__ import annotations

from casino_audit.law.checks.common import NUMBER, NUMBER_OR_PARAM, PARAM
from casino_audit.law.scopes import RECORD
from casino_audit.replay import families

NAME = "replay"

# The core's aspects, what each verifies, and the parameters it takes.
CORE_ASPECTS = {
    "stake_limits": "every stake is within the table's minimum and maximum, and within the limits of its chance",
    "stake_multiple": "every stake is a whole multiple of `unit` (an amount, or `minimum`: the table's minimum)",
    "minimum_unchanged": "the table's minimum is not changed within one `per`",
    "maximum_unchanged": "the table's maximum is not changed within one `per`",
    "maximum_coefficient": "the table's maximum is one of `one_of` times its minimum",
    "coefficient_unchanged": "the table's maximum in times its minimum is not changed within one `per`",
    "staff_turn": "no one holds the `role` for more than `max_minutes` minutes in a row",
}
# session: the log's `session`; day: the table's local calendar day; session_day: the day a session began, so that
# what is set in a session is kept until a session that begins on a later day («avant la séance du lendemain»)
PERIODS = ("session", "day", "session_day")
PER_WORDS = {"day": "day (the table's local day)",
             "session_day": "day's sessions (kept until a session that begins on a later day)"}

PARAMETERS = {
    "type": "object", "additionalProperties": False, "required": ["kind", "verify"],
    "properties": {
        "kind": {"const": NAME},
        "verify": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
                   "description": "the aspect: one of the core's (" + ", ".join(CORE_ASPECTS) + ") or one the "
                                  "game's replay engine verifies (`casino-audit rules explain` lists them)"},
        "unit": {"oneOf": [NUMBER_OR_PARAM, {"const": "minimum"}], "description": "stake_multiple: the unit"},
        "chances": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                    "description": "stake_multiple, stake_limits: only the stakes on these chances"},
        "bound": {"const": "maximum", "description": "stake_limits: the maximum alone, for stakes whose floor "
                                                      "another rule holds (LU's super-jack, Art. 32, 5, al. 3)"},
        "maxima_per_minimum": {"type": "object", "additionalProperties": NUMBER, "minProperties": 1,
                               "description": "stake_limits: each chance's maximum, fixed by the law in times the "
                                              "table's minimum in force; the rule then judges these maxima only"},
        "per": {"enum": list(PERIODS), "description": "minimum_unchanged, maximum_unchanged, coefficient_unchanged: the period"},
        "one_of": {"type": "array", "items": NUMBER, "minItems": 1,
                   "description": "maximum_coefficient: the allowed maxima, in times the minimum"},
        "role": {"type": "string", "description": "staff_turn: the role, as the coups' `staff` names it"},
        "named_as": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                     "description": "staff_turn: the role's names in the law, read before `role` where a coup's "
                                    "`staff` gives one (PT banca francesa's deitador, whom the croupier is otherwise)"},
        "max_minutes": {**NUMBER_OR_PARAM, "description": "staff_turn: the longest turn"},
        "zero_rule": {"oneOf": [{"enum": ["lose", "half_back"]}, PARAM],
                      "description": "settlement (roulette): what the simple chances do on zero, where the law's text "
                                     "says nothing; a rule without the parameter's value is not applied"},
    },
    "allOf": [
        {"if": {"properties": {"verify": {"const": "stake_multiple"}}}, "then": {"required": ["unit"]}},
        {"if": {"properties": {"verify": {"enum": ["minimum_unchanged", "maximum_unchanged", "coefficient_unchanged"]}}},
         "then": {"required": ["per"]}},
        {"if": {"properties": {"verify": {"const": "maximum_coefficient"}}}, "then": {"required": ["one_of"]}},
        {"if": {"properties": {"verify": {"const": "staff_turn"}}}, "then": {"required": ["role", "max_minutes"]}},
    ],
}


def compile(spec):
    raise TypeError("replay rules read a stream of coups: the log session runs them (casino_audit.logs)")


def describe(spec) -> str:
    aspect = spec["verify"]
    text = CORE_ASPECTS.get(aspect)
    if aspect == "stake_limits" and spec.get("maxima_per_minimum"):
        fixed = ", ".join(f"{name} {times}" for name, times in spec["maxima_per_minimum"].items())
        return f"every stake is within its chance's maximum, in times the table's minimum in force: {fixed}"
    if text is None:
        return f"replayed coup by coup: {aspect}"
    for key in ("unit", "chances", "per", "one_of", "role", "max_minutes"):
        if key in spec:
            value = PER_WORDS.get(spec[key], spec[key]) if key == "per" else spec[key]
            text = text.replace(f"`{key}`", f"the parameter {value['param']}" if isinstance(value, dict) else
                                ", ".join(map(str, value)) if isinstance(value, list) else str(value))
    return text


def targets(spec):
    return ()


def problem(spec: dict, games: tuple[str, ...]) -> str | None:
    """Why a replay rule cannot run on its games, or None: its aspect must be the core's or one the games'
    engine verifies."""
    aspect = spec["verify"]
    if aspect in CORE_ASPECTS:
        return None
    if not games:
        return f"`verify: {aspect}` is an aspect of a game's replay: the rule must name its games"
    for game in games:
        known = families.aspects(game)
        if aspect not in known:
            offered = ", ".join([*CORE_ASPECTS, *known])
            return f"`verify: {aspect}` is not an aspect the replay of {game} verifies (known: {offered})"
    return None


EXAMPLES = []
SCOPES = (RECORD,)
