"""Replaying casino stud poker logs (LU Art. 37-6 to 37-8, MC AM 2003-281, PT póquer sem descarte): each coup's
deal, boxes, raises and settlement, by the rules of play the ruleset holds (`play:`) and the payout schedule.

A coup is one deal from a fresh 52-card deck: the dealer's five cards and, per box, the player's five cards, his
ante, his decision (raise or fold), the raise, and his net result on ante and raise. Settlement is exact: the
net must equal, to the cent, what casino_audit.games.poker_stud decides for the two hands (dealer not
qualified, a special case, a tie, the dealer's win, the paytable's entry) times the stakes placed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterator, Mapping

from casino_audit.games import registry
from casino_audit.games.poker import Card, Category, PAYOUT_KEYS, parse_card
from casino_audit.games.poker_stud import (PAYTABLE, SITUATIONS, MissingParams, StudRules, UnstatedOutcome,
                                           bind_params, decide, exact, paytable_from_payouts, stud_rules)
from casino_audit.replay import (AMOUNT_SCHEMA, CARD_SCHEMA, COMMON_COUP, COMMON_REQUIRED, STAKE_SCHEMA, Terms,
                                 Unavailable, card, cents, money)
from casino_audit.replay import provision, provisions_of, without_provisions
from casino_audit.games.poker_stud import _quoted  # a citation as messages show it

GAMES = registry.games_of("stud")
REACHED = ("fold", "dealer_not_qualified", "player_wins", "dealer_wins", "tie")  # situations any deal can reach
ASPECTS = {
    "deal": "every card is one of the 52 of a single deck, none twice in the coup, five to the dealer and five to "
            "each box",
    "boxes": "boxes are numbered 1 to 7, each played once, and a seated player plays one box only",
    "raise": "a raise is the multiple of the ante the law fixes (twice the ante); a fold stakes no raise",
    "settlement": "each box's net on ante and raise is what the law pays for the hands dealt: a fold, a dealer "
                  "without ace-king, a special case, a tie, the dealer's win, the paytable's entry",
}
JACKPOT_GAMES = ("poker_sem_descarte",)  # the jackpot stake is poker sem descarte's (n.º 3), not stud poker's
BOXES = 7  # "au maximum de sept", "com um limite máximo de 7"
HAND = 5

_CARDS = {"type": "array", "items": CARD_SCHEMA, "minItems": 1, "maxItems": 52}
_BOX = {
    "type": "object", "additionalProperties": False,
    "required": ["box", "cards", "ante", "decision", "net"],
    "properties": {
        "box": {"type": "integer", "description": "The box (betting place) on the layout, numbered 1 to 7 "
                                                  "clockwise."},
        "seat": {"type": "integer", "minimum": 1,
                 "description": "The seated player who plays the box, when the log tells players apart."},
        "cards": {**_CARDS, "description": "The player's five cards, as dealt."},
        "ante": {**STAKE_SCHEMA, "description": "The initial stake (ante), placed before the deal."},
        "decision": {"enum": ["raise", "fold"],
                     "description": "What the player did after the deal: raise (go on) or fold (passe, passo)."},
        "raise": {**AMOUNT_SCHEMA, "description": "The raise placed on the relance (second bet) box; required "
                                                  "when the decision is raise."},
        "jackpot": {**AMOUNT_SCHEMA, "description": "The optional jackpot stake (poker sem descarte, n.º 3); "
                                                    "its prizes are the concessionaire's (n.º 9), not replayed."},
        "net": {**AMOUNT_SCHEMA, "description": "The player's result on ante and raise together: positive "
                                                "paid to him, negative collected, 0 returned."},
    },
    "allOf": [{"if": {"properties": {"decision": {"const": "raise"}}, "required": ["decision"]},
               "then": {"required": ["raise"]}}],
    "description": "One box played at the coup.",
}
COUP_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A casino stud poker coup",
    "description": "One deal of stud poker (stud_poker, poker_sem_descarte): the dealer's hand and every box played.",
    "type": "object",
    "additionalProperties": False,
    "required": [*COMMON_REQUIRED, "dealer", "boxes"],
    "properties": {
        **COMMON_COUP,
        "dealer": {**_CARDS, "description": "The dealer's five cards, as dealt (the last one dealt face up)."},
        "boxes": {"type": "array", "items": _BOX, "minItems": 1, "description": "The boxes played, in any order."},
    },
}
CSV_COLUMNS = None  # stud logs are JSON Lines

_SPECIAL = {"both_ace_king": "special case, both hands ace-king", "same_pairs": "special case, identical pairs",
            "both_flush": "special case, both hands a flush"}


@dataclass(frozen=True)
class Prepared:
    game: str
    rules: StudRules
    paytable: Mapping[Category, Fraction]
    settle: bool = True  # False: the settlement cannot be checked (said once); the other aspects still are
    # the provisions the rules of play quote, by what they state: a situation (`tie`, `special:both_flush`), the
    # payout table (`paytable`), a field (`raise_times_ante`, `compared_ranks.flush`)
    provisions: Mapping[str, Any] = field(default_factory=dict)


def prepare(game: str, terms: Terms) -> Prepared:
    """The rules of play and the schedule for one log. Without them, or without a parameter for an outcome the
    law leaves out, the settlement (and the raise, if the rules are missing) is not checked; the deal, the boxes
    and the raise still are."""
    data = getattr(terms.play, "data", terms.play)  # the Play's data, or that data itself
    if not data:
        raise Unavailable(("raise", "settlement"), f"the ruleset gives no rules of play for {game} (`play:`)")
    rules, unstated = _rules(game, data, terms)
    _require_outcomes(game, data, rules)
    paytable, gap, left = _schedule(game, terms.payouts, rules)
    if gap is not None:
        raise Unavailable(("settlement",), gap if unstated is None else f"{unstated}; {gap}",
                          Prepared(game, rules, paytable, settle=False, provisions=_provisions(data)))
    if unstated is not None or left is not None:  # every other coup is settled
        notes = [*([f"{unstated} (the coups that need it are not settled; the others are)"] if unstated else []),
                 *([left] if left else [])]
        raise Unavailable((), "; ".join(filter(None, (unstated, left))),
                          Prepared(game, rules, paytable, provisions=_provisions(data)),
                          partial={"settlement": "; ".join(notes)})
    return Prepared(game, rules, paytable, provisions=_provisions(data))


def _rules(game: str, data: Mapping[str, Any], terms: Terms) -> tuple[StudRules, str | None]:
    """The rules of play with the log's parameters, and what the law leaves unstated that no parameter gave
    (None if nothing)."""
    try:
        return stud_rules(bind_params(data, terms.params)), None
    except MissingParams as missing:
        unstated = (f"the law does not say {_unstated(data, missing.names)}; give it with "
                    + " and ".join(f"--param {name}=push|lose|k" for name in missing.names))
        try:  # the outcome left out stays unstated: only the coups that need it go unsettled (said once)
            return stud_rules(bind_params(data, terms.params, strict=False)), unstated
        except MissingParams:
            raise Unavailable(("raise", "settlement"), unstated) from None
        except ValueError as error:  # the rest of the play data cannot be read either: that is the run's error
            raise Unavailable(("raise", "settlement"), f"the rules of play for {game} cannot be read: {error}",
                              unreadable=True) from None
    except ValueError as error:
        raise Unavailable(("raise", "settlement"), f"the rules of play for {game} cannot be read: {error}",
                          unreadable=True) from None


def _require_outcomes(game: str, data: Mapping[str, Any], rules: StudRules) -> None:
    """A situation every coup can reach whose outcome the rules of play leave out (not to a parameter: that is
    `unstated`) would leave each box in it unsettled, in silence: the settlement is not checked, said."""
    outcomes = data.get("outcomes") if isinstance(data.get("outcomes"), Mapping) else {}
    given = [situation for situation in SITUATIONS if situation not in REACHED and situation in outcomes]
    left_out = [f"{situation}.{bet}" for situation in (*REACHED, *given)
                for bet in (("ante",) if situation == "fold" else ("ante", "raise"))
                if not isinstance(outcomes.get(situation), Mapping) or bet not in outcomes[situation]]
    if left_out:  # no run can give it: said alone, not as waiting for a parameter another outcome needs
        gap = f"the rules of play for {game} do not say what {', '.join(left_out)} pays (`outcomes:`)"
        raise Unavailable(("settlement",), gap, Prepared(game, rules, {}, settle=False,
                                                         provisions=_provisions(data)), {"settlement": gap})


def _schedule(game: str, payouts, rules: StudRules) -> tuple[Mapping[Category, Fraction], str | None, str | None]:
    """(paytable, gap, left): the payout table the coups are settled by; what stops the settlement being checked
    (None if nothing); the schedule's names left out of the table, said (None if none)."""
    if not payouts:
        return {}, f"no payout schedule for {game}: neither the table's nor the law's", None
    # a name no hand of the game has is left out of the schedule, said; it settles no coup, so it is no
    # reason to settle none (the hands' own payouts are read as given)
    known = set(PAYOUT_KEYS[game].values())
    extra = [str(key) for key in payouts if key not in known] if isinstance(payouts, Mapping) else []
    left = None
    if extra:
        left = (f"the payout schedule's {', '.join(extra)} is no hand of {game}: left out of the schedule the "
                "coups are settled by")
    try:
        paytable = paytable_from_payouts(game, {key: value for key, value in payouts.items()
                                                if key in known} if extra else payouts)
    except ValueError as error:
        return {}, f"the payout schedule cannot be read: {error}", left
    unlisted = [category for category in PAYOUT_KEYS[game] if category not in paytable]
    if rules.outcomes.get("player_wins") and rules.outcomes["player_wins"].raise_ == PAYTABLE and unlisted \
            and "player_wins_unlisted" not in rules.outcomes:
        return paytable, (f"the schedule pays nothing for {', '.join(PAYOUT_KEYS[game][c] for c in unlisted)}"
                          " and the rules do not say what such a winning hand's raise pays"), left
    return paytable, None, left


def _provisions(data: Mapping[str, Any]) -> dict[str, Any]:
    """The play data's citations by what they state: each situation's (outcomes), each special case's
    (`special:WHEN`), and the `citations:` of the fields and the payout table."""
    found: dict[str, Any] = dict(data.get("citations") or {})
    for situation, entry in (data.get("outcomes") or {}).items():
        if isinstance(entry, Mapping) and entry.get("citation") is not None:
            found.setdefault(situation, entry["citation"])
    for case in data.get("special_cases") or ():
        if isinstance(case, Mapping) and case.get("citation") is not None:
            found.setdefault(f"special:{case.get('when')}", case["citation"])
    return found


def start(prepared: Prepared) -> dict:
    return {}  # every coup is dealt from a fresh deck: nothing carries over


def replay(prepared: Prepared, state: dict, coup: Mapping[str, Any]) -> Iterator[tuple[str, str, str]]:
    """The coup's breaches, (aspect, pointer, message); `cited` adds the provision each breaks."""
    return without_provisions(cited(prepared, state, coup))


def cited(prepared: Prepared, state: dict, coup: Mapping[str, Any]) -> Iterator[tuple]:
    boxes = coup.get("boxes") or []
    # A hand of the wrong number of cards makes the whole coup void (LU Art. 37-7, MC «Le coup est nul quand le
    # nombre de cartes ... est incorrect», PT n.º 19): settled so, every box netting 0, it is no breach.
    short = _miscounted(coup)
    void_settled = short and all(money(box.get("net")) == 0 for box in boxes)
    dealer, bad = yield from _deal(coup, void_settled)
    yield from _boxes(coup)
    for index, box in enumerate(boxes):
        where = f"/boxes/{index}"
        ante, staked = money(box.get("ante")), money(box.get("raise"))
        raised = box.get("decision") == "raise"
        if raised and ante is not None and staked is not None:
            required = exact(Fraction(ante) * prepared.rules.raise_times_ante)
            if staked != required:
                yield ("raise", f"{where}/raise",
                       f"box {box.get('box')}: a raise of {cents(staked)} on an ante of {cents(ante)}; the law fixes "
                       f"the raise at {_times(prepared.rules.raise_times_ante)} the ante: {cents(required)}",
                       provision(prepared.provisions, "raise_times_ante"))
        if not raised and staked:
            yield ("raise", f"{where}/raise", f"box {box.get('box')} folded with a raise of {cents(staked)} staked; "
                                              "a fold stakes no raise (the ante alone is lost)")
        if prepared.game not in JACKPOT_GAMES and money(box.get("jackpot")) is not None:
            yield ("settlement", f"{where}/jackpot",
                   f"box {box.get('box')}: a jackpot stake of {cents(money(box['jackpot']))}; the law of this game "
                   "has no jackpot, and pays nothing but the ante and the raise")
        if short:
            continue  # a void coup: settled so, or the deal aspect says it is not
        if not prepared.settle or dealer is None or index in bad or ante is None or ante <= 0:
            continue  # the deal aspect reports the hand; nothing can be settled from it
        yield from _settlement(prepared, box, where, dealer, ante, staked if raised else Decimal(0))


def stakes(coup: Mapping[str, Any]) -> Iterator[tuple[str, str, Decimal]]:
    for index, box in enumerate(coup.get("boxes") or []):
        for chance in ("ante", "raise", "jackpot"):
            amount = money(box.get(chance))
            if amount is not None and (chance != "raise" or box.get("decision") == "raise"):
                yield f"/boxes/{index}/{chance}", chance, amount


def limit_names(terms: Terms) -> frozenset[str]:
    """The names a per-chance limit may be filed under: what `stakes` files a stake under."""
    return frozenset({"ante", "raise", "jackpot"})


# --- aspects ------------------------------------------------------------------------------------------------

def _miscounted(coup) -> bool:
    """Whether some hand is dealt the wrong number of cards."""
    hands = (coup.get("dealer"), *(box.get("cards") for box in coup.get("boxes") or []))
    return any(len(cards or []) != HAND for cards in hands)


def _deal(coup, void_settled: bool = False):
    """Yields the deal's breaches; returns the dealer's parsed hand (None if it is not five good cards) and the
    indexes of the boxes whose hand cannot be settled. A wrong count in a coup settled void is no breach."""
    seen: dict[str, tuple[str, int]] = {}  # card -> where it was first dealt, and to which hand
    hands: list[tuple[str, list]] = [("/dealer", coup.get("dealer") or [])]
    hands += [(f"/boxes/{i}/cards", box.get("cards") or []) for i, box in enumerate(coup.get("boxes") or [])]
    broken: set[int] = set()  # hands that cannot be settled: 0 the dealer's, i + 1 box i's
    for position, (where, cards) in enumerate(hands):
        whose = "the dealer" if position == 0 else f"box {coup['boxes'][position - 1].get('box')}"
        if len(cards) != HAND:
            broken.add(position)
            if not void_settled:
                yield ("deal", where, f"{whose} holds {len(cards)} cards: {' '.join(map(str, cards))}; a hand is "
                                      "five cards (a wrong count makes the coup void, and it is not settled so)")
        for place, text in enumerate(cards):
            at = f"{where}/{place}"
            if card(text) is None:
                broken.add(position)
                yield "deal", at, f"{text!r} is no card of a 52-card deck (rank A 2-9 T J Q K, suit c d h s)"
            elif text in seen:
                broken.update((position, seen[text][1]))
                yield "deal", at, f"{text} is dealt twice, at {seen[text][0]} and here; a 52-card deck holds it once"
            else:
                seen[text] = (at, position)
    dealer = None if 0 in broken else tuple(parse_card(text) for text in hands[0][1])
    return dealer, {position - 1 for position in broken if position}


def _boxes(coup):
    boxes, seats = {}, {}
    for index, box in enumerate(coup.get("boxes") or []):
        number, seat = box.get("box"), box.get("seat")
        if not (isinstance(number, int) and 1 <= number <= BOXES):
            yield "boxes", f"/boxes/{index}/box", f"box {number}: the layout has boxes 1 to {BOXES}"
        elif number in boxes:
            yield "boxes", f"/boxes/{index}/box", f"box {number} is played twice (at /boxes/{boxes[number]} too); " \
                                                  "a box holds one hand"
        else:
            boxes[number] = index
        if seat is not None:
            if seat in seats:
                yield ("boxes", f"/boxes/{index}/seat", f"seat {seat} plays box {number} and box {seats[seat]}; a "
                                                        "player has one hand only")
            else:
                seats[seat] = number


def _settlement(prepared: Prepared, box, where, dealer: tuple[Card, ...], ante: Decimal, staked: Decimal):
    net = money(box.get("net"))
    player = None if box.get("decision") != "raise" else tuple(parse_card(text) for text in box["cards"])
    try:
        decided = decide(player, dealer, prepared.rules, prepared.paytable)
    except UnstatedOutcome:  # prepare() made sure every situation is stated; a hand the rules cannot reach
        return
    ante_result = exact(Fraction(ante) * decided.ante)
    raise_result = exact(Fraction(staked) * decided.raise_) if player else Decimal(0)
    owed = exact(Fraction(ante_result) + Fraction(raise_result))
    if net == owed:
        return
    situation = _situation(prepared, decided)
    found = "no amount" if net is None else f"{_signed(net)}"
    bets = f"ante {cents(ante)} {_result(decided.ante)}"
    if player:
        bets += f", raise {cents(staked)} {_result(decided.raise_)}"
    cited = provision(prepared.provisions, _broken(prepared, decided))
    # the provision's words where they are short, else its article (the finding quotes them whole)
    shown = decided.citation if cited is None else _quoted(cited) if len(str(cited.get("text", ""))) <= 200 else \
        str(cited.get("article", ""))
    law = f" ({shown})" if shown else ""
    yield ("settlement", f"{where}/net",
           f"box {box.get('box')}: net {found} recorded; {situation}, so the law settles {bets}: net "
           f"{_signed(owed)}{law}", cited)


def _broken(prepared: Prepared, decided) -> str:
    """What of the rules of play a wrong net breaks: the payout table for a winning hand's raise paid by it, the
    comparison of equal categories where it decided a tie or a loss, else the situation's own provision."""
    if decided.situation == "player_wins" and decided.player is not None and \
            decided.player.category in prepared.paytable and "paytable" in prepared.provisions:
        return "paytable"
    if decided.situation in ("tie", "dealer_wins") and decided.player is not None and \
            decided.player.category == decided.dealer.category:
        compared = f"compared_ranks.{_name(decided.player.category).replace(' ', '_')}"
        if compared in prepared.provisions:
            return compared
    return decided.situation


# --- words --------------------------------------------------------------------------------------------------

def _situation(prepared: Prepared, decided) -> str:
    hands = ""
    if decided.player is not None:
        hands = f"the player's {_name(decided.player.category)} against the dealer's {_name(decided.dealer.category)}: "
    if decided.situation == "fold":
        return "the player folded"
    if decided.situation == "dealer_not_qualified":
        return hands + "the dealer does not qualify (no ace-king or better)"
    if decided.situation.startswith("special:"):
        return hands + _SPECIAL[decided.situation.split(":", 1)[1]]
    if decided.situation == "player_wins":
        return hands + (f"the player wins; the raise is paid at the schedule's "
                        f"{PAYOUT_KEYS[prepared.game].get(decided.player.category, '')} entry")
    return hands + {"player_wins_unlisted": "the player wins with a hand the schedule does not list",
                    "dealer_wins": "the dealer wins", "tie": "the hands are equal"}[decided.situation]


def _unstated(data, names) -> str:
    found = []
    for situation, entry in (data.get("outcomes") or {}).items():
        for bet in ("ante", "raise"):
            if isinstance(entry.get(bet), Mapping) and entry[bet].get("param") in names:
                found.append(f"what the {bet} does in situation {situation} (parameter {entry[bet]['param']})")
    return " nor ".join(found) or "every outcome"


def _name(category: Category) -> str:
    return category.name.lower().replace("_", " ")


def _result(multiple: Fraction) -> str:
    if multiple == 0:
        return "returned"
    if multiple == -1:
        return "lost"
    return f"paid {_number(multiple)} to 1"


def _times(multiple: Fraction) -> str:
    return {1: "once", 2: "twice"}.get(multiple, f"{_number(multiple)} times")


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(exact(value))


def _signed(amount: Decimal) -> str:
    return ("+" if amount > 0 else "") + cents(amount)


def provisions(play: Mapping, aspect: str) -> list[Mapping]:
    """The provisions a finding of `aspect` may cite (for `rules explain`)."""
    found = _provisions(play or {})
    if aspect == "raise":
        return provisions_of(found, ("raise_times_ante",))
    if aspect == "settlement":
        return provisions_of({key: value for key, value in found.items() if key != "raise_times_ante"})
    return []
