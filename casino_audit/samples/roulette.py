"""Sample roulette logs: seeded spins in afternoon sessions (one a day), a croupier and a spinner relieved within the hour,
several seats betting every combination the schedule pays, each bet settled by the payouts and the zero rule."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Iterator

from casino_audit.games import roulette
from casino_audit.replay import Terms, Unavailable, money
from casino_audit.replay import roulette as replay

GAMES = replay.GAMES
BREACHES = {
    "wrong_payout": "a winning plein paid 34 times its stake, not 35 (settlement)",
    "bad_number": "a spin recorded as 37, a pocket no wheel has (spin)",
    "impossible_bet": "a cheval on 1-5, two numbers that do not touch on the layout (chances)",
    "spinner_over_an_hour": "a spinner kept at the ball for 70 minutes (staff_turn)",
    "minimum_changed": "the table's minimum raised in the middle of a session (minimum_unchanged)",
    "over_the_maximum": "a stake above the table's maximum (stake_limits)",
}
_STAFF = [f"C-{n}" for n in range(1, 13)]
_SPINS_PER_SESSION = 240  # about five hours at 60 to 90 seconds a spin: 15:00 to 20:00, within the day


def _shapes(wheel: roulette.Wheel) -> dict[str, list]:
    """Each kind's placings in a fixed order ("00" hashes differently from run to run)."""
    def order(n):  # layout order: 0, 00, 1 ... 36
        return Fraction(1, 2) if n == roulette.DOUBLE_ZERO_POCKET else Fraction(n)
    return {kind: sorted((sorted(s, key=order) for s in sets), key=lambda s: [order(n) for n in s])
            for kind, sets in roulette.legal_bets(wheel).items() if sets}


def coups(game: str, terms: Terms, rng, count: int, inject=frozenset()) -> Iterator[dict]:
    unknown = set(inject) - set(BREACHES)
    if unknown:
        raise ValueError(f"unknown breach {sorted(unknown)[0]!r}: one of {', '.join(BREACHES)}")
    wheel = replay.wheel_of(terms)
    zero_rule, why = replay.zero_rule_of(game, terms)
    if zero_rule is None or not terms.payouts:
        raise Unavailable(["settlement"], why or f"the law states no payout schedule for {game}, and a sample has "
                                                "no table configuration to take one from")
    payouts = {k: replay._exact(v) for k, v in terms.payouts.items()}
    names = {}  # kind -> the schedule's own name for it
    for kind, aliases in roulette.PAYOUT_NAMES.items():
        try:
            roulette.payout_for(kind, payouts)
        except KeyError:
            continue
        names[kind] = next((a for a in aliases if a in payouts), aliases[0])
    shapes = {kind: found for kind, found in _shapes(wheel).items() if kind in names}
    base = money(terms.limits.get("minimum")) or Decimal(5)
    maximum = money(terms.limits.get("maximum")) or base * 200
    spots = _spots(rng, count, inject)
    when = datetime(2026, 11, 2, 15, 0, 0)
    spinner, croupier, turn_ends, minimum = None, None, when, base
    for index in range(count):
        number_in_session = index % _SPINS_PER_SESSION
        if number_in_session == 0:
            day = datetime(2026, 11, 2) + timedelta(days=index // _SPINS_PER_SESSION)
            when = day.replace(hour=15) + timedelta(seconds=rng.randrange(0, 300))
            turn_ends, minimum = when, base  # a new session (a new day) opens with a fresh spinner
        else:
            when += timedelta(seconds=rng.randrange(60, 91))
        if when >= turn_ends:
            spinner = rng.choice([s for s in _STAFF if s not in (spinner, croupier)])
            croupier = rng.choice([s for s in _STAFF if s not in (spinner, croupier)])
            turn_ends = when + timedelta(minutes=rng.randrange(30, 56))
        if spots.get("spinner_over_an_hour") == index:
            turn_ends = when + timedelta(minutes=75)  # this spinner stays at the ball past the hour
        number = rng.choice(wheel.pockets)
        coup = {"coup": index + 1, "time": when.isoformat(), "session": when.date().isoformat(),
                "staff": {"croupier": croupier, "spinner": spinner}, "number": number, "bets": []}
        if number_in_session == 0:
            coup["limits"] = {"minimum": minimum, "maximum": maximum}
        if spots.get("minimum_changed") == index:
            minimum = base * 2  # raised mid-session; the stakes follow it, so only the change is a breach
            coup["limits"] = {"minimum": minimum, "maximum": maximum}
        for seat in sorted(rng.sample(range(1, 8), rng.randrange(1, 6))):
            for _ in range(rng.randrange(1, 4)):
                kind = rng.choice(sorted(shapes))
                stake = minimum * rng.choice((1, 1, 1, 2, 2, 3, 5, 10))
                coup["bets"].append(_bet(seat, names[kind], kind, rng.choice(shapes[kind]), stake, number, payouts,
                                         zero_rule))
        yield _inject(coup, index, spots, names, minimum, maximum, payouts, zero_rule)


def _spots(rng, count: int, inject) -> dict[str, int]:
    """A coup for each breach, all different, never a session's first; the spinner's long turn and the raised
    minimum early enough in a session for the turn to pass the hour (and the raise to be within the session)."""
    sessions = max(1, count // _SPINS_PER_SESSION)
    spots: dict[str, int] = {}
    taken: set[int] = set()
    for name in sorted(inject):
        for _ in range(1000):
            if name in ("spinner_over_an_hour", "minimum_changed"):
                spot = rng.randrange(sessions) * _SPINS_PER_SESSION + rng.randrange(1, _SPINS_PER_SESSION - 70)
            else:
                spot = rng.randrange(count)
            if spot < count - (60 if name == "spinner_over_an_hour" else 0) and spot % _SPINS_PER_SESSION \
                    and spot not in taken:
                break
        else:
            raise ValueError(f"{count} coups are too few to inject {name}: give at least 120")
        spots[name] = spot
        taken.add(spot)
    return spots


def _bet(seat, chance, kind, numbers, stake, number, payouts, zero_rule) -> dict:
    net = roulette.settle(roulette.bet(kind, stake, numbers), number, payouts, zero_rule)
    placed = {"seat": seat, "chance": chance, "stake": stake, "net": net}
    if kind not in roulette.SIMPLE_CHANCES:
        placed = {"seat": seat, "chance": chance, "numbers": list(numbers), "stake": stake, "net": net}
    return placed


def _inject(coup, index, spots, names, minimum, maximum, payouts, zero_rule) -> dict:
    bets = coup["bets"]
    if spots.get("wrong_payout") == index:
        bets.append({"seat": 7, "chance": names["plein"], "numbers": [coup["number"]], "stake": minimum,
                     "net": minimum * 34})
    if spots.get("bad_number") == index:
        coup["number"] = 37
        for placed in bets:  # what a floor would write for a number no wheel has: every stake collected
            placed["net"] = -placed["stake"]
    if spots.get("impossible_bet") == index:
        bets.append({"seat": 7, "chance": names["cheval"], "numbers": [1, 5], "stake": minimum, "net": -minimum})
    if spots.get("over_the_maximum") == index:
        bets.append(_bet(7, names["rouge"], "rouge", roulette.SIMPLE_CHANCES["rouge"], maximum * 2, coup["number"],
                         payouts, zero_rule))
    return coup
