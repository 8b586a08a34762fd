"""Roulette coups replayed: the number spun against the wheel, every bet against the layout, and every bet's
settlement to the cent under the payouts and the zero rule (casino_audit/games/roulette.py does the game).

A coup record (JSON Lines; CSV one row per bet, see CSV_COLUMNS):
    {"coup": 12, "time": "2026-11-02T21:14:05", "session": "2026-11-02",
     "staff": {"croupier": "C-12", "spinner": "C-7"}, "number": 17,
     "bets": [{"seat": 1, "chance": "cheval", "numbers": [17, 20], "stake": 10, "net": 170},
              {"seat": 3, "chance": "rouge", "stake": 5, "net": -5}, ...]}
`number` is the pocket the ball stopped in: 0 to 36 on the law's wheel (CSV and text: "17"); "00" is read (a
double-zero wheel's) and is no pocket of any wheel the law we hold fixes.
`chance` is the bet's name in the payout schedule (plein, cheval, transversale, carre, sixain, douzaine,
colonne, deux_douzaines, deux_colonnes, rouge, noir, pair, impair, manque, passe; pleno, cavalo, rua,
quadro, linha, duzia, coluna, cavalo_de_duzia, cavalo_de_coluna, encarnado, preto, par, impar, menor, maior;
the English names; games.roulette.PAYOUT_NAMES). `numbers` lists the pockets the bet covers; the six simple
chances may leave it out. A series or neighbour bet (PT n.º 25) is logged as the chances it is made of, one
bet each (n.º 27, c) and d) pay them as those chances). `net` is what the bet came to for the player: the win
paid (positive; the stake stays the player's), minus half the stake for a simple chance on zero under the
half-back rule, minus the stake when collected.

En prison is not replayed: no text we hold describes it (how long a stake stays imprisoned, what a second
zero does), so a log kept under it has its settlement reported "not checked", never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Context, Decimal
from typing import Any, Iterator, Mapping

from casino_audit.games import registry, roulette
from casino_audit.replay import (BET_COLUMNS, COMMON_COUP, COMMON_REQUIRED, Terms, Unavailable, bet_schema, cents,
                                 money, unsettled)
from casino_audit.replay import provision, provisions_of, without_provisions

GAMES = registry.games_of("roulette")
LAW_PAYOUTS_FIXED = True  # a payout the law's schedule fixes is settled at the law's value, whatever the table says
ASPECTS = {
    "spin": "the number spun is a pocket of the law's wheel (37 pockets; a table filing 38 is its own finding)",
    "chances": "every bet is a combination the layout offers and the payout schedule pays, on numbers it can cover",
    "settlement": "every bet was settled at the schedule's payout and the zero rule, to the cent",
}
ZERO_RULE_PARAM = "roulette_zero_rule"  # for the games whose text states no zero rule (LU roulette, American)
_POCKET = {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]{1,2}$"}]}
COUP_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A roulette coup",
    "type": "object", "additionalProperties": False,
    "required": [*COMMON_REQUIRED, "number", "bets"],
    "properties": {
        **COMMON_COUP,
        "number": {**_POCKET, "description": "The pocket the ball stopped in: 0 to 36, or \"00\" on a double-zero "
                                             "wheel (text such as \"17\" is read as the number)."},
        "bets": {"type": "array", "description": "Every bet of the coup.", "items": bet_schema(
            "The bet, as the payout schedule names it (plein, cheval, rouge ...; pleno, cavalo, encarnado ...).",
            "What the bet came to for the player: the win paid, minus half the stake (half back on zero), minus the "
            "stake.",
            numbers={"type": "array", "items": _POCKET, "minItems": 1,
                     "description": "The pockets the bet covers; the simple chances may leave it out."})},
    },
}
# Pockets as words, read by roulette.pocket as the JSON ones are ("00" is the American wheel's, not 0).
CSV_COLUMNS = {"number": ("number", "text"), "numbers": ("bets/numbers", "words"), **BET_COLUMNS}
_NAMES = {name: kind for kind, names in roulette.PAYOUT_NAMES.items() for name in names}


@dataclass(frozen=True)
class Prepared:
    wheel: roulette.Wheel
    chances: Mapping[str, str]  # chance name -> engine kind, for the bets the schedule pays (all, if no schedule)
    payouts: Mapping[str, Any] | None
    zero_rule: roulette.ZeroRule | None
    settles: bool  # False: the settlement is not checked (reported once by the session)
    citations: Mapping[str, Any] = field(default_factory=dict)  # the rules of play's provisions, by part


def wheel_of(terms: Terms) -> roulette.Wheel:
    """The law's wheel, the single zero every game we hold has (LU Art. 24, 29 and 37-1; PT Secção I and II, n.º 2:
    37 numbers; the spin, n.º 23: «num dos 37 compartimentos do prato»). A table configuration filing another
    pocket count is a finding of its own (LU-ROUL-POCKETS, PT-FROUL-POCKETS ...) and never makes "00" a pocket
    of the replay: a declaration may only tighten the law, not widen it."""
    return roulette.SINGLE_ZERO


def zero_rule_of(game: str, terms: Terms) -> tuple[roulette.ZeroRule | None, str | None]:
    """The zero rule the law states for the game (`play:`), else the parameter's value; (None, why) if none."""
    stated = ((terms.play or {}).get("zero_rule") or {}).get("simple_chances")
    given = terms.params.get(ZERO_RULE_PARAM)
    value = stated or given
    if value is None and terms.declared is not None and ZERO_RULE_PARAM not in terms.declared:
        return None, (f"the ruleset's rules of play state nothing of the simple chances on zero at {game}, and it "
                      f"declares no parameter that could: its `play: {game}:` must give `zero_rule: "
                      "{simple_chances: lose}` (or half_back, en_prison_one_spin) as its text states it")
    if value is None:
        return None, (f"the law states nothing of the simple chances on zero at {game}: give the rule with "
                      f"--param {ZERO_RULE_PARAM}=lose (or half_back)")
    if value == "en_prison_one_spin":
        return None, ("en prison is not replayed: no text we hold says how an imprisoned stake is kept or freed "
                      "(see casino_audit/replay/roulette.py)")
    try:
        return roulette.ZeroRule(str(value)), None
    except ValueError as error:
        return None, f"{ZERO_RULE_PARAM}: {error}"


def prepare(game: str, terms: Terms) -> Prepared:
    wheel = wheel_of(terms)
    payouts = {k: _exact(v) for k, v in terms.payouts.items()} if terms.payouts else None
    chances = {}
    for name, kind in _NAMES.items():
        if not roulette.legal_bets(wheel)[kind]:
            continue  # a bet this layout has no place for (the five-number bet on a single zero)
        if payouts is not None:
            try:
                roulette.payout_for(kind, payouts)
            except (KeyError, ValueError, TypeError):
                continue
        chances[name] = kind
    zero_rule, why = zero_rule_of(game, terms)
    if payouts is None:
        whys = [why] if why else []
        whys.append(f"no payout schedule is known for {game} (the law's text states none): name the table "
                    "configuration in the header (`table_config`)")
        raise Unavailable(["settlement"], "; ".join(whys),
                          Prepared(wheel, chances, payouts, zero_rule, False, (terms.play or {}).get("citations") or {}))
    prepared = Prepared(wheel, chances, payouts, zero_rule, True, (terms.play or {}).get("citations") or {})
    if why:  # the zero rule decides a simple chance's bet on a zero alone: every other bet is settled
        raise Unavailable([], why, prepared, partial={"settlement": f"a simple chance's bet when a zero comes out "
                                                                   f"is not settled: {why}"})
    return prepared


def _exact(value: Any) -> Any:
    return str(value) if isinstance(value, float) else value  # a YAML 0.5 is read as written, never binary


def start(prepared: Prepared) -> dict:
    # bets: (kind, numbers as logged) -> the covered pockets, for legal bets only (a finite set: the layout's);
    # units: (kind, pockets, number out) -> what one unit staked comes to, as the engine settles it
    return {"bets": {}, "units": {}}


def stakes(coup: Mapping) -> Iterator[tuple[str, tuple[str, ...], Any, tuple | None]]:
    """Each stake with its chance's names, the logged one first: a limit filed under another language's name or
    under its group (`chances_simples: 540`, `douze_numeros: 480`) applies to it."""
    for index, bet in enumerate(coup.get("bets") or ()):
        chance = bet.get("chance")
        names = _STAKE_NAMES.get(chance) if type(chance) is str else None
        if names is None:
            kind = _NAMES.get(chance)
            names = (chance,) if kind is None else (chance, *roulette.PAYOUT_NAMES[kind],
                                                    *roulette.LIMIT_GROUP_NAMES.get(kind, ()))
            if kind is not None:
                _STAKE_NAMES[chance] = names  # the layout's names only: a finite table
        yield f"/bets/{index}/stake", names, bet.get("stake"), _placed(bet, chance)


def _placed(bet: Mapping, chance) -> tuple | None:
    """The bet a stake is part of: the seat's chance on the pockets it covers (a stake written as two records
    of one bet is held to the maximum as one, PT n.º 32, d)), or None when that is not known (no chance of the
    layout). Stakes with no seat are one player's, seat None: no one's stakes are dropped from the maximum."""
    seat, kind = bet.get("seat"), _NAMES.get(chance) if type(chance) is str else None
    seat = seat if type(seat) is int else None
    if kind is None:
        return None
    numbers = bet.get("numbers")
    if kind in roulette.SIMPLE_CHANCES or numbers is None:
        return seat, kind, None
    try:
        return seat, kind, frozenset(roulette.pocket(n) for n in numbers)
    except TypeError:  # a pocket that is no pocket (the shape check says so)
        return None


def payout_aliases(name: str) -> tuple[str, ...]:
    """Every name a schedule may pay the chance `name` under (plein, pleno, straight): the law's payout for it
    holds under each, and the simple chances' under their group's (chances_simples)."""
    kind = _NAMES.get(name)
    if kind is None:
        return (name,)
    return roulette.PAYOUT_NAMES[kind] + (roulette.SIMPLE_CHANCES_GROUP_NAMES if kind in roulette.SIMPLE_CHANCES else ())


_STAKE_NAMES: dict[str, tuple[str, ...]] = {}  # a chance of the layout -> the names a limit on it may be filed under


def limit_names(terms: Terms) -> frozenset[str]:
    """The names a per-chance limit may be filed under: the layout's chances in every language, and the groups
    a stake is limited with (chances_simples, douze_numeros, vingt_quatre_numeros)."""
    return _LIMIT_NAMES


_LIMIT_NAMES = frozenset(_NAMES) | frozenset(name for names in roulette.LIMIT_GROUP_NAMES.values() for name in names)


def stake_names(terms: Terms) -> list[tuple[str, ...]]:
    """The names a stake on each chance is limited under, as `stakes` gives them: one tuple per way of writing it."""
    return [names for chance in _NAMES for _, names, *_ in stakes({"bets": [{"chance": chance}]})]


def _due(prepared: Prepared, units: dict, kind: str, pockets: frozenset, number, stake, zero_rule=None):
    """What the bet comes to: its stake times what one unit comes to (the engine's settlement is linear in the
    stake), asked of the engine once per bet and number; an outcome that is no amount is asked whole. `zero_rule`:
    one to settle by where the prepared one is unknown and the number no zero (it then decides nothing)."""
    zero_rule = zero_rule or prepared.zero_rule
    unit = units.get((kind, pockets, number))
    if unit is None:
        unit = roulette.settle(roulette.Bet(kind, pockets, Decimal(1)), number, prepared.payouts, zero_rule)
        if not isinstance(unit, Decimal):
            return roulette.settle(roulette.Bet(kind, pockets, Decimal(stake)), number, prepared.payouts, zero_rule)
        units[(kind, pockets, number)] = unit
    return _EXACT.multiply(stake, unit)


_EXACT = Context(prec=70)  # a stake of 30 digits times a payout stays exact
_NO_ZERO = roulette.ZeroRule("lose")  # a simple chance settled on a number no zero: any zero rule settles it alike
# the chances a zero makes lose by the zero rule, not by the numbers they cover
_ZEROED = frozenset(roulette.SIMPLE_CHANCES) | {"douzaine", "colonne", "deux_douzaines", "deux_colonnes"}


def replay(prepared: Prepared, state: dict, coup: Mapping) -> Iterator[tuple[str, str, str]]:
    """The coup's breaches, (aspect, pointer, message); `cited` adds the provision each breaks."""
    return without_provisions(cited(prepared, state, coup))


def cited(prepared: Prepared, state: dict, coup: Mapping) -> Iterator[tuple]:
    wheel = prepared.wheel
    number = roulette.pocket(coup["number"])
    spun = number in wheel.pockets
    if not spun:
        yield "spin", "/number", (f"{coup['number']!r} is no pocket of the {wheel.name} wheel (0 to 36"
                                  f"{' and 00' if len(wheel.zeros) > 1 else ''})"), \
            provision(prepared.citations, "spin")
    for index, placed in enumerate(coup["bets"]):
        chance = placed["chance"]
        kind = prepared.chances.get(chance)
        if kind is None:
            offered = ", ".join(prepared.payouts or _NAMES)
            yield "chances", f"/bets/{index}/chance", (f"a bet on {chance!r}, which is not a combination of the "
                                                       f"game (the schedule pays: {offered})"), \
                provision(prepared.citations, "payouts")
            continue
        given = placed.get("numbers")
        key = (kind, None if given is None else tuple(given))
        pockets = state["bets"].get(key)
        if pockets is None:
            numbers = roulette.SIMPLE_CHANCES.get(kind, ()) if given is None else [roulette.pocket(n) for n in given]
            shaped = roulette.bet(kind, Decimal(1), numbers)
            problems = roulette.validate(wheel, shaped)
            if problems:
                yield "chances", f"/bets/{index}/numbers" if given is not None else f"/bets/{index}", (
                    f"{chance}: {'; '.join(problems)}"), provision(prepared.citations, "chances")
                continue
            pockets = state["bets"][key] = shaped.numbers
        stake, net = placed["stake"], placed["net"]
        stake = stake if type(stake) is int else money(stake)  # an int is exact as it is
        net = net if type(net) is int else money(net)
        if not (spun and prepared.settles):
            continue  # a number off the wheel is the spin's finding; a settlement not checked is said once
        if stake is None or net is None or stake <= 0:
            field, why = unsettled(stake, net, placed)
            yield "settlement", f"/bets/{index}/{field}", f"{chance}: {why}", provision(prepared.citations, "payouts")
            continue
        if prepared.zero_rule is None and kind in roulette.SIMPLE_CHANCES:
            if number in roulette.DOUBLE_ZERO.zeros:
                continue  # the zero rule decides it, and none is known (said once)
            due = _due(prepared, state["units"], kind, pockets, number, stake, _NO_ZERO)  # no zero: no rule needed
        else:
            due = _due(prepared, state["units"], kind, pockets, number, stake)
        if net != due:
            covered = "" if given is None else f" on {'-'.join(map(str, given))}"
            # a chance the zero makes lose (PT n.º 28: the simple chances, dozens, columns and their cavalos)
            # breaks the zero rule; any other bet, the schedule
            zeroed = number in roulette.DOUBLE_ZERO.zeros and number not in pockets and kind in _ZEROED
            yield "settlement", f"/bets/{index}/net", (f"{chance}{covered} staked {cents(stake)}, number "
                                                       f"{number} out: comes to {cents(due)}, not {cents(net)}"), \
                provision(prepared.citations, "zero_rule" if zeroed else "payouts")


_ASPECT_PARTS = {"spin": ("spin",), "chances": ("chances", "payouts"), "settlement": ("payouts", "zero_rule")}


def provisions(play: Mapping, aspect: str) -> list[Mapping]:
    """The provisions a finding of `aspect` may cite (for `rules explain`)."""
    return provisions_of((play or {}).get("citations"), _ASPECT_PARTS.get(aspect, ()))
