"""Sample stud poker logs: each coup dealt from a freshly shuffled 52-card deck, one card at a time to each box
then to the dealer, five rounds (LU Art. 37-6, MC Article Premier, PT n.º 16); 1 to 7 boxes, each with its
seated player; players raise with a pair or better, and with ace-king when the dealer's face-up card matches
one of their ranks; every box settled by the law (casino_audit.replay.stud), breaches injected on request.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Iterator

from casino_audit.games.poker import ACE, KING, SUITS, Card, Category, classify, parse_card
from casino_audit.games.poker_stud import UnstatedOutcome, decide, exact
from casino_audit.replay import Terms, money
from casino_audit.replay import stud as replay

GAMES = replay.GAMES
BREACHES = {
    "wrong_payout": "a box's net is one ante more than the law pays (settlement)",
    "paid_unqualified_raise": "a raise is paid at 1 to 1 when the dealer does not qualify (settlement)",
    "ignored_special_case": "a special case (Monaco: both ace-king, identical pairs, both flushes) settled by "
                            "comparing the hands instead (settlement); only where the rules have special cases",
    "duplicate_card": "a box holds a card the dealer holds too (deal)",
    "short_hand": "a box is dealt four cards (deal)",
    "raise_not_double_ante": "a raise of once the ante instead of the law's multiple, settled on that stake (raise)",
    "raise_on_fold": "a folded box records a raise staked (raise)",
    "box_twice": "two hands on one box number (boxes)",
    "two_boxes_one_seat": "one seated player plays two boxes (boxes)",
}
DECK = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUITS)
_START = datetime(2026, 11, 2, 21, 0, 0)
_SESSION = 150  # coups per session (evening)


def coups(game: str, terms: Terms, rng: random.Random, count: int, inject=frozenset()) -> Iterator[dict]:
    prepared = replay.prepare(game, terms)  # Unavailable when the law leaves an outcome to a parameter not given
    unknown = set(inject) - set(BREACHES)
    if unknown:
        raise ValueError(f"unknown breach {', '.join(sorted(unknown))}; known: {', '.join(BREACHES)}")
    if "ignored_special_case" in inject and not prepared.rules.special_cases:
        raise ValueError(f"ignored_special_case: the {game} rules have no special cases")
    unqualified = prepared.rules.outcomes["dealer_not_qualified"]
    if "paid_unqualified_raise" in inject and (unqualified.ante, unqualified.raise_) == (1, 1):
        raise ValueError("paid_unqualified_raise: these rules pay the raise at 1 to 1 when the dealer does not qualify")
    plan: dict[int, list[str]] = {}
    slots = rng.sample(range(count), min(count, len(inject))) if count else []
    for position, breach in enumerate(sorted(inject)):  # one breach a coup while there are coups enough
        plan.setdefault(slots[position % len(slots)], []).append(breach)
    minimum = money((terms.limits or {}).get("minimum")) or Decimal(5)
    maximum = money((terms.limits or {}).get("maximum")) or minimum * 20
    # Antes whose raise stays within the maximum too: the limits bound every stake.
    units = [k for k in (1, 2, 3, 4, 5, 10, 20) if Fraction(minimum) * k * prepared.rules.raise_times_ante <= maximum] or [1]
    clock = _START
    for index in range(count):
        session = index // _SESSION
        clock += timedelta(seconds=rng.randint(40, 120)) if index % _SESSION else timedelta(hours=20 if index else 0)
        breaches = plan.get(index, [])
        for _ in range(100_000):  # deal again until every breach planned here has a coup it fits
            boxes = _deal(prepared, rng, minimum, units, at_least=2 if breaches else 1)
            if all(_fits(breach, prepared, boxes) for breach in breaches):
                break
        else:
            raise RuntimeError(f"no coup fits {', '.join(breaches)} in 100,000 deals")
        dealer, hands = boxes
        records = [_settled(prepared, dealer, hand) for hand in hands]
        coup = {"coup": index + 1, "time": clock.isoformat(), "session": f"S-{session + 1:03d}",
                "dealer": [str(card) for card in dealer], "boxes": [record for record, _ in records]}
        if index % _SESSION == 0:
            coup["staff"] = {"chef_de_table": f"T-{rng.randint(1, 40)}", "croupier": f"C-{rng.randint(1, 90)}"}
            coup["limits"] = {"minimum": minimum, "maximum": maximum}
        used: set[int] = set()
        for breach in breaches:
            _inject(breach, prepared, coup, records, dealer, used, rng)
        yield coup


def _deal(prepared, rng, minimum, units, at_least):
    deck = list(DECK)
    rng.shuffle(deck)
    numbers = sorted(rng.sample(range(1, replay.BOXES + 1), rng.randint(at_least, replay.BOXES)))
    seats = len(numbers) + 1  # the law's order: a card to each box from the dealer's left, then to himself
    cards = [deck[round_ * seats:(round_ + 1) * seats] for round_ in range(replay.HAND)]
    hands = []
    for position, number in enumerate(numbers):
        hand = tuple(cards[round_][position] for round_ in range(replay.HAND))
        hands.append((number, hand, minimum * rng.choice(units)))
    dealer = tuple(cards[round_][-1] for round_ in range(replay.HAND))
    return dealer, [(number, hand, ante, _raises(hand, dealer[-1])) for number, hand, ante in hands]


def _raises(hand, up: Card) -> bool:
    """A pair or better; ace-king when a rank of the hand matches the dealer's face-up card (the dealer is then
    less likely to pair); fold otherwise."""
    ranked = classify(hand)
    if ranked.category > Category.HIGH_CARD:
        return True
    return ranked.ranks[:2] == (ACE, KING) and any(card.rank == up.rank for card in hand)


def _settled(prepared, dealer, box):
    number, hand, ante, raised = box
    staked = exact(Fraction(ante) * prepared.rules.raise_times_ante) if raised else Decimal(0)
    decided = decide(hand if raised else None, dealer, prepared.rules, prepared.paytable)
    record = {"box": number, "seat": number, "cards": [str(card) for card in hand], "ante": ante,
              "decision": "raise" if raised else "fold"}
    if raised:
        record["raise"] = staked
    record["net"] = _net(ante, staked, decided)
    return record, decided


def _net(ante, staked, decided) -> Decimal:
    return exact(Fraction(ante) * decided.ante + Fraction(staked) * decided.raise_)


def _fits(breach, prepared, boxes) -> bool:
    dealer, hands = boxes
    if breach == "paid_unqualified_raise":
        return any(raised and not decide(hand, dealer, prepared.rules, prepared.paytable).dealer_qualifies
                   for _, hand, _, raised in hands)
    if breach == "ignored_special_case":
        return any(raised and _compared(prepared, hand, dealer) is not None for _, hand, _, raised in hands)
    if breach == "raise_not_double_ante":
        return any(raised for *_, raised in hands)
    if breach == "raise_on_fold":
        return any(not raised for *_, raised in hands)
    return True


def _unqualified_paid(prepared, ante) -> Decimal:
    return exact(Fraction(ante) * (1 + prepared.rules.raise_times_ante))


def _compared(prepared, hand, dealer):
    """The comparison's settlement of a hand a special case settles, when it differs; else None."""
    special = decide(hand, dealer, prepared.rules, prepared.paytable)
    if not special.situation.startswith("special:"):
        return None
    try:
        plain = decide(hand, dealer, replace(prepared.rules, special_cases=()), prepared.paytable)
    except UnstatedOutcome:  # the comparison reaches what the rules leave unstated (MC: an ace-king high card won)
        return None
    return plain if (plain.ante, plain.raise_) != (special.ante, special.raise_) else None


def _inject(breach, prepared, coup, records, dealer, used, rng):
    boxes = coup["boxes"]
    def pick(condition=lambda i: True):
        fitting = [i for i in range(len(boxes)) if condition(i)]
        index = rng.choice([i for i in fitting if i not in used] or fitting)  # apart from other breaches if it can
        used.add(index)
        return index, boxes[index]

    if breach == "wrong_payout":
        _, box = pick()
        box["net"] = box["net"] + box["ante"]
    elif breach == "paid_unqualified_raise":
        _, box = pick(lambda i: boxes[i]["decision"] == "raise" and not records[i][1].dealer_qualifies)
        box["net"] = _unqualified_paid(prepared, box["ante"])
    elif breach == "ignored_special_case":
        index, box = pick(lambda i: boxes[i]["decision"] == "raise" and _compared(
            prepared, tuple(parse_card(text) for text in boxes[i]["cards"]), dealer) is not None)
        plain = _compared(prepared, tuple(parse_card(text) for text in box["cards"]), dealer)
        box["net"] = _net(box["ante"], box["raise"], plain)
    elif breach == "duplicate_card":
        _, box = pick()
        box["cards"][rng.randrange(replay.HAND)] = coup["dealer"][rng.randrange(replay.HAND)]
    elif breach == "short_hand":
        _, box = pick()
        box["cards"].pop()
    elif breach == "raise_not_double_ante":
        index, box = pick(lambda i: boxes[i]["decision"] == "raise")
        box["raise"] = box["ante"]  # once the ante; settled on what was staked, so only the raise is wrong
        box["net"] = _net(box["ante"], box["raise"], records[index][1])
    elif breach == "raise_on_fold":
        _, box = pick(lambda i: boxes[i]["decision"] == "fold")
        box["raise"] = box["ante"] * 2
    elif breach == "box_twice":
        index, box = pick(lambda i: i > 0)
        box["box"] = boxes[0]["box"]
        box["seat"] = max(b["seat"] for b in boxes) + 1  # another player: only the box is wrong
    elif breach == "two_boxes_one_seat":
        _, box = pick(lambda i: i > 0)
        box["seat"] = boxes[0]["seat"]

