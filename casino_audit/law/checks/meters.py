"""`kind: meters`: one aspect of a meter log, checked reading by reading with each machine's state (scope record,
kind meter-log).

`verify` names the aspect; the meter session (casino_audit/meters/session.py) reads the log once and gives each
aspect's breaches to the rules that verify it. Whether the log is whole (readable times, each machine's readings in
time order and none twice, no gap longer than the log's reading interval) is the tool's own check (LOG-TIME,
LOG-GAP), always on.
"""

from __future__ import annotations

from casino_audit.law.checks.common import NUMBER, PARAM
from casino_audit.meters.records import METERS
from casino_audit.law.scopes import RECORD

NAME = "meters"
DEFAULT_CONFIDENCE = 99  # percent, where a rule says none

ASPECTS = {
    "coin_in_agree": "the two coin-in meters agree at every reading (modulo the smaller capacity)",
    "no_reset": "none of `meters` goes back, except to roll over past its capacity (10^digits wraps to 0), and none "
                "reads beyond its capacity",
    "return_departure": "each machine's realised return, (coin_out + hand_paid_jackpots) / coin_in over the log, lies "
                        "within the `confidence` interval around its theoretical return",
    "return_minimum": "no machine's realised return is below `minimum_percent` with a confidence of `confidence`",
    "rate_changed": "no machine's realised return falls so far below its theoretical return that a machine paying at "
                    "that rate would fall as far with a probability of `false_alarm` at most (a bound for any "
                    "number of games, with the worst case of the stakes)",
    "drop_counted": "each machine's drop box is counted at least once in every calendar month its readings cover "
                    "whole (read on its 1st or before, and on its last day or after)",
}

PARAMETERS = {
    "type": "object", "additionalProperties": False, "required": ["kind", "verify"],
    "properties": {
        "kind": {"const": NAME},
        "verify": {"enum": list(ASPECTS), "description": "the aspect: " + "; ".join(f"{k}: {v}" for k, v in
                                                                                      ASPECTS.items())},
        "meters": {"type": "array", "items": {"enum": list(METERS)}, "minItems": 1, "uniqueItems": True,
                   "description": "no_reset: the meters it covers"},
        "confidence": {"oneOf": [
            {"type": "number", "exclusiveMinimum": 50, "exclusiveMaximum": 100},
            {"type": "string", "pattern": r"^(5[0-9]|[6-9][0-9])(\.[0-9]{1,12})?$"}, PARAM],
            "description": f"return_departure, return_minimum: the confidence level in percent, over 50 and under "
                           f"100 (default {DEFAULT_CONFIDENCE})"},
        "minimum_percent": {**NUMBER, "description": "return_minimum: the lowest return the law allows, in percent"},
        "false_alarm": {"oneOf": [{"type": "string", "pattern": r"^0\.[0-9]{0,29}[1-9][0-9]{0,10}$"}, PARAM],
                        "description": "rate_changed: the largest probability that a machine paying at its "
                                       "theoretical rate is found, a decimal under 1 (0.000000001)"},
        "per": {"enum": ["calendar_month"], "description": "drop_counted: the period each count covers"},
    },
    "allOf": [
        {"if": {"properties": {"verify": {"const": "no_reset"}}}, "then": {"required": ["meters"]}},
        {"if": {"properties": {"verify": {"const": "return_minimum"}}}, "then": {"required": ["minimum_percent"]}},
        {"if": {"properties": {"verify": {"const": "drop_counted"}}}, "then": {"required": ["per"]}},
        {"if": {"properties": {"verify": {"const": "rate_changed"}}}, "then": {"required": ["false_alarm"]}},
    ],
}


def compile(spec):
    raise TypeError("meters rules read a stream of readings: the meter session runs them (casino_audit.meters)")


def describe(spec) -> str:
    text = ASPECTS[spec["verify"]]
    confidence = spec.get("confidence", DEFAULT_CONFIDENCE)
    words = {"meters": ", ".join(spec.get("meters", ())),
             "confidence": f"the parameter {confidence['param']}" if isinstance(confidence, dict) else f"{confidence} %",
             "minimum_percent": f"{spec.get('minimum_percent')} %",
             "false_alarm": f"the parameter {spec['false_alarm']['param']}" if isinstance(spec.get("false_alarm"), dict)
             else str(spec.get("false_alarm"))}
    for key, value in words.items():
        text = text.replace(f"`{key}`", value)
    return text


def targets(spec):
    return ()


EXAMPLES = []
SCOPES = (RECORD,)
