"""Casino stud poker (LU Art. 37-6 to 37-8, MC AM 2003-281, PT póquer sem descarte): one player's hand
against the dealer's, settled in exact money.

The engine is generic: who qualifies, what each situation pays, how far equal categories are compared and
the special cases are rules DATA, read by stud_rules() from a plain mapping (the shape a ruleset section
gives), each with the words of the law it reads. A situation the rules leave unstated is never guessed:
settle() raises UnstatedOutcome naming it, and only when a coup needs it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping

from casino_audit.games.poker import (ACE, KING, PAYOUT_KEYS, RANKS, Card, Category, HandRank, category_named,
                                      classify, parse_hand)
from casino_audit.core.values import to_decimal

LOSE, PUSH = Fraction(-1), Fraction(0)
PAYTABLE = "paytable"  # the raise of a winning hand is paid at the paytable's entry for its category

# What can happen to a player's bets: the ante and the raise, each lost (-1), pushed (0) or paid k to 1.
SITUATIONS = ("fold", "dealer_not_qualified", "player_wins", "player_wins_unlisted", "dealer_wins", "tie")


class UnstatedOutcome(LookupError):
    """The rules (the law as read) do not say how this coup settles; give the outcome in the rules."""


def _both_ace_king(player: HandRank, dealer: HandRank) -> bool:
    return all(hand.category == Category.HIGH_CARD and hand.ranks[:2] == (ACE, KING) for hand in (player, dealer))


def _same_pairs(player: HandRank, dealer: HandRank) -> bool:
    # The pairs are the first ranks: one for one pair, two for two pairs; the kickers do not count.
    pairs = {Category.ONE_PAIR: 1, Category.TWO_PAIRS: 2}.get(player.category)
    return pairs is not None and player.category == dealer.category and player.ranks[:pairs] == dealer.ranks[:pairs]


def _both_flush(player: HandRank, dealer: HandRank) -> bool:
    # "une couleur" is the category couleur: a straight flush is a quinte flush, not a couleur.
    return player.category == dealer.category == Category.FLUSH


# The special cases rules may name; what each one pays is data (SpecialCase).
SPECIAL_CASE_CONDITIONS = {"both_ace_king": _both_ace_king, "same_pairs": _same_pairs, "both_flush": _both_flush}


# The ruleset's `play:` keys for stud (casino_audit/law/checks/metaschema.py merges them into the ruleset schema).
_CITED = {"anyOf": [{"type": "string", "minLength": 1}, {"$ref": "#/$defs/provision"}]}
_RESULT = {"anyOf": [{"enum": ["lose", "push", PAYTABLE]}, {"type": "number", "minimum": 0},
                     {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?$"},
                     {"type": "object", "additionalProperties": False, "required": ["param"],
                      "properties": {"param": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}},
                      "description": "left to the run: the ruleset parameter that gives it"}]}
_BY_CATEGORY = {"type": "object", "propertyNames": {"enum": [category.name.lower() for category in Category]},
                "additionalProperties": {"type": "integer", "minimum": 1}}
PLAY_SCHEMA = {
    "dealer_qualifies_with": {"type": "array", "items": {"enum": list(RANKS)}, "minItems": 1,
                              "description": "stud: the high cards the dealer needs to play (A, K)"},
    "raise_times_ante": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}],
                         "description": "stud: the raise as a multiple of the ante"},
    "outcomes": {"type": "object", "propertyNames": {"enum": list(SITUATIONS)},
                 "additionalProperties": {"type": "object", "additionalProperties": False,
                                          "properties": {"ante": _RESULT, "raise": _RESULT, "citation": _CITED}},
                 "description": "stud: what the ante and the raise do in each situation (lose, push, k to 1)"},
    "compared_ranks": {**_BY_CATEGORY, "description": "stud: how many ranks decide between hands of one category"},
    "suited_tie_break": {**_BY_CATEGORY, "description": "stud: then, n cards of one suit win"},
    "special_cases": {"type": "array", "items": {
        "type": "object", "additionalProperties": False, "required": ["when", "ante", "raise"],
        "properties": {"when": {"enum": list(SPECIAL_CASE_CONDITIONS)}, "ante": _RESULT, "raise": _RESULT,
                       "citation": _CITED}}, "description": "stud: cases settled apart (Monaco's three)"},
    "citations": {"type": "object", "additionalProperties": _CITED,
                  "description": "stud: the law's words for the fields above"},
}


@dataclass(frozen=True)
class Outcome:
    """Multiples of the ante and of the raise paid to the player (LOSE, PUSH, k; raise may be PAYTABLE);
    None where the rules do not say."""
    ante: Fraction | None = None
    raise_: Fraction | str | None = None
    citation: str = ""


@dataclass(frozen=True)
class SpecialCase:
    when: str  # a name of SPECIAL_CASE_CONDITIONS
    outcome: Outcome


@dataclass(frozen=True)
class StudRules:
    dealer_qualifies_with: tuple[int, ...]  # high-card ranks the dealer needs, any combination being better
    raise_times_ante: Fraction
    outcomes: Mapping[str, Outcome]  # by SITUATIONS; a situation missing is unstated
    compared_ranks: Mapping[Category, int] = field(default_factory=dict)  # equal categories: ranks compared
    suited_tie_break: Mapping[Category, int] = field(default_factory=dict)  # then: n cards of one suit win
    special_cases: tuple[SpecialCase, ...] = ()
    citations: Mapping[str, str] = field(default_factory=dict)  # the law's words for the fields above


@dataclass(frozen=True)
class Settlement:
    """What the coup did to one player's bets, net: positive won, zero pushed (returned), negative lost."""
    situation: str  # one of SITUATIONS, or "special:<condition>"
    player: HandRank | None  # None when the player folded: his hand is not shown
    dealer: HandRank
    dealer_qualifies: bool
    ante: Decimal
    raise_: Decimal
    citation: str

    @property
    def total(self) -> Decimal:
        return exact(Fraction(self.ante) + Fraction(self.raise_))  # Decimal's + would round past 28 digits


def stud_rules(data: Mapping[str, Any]) -> StudRules:
    """Rules from a plain mapping; unknown keys are refused (a misspelt situation must not read as unstated)."""
    _known_keys(data, {"dealer_qualifies_with", "raise_times_ante", "outcomes", "compared_ranks",
                       "suited_tie_break", "special_cases", "citations"}, "stud rules")
    for required in ("dealer_qualifies_with", "raise_times_ante", "outcomes"):
        if required not in data:
            raise ValueError(f"stud rules: {required} is required")
    outcomes = data["outcomes"]
    _known_keys(outcomes, set(SITUATIONS), "outcomes")
    return StudRules(
        dealer_qualifies_with=tuple(_rank(rank) for rank in data["dealer_qualifies_with"]),
        raise_times_ante=_multiple(data["raise_times_ante"], "raise_times_ante"),
        outcomes={situation: _outcome(entry, f"outcomes.{situation}", situation == "player_wins")
                  for situation, entry in outcomes.items()},
        compared_ranks=_by_category(data.get("compared_ranks", {}), "compared_ranks"),
        suited_tie_break=_by_category(data.get("suited_tie_break", {}), "suited_tie_break"),
        special_cases=tuple(_special_case(entry) for entry in data.get("special_cases", ())),
        citations={key: _quoted(value) for key, value in data.get("citations", {}).items()})


class MissingParams(LookupError):
    """Outcomes the rules leave to the run's parameters ({param: NAME}) and no value was given for."""

    def __init__(self, names):
        self.names = tuple(names)
        super().__init__(f"no value is given for {', '.join(self.names)}")


def bind_params(data: Mapping[str, Any], values: Mapping[str, Any], strict: bool = True) -> dict:
    """The rules data with each `{param: NAME}` (an outcome the law leaves out, declared a ruleset parameter)
    replaced by the run's value of NAME; raises MissingParams naming every one without a value, or (strict
    False) leaves it unstated: settling a coup that needs it raises UnstatedOutcome."""
    missing: list[str] = []

    def bound(value):
        if isinstance(value, Mapping):
            if set(value) == {"param"}:
                if values.get(value["param"]) is None:
                    missing.append(value["param"])
                return values.get(value["param"])
            return {key: bound(item) for key, item in value.items()}
        if isinstance(value, list):
            return [bound(item) for item in value]
        return value

    result = bound(data)
    if missing and strict:
        raise MissingParams(sorted(set(missing)))
    return result


def paytable_from_payouts(game: str, payouts: Mapping[str, Any]) -> dict[Category, Fraction]:
    """A table filing's `payouts:` (or a ruleset schedule), keyed as the game's rulesets key it, by category."""
    keys = {key: category for category, key in PAYOUT_KEYS[game].items()}
    _known_keys(payouts, set(keys), f"{game} payouts")
    return {keys[key]: _multiple(value, f"payouts.{key}") for key, value in payouts.items()}


def settle(player_hand, dealer_hand, ante, raise_, rules: StudRules, paytable: Mapping[Category, Fraction]) -> Settlement:
    """Settle one player's coup. Hands are parse_hand() results (or their text); ante and raise_ are the
    amounts staked (Decimal or int, never float); a raise of 0 is a fold."""
    ante, raise_ = _money(ante, "ante"), _money(raise_, "raise")
    if ante <= 0:
        raise ValueError(f"the ante must be positive, not {ante}")
    if raise_ and Fraction(raise_) != rules.raise_times_ante * Fraction(ante):
        raise ValueError(f"the raise is {rules.raise_times_ante} times the ante ({ante}), not {raise_}")
    decided = decide(_cards(player_hand) if raise_ else None, _cards(dealer_hand), rules, paytable)
    return Settlement(decided.situation, decided.player, decided.dealer, decided.dealer_qualifies,
                      exact(Fraction(ante) * decided.ante), exact(Fraction(raise_) * decided.raise_),
                      decided.citation)


@dataclass(frozen=True)
class Decision:
    """How a coup settles, as multiples of the ante and of the raise (what settle() turns into money)."""
    situation: str
    player: HandRank | None
    dealer: HandRank
    dealer_qualifies: bool
    ante: Fraction
    raise_: Fraction
    citation: str


def decide(player_cards: tuple[Card, ...] | None, dealer_cards: tuple[Card, ...], rules: StudRules,
           paytable: Mapping[Category, Fraction]) -> Decision:
    """The situation of one coup and what each bet pays, per unit staked; player_cards None is a fold."""
    dealer = classify(dealer_cards)
    qualifies = dealer >= HandRank(Category.HIGH_CARD, rules.dealer_qualifies_with)  # (A, K, 4, 3, 2) > (A, K)
    if player_cards is None:
        return _decided("fold", rules, None, dealer, qualifies)
    player = classify(player_cards)
    if not qualifies:
        return _decided("dealer_not_qualified", rules, player, dealer, qualifies)
    for case in rules.special_cases:
        if SPECIAL_CASE_CONDITIONS[case.when](player, dealer):
            return _decided("special:" + case.when, rules, player, dealer, qualifies, case.outcome)
    order = _order(player, dealer, player_cards, dealer_cards, rules)
    if order < 0:
        return _decided("dealer_wins", rules, player, dealer, qualifies)
    if order == 0:
        return _decided("tie", rules, player, dealer, qualifies)
    won = rules.outcomes.get("player_wins", Outcome())
    if won.raise_ != PAYTABLE:
        return _decided("player_wins", rules, player, dealer, qualifies, won)
    if player.category not in paytable:  # a winning hand the schedule does not list (LU: a high card over A-K)
        return _decided("player_wins_unlisted", rules, player, dealer, qualifies)
    won = Outcome(won.ante, paytable[player.category], won.citation)
    return _decided("player_wins", rules, player, dealer, qualifies, won)


def compare(player_cards: tuple[Card, ...], dealer_cards: tuple[Card, ...], rules: StudRules) -> int:
    """1 if the player's hand is the higher, -1 if the dealer's, 0 if the rules hold them equal."""
    return _order(classify(player_cards), classify(dealer_cards), player_cards, dealer_cards, rules)


def _order(player: HandRank, dealer: HandRank, player_cards, dealer_cards, rules: StudRules) -> int:
    if player.category != dealer.category:
        return 1 if player.category > dealer.category else -1
    depth = rules.compared_ranks.get(player.category)  # None: every rank, in order
    if player.ranks[:depth] != dealer.ranks[:depth]:
        return 1 if player.ranks[:depth] > dealer.ranks[:depth] else -1
    suited = rules.suited_tie_break.get(player.category)
    if suited:  # only one hand holding that many cards of one suit decides; both or neither stay equal
        holds = [max(sum(card.suit == suit for card in cards) for suit in "cdhs") >= suited
                 for cards in (player_cards, dealer_cards)]
        if holds[0] != holds[1]:
            return 1 if holds[0] else -1
    return 0


def _decided(situation, rules, player, dealer, qualifies, outcome=None) -> Decision:
    if outcome is None:
        outcome = rules.outcomes.get(situation, Outcome())
    ante_multiple = outcome.ante
    raise_multiple = PUSH if situation == "fold" else outcome.raise_  # a fold stakes no raise
    for bet, multiple in (("ante", ante_multiple), ("raise", raise_multiple)):
        if multiple is None or multiple == PAYTABLE:
            hand = f" ({player.category.name.lower()})" if player else ""
            raise UnstatedOutcome(f"the rules do not say what the {bet} pays in situation {situation}{hand}; "
                                  f"give it in the rules (outcomes.{situation}.{bet})")
    return Decision(situation, player, dealer, qualifies, ante_multiple, raise_multiple, outcome.citation)


def _outcome(entry: Mapping[str, Any], where: str, paytable_allowed: bool) -> Outcome:
    _known_keys(entry, {"ante", "raise", "citation"}, where)
    raise_ = entry.get("raise")
    if not (raise_ == PAYTABLE and paytable_allowed):
        raise_ = None if raise_ is None else _result(raise_, f"{where}.raise")
    ante = entry.get("ante")
    return Outcome(None if ante is None else _result(ante, f"{where}.ante"), raise_, _quoted(entry.get("citation", "")))


def _quoted(citation: Any) -> str:
    """A citation as messages show it: the words alone, or `article: "words"` from {article, text}."""
    if isinstance(citation, Mapping):
        return f'{citation.get("article", "")}: "{citation.get("text", "")}"'
    return str(citation)


def _special_case(entry: Mapping[str, Any]) -> SpecialCase:
    if entry.get("when") not in SPECIAL_CASE_CONDITIONS:
        raise ValueError(f"special_cases: when must be one of {', '.join(SPECIAL_CASE_CONDITIONS)}, not {entry.get('when')!r}")
    outcome = _outcome({key: value for key, value in entry.items() if key != "when"}, f"special_cases.{entry['when']}", False)
    if outcome.ante is None or outcome.raise_ is None:
        raise ValueError(f"special_cases.{entry['when']}: a special case says what both bets do")
    return SpecialCase(entry["when"], outcome)


def _result(value: Any, where: str) -> Fraction:
    return {"lose": LOSE, "push": PUSH}.get(value) if value in ("lose", "push") else _multiple(value, where)


def _multiple(value: Any, where: str) -> Fraction:
    number = None if isinstance(value, float) else to_decimal(value)
    if number is None or number < 0:
        raise ValueError(f"{where}: not an exact non-negative number: {value!r} (write 1, 2.5 or \"0.95\", never a float)")
    return Fraction(number)


def _by_category(mapping: Mapping[str, Any], where: str) -> dict[Category, int]:
    counts = {category_named(name): value for name, value in mapping.items()}
    if not all(isinstance(count, int) and not isinstance(count, bool) and count > 0 for count in counts.values()):
        raise ValueError(f"{where}: counts are positive integers: {dict(mapping)}")
    return counts


def _money(value: Any, what: str) -> Decimal:
    if isinstance(value, (bool, float)) or not isinstance(value, (int, Decimal)):
        raise TypeError(f"the {what} is an exact amount (Decimal or int), not {value!r}")
    amount = to_decimal(value)  # None for NaN, infinities and numbers past 30 digits
    if amount is None:
        raise ValueError(f"the {what} is not a finite amount: {value!r}")
    return amount


def exact(amount: Fraction | Decimal) -> Decimal:
    """A Fraction with a denominator of 2s and 5s as the Decimal it is exactly; any other is refused."""
    amount = Fraction(amount)
    places = 0
    while (amount * 10 ** places).denominator != 1:
        places += 1
        if places > 60:
            raise ValueError(f"{amount} is no exact decimal amount")
    return Decimal(f"{int(amount * 10 ** places)}E-{places}")  # built from text: no context rounding


def _cards(hand) -> tuple[Card, ...]:
    return hand if isinstance(hand, tuple) and all(isinstance(card, Card) for card in hand) else parse_hand(hand)


def _known_keys(mapping: Any, allowed: set[str], where: str) -> None:
    if not isinstance(mapping, Mapping):
        raise ValueError(f"{where}: a mapping is expected, not {mapping!r}")
    unknown = sorted(set(mapping) - allowed)
    if unknown:
        raise ValueError(f"{where}: unknown {', '.join(map(str, unknown))}; known: {', '.join(sorted(allowed))}")


def _rank(text: Any) -> int:
    if not (isinstance(text, str) and len(text) == 1 and text in RANKS):
        raise ValueError(f"dealer_qualifies_with: not a rank: {text!r} (one of {RANKS})")
    return RANKS.index(text) + 2
