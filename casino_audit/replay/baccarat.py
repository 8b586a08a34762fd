"""Punto banco / bacará coups replayed: the cards against the shoe, the drawing against the law's table, the
outcome, and every bet's settlement to the cent (casino_audit/games/baccarat.py does the game).

A coup record (JSON Lines; CSV one row per bet, see CSV_COLUMNS):
    {"coup": 12, "time": "2026-11-02T21:14:05", "session": "2026-11-02", "staff": {"croupier": "C-12"},
     "shoe": 3, "player": ["9h", "Kd", "3s"], "banker": ["5c", "Qh"], "outcome": "player",
     "bets": [{"seat": 1, "chance": "banco", "stake": 100, "net": -100}, ...]}
`player` and `banker` are each hand's cards in the order dealt (the coup deals player, banker, player, banker,
then the third cards); `outcome` is player, banker or tie as the floor declared it; `net` is what the bet came
to for the player: the win paid (positive), 0 for a stake handed back, minus the stake when collected.
`burned` lists cards burnt from the shoe before the coup (they count against the shoe's cards); at a shoe's first
coup, where the rules of play have a `burn`, the card turned first, then the cards its value says to burn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Context, Decimal
from typing import Any, Iterator, Mapping

from casino_audit.core.display import nameless, same_name
from casino_audit.games import baccarat, registry
from casino_audit.replay import (BET_COLUMNS, CARD_SCHEMA, COMMON_COUP, COMMON_REQUIRED, RANKS, Terms, Unavailable,
                                 Shoes, bet_schema, cents, money, unsettled)
from casino_audit.replay import provision, provisions_of, without_provisions
from casino_audit.replay import CONTINUED, burn_counts

GAMES = registry.games_of("baccarat")
LAW_PAYOUTS_FIXED = True  # a payout the law's schedule fixes is settled at the law's value, whatever the table says
ASPECTS = {
    "deal": "every card is a card, and no card comes out of one shoe more often than its decks hold it",
    "drawing": "each hand took a third card exactly when the law's drawing table says so",
    "outcome": "the declared outcome is the one the hands' totals give",
    "chances": "every bet is on a chance the game has",
    "settlement": "every bet was settled at the law's (or the table's) payout, to the cent",
    "both_sides": "a seat staking on both ponto and banca in one coup keeps the difference between the two at least "
                  "the table minimum (PT bacará/Macau n.º 11)",
    "burn": "each shoe's first coup records its burn: the card turned, then as many cards as its value (LU Art. 37-4); "
            "the cards the law burns at a shoe's start (PT bacará n.º 6: eight)",
    "burn_each": "every coup of a shoe but its first records the card burnt before it (PT bacará n.º 13)",
}
_HAND = {"type": "array", "items": CARD_SCHEMA, "minItems": 2, "maxItems": 3}
COUP_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A punto banco / bacará coup",
    "type": "object", "additionalProperties": False,
    "required": [*COMMON_REQUIRED, "shoe", "player", "banker", "outcome", "bets"],
    "properties": {
        **COMMON_COUP,
        "shoe": {"type": "integer", "minimum": 1, "description": "The shoe the coup is dealt from (its cards are "
                                                                 "counted together)."},
        "burned": {"type": "array", "items": CARD_SCHEMA,
                   "description": "Cards burnt before the coup; at a shoe's first coup (LU Art. 37-4), the card "
                                  "turned first, then the cards its value says to burn; PT bacará: the eight first "
                                  "cards at a shoe's first coup (n.º 6), the one card before each later coup "
                                  "(n.º 13)."},
        "player": {**_HAND, "description": "Punto's (ponto's) cards, in the order dealt."},
        "banker": {**_HAND, "description": "Banco's (banca's) cards, in the order dealt."},
        "outcome": {"enum": list(baccarat.OUTCOMES), "description": "The outcome the floor declared."},
        "bets": {"type": "array", "description": "Every bet of the coup.", "items": bet_schema(
            "The chance, as the payout schedule names it (punto, banco, egalite; ponto, banca, empate ...).",
            "What the bet came to for the player: the win paid, 0 for a stake returned, minus the stake when lost.")},
    },
}
CSV_COLUMNS = {
    "shoe": ("shoe", "int"), "burned": ("burned", "cards"), "player": ("player", "cards"),
    "banker": ("banker", "cards"), "outcome": ("outcome", "text"), **BET_COLUMNS,
}
_EXACT = Context(prec=70)  # a stake of 30 digits times a rate stays exact: never rounded to Decimal's 28
# a log card's rank ("T" the ten) -> its value, as the engine counts it
_WORTH = {rank: baccarat.card_value("10" if rank == "T" else rank) for rank in RANKS}


@dataclass(frozen=True)
class Prepared:
    drawing: Mapping | None  # None: the law's table is not known, the drawing is not checked
    terms: Mapping[str, Mapping]  # chance -> {wins_on, returned_on, pays, deduction ...}: the chances paid
    decks: int | None
    chances: tuple[str, ...] = ()  # every chance of the game, paid or not (the schedule may leave some out)
    sides: Mapping[str, str] = field(default_factory=dict)  # chance -> player or banker, for the chances that win on a hand
    minimum: Decimal | None = None  # the table minimum the log starts with (a coup's `limits` changes it)
    # the shoe's burns (`play.<game>.burn`): `values`, what the card turned at a shoe's start is worth, by rank (LU
    # Art. 37-4); or the cards burnt at a shoe's start (`shoe_start`) and before each later coup (`each_coup`)
    burn: Mapping[str, Any] | None = None
    continues: bool = False  # the log's first coup continues a shoe begun in another log (Terms.continues)
    citations: Mapping[str, Any] = field(default_factory=dict)  # the rules of play's provisions, by chance
    # chances whose wins are not settled: the table's commission on them cannot be applied (said as partial)
    undeducted: frozenset[str] = frozenset()


def prepare(game: str, terms: Terms) -> Prepared:
    play = terms.play or {}
    bets = play.get("bets")
    if not bets:
        raise Unavailable(list(ASPECTS), f"the ruleset states no chances for {game} under `play:`")
    payouts = terms.payouts or {}
    chance_terms = {name: {**bet, "pays": _exact(payouts[name])} for name, bet in bets.items() if name in payouts}
    commission = (terms.table or {}).get("commission")
    mode = commission.get("mode") if isinstance(commission, Mapping) else None
    commissions = play.get("commissions") or {}
    unusable = None
    if commission is not None and mode is None:  # a commission section counts as a deduction: which one is unsaid
        unusable = "the table configuration has a commission section without its `mode`"
    elif mode not in (None, "none"):
        deductions = commissions.get(mode)
        if deductions is None:
            unusable = f"the table configuration's commission {mode!r} is not one the rules of play give for {game}"
        else:
            for name, deduction in deductions.items():
                if name in chance_terms:
                    chance_terms[name] = {**chance_terms[name], **deduction}
    # A commission the rules of play cannot apply leaves unknown only what it deducts from: the wins of the chances
    # a commission takes from (banca/banco); every other bet is still settled by the law (LU Art. 37-4; PT n.os 17,
    # 18), and so are those chances' losses and ties.
    deducted = frozenset()
    if unusable:
        named = {name for deductions in commissions.values() if isinstance(deductions, Mapping) for name in deductions}
        deducted = frozenset(name for name in chance_terms if name in named or not named
                             and bets[name].get("wins_on") == baccarat.BANKER)
    sides = {name: bet["wins_on"] for name, bet in bets.items() if bet.get("wins_on") in (baccarat.PLAYER, baccarat.BANKER)
             and (terms.aspects is None or "both_sides" in terms.aspects)}  # no rule on both sides: no work
    minimum = money((terms.limits or {}).get("minimum"))
    burn = _burn_terms(play.get("burn"), terms)
    prepared = Prepared(play.get("drawing"), chance_terms, terms.decks, tuple(bets), sides, minimum, burn,
                        terms.continues, play.get("citations") or {}, deducted)
    unknown = [name for name in bets if name not in payouts]
    reasons = {}  # aspect -> why it is not checked in this log
    if prepared.drawing is None:
        reasons["drawing"] = (f"the ruleset has no drawing table for {game} (the law's text gives none, or it is "
                              "not encoded); a house ruleset that extends it may give one under `play:`")
    if minimum is None:
        reasons["both_sides"] = ("the table minimum is not known: name the table configuration in the header "
                                 "(`table_config`) or give `limits` there")
    if prepared.decks is None:
        reasons["deal"] = ("the number of decks in the shoe is not known: name the table configuration in the header "
                           "(`table_config`) or give `decks` there")
    partial = {}
    if unknown:
        reasons["settlement"] = (f"no payout is known for {', '.join(unknown)} (bets on them are not settled): "
                                 "name the table configuration in the header (`table_config`)")
    elif deducted:
        partial["settlement"] = (f"settlement: {unusable}, so which deduction applies to a win of "
                                 f"{', '.join(sorted(deducted))} is not known and those wins are not settled; "
                                 "every other bet, and those chances' losses and ties, are")
    if reasons or partial:
        raise Unavailable(tuple(reasons), "; ".join([*reasons.values(), *partial.values()]), prepared, reasons,
                          partial=partial)
    return prepared


def _burn_terms(burn: Mapping | None, terms: Terms) -> Mapping | None:
    """The burns a log is held to: the rules of play's, less what no rule of the run verifies, and less the shoe's
    start with an automatic shuffling shoe where the law says so (PT bacará n.º 5, a): «Não há lugar ao corte nem à
    aplicação do disposto nos n.os 6 e 7»), as the table configuration declares one dealing (`shuffler: {deals:
    true}`, not `used: false`)."""
    if not isinstance(burn, Mapping):
        return None
    wanted = terms.aspects
    burn = {key: value for key, value in burn.items()
            if wanted is None or key == "at_least" or ("burn_each" if key == "each_coup" else "burn") in wanted}
    shuffler = (terms.table or {}).get("shuffler")
    if burn.get("shuffling_shoe_excepts_shoe_start") and isinstance(shuffler, Mapping) \
            and shuffler.get("deals") is True and shuffler.get("used") is not False:
        # nothing burnt at a shoe's start, a `shoe` number marks no first lance: n.º 13's «Com excepção do
        # primeiro» is the table's first (the log's, or a new session's), else every coup a new shoe burns nothing
        burn = {key: value for key, value in burn.items() if key != "shoe_start"} | {"shuffled": True}
    return burn if any(key in burn for key in ("values", "shoe_start", "each_coup")) else None


def _exact(value: Any) -> Any:
    return str(value) if isinstance(value, float) else value  # a YAML 0.95 is read as written, never binary


def start(prepared: Prepared) -> dict:
    return {"shoe": None, "seen": {}, "units": {}, "shoes": Shoes(), "minimum": prepared.minimum,
            "burnt": CONTINUED if prepared.continues else None}


def stakes(coup: Mapping) -> Iterator[tuple[str, str, Any]]:
    for index, bet in enumerate(coup.get("bets") or ()):
        seat = bet.get("seat")  # a seat's stakes on one chance are one stake against the maximum; stakes with no
        seat = seat if type(seat) is int else None  # seat are one player's (None), never left out of it
        yield f"/bets/{index}/stake", bet.get("chance"), bet.get("stake"), \
            (seat, bet.get("chance")) if type(bet.get("chance")) is str else None


def limit_names(terms: Terms) -> frozenset[str]:
    """The names a per-chance limit may be filed under: the game's chances."""
    return frozenset((terms.play or {}).get("bets") or ())


def replay(prepared: Prepared, state: dict, coup: Mapping) -> Iterator[tuple[str, str, str]]:
    """The coup's breaches, (aspect, pointer, message); `cited` adds the provision each breaks."""
    return without_provisions(cited(prepared, state, coup))


def cited(prepared: Prepared, state: dict, coup: Mapping) -> Iterator[tuple]:
    player, banker = coup["player"], coup["banker"]
    if prepared.burn is not None:
        yield from _shoe_burn(prepared.burn, state, coup)
    if prepared.decks is not None:
        yield from _deal(prepared.decks, state, coup)
    values_p = [_WORTH[c[0]] for c in player]
    values_b = [_WORTH[c[0]] for c in banker]
    if prepared.drawing is not None:
        yield from _drawing(prepared.drawing, values_p, values_b)
    player_total, banker_total = baccarat.points(values_p), baccarat.points(values_b)
    outcome = baccarat.outcome_of(player_total, banker_total)
    if coup["outcome"] != outcome:
        yield "outcome", "/outcome", (f"declared {coup['outcome']}, but the player has {player_total} and the banker "
                                      f"{banker_total}: {outcome}")
    if prepared.sides:  # a rule holds a player's stakes on both sides to the minimum (Macau)
        limits = coup.get("limits")
        if type(limits) is dict and money(limits.get("minimum")) is not None:  # a coup record's limits are a dict
            state["minimum"] = money(limits["minimum"])  # as the core reads a coup's limits
        if state["minimum"] is not None:
            yield from _both_sides(prepared, coup, state["minimum"])
    yield from _settlements(prepared, state["units"], coup, outcome, player_total, banker_total)


def _shoe_burn(burn: Mapping, state: dict, coup: Mapping) -> Iterator[tuple]:
    """The burn at a shoe's start (by the turned card's value, or a count) or before a later coup (a count)."""
    # a shoe another log began is not started here; with an automatic shuffling shoe a séance is what starts
    # (the session as the log's core reads it, `seance`: a label changed while play goes on starts none)
    shoe = coup["shoe"]
    if burn.get("shuffled"):
        if "seance" in state:
            seance = state["seance"]
        else:  # replayed alone: the label as written
            session = coup.get("session")
            seance = same_name(session) if type(session) is str and not nameless(session) else None
        shoe = seance if seance is not None else state["burnt"]
    starts = state["burnt"] is None or shoe != state["burnt"] and state["burnt"] is not CONTINUED
    state["burnt"] = shoe
    if starts and "values" in burn:
        yield from _burn(burn["values"], coup)
    else:
        yield from burn_counts(burn, coup, starts)


def _settlements(prepared: Prepared, units: dict, coup: Mapping, outcome: str, player_total: int,
                 banker_total: int) -> Iterator[tuple]:
    """Each bet's chance and net against what the coup's outcome pays it; `units` caches a unit's pay."""
    # «quando as duas cartas inicialmente distribuídas a um daqueles grupos tiverem a mesma denominação» (PT n.º 19)
    hands = ((baccarat.PLAYER, coup["player"]), (baccarat.BANKER, coup["banker"]))
    pairs = frozenset(hand for hand, cards in hands if cards[0][0] == cards[1][0])
    for index, bet in enumerate(coup["bets"]):
        chance = bet["chance"]
        unit = units.get((chance, outcome, banker_total, pairs))
        if unit is None:
            if chance not in prepared.chances:
                yield "chances", f"/bets/{index}/chance", (f"a bet on {chance!r}, which is not a chance of the game "
                                                           f"(chances: {', '.join(prepared.chances)})")
                continue
            if chance not in prepared.terms:
                continue  # no payout known: the settlement is said not checked once, for the log
            if chance in prepared.undeducted and outcome == prepared.terms[chance].get("wins_on"):
                continue  # the commission on this win is not known: said once, for the log (partial)
            unit = _per_unit(prepared, units, chance, outcome, banker_total, pairs)
        stake, net = bet["stake"], bet["net"]
        stake = stake if type(stake) is int else money(stake)  # an int is exact as it is
        net = net if type(net) is int else money(net)
        if stake is None or net is None or stake <= 0:
            wrong, why = unsettled(stake, net, bet)
            yield "settlement", f"/bets/{index}/{wrong}", f"{chance}: {why}", provision(prepared.citations, chance)
            continue
        due = _EXACT.multiply(stake, unit)
        if net != due:
            paired = f", {' and '.join(sorted(pairs))} pair" if pairs else ""
            yield "settlement", f"/bets/{index}/net", (f"{chance} staked {cents(stake)} on a {outcome} "
                                                       f"({player_total} to {banker_total}{paired}) comes to "
                                                       f"{cents(due)}, not {cents(net)}"), \
                provision(prepared.citations, chance, _settled_by(prepared.terms[chance], outcome, due, banker_total))


def _settled_by(terms: Mapping, outcome: str, due: Decimal, banker_total: int) -> str:
    """What of a chance's settlement a wrong net breaks, as its provision `covers` it: the tie (its stake
    returned, or the tie's own payout), the commission on a win it deducts from (a deduction by the banker's
    total only on the totals it names, as the engine reads them: PT n.º 20 b) «com a pontuação de 5»), else the win (or loss)."""
    if outcome == baccarat.TIE and (outcome in (terms.get("returned_on") or ()) or terms.get("wins_on") == outcome):
        return "tie"
    by_total = terms.get("deduction_by_banker_total") or {}
    if due > 0 and ("deduction" in terms or banker_total in by_total):
        return "commission"
    return "wins"


def _per_unit(prepared: Prepared, units: dict, chance: str, outcome: str, banker_total: int,
              pairs: frozenset) -> Decimal:
    """What one unit staked on `chance` comes to, as the engine settles it (a settlement is its stake times
    this): asked once per chance, outcome, banker total and pairs, then remembered for the log in `units`."""
    found = units[(chance, outcome, banker_total, pairs)] = baccarat.settle(
        outcome, {chance: 1}, {chance: prepared.terms[chance]}, banker_total=banker_total, pairs=pairs)[chance]
    return found


def _both_sides(prepared: Prepared, coup: Mapping, minimum: Decimal) -> Iterator[tuple[str, str, str]]:
    """PT Macau n.º 11: «No caso de um jogador apostar simultaneamente no ponto e na banca, a diferença entre ambas
    as apostas não pode ser inferior ao valor mínimo de aposta nessa banca.» A player is a seat; the bets without
    one are one player's, as the stake limits hold them (a log that leaves seats out names no second player)."""
    staked: dict[Any, dict[str, Decimal]] = {}
    where: dict[Any, int] = {}
    for index, bet in enumerate(coup["bets"]):
        side, stake, seat = prepared.sides.get(bet["chance"]), money(bet["stake"]), bet.get("seat")
        if side is None or stake is None or (seat is not None and type(seat) is not int):
            continue  # a seat that is no whole number: the coup's shape check refuses it
        sides = staked.setdefault(seat, {})
        sides[side] = sides.get(side, Decimal(0)) + stake
        where[seat] = index
    for seat, sides in staked.items():
        if len(sides) == 2 and abs(sides[baccarat.PLAYER] - sides[baccarat.BANKER]) < minimum:
            who = f"seat {seat} stakes" if seat is not None else "the bets with no seat (one player's) stake"
            yield "both_sides", f"/bets/{where[seat]}/stake", (
                f"{who} {cents(sides[baccarat.PLAYER])} on the player's side and "
                f"{cents(sides[baccarat.BANKER])} on the banker's: the difference is less than the table minimum, "
                f"{cents(minimum)}")


def _burn(values: Mapping[str, int], coup: Mapping) -> Iterator[tuple[str, str, str]]:
    """A shoe's first coup: the card turned, then as many burnt as its value; whether the turned card is one of
    them the law does not say, so either count is taken."""
    burned = coup.get("burned") or []
    if not burned:
        yield "burn", "/burned" if "burned" in coup else "/shoe", (
            f"shoe {coup['shoe']} starts with no burn recorded (`burned`: the card turned, then as many cards as its "
            "value)")
        return
    worth = values[burned[0][0]]
    if len(burned) - 1 not in (worth, worth - 1):
        yield "burn", "/burned", (f"shoe {coup['shoe']} starts with {burned[0]} turned, worth {worth}, and "
                                  f"{len(burned) - 1} card(s) burnt after it; its value says {worth} (or {worth - 1} "
                                  "with the turned card counted)")


def _deal(decks: int, state: dict, coup: Mapping) -> Iterator[tuple[str, str, str]]:
    if coup["shoe"] != state["shoe"]:
        state["shoe"], state["seen"] = coup["shoe"], {}
        yield from state["shoes"].open(coup["shoe"])
    seen = state["seen"]
    for part in ("burned", "player", "banker"):
        for position, text in enumerate(coup.get(part) or ()):
            count = seen[text] = seen.get(text, 0) + 1
            if count > decks:
                yield "deal", f"/{part}/{position}", (f"{text} comes out of shoe {coup['shoe']} for the "
                                                       f"{_ordinal(seen[text])} time; {decks} deck(s) hold it "
                                                       f"{decks} time(s)")


def _drawing(drawing: Mapping, player: list[int], banker: list[int]) -> Iterator[tuple[str, str, str]]:
    """The hands against the engine's drawing rules (games/baccarat.py), card by card."""
    p2, b2 = baccarat.points(player[:2]), baccarat.points(banker[:2])
    if baccarat.either_natural(drawing, p2, b2):
        for hand, values, name in (("player", player, "player"), ("banker", banker, "banker")):
            if len(values) == 3:
                yield "drawing", f"/{hand}/2", (f"the {name} took a third card on a natural "
                                                f"(player {p2}, banker {b2}): nobody draws")
        return
    player_draws = baccarat.player_draws(drawing, p2)
    if player_draws != (len(player) == 3):
        yield "drawing", "/player" if player_draws else "/player/2", (
            f"the player has {p2} and must {'draw' if player_draws else 'stand'}, but "
            f"{'stood' if player_draws else 'drew'}")
        return  # the banker's rule depends on the player's third card: not judged on a wrong player hand
    third = player[2] if player_draws else None
    try:
        banker_draws = baccarat.banker_draws(drawing, b2, third)
    except ValueError:  # the rules give no row for this total
        return
    if banker_draws != (len(banker) == 3):
        why = "the player stood" if third is None else f"the player's third card is worth {third}"
        yield "drawing", "/banker" if banker_draws else "/banker/2", (
            f"the banker has {b2} and {why}: the banker must {'draw' if banker_draws else 'stand'}, but "
            f"{'stood' if banker_draws else 'drew'}")


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def provisions(play: Mapping, aspect: str) -> list[Mapping]:
    """The provisions a finding of `aspect` may cite (for `rules explain`): each chance's, for its settlement."""
    return provisions_of((play or {}).get("citations")) if aspect == "settlement" else []
