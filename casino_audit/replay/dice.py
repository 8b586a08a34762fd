"""Replaying dice-game logs (banca francesa, craps, cussec): one coup record per throw.

A coup (JSON Lines) is the common fields plus:
    dice      the faces thrown, ints 1 to 6: three at banca francesa and cussec, two at craps
    point     craps: the table's point before the throw (4, 5, 6, 8, 9, 10), null or absent at a come-out
    bets      every bet on the layout for this throw, each
                seat    the player's place (an int from 1)
                chance  the chance as the ruleset's `play:` names it (pass_line, hardway_8, numero, total_11 ...)
                on      the faces the player chose, where the chance takes some (cussec numero, par, trio: [5];
                        combinacao_dois_dados: [2, 6])
                point   craps come, don't come and their odds: the number the bet stood on before this throw
                        (absent on a come or don't come bet's first throw)
                stake   the amount staked
                net     the player's result on this throw: positive paid (the winning stake stays his), negative
                        collected, 0 returned or standing
                status  "stays" when the throw decides nothing for the bet (it stands for the next throw)
A craps bet standing after a throw is written again at the next one; pass line, don't pass, come and don't come
bets cannot be taken down once their first throw is made (n.º 10.9).

CSV layout: one row per bet, the coup's own columns repeated on each of its rows:
    coup, time, session     the common fields
    croupier                staff/croupier
    dice                    the faces, space-separated: "3 4 6"
    point                   craps: the table's point before the throw, empty at a come-out
    seat, chance, on, bet_point, stake, net, status
                            the bet's fields (on: "2 6"; bet_point: the bet's own point; empty when absent)
A coup with no bets is one row with the bet columns empty.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterator, Mapping

from casino_audit.games import dice as engine
from casino_audit.games import registry
from casino_audit.replay import AMOUNT_SCHEMA, COMMON_COUP, COMMON_REQUIRED, STAKE_SCHEMA, Terms, Unavailable, cents
from casino_audit.replay import without_provisions
from casino_audit.replay.dice_bets import CONTRACT_STAYS, CoupLedger, bases, cited_provision, is_face, judge_bet

GAMES = registry.games_of("dice")
LAW_PAYOUTS_FIXED = True  # a payout the law's schedule fixes is settled at the law's value, whatever the table says
ASPECTS = {
    "dice": "the throw has the game's number of dice (three, or two at craps), each showing a face 1 to 6",
    "chances": "every bet is on a chance the game has, with the faces it takes, made when the rules allow it "
               "(a come bet once the point is on, odds behind the seat's own line or come bet with a point and for no "
               "more than its stake)",
    "resolution": "each bet is won, lost, returned or left standing as the dice and the rules of play say; at "
                  "craps the point follows the throws, and a standing contract bet stays until decided",
    "settlement": "each decided bet's net is exact to the cent: the stake times the schedule's payout on a win, "
                  "the stake on a loss, nothing when returned or standing",
    "other_totals": "banca francesa: on a throw whose total is no chance's, the bets stay or lose as the "
                    "parameter banca_francesa_other_totals says (the text does not say which)",
    "bar": "craps: a don't bet's first throw on the bar total (the parameter craps_bar_total) neither wins nor "
           "loses",
    "given_payouts": "craps: the bets whose payouts the source leaves out (place and lay bets, n.º 12; odds "
                     "laid on the don't side) are paid as the table's schedule or the run's parameters say",
}
_BET = {
    "type": "object", "additionalProperties": False, "required": ["seat", "chance", "stake", "net"],
    "properties": {
        "seat": {"type": "integer", "minimum": 1, "description": "The player's place at the table, from 1."},
        "chance": {"type": "string", "minLength": 1,
                   "description": "The chance as the ruleset's rules of play name it: pass_line, big_6, ases, "
                                  "numero, total_11 ..."},
        "on": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2,
               "description": "The faces the player chose, where the chance takes some: cussec numero, par, "
                              "trio ([5]), combinacao_dois_dados ([2, 6])."},
        "point": {"type": "integer", "description": "Craps come, don't come and their odds: the number the bet "
                                                    "stood on before this throw; absent on its first throw."},
        "stake": {**STAKE_SCHEMA, "description": "The amount staked."},
        "net": {**AMOUNT_SCHEMA, "description": "The player's result on this throw: positive paid (the stake "
                                                "stays his), negative collected, 0 returned or standing."},
        "status": {"enum": [CONTRACT_STAYS], "description": "\"stays\": the throw decides nothing for the bet; "
                                                             "it stands for the next throw (net 0)."},
    }}
COUP_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "dice-game coup (banca francesa, craps, cussec)",
    "type": "object", "additionalProperties": False, "required": COMMON_REQUIRED + ["dice", "bets"],
    "properties": {
        **COMMON_COUP,
        "dice": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 5,
                 "description": "The faces thrown, 1 to 6: three dice at banca francesa and cussec, two at craps."},
        "point": {"type": ["integer", "null"],
                  "description": "Craps: the table's point before the throw (4, 5, 6, 8, 9 or 10); null or absent "
                                 "at a come-out."},
        "bets": {"type": "array", "items": _BET, "description": "Every bet on the layout for this throw."},
    }}


CSV_COLUMNS = {  # the core's CSV layout (casino_audit/logs/csv_reader.py): coup, time, session and staff_ROLE come free
    "dice": ("dice", "ints"), "point": ("point", "int"), "seat": ("bets/seat", "int"),
    "chance": ("bets/chance", "text"), "on": ("bets/on", "ints"), "bet_point": ("bets/point", "int"),
    "stake": ("bets/stake", "money"), "net": ("bets/net", "money"), "status": ("bets/status", "text"),
}


@dataclass(frozen=True)
class Prepared:
    game: str
    count: int  # dice a throw
    chances: Mapping[str, Mapping]
    payouts: Mapping[str, Fraction]
    payout_params: Mapping[str, str]  # schedule key -> the parameter giving it
    bar: int | None
    unavailable: frozenset[str]
    craps: bool
    from_params: frozenset[str] = frozenset()  # chances whose undecided throws the run's parameter resolves


@dataclass
class State:
    point: int | None = None
    # the table's point is known (from the first coup's `point`, then from the dice); a new session label
    # resets nothing, for the point follows the throws (n.º 10.1) and a contract bet stands until decided (10.9)
    known: bool = False
    coup: Any = None
    standing: Counter = field(default_factory=Counter)  # contract bets expected back at the next throw
    standing_known: bool = False


def prepare_partial(game: str, terms: Terms) -> tuple[Prepared, Unavailable | None]:
    """The prepared rules, and what cannot be checked for want of a value (None when everything can)."""
    play = getattr(terms.play, "data", terms.play)
    if game not in GAMES or not play or "chances" not in play:
        raise Unavailable(tuple(ASPECTS), f"the ruleset gives no rules of play for {game}")
    missing: dict[str, str] = {}
    chances = {}
    for name, chance in play["chances"].items():
        chances[name] = engine.concrete(chance, terms.params)
        if not isinstance(chances[name]["otherwise"], str):
            param = chances[name]["otherwise"]["param"]
            missing["other_totals"] = (f"what the bets do on a throw of no chance's total is not in the text; give "
                                       f"the parameter {param} (stays or lose)")
    payouts = {}
    for key, given in (terms.payouts or {}).items():
        found = engine.payout_value(given)
        if found is not None:
            payouts[key] = found
    payout_params = dict(play.get("payout_params", {}))
    absent, unreadable = [], []
    for key, param in payout_params.items():
        # the parameter is the law's value (n.º 12's table, missing from the source): it governs where given, a
        # table's own schedule paying otherwise included; the table's stands only where the law's is not known
        given = terms.params.get(param)
        found = engine.payout_value(given) if given is not None else None
        if found is not None:
            payouts[key] = found
        elif key in payouts:
            continue
        elif given is None:
            absent.append(param)
        else:  # given but mistyped: an error of the run, never the note a value not given earns
            unreadable.append(f"{param}={given!r}")
    if unreadable:
        missing["given_payouts"] = (f"the payouts of the bets on the numbers cannot be read: {', '.join(unreadable)} "
                                    f"(a payout per unit staked: 9/5, 9 para 5 or 1.8)")
    elif absent:
        missing["given_payouts"] = (f"the payouts of the bets on the numbers (n.º 12, «ver documento original») and "
                                    f"of odds laid on the don't side are not in the text; give {', '.join(absent)}")
    bar = None
    if "bar" in play:
        param = play["bar"]["param"]
        raw = terms.params.get(param)
        bar = int(raw) if raw is not None and str(raw).strip() in ("2", "12") else None
        if bar is None:
            missing["bar"] = f"the table's bar total is not known; give the parameter {param} (2 or 12)"
    from_params = frozenset(name for name, chance in play["chances"].items()
                            if not isinstance(chance["otherwise"], str))
    prepared = Prepared(game, int(play.get("dice", 3)), chances, payouts, payout_params, bar,
                        frozenset(missing), game == "craps", from_params)
    if not missing:
        return prepared, None
    return prepared, Unavailable(tuple(missing), "; ".join(missing.values()), reasons=missing,
                                 unreadable=("given_payouts",) if unreadable else False)


def prepare(game: str, terms: Terms) -> Prepared:
    """Raises Unavailable for the aspects the run gives no value for; the error's `prepared` still checks the
    others (replay skips the unavailable ones)."""
    prepared, unavailable = prepare_partial(game, terms)
    if unavailable is not None:
        unavailable.prepared = prepared
        raise unavailable
    return prepared


def start(prepared: Prepared) -> State:
    return State()


def stakes(coup: Mapping) -> Iterator[tuple[str, str, Any]]:
    for index, bet in enumerate(coup.get("bets") or ()):
        if isinstance(bet, Mapping):
            yield f"/bets/{index}/stake", bet.get("chance"), bet.get("stake"), _placed(bet)  # as written


def _placed(bet: Mapping) -> tuple | None:
    """The bet a stake is part of (a seat's chance on its faces and point): one stake against the maximum."""
    seat, chance, on, point = bet.get("seat"), bet.get("chance"), bet.get("on") or [], bet.get("point")
    if type(seat) is not int or type(chance) is not str or not isinstance(on, list) or \
            not all(type(face) is int for face in on) or not (point is None or type(point) is int):
        return None
    return seat, chance, tuple(sorted(on)), point


def limit_names(terms: Terms) -> frozenset[str]:
    """The names a per-chance limit may be filed under: the game's chances."""
    return frozenset((terms.play or {}).get("chances") or ())



def replay(prepared: Prepared, state: State, coup: Mapping) -> Iterator[tuple[str, str, str]]:
    """The coup's breaches, (aspect, pointer, message); `cited` adds the provision each breaks."""
    return without_provisions(cited(prepared, state, coup))


def cited(prepared: Prepared, state: State, coup: Mapping) -> Iterator[tuple]:
    dice = coup.get("dice")
    good = isinstance(dice, list) and len(dice) == prepared.count and all(map(is_face, dice))
    if isinstance(dice, list):
        for index, die in enumerate(dice):
            if not is_face(die):
                yield "dice", f"/dice/{index}", f"die {index + 1} shows {die!r}: a die's faces are 1 to 6"
        if len(dice) != prepared.count:
            yield "dice", "/dice", (f"{len(dice)} dice thrown: {prepared.game} is played with {prepared.count} "
                                    f"dice a throw")
    throw = tuple(dice) if good else None
    shown = "+".join(map(str, throw)) + f" = {sum(throw)}" if throw else ""
    if prepared.craps:
        logged = coup.get("point")
        if not state.known:
            state.point, state.known = (logged if logged in engine.POINT_NUMBERS else None), True
        elif "point" in coup and logged != state.point:
            line = cited_provision(prepared.chances.get("pass_line"), "point")
            yield "resolution", "/point", (f"the point is {state.point or 'off (a come-out)'} after the throws "
                                           f"before, not {logged}" + (f" ({line['article']})" if line else "")), line
    ledger = CoupLedger(bases(prepared, coup.get("bets") or ()))
    for index, bet in enumerate(coup.get("bets") or ()):
        yield from judge_bet(prepared, state, ledger, index, bet, throw, shown)
    if prepared.craps:
        yield from _craps_after(prepared, state, ledger, throw)


def _craps_after(prepared: Prepared, state: State, ledger: CoupLedger, throw) -> Iterator[tuple]:
    """The contract bets that stood after the throw before and are gone; then the point and standing bets the
    throw leaves for the next."""
    if state.standing_known:
        gone = state.standing - ledger.seen
        for (seat, name, stake, on, point), count in sorted(gone.items(), key=str):
            contract = cited_provision(prepared.chances.get(name), "contract")
            yield "resolution", "/bets", (f"seat {seat}'s {name} bet of {cents(stake)}"
                                          + (f" on {point}" if point else "") + " stood after the throw before "
                                          "and is not on the layout: it cannot be taken down once its first "
                                          "throw is made" + (f" ({contract['article']})" if contract else "")), \
                contract
    state.standing, state.standing_known = ledger.expected_back, throw is not None
    if throw is None:
        state.known = False
    elif state.point is None:
        state.point = sum(throw) if sum(throw) in engine.POINT_NUMBERS else None
    elif sum(throw) in (7, state.point):
        state.point = None


def provisions(play: Mapping, aspect: str) -> list[Mapping]:
    """The provisions a finding of `aspect` may cite (for `rules explain`): each chance's own for its chances, the
    ones stating its resolution (all but its payout) for the resolution, its payout's for the settlement."""
    found: list[Mapping] = []
    for chance in ((play or {}).get("chances") or {}).values():
        entries = [entry for entry in chance.get("citations") or () if isinstance(entry, Mapping)]
        if aspect == "chances":
            picked = entries[:1]
        elif aspect in ("settlement", "given_payouts"):
            picked = [entry for entry in entries if "settlement" in (entry.get("covers") or ())] or entries[:1]
        elif aspect in ("resolution", "bar", "other_totals"):
            picked = [entry for entry in entries if "settlement" not in (entry.get("covers") or ())]
        else:
            picked = []
        found += [entry for entry in picked if entry not in found]
    return found

