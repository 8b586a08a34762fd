"""The shape of blackjack's rules of play in a ruleset (`play: blackjack: blackjack:`), for the ruleset
meta-schema (casino_audit/law/checks/metaschema.py); casino_audit/games/blackjack.py reads them."""

from __future__ import annotations

from casino_audit.games.blackjack import HITS_SOFT_17, SIX_SEVEN_EIGHT_SUITED, STANDS_ON_17, SUPER_JACK_CHANCES, \
    THREE_SEVENS, VALUES


def _or_param(schema: dict) -> dict:
    return {"oneOf": [schema, {"type": "object", "additionalProperties": False, "required": ["param"],
                               "properties": {"param": {"type": "string"}},
                               "description": "a value the law leaves out: the run's parameter of this name"}]}


_AMOUNT = _or_param({"oneOf": [{"type": "integer"}, {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?$"}]})
_RANKS = {"type": "array", "items": {"enum": list(VALUES)}, "uniqueItems": True}
_CITATIONS = {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/provision"}}


def _part(properties: dict, description: str) -> dict:
    return {"type": "object", "additionalProperties": False, "properties": properties, "description": description}


PLAY_SCHEMA = _part({
    "dealer": _part({"rule": _or_param({"enum": [STANDS_ON_17, HITS_SOFT_17]}),
                     "no_draw_when_no_hand_in_play": {"type": "boolean"}}, "the dealer's drawing rule"),
    "player": _part({"stand_above": {"type": "integer"}}, "a player may stand only above this total"),
    "doubling": _part({"on": _or_param({"oneOf": [{"const": "any"}, {"type": "array", "items": {"type": "integer"}}]}),
                       "after_split": _or_param({"type": "boolean"}), "ace_counts_one": {"type": "boolean"}},
                      "the two-card totals a hand may be doubled on, after a split too, and the ace of a hand "
                      "doubled counting it as 1"),
    "splitting": _part({"max_hands": _or_param({"type": "integer", "minimum": 1}), "aces_one_card": {"type": "boolean"}},
                       "how many hands a box may hold by splitting (no key: no limit); split aces take one card"),
    "surrender": _part({"loses": _or_param({"oneOf": [{"const": "none"}, _AMOUNT["oneOf"][0]]}), "not_against": _RANKS,
                        "first_two_cards_only": {"type": "boolean"}},
                       "the share of the stake a surrender loses, and the up-cards it is not allowed against"),
    "insurance": _part({"on": _RANKS, "maximum": _AMOUNT, "pays": _AMOUNT},
                       "the up-cards insurance is offered on, its most (share of the box's stake), its payout"),
    "even_money": _part({"on": _RANKS, "pays": _AMOUNT}, "a blackjack paid at once against these up-cards"),
    "payouts": _part({"blackjack": _AMOUNT, "win": _AMOUNT,
                      "dealer_blackjack_takes": _or_param({"enum": ["all", "original"]})},
                     "what a blackjack and a win pay per unit; what the dealer's blackjack takes"),
    "special_prize": _part({"pays": _AMOUNT, "combinations": {"type": "array", "items": {
        "enum": [SIX_SEVEN_EIGHT_SUITED, THREE_SEVENS]}}}, "a prize paid on these three-card hands"),
    "super_jack": _part({chance: _AMOUNT for chance in SUPER_JACK_CHANCES}, "the super-jack chances' payouts"),
    "jackpot": _part({"stake": _AMOUNT}, "the jackpot's stake"),
    "citations": {"type": "object", "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                  "additionalProperties": _CITATIONS, "description": "the words each part rests on"},
}, "blackjack's rules of play (casino_audit/games/blackjack.py)")
