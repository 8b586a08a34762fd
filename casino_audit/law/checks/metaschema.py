"""The published ruleset meta-schema (`casino-audit schema ruleset`), built from the check kinds' parameter
schemas and the condition schema, so an editor checks a rule's `check:` and `when:` as the loader does.

The packaged casino_audit/schemas/ruleset.schema.json is this function's output, written by
`python -m casino_audit.law.checks.metaschema > casino_audit/schemas/ruleset.schema.json`; a test holds them equal."""

from __future__ import annotations

import json

from casino_audit.law.checks import CHECK_KINDS, CONDITION_SCHEMA
from casino_audit.law.checks.common import RULE_ID
from casino_audit.games import dice
from casino_audit.games.blackjack_schema import PLAY_SCHEMA as BLACKJACK_PLAY
from casino_audit.games.poker_stud import PLAY_SCHEMA as STUD_PLAY
from casino_audit.law.scopes import SCOPES

_TEXT = {"type": "string", "minLength": 1}
_DIGITS = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 9}, "uniqueItems": True}
_ONE_OR_MORE = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "minItems": 1}]}


def _closed(properties: dict, required: list[str], **extra) -> dict:
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties,
            **extra}


def check_schema() -> dict:
    """A `check:` mapping: its `kind`, then exactly the parameters of that kind."""
    return {"type": "object", "required": ["kind"],
            "properties": {"kind": {"enum": list(CHECK_KINDS), "description": "the check kind"}},
            "allOf": [{"if": {"properties": {"kind": {"const": name}}, "required": ["kind"]},
                       "then": kind.parameters} for name, kind in CHECK_KINDS.items()]}


_CITATION = {"$ref": "#/$defs/citation"}


def ruleset_schema() -> dict:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://casino-audit.invalid/schemas/ruleset.schema.json",
        "title": "casino-audit ruleset",
        "description": "One jurisdiction's gaming law (or a house policy extending it) as rules with citations.",
        **_closed(_ruleset_properties(), ["ruleset", "rules"]),
        "$defs": {"play": _play_schema(), "instrument": _instrument_schema(), "citation": _citation_schema(),
                  "provision": _provision_schema()},
    }


def _ruleset_properties() -> dict:
    """The keys of a ruleset file."""
    return {
        "$schema": {"type": "string"},
        "ruleset": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_.-]*$",
                    "description": "Name of this ruleset; built-in rulesets are named after their "
                                   "jurisdiction (lu, pt, mc)."},
        "extends": {"type": "string", "description": "A built-in ruleset name, or a path relative to this file."},
        "jurisdiction": _closed({"code": {"type": "string", "pattern": "^[A-Z]{2}$"}, "name": _TEXT,
                                 "time_zones": {"type": "array", "items": _TEXT, "minItems": 1,
                                                "uniqueItems": True,
                                                "description": "The IANA time zones of the jurisdiction's "
                                                               "tables (Europe/Lisbon, Atlantic/Madeira ...), the "
                                                               "first the default: a game log's times without an "
                                                               "offset are read in its table's zone (its header's "
                                                               "`timezone`, one of these)."}},
                                ["code", "name"]),
        "instrument": {"$ref": "#/$defs/instrument"},
        "instruments": {"type": "object", "additionalProperties": {"$ref": "#/$defs/instrument"},
                        "description": "Further instruments, by short name, that rule citations may name."},
        "description": {"type": "string"},
        "params": {"type": "object", "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                   "additionalProperties": _param_schema()},
        "rules": {"type": "array", "items": _rule_schema()},
        "play": {"type": "object", "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                 "additionalProperties": {"$ref": "#/$defs/play"},
                 "description": "The rules of play, by game, as data the game engines read (casino_audit/games/), "
                                "each with its citation."},
        "not_encoded": {"type": "array", "items": _closed({"article": _TEXT, "subject": _TEXT, "reason": _TEXT},
                                                          ["article", "subject", "reason"]),
                        "description": "Provisions deliberately not encoded, with the reason; printed in the "
                                       "coverage document."},
    }


def _rule_schema() -> dict:
    return _closed({
        "id": RULE_ID,
        "title": _TEXT,
        "severity": {"enum": ["error", "warning", "info"]},
        "applies_to": _closed({"kind": {"type": "string"}, "game": _ONE_OR_MORE}, ["kind"]),
        "scope": {"enum": list(SCOPES), "description": "what the rule reads at once: one document (the default), "
                                                      "one record of a stream with its session's state, or the "
                                                      "documents of a dossier together"},
        "when": {"type": "array", "items": CONDITION_SCHEMA, "minItems": 1,
                 "description": "conditions that must all hold for the rule to apply"},
        "check": check_schema(),
        "citation": _CITATION,
        "rationale": _TEXT,
    }, ["id", "title", "severity", "applies_to", "check", "citation", "rationale"])


def _param_schema() -> dict:
    """A value the law leaves to a later decision, given with --param or in a config."""
    param = _closed({"type": {"enum": ["number", "integer", "string"]}, "description": _TEXT,
                     "unit": {"type": "string"}, "citation": _CITATION,
                     "one_of": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1,
                                "uniqueItems": True,
                                "description": "a string parameter's only values: any other given with --param or "
                                               "in a config is refused (exit 2), never read as a gap that turns "
                                               "checks off"}},
                    ["type", "description", "citation"])
    param["if"], param["then"] = {"required": ["one_of"]}, {"properties": {"type": {"const": "string"}}}
    return param


def _play_schema() -> dict:
    """A game's rules of play in a ruleset's `play:`: what the game engines and the replays read."""
    return _closed({
        "citation": _CITATION,
        "drawing": _closed({
            "naturals": _DIGITS,
            "player_draws_on": _DIGITS,
            "banker": {"type": "object", "propertyNames": {"pattern": "^[0-9]$"},
                       "additionalProperties": _closed({"draws_on_player_third_card": _DIGITS,
                                                        "draws_if_player_stood": {"type": "boolean"}},
                                                       ["draws_on_player_third_card",
                                                        "draws_if_player_stood"])},
        }, ["naturals", "player_draws_on", "banker"]),
        "zero_rule": _closed({"simple_chances": {"enum": ["lose", "half_back", "en_prison_one_spin"]}},
                             ["simple_chances"]),
        "burn": _burn_schema(),
        "bets": {"type": "object", "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                 "additionalProperties": _closed({
                     "wins_on": {"enum": ["player", "banker", "tie", "player_pair", "banker_pair"]},
                     "returned_on": {"type": "array", "items": {"enum": ["player", "banker", "tie"]}}},
                     ["wins_on"]),
                 "description": "what each chance wins on, and on what its stake is returned"},
        "commissions": {"type": "object", "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                        "additionalProperties": {
                            "type": "object", "additionalProperties": _closed({
                                "deduction": {"type": "string"},
                                "deduction_by_banker_total": {
                                    "type": "object", "propertyNames": {"pattern": "^[0-9]$"},
                                    "additionalProperties": {"type": "string"}}}, [])},
                        "description": "a table's commission option (its `commission.mode`) -> what "
                                       "it deducts from which chance's wins"},
        **dice.PLAY_PROPERTIES,  # the dice games' chances (casino_audit/games/dice.py)
        "blackjack": BLACKJACK_PLAY,
        **STUD_PLAY,
        # the provisions a replay's findings cite, by what they govern (roulette: payouts, zero_rule;
        # baccarat: drawing, outcome ...; stud: paytable and the rules' fields): each finding cites the one
        # it breaks, the play's `citation` where none is given
        "citations": {"type": "object", "propertyNames": {"pattern": "^[a-z][a-z0-9_.]*$"},
                      "additionalProperties": {"anyOf": [
                          {"type": "string", "minLength": 1}, {"$ref": "#/$defs/provision"},
                          {"type": "array", "items": {"$ref": "#/$defs/provision"}, "minItems": 1}]},
                      "description": "the law's words each part of the rules of play rests on, by part"},
    }, ["citation"])


def _burn_schema() -> dict:
    """A shoe's burn: its first card turned, and its value (`values`, by rank) says how many cards are burnt
    (LU Art. 37-4); or so many cards at a shoe's start (`shoe_start`, PT bacará n.º 6) and before every later
    coup (`each_coup`, n.º 13), exactly or `at_least` (a blackjack coup's `burned` holds the cards burnt during
    it too); `shuffling_shoe_excepts_shoe_start`: a table dealing from an automatic shuffling shoe burns none at
    a shoe's start (PT bacará n.º 5, a)."""
    return {**_closed({
        "values": {"type": "object", "propertyNames": {"enum": list("A23456789TJQK")},
                   "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 20},
                   "minProperties": 13},
        "shoe_start": {"type": "integer", "minimum": 1, "maximum": 416},
        "each_coup": {"type": "integer", "minimum": 1, "maximum": 416},
        "at_least": {"type": "boolean"},
        "shuffling_shoe_excepts_shoe_start": {"type": "boolean"}}, []),
        "anyOf": [{"required": ["values"]}, {"required": ["shoe_start"]}, {"required": ["each_coup"]}]}


def _instrument_schema() -> dict:
    return _closed({"title": _TEXT, "short": {"type": "string"}, "date": {"type": "string"},
                    "language": {"type": "string", "pattern": "^[a-z]{2}$"},
                    "reference": {"type": "string"}}, ["title", "language"])


def _citation_schema() -> dict:
    return _closed({
        "instrument": {"type": "string",
                       "description": "Key in `instruments`; the ruleset's own instrument when omitted."},
        "article": _TEXT,
        "text": {**_TEXT, "description": "The original-language words the rule rests on."},
    }, ["article", "text"])


def _provision_schema() -> dict:
    """A citation in the rules of play: what a replay finding quotes when the coup breaks that provision."""
    return _closed({
        "instrument": {"type": "string",
                       "description": "Key in `instruments`; the ruleset's own instrument when omitted."},
        "article": _TEXT,
        "text": {**_TEXT, "description": "The original-language words of the provision, verbatim."},
        "covers": {"type": "array", "items": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                   "minItems": 1, "uniqueItems": True,
                   "description": "What of the rules of play the provision states (a part's keys, "
                                  "`settlement`): the replay cites it for a breach of those."},
    }, ["article", "text"])


def published() -> str:
    return json.dumps(ruleset_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(published(), end="")
