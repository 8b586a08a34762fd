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
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Iterator, Mapping

from casino_audit.games import blackjack as bj
from casino_audit.games import registry
from casino_audit.replay import (AMOUNT_SCHEMA, CARD_SCHEMA, COMMON_COUP, COMMON_REQUIRED, STAKE_SCHEMA, Shoes,
                                 Terms, Unavailable, card, cents, money)
from casino_audit.replay import provision, provisions_of, without_provisions
from casino_audit.replay import CONTINUED, burn_counts

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
EVEN_MONEY_ON, EVEN_MONEY_PAYS = frozenset({"A"}), Decimal(1)  # what "even money" means where the rules are silent
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


class _Needs(Exception):
    """The replay read a rule a parameter was not given for: the rest of this coup's aspect is not checked."""


class _Tainted:
    """The rules, but reading a field a missing parameter leaves unknown raises _Needs: whatever was judged
    before that read did not depend on it."""

    __slots__ = ("_rules", "_unknown")

    def __init__(self, rules: bj.Rules, unknown: frozenset[str]):
        self._rules, self._unknown = rules, unknown

    def __getattr__(self, name: str):
        if name in self._unknown:
            raise _Needs(name)
        return getattr(self._rules, name)


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
            "side_bets" in bj.PART_ASPECTS.get(key, bj.PART_ASPECTS.get(key.split("/")[0], ()))
            for key in rules.missing if key != "jackpot/stake"):
        # only the jackpot's fixed stake needs the parameter: the super-jack (none outside LU) and who may stake
        # the jackpot are still checked
        lacking.pop("side_bets", None)
        partial["side_bets"] = (f"side_bets: the jackpot's stake is not held to its fixed amount, no value for "
                                f"{', '.join(rules.missing['jackpot/stake'])} (give it with --param NAME=VALUE); "
                                "the other side bets are checked")
    # An aspect whose missing values are all rules fields is replayed with those fields tainted: a coup is set
    # aside only where its replay reads one (a dealer's soft 17 needs the dealer's rule, a hard 18 does not).
    tainted = {}
    for aspect in [a for a in lacking if a != "side_bets" or "jackpot/stake" not in rules.missing]:
        keys = [key for key in rules.missing
                if aspect in bj.PART_ASPECTS.get(key, bj.PART_ASPECTS.get(key.split("/")[0], ()))]
        fields = {_field(key) for key in keys}
        if None in fields:
            continue
        names = lacking.pop(aspect)
        tainted[aspect] = _Tainted(_with_even_money(rules), frozenset(fields))
        partial[aspect] = (f"{aspect}: each hand (the dealer's, the players') is checked up to where it needs "
                           f"{', '.join(names)}, not given (give it with --param NAME=VALUE)")
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


# --- the coup's hands, rebuilt from the record -----------------------------------------------------------------

@dataclass
class _Hand:
    box: int
    index: int
    cards: list
    stake: Decimal | None
    decisions: list
    net: Any
    splits: int = 0  # leading splits of this hand
    from_split: bool = False
    doubled: bool = False
    surrendered: bool = False
    even_money: bool = False
    short: bool = False  # not two cards, or not cards: deal says so, and the hand is not played further

    @property
    def pointer(self) -> str:
        return f"/boxes/{self.box}/hands/{self.index}"

    def engine_hand(self) -> bj.Hand:
        return bj.Hand(tuple(self.cards), self.stake, self.doubled, self.surrendered, self.even_money, self.from_split)


def _hands(coup: dict) -> list[list[_Hand]]:
    boxes = []
    for i, box in enumerate(coup["boxes"]):
        hands = [_Hand(i, j, list(h["cards"]), money(h["stake"]), list(h["decisions"]), h["net"])
                 for j, h in enumerate(box["hands"])]
        for hand in hands:
            hand.splits = hand.decisions.count("split")
            hand.from_split = hand.index > 0 or hand.splits > 0
            hand.doubled = "double" in hand.decisions
            hand.surrendered = "surrender" in hand.decisions
            hand.even_money = "even_money" in hand.decisions
            hand.short = len(hand.cards) < 2 or any(card(c) is None for c in hand.cards)
        boxes.append(hands)
    return boxes


def _split_children(hands: list[_Hand]) -> dict[tuple[int, int], int]:
    """(hand, its k-th split) -> the index of the hand that split created."""
    children, created = {}, 0
    for hand in hands:
        for k in range(hand.splits):
            created += 1
            children[hand.index, k] = created
    return children


def _show(cards) -> str:
    return " ".join(cards)


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
    boxes = _hands(coup)
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
        yield from _judged(judge(rules, coup, boxes, state.minimum))  # what is not judged: said once (partial)


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


def _deal(prepared: Prepared, state: State, coup: dict, boxes: list[list[_Hand]]) -> Iterator:
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
            _cite(prepared.rules, "deal", "two_cards")
    dealt: dict[Any, int] = {}
    for i, box in enumerate(coup["boxes"]):
        if box.get("box") in dealt:  # a box is dealt one hand (a split adds hands within it), not two
            yield "deal", f"/boxes/{i}/box", (f"box {box.get('box')} is dealt twice (at /boxes/{dealt[box.get('box')]}"
                                              " too); a box is dealt one hand, and only a split makes another"), \
                _cite(prepared.rules, "deal", "two_cards")
        else:
            dealt[box.get("box")] = i
    for i, hands in enumerate(boxes):
        splits = sum(h.splits for h in hands)
        if len(hands) != 1 + splits:
            yield "deal", f"/boxes/{i}/hands", (f"the box holds {len(hands)} hands; its {splits} split(s) make "
                                                f"{1 + splits}"), _cite(prepared.rules, "splitting", "pair")
        for j in range(1, len(hands) if len(hands) == 1 + splits else 0):  # a split makes the next new hand,
            # played after the hand split (a count that does not match is said above)
            before = sum(h.splits for h in hands[:j])
            if before < j:
                yield "deal", f"/boxes/{i}/hands/{j}", (
                    f"hand {j + 1} of the box comes from no split: the {j} hand(s) played before it split "
                    f"{before} time(s); a split makes a new hand, played after the hand it was split from"), \
                    _cite(prepared.rules, "splitting", "pair")
                break
        for hand in hands:
            if len(hand.cards) < 2:
                yield "deal", hand.pointer + "/cards", f"the hand has {len(hand.cards)} card; a hand starts with two", \
                    _cite(prepared.rules, "deal", "two_cards")
                continue
            asked = sum(d in ("hit", "double") for d in hand.decisions)
            if len(hand.cards) > 2 + asked:
                k = 2 + asked
                yield "deal", f"{hand.pointer}/cards/{k}", (f"card {k + 1} ({hand.cards[k]}) was dealt to the hand "
                                                            f"with no hit or double asking for it"), \
                    _cite(prepared.rules, "player", "asked")
            elif len(hand.cards) < 2 + asked:
                yield "deal", hand.pointer + "/cards", (f"the hand's {asked} hit(s) and double(s) call for "
                                                        f"{2 + asked} cards; it has {len(hand.cards)}"), \
                    _cite(prepared.rules, "player", "asked")


def _decisions(rules: bj.Rules, coup: dict, boxes: list[list[_Hand]], minimum=None) -> Iterator:
    up = coup["dealer"][0]
    up_rank = bj.rank_of(up)
    up_shown = "a ten-card" if up_rank in bj.TEN_CARDS else "an ace" if up_rank == "A" else up_rank
    for i, hands in enumerate(boxes):
        insurance = coup["boxes"][i].get("insurance")
        if insurance is not None:
            yield from _judged(_insurance_taken(rules, i, insurance, hands[0].stake, up, up_rank, up_shown))
        children = _split_children(hands)
        hand_count = len(hands)
        for hand in hands:
            yield from _judged(_hand_decisions(rules, hand, hands, children, up_rank, up_shown, hand_count))


def _judged(found: Iterator) -> Iterator:
    """One hand's (or one insurance's) findings up to where its replay reads a rule a parameter was not given
    for: the coup's other hands are still judged (else a won hand first in the coup, its pay unknown, let a bust
    paid +10 in the next box through)."""
    try:
        yield from found
    except _Needs:
        return


def _insurance_taken(rules, i: int, insurance: dict, first_stake, up, up_rank, up_shown) -> Iterator:
    stake = money(insurance["stake"])
    if rules.insurance_on is not None and up_rank not in rules.insurance_on:
        yield "decisions", f"/boxes/{i}/insurance", (f"insurance is taken against {up_shown} ({up}); it is "
                                                     f"offered only when the up-card is an ace"), \
            _cite(rules, "insurance", "on")
    elif rules.insurance_maximum is not None and stake is not None and first_stake is not None \
            and stake > first_stake * rules.insurance_maximum:
        yield "decisions", f"/boxes/{i}/insurance/stake", (
            f"insurance of {cents(stake)} on a stake of {cents(first_stake)}; the most is "
            f"{cents(first_stake * rules.insurance_maximum)}"), _cite(rules, "insurance", "maximum")


def _hand_decisions(rules, hand: _Hand, hands, children, up_rank, up_shown, hand_count) -> Iterator:
    if hand.short:
        return
    split_value = bj.value(hand.cards[0]) if hand.from_split else None
    one_card = split_value == 1 and rules.split_aces_one_card
    current = [hand.cards[0], None]
    split_k, position, ended = 0, 2, None

    def second() -> Any:
        if split_k < hand.splits:
            child = children.get((hand.index, split_k))
            return hands[child].cards[0] if child is not None and hand.index < child < len(hands) else None
        return hand.cards[1]

    current[1] = second()
    for d, decision in enumerate(hand.decisions):
        at = f"{hand.pointer}/decisions/{d}"
        if current[1] is None:
            return  # the split made no hand: deal says so
        total, _ = bj.hand_value(current)
        if ended:
            yield "decisions", at, f"a {decision} after the hand ended ({ended})", _cite(rules, *_ENDED[ended])
            return
        if decision == "split":
            if len(current) != 2 or d != split_k:
                yield "decisions", at, "a split is the first decision on a hand's two cards", \
                    _cite(rules, "splitting", "pair")
            elif not bj.pair(current):
                yield "decisions", at, f"a split of {_show(current)}: the two cards are not of the same value", \
                    _cite(rules, "splitting", "pair")
            elif rules.split_max_hands is not None and split_k + 1 + _splits_before(hand, hands) >= \
                    rules.split_max_hands:
                yield "decisions", at, f"a split to more than {rules.split_max_hands} hands in one box", \
                    _cite(rules, "splitting", "max_hands")
            child = children.get((hand.index, split_k))
            if child is not None and child < len(hands) and hands[child].stake != hand.stake:
                made = hands[child]  # a stake the shape check refused is the shape's finding, not this one
                if made.stake is not None and hand.stake is not None:
                    yield "split_stake", f"{made.pointer}/stake", (
                        f"the hand split off stakes {cents(made.stake)}; the hand it was split from staked "
                        f"{cents(hand.stake)}, and a split stakes the same"), _cite(rules, "splitting", "stake")
            split_k += 1
            current = [hand.cards[0], second()]
            continue
        if decision == "even_money":
            # Rules silent on even money still have its meaning: a blackjack paid at once, one to one, against an
            # ace up (before, a silent ruleset let even money on any hand through, unsettled)
            on = rules.even_money_on if rules.even_money_on is not None else EVEN_MONEY_ON
            if hand.from_split or len(current) != 2 or not bj.is_blackjack(current) or up_rank not in on:
                yield "decisions", at, (f"even money on {_show(current)} against {up_shown}: it is for a "
                                        "blackjack when the up-card is an ace"), _cite(rules, "even_money", "on")
            ended = "even money"
            continue
        if decision == "surrender":
            if rules.surrender_loses is None:
                yield "decisions", at, "a surrender: the rules allow none", _cite(rules, "surrender", "loses")
            elif up_rank in rules.surrender_not_against:
                yield "decisions", at, f"a surrender against {up_shown}: not allowed when the up-card is an ace", \
                    _cite(rules, "surrender", "not_against")
            elif rules.surrender_first_two_cards_only and (d != 0 or hand.from_split or len(current) != 2):
                yield "decisions", at, "a surrender is decided on the first two cards, before any other decision", \
                    _cite(rules, "surrender", "first_two_cards_only")
            ended = "surrendered"
            continue
        if total > 21:
            yield "decisions", at, f"a {decision} after the hand busted at {total}", _cite(rules, "payouts", "bust")
            return
        if bj.is_blackjack(current, hand.from_split) and decision != "stand":
            yield "decisions", at, f"a {decision} on a blackjack ({_show(current)})", \
                _cite(rules, "player", "blackjack")
            return
        if decision == "stand":
            if rules.stand_above is not None and total <= rules.stand_above and not one_card:
                yield "decisions", at, (f"a stand on {total}; a player may stand only above {rules.stand_above}"), \
                    _cite(rules, "player", "stand_above")
            ended = "stood"
            continue
        if one_card:
            yield "decisions", at, f"a {decision} on a split ace: a split ace takes one card only", \
                _cite(rules, "splitting", "aces_one_card")
            return
        if total == 21:
            yield "decisions", at, f"a {decision} on 21 ({_show(current)}): no card is asked after 21", \
                _cite(rules, "player", "twenty_one")
            return
        if decision == "double":
            why = bj.may_double(current, rules, hand.from_split, False)
            if why:
                yield "decisions", at, f"a double on {_show(current)}: {why}", \
                    _cite(rules, *(("splitting", "aces_one_card") if "split ace" in why else
                                   ("doubling", "after_split" if hand.from_split else "on")))
            ended = "doubled, one card"
        if position < len(hand.cards):
            current.append(hand.cards[position])
            position += 1
    if ended is None and current[1] is not None and not one_card:
        total, _ = bj.hand_value(current)
        if total < 21 and rules.stand_above is not None and total <= rules.stand_above \
                and not bj.is_blackjack(current, hand.from_split):
            yield "decisions", hand.pointer + "/decisions", (
                f"the hand ends on {total} without a double or a surrender; a player may stand only above "
                f"{rules.stand_above}"), _cite(rules, "player", "stand_above")


def _splits_before(hand: _Hand, hands: list[_Hand]) -> int:
    return sum(h.splits for h in hands if h.index < hand.index)


def _in_play(hand: _Hand, rules: bj.Rules) -> bool:
    """Whether the dealer's further cards still decide the hand (not bust, surrendered, a blackjack or paid)."""
    if hand.short:
        return True  # not known to be out of play
    if hand.surrendered or hand.even_money or bj.is_blackjack(hand.cards, hand.from_split):
        return False
    ace_one = hand.doubled and bj.doubled_ace_counts_one(hand.cards, rules)
    return bj.hand_value(hand.cards, ace_one)[0] <= 21


def _any_in_play(boxes: list[list[_Hand]], rules) -> bool:
    """Whether some hand is in play; a hand whose count needs a rule not given is judged by the others (one hand
    surely in play is enough), and only unknown if none is."""
    unknown = False
    for hands in boxes:
        for hand in hands:
            try:
                if _in_play(hand, rules):
                    return True
            except _Needs:
                unknown = True
    if unknown:
        raise _Needs("a hand's count")
    return False


def _dealer(rules: bj.Rules, coup: dict, boxes: list[list[_Hand]], minimum=None) -> Iterator:
    dealer = coup["dealer"]
    if not _any_in_play(boxes, rules):
        if rules.dealer_no_draw_when_no_hand_in_play and len(dealer) > 2:
            yield "dealer_drawing", "/dealer/2", (f"the dealer drew {dealer[2]} with no hand left in play; then "
                                                  "the dealer takes no third card"), \
                _cite(rules, "dealer", "no_draw_when_no_hand_in_play")
        return  # the law says nothing else of a dealer with no hand to play against
    for k in range(2, len(dealer)):
        if not _draws(dealer[:k], rules):
            total, soft = bj.hand_value(dealer[:k])
            # a soft 17 stood on is the dealer's rule (stands on every 17); any other total stands by both rules,
            # the one in force named where it is known
            stands = "every 17 and over" if soft and total == 17 or _known_rule(rules) == bj.STANDS_ON_17 \
                else "a hard 17 and over"
            yield "dealer_drawing", f"/dealer/{k}", (
                f"the dealer drew {dealer[k]} on {'soft ' if soft else ''}{total} ({_show(dealer[:k])}); the "
                f"dealer stands on {stands}"), _cite(rules, "dealer", "soft_17" if soft and total == 17 else "stands")
            return
    if _draws(dealer, rules):
        total, soft = bj.hand_value(dealer)
        included = ", a soft 17 included" if soft and total == 17 else ""
        yield "dealer_drawing", "/dealer", (f"the dealer stood on {'soft ' if soft else ''}{total} "
                                            f"({_show(dealer)}); the dealer draws to 17{included}"), \
            _cite(rules, "dealer", "soft_17" if soft and total == 17 else "draws")


def _known_rule(rules) -> str | None:
    try:
        return rules.dealer_rule
    except _Needs:
        return None


def _draws(cards, rules: bj.Rules) -> bool:
    """Whether the dealer draws; the dealer's rule is read only where the rules differ (a soft 17)."""
    total, soft = bj.hand_value(cards)
    if total == 17 and soft:
        return bj.dealer_draws(cards, rules.dealer_rule)
    return total < 17


def _settlement(rules: bj.Rules, coup: dict, boxes: list[list[_Hand]], minimum=None) -> Iterator:
    dealer = coup["dealer"]
    for i, hands in enumerate(boxes):
        for hand in hands:
            yield from _judged(_hand_settled(rules, hand, dealer))
        insurance = coup["boxes"][i].get("insurance")
        if insurance is not None:
            yield from _judged(_insurance_settled(rules, i, insurance, dealer))


def _hand_settled(rules, hand: _Hand, dealer) -> Iterator:
    net = money(hand.net)
    if hand.stake is None or net is None or hand.short:
        return
    if hand.surrendered and rules.surrender_loses is None:
        return  # decisions reports a surrender the rules do not have
    expected = bj.settle_hand(hand.engine_hand(), dealer, _with_even_money(rules))
    if net != expected:
        what = bj.outcome(hand.engine_hand(), dealer, rules)
        prize = bj.special_prize(hand.cards, rules.special_prize_combinations) \
            if rules.special_prize_pays is not None else None
        extra = f", with the special prize ({prize.replace('_', ' ')})" if prize else ""
        doubled = " doubled" if hand.doubled else ""
        yield "settlement", hand.pointer + "/net", (
            f"{_show(hand.cards)}: {what}{extra}, stake {cents(hand.stake)}{doubled}, settled at "
            f"{_signed(net)}; the rules settle it at {_signed(expected)}"), \
            _cite(rules, *_settled_by(rules, hand, dealer, net, expected, prize))


def _insurance_settled(rules, i: int, insurance: dict, dealer) -> Iterator:
    if rules.insurance_pays is None:
        return
    stake, net = money(insurance["stake"]), money(insurance["net"])
    if stake is not None and net is not None:
        expected = bj.settle_insurance(stake, dealer, rules)
        if net != expected:
            did = "has" if bj.is_blackjack(dealer) else "has no"
            yield "settlement", f"/boxes/{i}/insurance/net", (
                f"insurance of {cents(stake)}, the dealer {did} blackjack ({_show(dealer[:2])}), settled at "
                f"{_signed(net)}; the rules settle it at {_signed(expected)} (it pays {rules.insurance_pays} to 1)"), \
                _cite(rules, "insurance", "pays")


def _with_even_money(rules: bj.Rules) -> bj.Rules:
    """Rules silent on even money settle it as its name says: one to one."""
    return rules if rules.even_money_pays is not None else replace(rules, even_money_pays=EVEN_MONEY_PAYS)


def _signed(amount: Decimal) -> str:
    return ("+" if amount > 0 else "") + cents(amount)


def _side_bets(rules: bj.Rules, coup: dict, boxes, minimum: Decimal | None) -> Iterator:
    dealer = coup["dealer"]
    for i, box in enumerate(coup["boxes"]):
        in_game = any(h.stake is not None and h.stake > 0 for h in boxes[i][:1])
        for chance, bet in (box.get("super_jack") or {}).items():
            at = f"/boxes/{i}/super_jack/{chance}"
            if not rules.super_jack:
                yield "side_bets", at, "a super-jack stake: the law of this jurisdiction has no super-jack", \
                    _cite(rules, "side_bets")
                continue
            stake, net = money(bet["stake"]), money(bet["net"])
            if stake is None or net is None:
                continue
            if not in_game:
                yield "side_bets", at, "a super-jack stake on a box with no blackjack stake", \
                    _cite(rules, "super_jack", "in_game")
            if minimum is not None and stake < minimum:
                yield "side_bets", at + "/stake", (f"a super-jack stake of {cents(stake)}; each chance takes one "
                                                   f"piece of at least the table minimum, {cents(minimum)}"), \
                    _cite(rules, "super_jack", "stake")
            expected = bj.settle_super_jack(chance, stake, dealer, rules)
            if net != expected:
                won = "wins" if bj.super_jack_wins(chance, dealer) else "loses"
                yield "side_bets", at + "/net", (
                    f"super-jack {chance.replace('_', '-')} {won} on the dealer's {_show(dealer)}: stake "
                    f"{cents(stake)} settled at {_signed(net)}; the rules settle it at {_signed(expected)}"), \
                    _cite(rules, "super_jack", chance)
        jackpot = box.get("jackpot")
        if jackpot is not None:
            at = f"/boxes/{i}/jackpot"
            stake = money(jackpot["stake"])
            if not rules.jackpot:
                yield "side_bets", at, "a jackpot stake: the law of this jurisdiction has no jackpot at blackjack", \
                    _cite(rules, "side_bets")
            elif not in_game:
                yield "side_bets", at, "a jackpot stake on a box with no stake in the main game", \
                    _cite(rules, "jackpot", "in_game")
            elif rules.jackpot_stake is not None and stake is not None and stake != rules.jackpot_stake:
                yield "side_bets", at + "/stake", (f"a jackpot stake of {cents(stake)}; the jackpot takes one chip of "
                                                   f"{cents(rules.jackpot_stake)}"), _cite(rules, "jackpot", "stake")


# the aspects judged by the rules of play, in the order a coup is replayed
_ASPECTS = (("decisions", _decisions), ("dealer_drawing", _dealer), ("settlement", _settlement),
            ("side_bets", _side_bets))


# --- the provision each breach cites (the ruleset's `citations:` of the rules of play, by part and key) ---------

# what ended a hand -> the part (and key) of the rules of play that ends it so
_ENDED = {"even money": ("even_money", "on"), "surrendered": ("surrender", "loses"), "stood": ("player", "stand_above"),
          "doubled, one card": ("doubling", "one_card")}


def _cite(rules, part: str, covers: str | None = None) -> Mapping | None:
    """The provision of the rules of play a breach of `part` (its key `covers`) cites, None where none is quoted."""
    return provision(rules.citations, part, covers)


def _settled_by(rules, hand: _Hand, dealer, net: Decimal, expected: Decimal, prize) -> tuple[str, str | None]:
    """(part, key) of the rule a hand's settlement breaks: the special prize where the net misses it alone, else
    what settles the hand (a surrender, even money, a blackjack, a bust, a win, a loss, a tie)."""
    if prize and net == expected - hand.stake * rules.special_prize_pays:
        return "special_prize", "pays"
    if hand.surrendered:
        return "surrender", "loses"
    if hand.even_money:
        return "even_money", "pays"
    cards = hand.cards
    ace_one = hand.doubled and bj.doubled_ace_counts_one(cards, rules)
    total, _ = bj.hand_value(cards, ace_one)
    if bj.is_blackjack(cards, hand.from_split):
        return "payouts", "blackjack"
    if total > 21:
        return "payouts", "bust"
    if bj.is_blackjack(dealer):
        return "payouts", "dealer_blackjack_takes"
    dealer_total, _ = bj.hand_value(dealer)
    if dealer_total <= 21 and total == dealer_total:
        return "payouts", "tie"
    return "payouts", "win"


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
