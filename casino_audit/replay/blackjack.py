"""Replaying blackjack coups (LU blackjack with the super-jack, Art. 32, 5; PT blackjack/21 with jackpot, Título I,
Capítulo III, Secção I) against the rules of play of the ruleset (casino_audit.games.blackjack).

A coup: the shoe in use, the cards burned, the dealer's cards in order (up-card first, then the hole card, then
the cards drawn), and the boxes. A box's `hands` are in the order they were played: the first is the box's own;
each `split` creates the next new hand of the box (the k-th split of the box, counting in the order the hands are
played, creates hands[k]), whose first card is the card split off. A hand's `cards` are what it ended with: its
first card, then the card dealt to it after its last split (or its second card), then one card per hit or double.
`stake` is the hand's stake before a double (a double stakes as much again: n.º 29 «duplicar a sua aposta»);
`net` what the player gained (+) or lost (-) on the hand, special prize included.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterator, Mapping

from casino_audit.games import blackjack as bj
from casino_audit.games import registry
from casino_audit.replay import (AMOUNT_SCHEMA, CARD_SCHEMA, COMMON_COUP, COMMON_REQUIRED, STAKE_SCHEMA, Shoes,
                                 Terms, Unavailable, card, money)
from casino_audit.replay import provisions_of, without_provisions
from casino_audit.replay import CONTINUED, burn_counts
from casino_audit.replay.blackjack_decisions import judge_decisions
from casino_audit.replay.blackjack_hands import RecordedHand, Tainted, cite, judged, recorded_hands, with_even_money
from casino_audit.replay.blackjack_settle import judge_dealer, judge_settlement, judge_side_bets

GAMES = registry.games_of("blackjack")
ASPECTS = {
    "deal": "the cards exist and no card is seen in a shoe more times than its decks hold it; the dealer and every "
            "hand start with two cards; each card after them was asked for (a hit or a double), and every split "
            "made a hand",
    "dealer_drawing": "the dealer drew to the law's total and stood there (PT: on 17, a soft 17 included); with no "
                      "hand left in play the dealer took no third card (PT n.º 22)",
    "decisions": "each double, split, surrender, insurance and even money was allowed at that point by the law "
                 "(totals, pairs, up-card, the most insured); no card after 21 or a bust, a double or a surrender; "
                 "no stand below the law's total (PT: above 11)",
    "split_stake": "each hand a split makes stakes what the hand it was split from staked (PT n.º 26: «importância "
                   "igual à da parada inicial»)",
    "settlement": "the net of each hand and of each insurance, exact to the cent: blackjack, wins, ties, busts, the "
                  "dealer's blackjack, surrender, even money and the special prize as the law pays them",
    "side_bets": "the super-jack (LU): each chance staked by a box in play, at least the table minimum, settled at "
                 "2.5, 19, 77 or 300 times by the dealer's cards; the jackpot (PT): staked by a box in play, one chip "
                 "of the fixed amount (its payouts are the concessionaire's schedule and are not checked)",
    "burn": "each shoe's first coup records the card(s) the law burns before the deal starts (PT n.º 10: one)",
}
DECISIONS = ("hit", "stand", "double", "split", "surrender", "even_money")


def _described(schema: dict, description: str) -> dict:
    return {**schema, "description": description}


_STAKE_NET = {"type": "object", "additionalProperties": False, "required": ["stake", "net"],
              "properties": {"stake": _described(STAKE_SCHEMA, "The amount staked."),
                             "net": _described(AMOUNT_SCHEMA, "What the player gained (+) or lost (-) on it.")}}
_HAND = {
    "type": "object", "additionalProperties": False, "required": ["cards", "stake", "decisions", "net"],
    "description": "One hand of the box, in the order played (the first is the box's own; a split adds one).",
    "properties": {
        "cards": {"type": "array", "items": CARD_SCHEMA, "minItems": 1,
                  "description": "The hand's cards in order: its first card, the card dealt to it after its last "
                                 "split (or its second), then one per hit or double."},
        "stake": _described(STAKE_SCHEMA, "The hand's stake before any double."),
        "decisions": {"type": "array", "items": {"enum": list(DECISIONS)},
                      "description": "The player's decisions on the hand, in order; a hand that ends without "
                                     "stand, double or surrender below 21 is read as standing."},
        "net": _described(AMOUNT_SCHEMA, "What the player gained (+) or lost (-) on the hand, doubles and the "
                                         "special prize included."),
    },
}
COUP_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A blackjack coup",
    "type": "object",
    "additionalProperties": False,
    "required": [*COMMON_REQUIRED, "shoe", "dealer", "boxes"],
    "properties": {
        **COMMON_COUP,
        "shoe": {"type": "integer", "minimum": 1,
                 "description": "The shoe in use (1, 2 ... as shuffled): cards are counted per shoe across coups."},
        "burned": {"type": "array", "items": CARD_SCHEMA,
                   "description": "Cards burned (put to the discard unseen in play) before or during this coup."},
        "dealer": {"type": "array", "items": CARD_SCHEMA, "minItems": 1,
                   "description": "The dealer's cards in order: the up-card, the hole card, then the cards drawn."},
        "boxes": {"type": "array", "description": "The boxes played, in the order of the deal.", "items": {
            "type": "object", "additionalProperties": False, "required": ["box", "hands"],
            "properties": {
                "box": {"type": "integer", "minimum": 1, "description": "The box (place) number on the layout."},
                "seat": {"type": "integer", "minimum": 1, "description": "The seat of the player deciding the box."},
                "hands": {"type": "array", "items": _HAND, "minItems": 1,
                          "description": "The box's hands in the order played; a split adds the next one."},
                "insurance": {**_STAKE_NET, "description": "The box's insurance, if taken."},
                "super_jack": {"type": "object", "additionalProperties": False, "minProperties": 1,
                               "properties": {chance: _described(_STAKE_NET, f"The stake on {chance} and its net.")
                                              for chance in bj.SUPER_JACK_CHANCES},
                               "description": "LU: the box's stakes on the super-jack chances (Art. 32, 5)."},
                "jackpot": {**_STAKE_NET, "description": "PT: the box's jackpot stake (n.os 38 to 50)."},
            }}},
    },
}
CSV_COLUMNS = None


@dataclass(frozen=True)
class Prepared:
    rules: bj.Rules
    decks: int | None
    skip: frozenset[str]  # aspects not checked in this log
    minimum: Decimal | None
    # aspect -> the rules with the fields a missing parameter leaves unknown tainted: a coup is checked there up to
    # the first place its replay reads one of them
    tainted: Mapping[str, Any] = field(default_factory=dict)
    burn: Mapping[str, Any] | None = None  # the shoe's burn (`play.blackjack.burn`: `shoe_start`, `at_least`)
    continues: bool = False  # the log's first coup continues a shoe begun in another log (Terms.continues)


def _field(key: str) -> str | None:
    return "super_jack" if key.startswith("super_jack/") else bj.FIELDS.get(key)


@dataclass
class State:
    shoe: Any = None
    seen: Counter = field(default_factory=Counter)
    shoes: Shoes = field(default_factory=Shoes)
    minimum: Decimal | None = None  # the table minimum in force: the configuration's or header's, as coups change it
    burnt: Any = None  # the shoe whose start burn was judged (CONTINUED: the one another log began)


def prepare(game: str, terms: Terms) -> Prepared:
    """The rules of play resolved with the run's parameters. Raises Unavailable for the aspects a missing
    parameter or deck count leaves unchecked; the exception's `prepared` replays the others."""
    data = (terms.play or {}).get("blackjack")
    if not data:
        raise Unavailable(ASPECTS, "the ruleset states no rules of play for blackjack (`play: blackjack:`)")
    try:
        rules = bj.rules(data, terms.params)
    except bj.RulesError as error:
        raise Unavailable(ASPECTS, f"the rules of play for blackjack cannot be read: {error}",
                          unreadable=True) from None
    lacking = rules.unavailable()
    partial = {}
    if "jackpot/stake" in rules.missing and not any(
            "side_bets" in bj.aspects_of(key) for key in rules.missing if key != "jackpot/stake"):
        # only the jackpot's fixed stake needs the parameter: the super-jack (none outside LU) and who may stake
        # the jackpot are still checked
        lacking.pop("side_bets", None)
        partial["side_bets"] = (f"side_bets: the jackpot's stake is not held to its fixed amount, no value for "
                                f"{', '.join(rules.missing['jackpot/stake'])} (give it with --param NAME=VALUE); "
                                "the other side bets are checked")
    tainted = _tainted(rules, lacking, partial)
    whys = [f"{aspect}: no value for {', '.join(names)} (give it with --param NAME=VALUE)"
            for aspect, names in lacking.items()]
    unpriced = [f"`payouts: {key}:`" for key, value in (("win", rules.win_pays), ("blackjack", rules.blackjack_pays))
                if value is None and f"payouts/{key}" not in rules.missing]
    reasons = {}
    if unpriced and "settlement" not in lacking:  # no run can give it: a hand cannot be settled at all
        reasons["settlement"] = (f"settlement: the rules of play do not say what a hand pays ({', '.join(unpriced)}); "
                                 "no hand is settled")
        lacking["settlement"] = []
        whys.append(reasons["settlement"])
    if rules.insurance_pays is None and not any(key.startswith("insurance/") for key in rules.missing) \
            and "settlement" not in lacking:  # the hands are settled; an insurance would pass unsettled, unsaid
        unsettled = ("settlement: an insurance is not settled, the rules of play do not say what it pays "
                     "(`insurance: pays:`); the hands are")
        partial["settlement"] = f"{partial['settlement']}; {unsettled}" if "settlement" in partial else unsettled
    if terms.decks is None:  # the hands' shape is still the deal's: only the cards' count needs the decks
        partial["deal"] = ("deal: cards are not counted against the shoe, the number of decks is not known (a "
                           "table configuration's cards.decks or the header's decks); the hands' cards are checked")
    minimum = money((terms.limits or {}).get("minimum"))
    burn = (terms.play or {}).get("burn") if terms.aspects is None or "burn" in terms.aspects else None
    prepared = Prepared(rules, terms.decks, frozenset(lacking) | frozenset(tainted), minimum, tainted,
                        burn if isinstance(burn, Mapping) else None, terms.continues)
    if lacking or partial:
        # the other aspects can still be replayed
        raise Unavailable(lacking, "; ".join(whys + list(partial.values())), prepared, reasons, partial=partial)
    return prepared


def _tainted(rules: bj.Rules, lacking: dict, partial: dict) -> dict[str, Tainted]:
    """An aspect whose missing values are all rules fields is replayed with those fields tainted: a coup is set
    aside only where its replay reads one (a dealer's soft 17 needs the dealer's rule, a hard 18 does not). Such
    an aspect moves from `lacking` to the result, and `partial` says how far it is checked."""
    tainted = {}
    for aspect in [a for a in lacking if a != "side_bets" or "jackpot/stake" not in rules.missing]:
        fields = {_field(key) for key in rules.missing if aspect in bj.aspects_of(key)}
        if None in fields:
            continue
        names = lacking.pop(aspect)
        tainted[aspect] = Tainted(with_even_money(rules), frozenset(fields))
        partial[aspect] = (f"{aspect}: each hand (the dealer's, the players') is checked up to where it needs "
                           f"{', '.join(names)}, not given (give it with --param NAME=VALUE)")
    return tainted


def start(prepared: Prepared) -> State:
    return State(minimum=prepared.minimum, burnt=CONTINUED if prepared.continues else None)


def stakes(coup: dict) -> Iterator[tuple[str, str, Decimal]]:
    for i, box in enumerate(coup.get("boxes") or ()):
        for j, hand in enumerate(box.get("hands") or ()):
            stake = money(hand.get("stake"))
            if stake is None:
                continue
            yield f"/boxes/{i}/hands/{j}/stake", "box" if j == 0 else "split", stake
            for d, decision in enumerate(hand.get("decisions") or ()):
                if decision == "double":
                    yield f"/boxes/{i}/hands/{j}/decisions/{d}", "double", stake
        if isinstance(box.get("insurance"), dict) and money(box["insurance"].get("stake")) is not None:
            yield f"/boxes/{i}/insurance/stake", "insurance", money(box["insurance"]["stake"])
        for chance, bet in (box.get("super_jack") or {}).items():
            if money(bet.get("stake")) is not None:
                yield f"/boxes/{i}/super_jack/{chance}/stake", "super_jack", money(bet["stake"])
        if isinstance(box.get("jackpot"), dict) and money(box["jackpot"].get("stake")) is not None:
            yield f"/boxes/{i}/jackpot/stake", "jackpot", money(box["jackpot"]["stake"])


def limit_names(terms: Terms) -> frozenset[str]:
    """The names a per-chance limit may be filed under: what `stakes` files a stake under."""
    return frozenset({"box", "split", "double", "insurance", "super_jack", "jackpot"})


# --- the aspects ------------------------------------------------------------------------------------------------

def replay(prepared: Prepared, state: State, coup: dict) -> Iterator[tuple[str, str, str]]:
    """The coup's breaches, (aspect, pointer, message); `cited` adds the provision each breaks."""
    return without_provisions(cited(prepared, state, coup))


def cited(prepared: Prepared, state: State, coup: dict) -> Iterator[tuple]:
    if prepared.burn is not None and coup["shoe"] != state.burnt:
        starts = state.burnt is not CONTINUED  # the shoe of a log's first coup another log began: not started here
        state.burnt = coup["shoe"]
        yield from burn_counts(prepared.burn, coup, starts)
    if coup["shoe"] != state.shoe:
        state.shoe, state.seen = coup["shoe"], Counter()
        for found in state.shoes.open(coup["shoe"]):  # a deal breach where "deal" is skipped goes to no rule
            if found[0] != "deal" or prepared.decks is not None:  # uncounted cards are not counted anew
                yield found
    limits = coup.get("limits")
    if isinstance(limits, dict) and money(limits.get("minimum")) is not None:
        state.minimum = money(limits["minimum"])  # as the core reads a coup's limits
    boxes = recorded_hands(coup)
    if "deal" not in prepared.skip:
        yield from _deal(prepared, state, coup, boxes)
    else:
        _count(state, coup)
    if len(coup["dealer"]) < 2 or any(card(c) is None for c in coup["dealer"]):
        return  # a dealer without two cards plays no coup (deal says so)
    for aspect, judge in _ASPECTS:
        rules = prepared.tainted.get(aspect) or (None if aspect in prepared.skip else prepared.rules)
        if rules is None:
            continue
        yield from judged(judge(rules, coup, boxes, state.minimum))  # what is not judged: said once (partial)


def _all_cards(coup: dict) -> Iterator[tuple[str, Any]]:
    for k, c in enumerate(coup.get("burned") or ()):
        yield f"/burned/{k}", c
    for k, c in enumerate(coup["dealer"]):
        yield f"/dealer/{k}", c
    for i, box in enumerate(coup["boxes"]):
        for j, hand in enumerate(box["hands"]):
            for k, c in enumerate(hand["cards"]):
                yield f"/boxes/{i}/hands/{j}/cards/{k}", c


def _count(state: State, coup: dict) -> None:
    for _, c in _all_cards(coup):
        state.seen[c] += 1


def _deal(prepared: Prepared, state: State, coup: dict, boxes: list[list[RecordedHand]]) -> Iterator:
    for pointer, c in _all_cards(coup):
        if card(c) is None:
            yield "deal", pointer, f"{c!r} is not a card"
            continue
        state.seen[c] += 1
        if prepared.decks is not None and state.seen[c] > prepared.decks:
            yield "deal", pointer, (f"{c} is seen {state.seen[c]} times in shoe {coup['shoe']}; {prepared.decks} "
                                    f"decks hold it {prepared.decks} times")
    if len(coup["dealer"]) < 2:
        yield "deal", "/dealer", f"the dealer has {len(coup['dealer'])} card; the deal gives the dealer two", \
            cite(prepared.rules, "deal", "two_cards")
    dealt: dict[Any, int] = {}
    for i, box in enumerate(coup["boxes"]):
        if box.get("box") in dealt:  # a box is dealt one hand (a split adds hands within it), not two
            yield "deal", f"/boxes/{i}/box", (f"box {box.get('box')} is dealt twice (at /boxes/{dealt[box.get('box')]}"
                                              " too); a box is dealt one hand, and only a split makes another"), \
                cite(prepared.rules, "deal", "two_cards")
        else:
            dealt[box.get("box")] = i
    for i, hands in enumerate(boxes):
        splits = sum(h.splits for h in hands)
        if len(hands) != 1 + splits:
            yield "deal", f"/boxes/{i}/hands", (f"the box holds {len(hands)} hands; its {splits} split(s) make "
                                                f"{1 + splits}"), cite(prepared.rules, "splitting", "pair")
        for j in range(1, len(hands) if len(hands) == 1 + splits else 0):  # a split makes the next new hand,
            # played after the hand split (a count that does not match is said above)
            before = sum(h.splits for h in hands[:j])
            if before < j:
                yield "deal", f"/boxes/{i}/hands/{j}", (
                    f"hand {j + 1} of the box comes from no split: the {j} hand(s) played before it split "
                    f"{before} time(s); a split makes a new hand, played after the hand it was split from"), \
                    cite(prepared.rules, "splitting", "pair")
                break
        for hand in hands:
            if len(hand.cards) < 2:
                yield "deal", hand.pointer + "/cards", f"the hand has {len(hand.cards)} card; a hand starts with two", \
                    cite(prepared.rules, "deal", "two_cards")
                continue
            asked = sum(d in ("hit", "double") for d in hand.decisions)
            if len(hand.cards) > 2 + asked:
                k = 2 + asked
                yield "deal", f"{hand.pointer}/cards/{k}", (f"card {k + 1} ({hand.cards[k]}) was dealt to the hand "
                                                            f"with no hit or double asking for it"), \
                    cite(prepared.rules, "player", "asked")
            elif len(hand.cards) < 2 + asked:
                yield "deal", hand.pointer + "/cards", (f"the hand's {asked} hit(s) and double(s) call for "
                                                        f"{2 + asked} cards; it has {len(hand.cards)}"), \
                    cite(prepared.rules, "player", "asked")


# the aspects judged by the rules of play, in the order a coup is replayed
_ASPECTS = (("decisions", judge_decisions), ("dealer_drawing", judge_dealer), ("settlement", judge_settlement),
            ("side_bets", judge_side_bets))

# the parts of the rules of play each aspect's findings cite
_ASPECT_PARTS = {"deal": ("deal", "player", "splitting"),
                 "decisions": ("player", "doubling", "splitting", "surrender", "insurance", "even_money", "payouts"),
                 "dealer_drawing": ("dealer",), "split_stake": ("splitting",),
                 "settlement": ("payouts", "surrender", "even_money", "insurance", "special_prize"),
                 "side_bets": ("super_jack", "jackpot")}


def provisions(play: Mapping, aspect: str) -> list[Mapping]:
    """The provisions a finding of `aspect` may cite (for `rules explain`)."""
    citations = ((play or {}).get("blackjack") or {}).get("citations")
    return provisions_of(citations, _ASPECT_PARTS.get(aspect, ()))
