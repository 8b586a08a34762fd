"""One dice-game bet judged against the rules of play: the chance, its faces and its point, the odds laid behind a
line or come bet, a contract bet standing until decided, then the bet's resolution by the dice and its net."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Iterator, Mapping

from casino_audit.games import dice as engine
from casino_audit.replay import cents, money, provision

if TYPE_CHECKING:  # the family's face imports this module
    from casino_audit.replay.dice import Prepared, State

CONTRACT_STAYS = "stays"
# n.º 11.1: odds are played only by «os jogadores que tenham apostado no pass-line ou no don't pass-line, bem como
# no come ou no don't come», «paralelamente às apostas nelas feitas» and for «importância que não exceda a das
# respectivas posturas»: each odds chance and the bet it is laid behind.
ODDS_BEHIND = {"pass_line_odds": "pass_line", "dont_pass_line_odds": "dont_pass_line", "come_odds": "come",
               "dont_come_odds": "dont_come"}



def is_face(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6


def _show(amount: Fraction) -> str:
    if (amount * 100).denominator == 1:
        return cents(Decimal(amount.numerator) / Decimal(amount.denominator))
    whole = Decimal(amount.numerator * 10_000 // amount.denominator) / 10_000
    return f"{whole}… (not a whole cent)"


def _ratio(payout: Fraction) -> str:
    if (payout * 10_000).denominator == 1:
        return f"{(Decimal(payout.numerator) / Decimal(payout.denominator)).normalize():f}"
    return f"{payout.numerator}/{payout.denominator}"


def _article(chance: Mapping, covers: str | None = None) -> str:
    """The article of the chance's provision a breach cites (`_cited`), as its message names it."""
    return (cited_provision(chance, covers) or {}).get("article", "")


def cited_provision(chance: Mapping | None, covers: str | None = None) -> Mapping | None:
    """The chance's provision that states `covers` (a deciding rule's condition, `settlement`, `contract`), else
    the chance's own (its first citation)."""
    return provision({"chance": chance.get("citations")}, "chance", covers) if chance else None


def _decided_by(chance: Mapping, found: engine.Resolution) -> str | None:
    """What of the rules decided the bet, as its provision `covers` it: the deciding rule's condition (`doubles`,
    `total`, `shows`; `point` once the point is on), None for `otherwise`."""
    if found.rule is None:
        return None
    when = chance["rules"][found.rule]["when"]
    if when.get("point_on"):
        return "point"
    return next((key for key in ("doubles", "shows_all", "shows", "total") if key in when), None)


def _resolve(prepared: Prepared, name: str, chance: Mapping, dice, on, point) -> tuple[engine.Resolution | None, str]:
    """The resolution and the aspect it falls under; None when it rests on a value the run does not give."""
    try:
        found = engine.resolve(chance, dice, on, point, prepared.bar)
    except engine.MissingValue as missing:
        if missing.what != "bar":
            return None, "other_totals"
        either = {engine.resolve(chance, dice, on, point, bar) for bar in (2, 12)}
        return (either.pop(), "resolution") if len(either) == 1 else (None, "bar")
    rule = chance["rules"][found.rule] if found.rule is not None else None
    if rule is None and name in prepared.from_params:
        return found, "other_totals"
    if rule is not None and "bar" in rule["when"].get("total", ()):
        return found, "bar"
    return found, "resolution"


_SAID = {engine.WIN: "won", engine.LOSE: "lost", engine.PUSH: "returned", engine.STAYS: "standing"}


@dataclass
class CoupLedger:
    """What one coup's bets add up to as they are judged in order."""
    behind: Counter  # (seat, line or come chance, its point) -> its stakes
    odds_laid: Counter = field(default_factory=Counter)
    seen: Counter = field(default_factory=Counter)  # the contract bets on the layout
    expected_back: Counter = field(default_factory=Counter)  # the contract bets left standing for the next throw


def judge_bet(prepared: Prepared, state: State, ledger: CoupLedger, index: int, bet: Mapping, throw, shown: str
              ) -> Iterator[tuple]:
    base = f"/bets/{index}"
    name = bet.get("chance")
    chance = prepared.chances.get(name)
    placed = yield from _placement(prepared, state, base, name, chance, bet)
    if placed is None:
        return
    on, stake, net, point = placed
    if name in ODDS_BEHIND and ODDS_BEHIND[name] in prepared.chances:
        yield from _odds_breaches(ledger, base, bet, name, chance, stake, point)
    key = (bet.get("seat"), name, stake, on, point if chance.get("point") == "own" else None)
    if chance.get("contract"):
        yield from _contract_breaches(state, ledger, base, key, bet, name, chance, stake, point)
        ledger.seen[key] += 1
    if throw is not None:
        yield from _outcome_breaches(prepared, ledger, base, bet, name, chance, (on, stake, net, point), throw, shown)


def _placement(prepared: Prepared, state: State, base: str, name, chance: Mapping | None, bet: Mapping):
    """The bet's (faces, stake, net, point); None, its breach said, where the game does not take it so."""
    if chance is None:
        yield "chances", base + "/chance", (f"{name!r} is not a chance of {prepared.game}: its chances are "
                                            f"{', '.join(prepared.chances)}")
        return None
    on = tuple(bet.get("on") or ())
    problem = _choice_problem(chance, on)
    if problem:
        yield "chances", base + "/on", f"a {name} bet {problem}"
        return None
    stake, net = money(bet.get("stake")), money(bet.get("net"))
    if stake is None or stake <= 0:
        yield "settlement", base + "/stake", \
            f"the stake of a {name} bet must be a positive amount, not {bet.get('stake')!r}", \
            cited_provision(chance, "settlement")
        return None
    point = None
    if chance.get("point") == "table":
        point = state.point
    elif chance.get("point") == "own":
        point = bet.get("point")
        if point is not None and point not in engine.POINT_NUMBERS:
            yield "chances", base + "/point", \
                f"a {name} bet cannot stand on {point!r}: the points are 4, 5, 6, 8, 9, 10", cited_provision(chance)
            return None
    needs = chance.get("needs")
    if needs == "table_point" and state.point is None and (chance.get("point") == "table" or point is None):
        yield "chances", base + "/chance", (f"a {name} bet is made only once the point is established "
                                            f"({_article(chance)}); this is a come-out"), cited_provision(chance)
        return None
    if needs == "own_point" and point is None:
        yield "chances", base + "/chance", (f"{name} is laid only behind a bet that has moved to a number "
                                            f"({_article(chance)}): give the bet's point"), cited_provision(chance)
        return None
    return on, stake, net, point


def _odds_breaches(ledger: CoupLedger, base: str, bet: Mapping, name: str, chance: Mapping, stake, point
                   ) -> Iterator[tuple]:
    under = (bet.get("seat"), ODDS_BEHIND[name], point if chance.get("point") == "own" else None)
    ledger.odds_laid[under] += stake
    where_laid = f" on {point}" if chance.get("point") == "own" else ""
    behind = ledger.behind
    if not behind[under]:
        yield "chances", base + "/chance", (f"seat {bet.get('seat')}'s {name} bet of {cents(stake)} is laid "
                                            f"behind no {under[1]} bet of that seat{where_laid} "
                                            f"({_article(chance)}: odds are played by the players who bet "
                                            f"there)"), cited_provision(chance)
    elif ledger.odds_laid[under] > behind[under]:
        yield "chances", base + "/stake", (f"seat {bet.get('seat')}'s {name} bets come to "
                                           f"{cents(ledger.odds_laid[under])}, more than its {under[1]} bet"
                                           f"{where_laid} of {cents(behind[under])} ({_article(chance)}: "
                                           "«importância que não exceda a das respectivas posturas»)"), \
            cited_provision(chance)


def _contract_breaches(state: State, ledger: CoupLedger, base: str, key: tuple, bet: Mapping, name: str,
                       chance: Mapping, stake, point) -> Iterator[tuple]:
    seen = ledger.seen
    if chance.get("point") == "own" and point is not None and state.standing_known \
            and seen[key] >= state.standing[key]:
        yield "resolution", base + "/point", (f"seat {bet.get('seat')}'s {name} bet of {cents(stake)} on "
                                              f"{point} did not stand there after the throw before"), \
            cited_provision(chance, "contract")
    elif chance.get("point") == "table" and state.point is not None and state.standing_known \
            and seen[key] >= state.standing[key]:
        # a line bet is decided from the series' first throw (n.º 10.1, 10.2) and made before it (n.º 10.9):
        # one that did not stand after the throw before is made with the point already on
        yield "chances", base + "/chance", (f"seat {bet.get('seat')}'s {name} bet of {cents(stake)} is made "
                                            f"with the point on {state.point}: a line bet is made before the "
                                            f"series' first throw and decided from it "
                                            f"({_article(chance, 'contract')})"), cited_provision(chance, "contract")


def _outcome_breaches(prepared: Prepared, ledger: CoupLedger, base: str, bet: Mapping, name: str, chance: Mapping,
                      placed: tuple, throw: tuple, shown: str) -> Iterator[tuple]:
    on, stake, net, point = placed
    found, aspect = _resolve(prepared, name, chance, throw, on, point)
    if found is None or aspect in prepared.unavailable:
        return
    if chance.get("contract") and found.result == engine.STAYS:
        after = engine.point_after(chance, found, throw, point)
        ledger.expected_back[(bet.get("seat"), name, stake, on, after if chance.get("point") == "own" else None)] += 1
    declared = engine.STAYS if bet.get("status") == CONTRACT_STAYS else \
        None if net is None else engine.WIN if net > 0 else engine.LOSE if net < 0 else engine.PUSH
    where = f"dice {shown}" + (f", point {point}" if point is not None else "")
    if aspect == "bar" and found.result == engine.PUSH and declared == engine.STAYS and not net:
        # PT n.º 10.2: «não ganham nem perdem (o golpe é nulo)»: a void throw for the bet, which the text does not
        # say is returned; left standing for the next throw it neither wins nor loses either
        return
    if declared != found.result:
        pointer = base + ("/status" if engine.STAYS in (declared, found.result) else "/net")
        decided = cited_provision(chance, _decided_by(chance, found))
        yield aspect, pointer, (f"{where}: a {name} bet is {_SAID[found.result]} ({decided['article']}); the log "
                                f"has it {_SAID.get(declared, 'unsettled')}"
                                + (f" (net {cents(net)})" if net is not None else "")), decided
        return
    pays = found.pays
    settle_aspect = "given_payouts" if pays in prepared.payout_params else \
        aspect if aspect != "resolution" else "settlement"
    if settle_aspect in prepared.unavailable:
        return
    if found.result == engine.WIN and pays not in prepared.payouts:
        yield settle_aspect, base + "/net", \
            f"the schedule gives no payout for {pays}: a won {name} bet is not checked", \
            cited_provision(chance, "settlement")
        return
    owed = engine.net(stake, found, prepared.payouts)
    if Fraction(net) != owed:
        rule = (f"{cents(stake)} x {_ratio(prepared.payouts[pays])} (schedule: {pays})" if found.result == engine.WIN
                else "the stake" if found.result == engine.LOSE else "nothing")
        yield settle_aspect, base + "/net", (f"{where}: the {_SAID[found.result]} {name} bet of {cents(stake)} "
                                             f"nets {_show(owed)}: {rule}; the log has {cents(net)}"), \
            cited_provision(chance, "settlement")


def bases(prepared: Prepared, bets) -> Counter:
    """The stakes of the bets odds may be laid behind (n.º 11.1), by seat, chance and (come bets) own point."""
    found: Counter = Counter()
    wanted = set(ODDS_BEHIND.values())
    for bet in bets:
        name = bet.get("chance") if isinstance(bet, Mapping) else None
        chance = prepared.chances.get(name) if name in wanted else None
        stake = money(bet.get("stake")) if chance is not None else None
        if stake is not None and stake > 0:
            found[(bet.get("seat"), name, bet.get("point") if chance.get("point") == "own" else None)] += stake
    return found


def _choice_problem(chance: Mapping, on: tuple) -> str | None:
    spec = chance.get("on")
    if not spec:
        return f"names no faces, not {list(on)}" if on else None
    if len(on) != spec["faces"] or not all(map(is_face, on)):
        return f"names {spec['faces']} face{'s' * (spec['faces'] > 1)} from 1 to 6, not {list(on) or 'none'}"
    if spec.get("distinct") and len(set(on)) != len(on):
        return f"names {spec['faces']} different faces, not {list(on)}"
    return None

