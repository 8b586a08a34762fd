"""Roulette: the layout's bets, a coup's settlement, and a bet's exact house edge.

Pure functions. What the law decides (the payout of each chance, what the simple chances do when zero comes
out) is passed in as data: the engine knows the table's geometry, never a jurisdiction's rules of play.

Pockets are the ints 0 to 36 and the string "00" (the American double zero). Money is Decimal, computed
without rounding; edges are Fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import MAX_PREC, Context, Decimal, Inexact, InvalidOperation
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Literal, Mapping, Union

from casino_audit.core.values import to_decimal

Pocket = Union[int, str]
DOUBLE_ZERO_POCKET = "00"
NUMBERS = tuple(range(1, 37))
RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
ROWS = tuple(tuple(range(first, first + 3)) for first in range(1, 37, 3))  # 1-2-3 ... 34-35-36, zero above 1-2-3
COLUMNS = tuple(frozenset(range(start, 37, 3)) for start in (1, 2, 3))  # "alinhados no pano a partir do 34, 35, 36"
DOZENS = tuple(frozenset(range(first, first + 12)) for first in (1, 13, 25))
SIMPLE_CHANCES = {
    "rouge": RED, "noir": frozenset(NUMBERS) - RED,
    "pair": frozenset(range(2, 37, 2)), "impair": frozenset(range(1, 37, 2)),
    "manque": frozenset(range(1, 19)), "passe": frozenset(range(19, 37)),
}


@dataclass(frozen=True)
class Wheel:
    """A wheel and its layout. The numbers 1-36 are the same grid on every layout; only the zeros differ."""
    name: str
    zeros: tuple[Pocket, ...]
    # The chevaux a zero makes on the layout: the zero's box borders these cells.
    zero_chevaux: tuple[tuple[Pocket, Pocket], ...]
    # The bet on the zeros and the first row: a carré 0-1-2-3 on a single zero (LU Art. 37-2: "carré (quatre
    # numéros comprenant éventuellement le zéro)"), the five-number bet 0-00-1-2-3 on a double zero.
    top_line_kind: str

    @property
    def pockets(self) -> tuple[Pocket, ...]:
        return self.zeros + NUMBERS


# French layout: the single zero spans the whole first row, so it borders 1, 2 and 3.
SINGLE_ZERO = Wheel("single-zero", (0,), ((0, 1), (0, 2), (0, 3)), "carre")
# American layout: 0 sits above 1 and 2, 00 above 2 and 3, and the two zeros border each other.
DOUBLE_ZERO = Wheel("double-zero (American)", (0, DOUBLE_ZERO_POCKET),
                    ((0, 1), (0, 2), (DOUBLE_ZERO_POCKET, 2), (DOUBLE_ZERO_POCKET, 3), (0, DOUBLE_ZERO_POCKET)),
                    "cinq_numeros")

# Each engine bet, what it covers, and the names the law's payout schedules give it: French (LU Art. 37-2,
# rulesets/lu.yaml LU-EROUL-PAYOUTS), Portuguese (Portaria 217/2007 n.os 24 and 27, rulesets/pt.yaml
# PT-AROUL-PAYOUTS; n.º 27 b) says "vermelho" where n.º 24 says "encarnado"), then English.
BET_SHAPES = {
    "plein": "one number", "cheval": "two adjacent numbers",
    "transversale": "a row of three numbers, or a zero with two numbers it borders (0-2-3)",
    "carre": "four numbers in a square (or 0-1-2-3 with a single zero)",
    "sixain": "two adjacent rows", "cinq_numeros": "0-00-1-2-3 (double zero only)",
    "colonne": "a column", "douzaine": "a dozen (1-12, 13-24, 25-36)",
    "deux_colonnes": "two adjacent columns", "deux_douzaines": "two adjacent dozens",
    **{name: f"the {name} numbers" for name in SIMPLE_CHANCES},
}
PAYOUT_NAMES = {
    "plein": ("plein", "pleno", "straight"), "cheval": ("cheval", "cavalo", "split"),
    "transversale": ("transversale", "rua", "street"), "carre": ("carre", "quadro", "corner"),
    "sixain": ("sixain", "linha", "six_line"), "cinq_numeros": ("cinq_numeros", "five_number"),
    "colonne": ("colonne", "coluna", "column"), "douzaine": ("douzaine", "duzia", "dozen"),
    "deux_colonnes": ("deux_colonnes", "cavalo_de_coluna"), "deux_douzaines": ("deux_douzaines", "cavalo_de_duzia"),
    "rouge": ("rouge", "encarnado", "vermelho", "red"), "noir": ("noir", "preto", "black"),
    "pair": ("pair", "par", "even"), "impair": ("impair", "impar", "odd"),
    "manque": ("manque", "menor", "low"), "passe": ("passe", "maior", "high"),
}
SIMPLE_CHANCES_GROUP_NAMES = ("simples", "chances_simples")  # one payout for all six, if a schedule says so
# The names a stake limit may be filed under for a group of chances, besides the chance's own: LU Art. 37-3 sets
# the maxima on «12 numéros» (a douzaine or a colonne) and «24 numéros» (two of them), LU-EROUL-MAXIMA's
# douze_numeros and vingt_quatre_numeros; the simple chances' group is SIMPLE_CHANCES_GROUP_NAMES.
LIMIT_GROUP_NAMES = {"douzaine": ("douze_numeros",), "colonne": ("douze_numeros",),
                     "deux_douzaines": ("vingt_quatre_numeros",), "deux_colonnes": ("vingt_quatre_numeros",),
                     **{name: SIMPLE_CHANCES_GROUP_NAMES for name in SIMPLE_CHANCES}}

# Money is only multiplied and negated (payouts and the half are finite decimals), so an unbounded precision
# that traps any inexact result never rounds a cent away (Decimal's default context rounds at 28 digits).
_EXACT = Context(prec=MAX_PREC, traps=[Inexact, InvalidOperation])
_HALF = Decimal("0.5")


@dataclass(frozen=True)
class Bet:
    kind: str  # a key of BET_SHAPES
    numbers: frozenset  # the pockets it covers
    stake: Decimal


def bet(kind: str, stake: Decimal | int | str, numbers=None) -> Bet:
    """A bet; the simple chances' numbers follow from their kind. Pockets may be given as text ("17", "00")."""
    if numbers is None:
        numbers = SIMPLE_CHANCES.get(kind, ())
    if isinstance(stake, (int, str)) and not isinstance(stake, bool):
        try:
            stake = Decimal(stake)
        except InvalidOperation:
            pass  # kept as given: `validate` reports it
    return Bet(kind, frozenset(pocket(n) for n in numbers), stake)


def pocket(value) -> Pocket:
    """0-36 as an int, or "00"; text from a log ("7", "00") is read as the pocket it names. Anything else is
    returned as it is, for `validate` to report (True is no pocket, though Python counts it as 1)."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, str):
        text = value.strip()
        if text == DOUBLE_ZERO_POCKET:
            return DOUBLE_ZERO_POCKET
        return int(text) if text.isascii() and text.isdigit() else value
    return value


def adjacent_pairs() -> set[frozenset]:
    """Chevaux among 1-36: neighbours in a row (1-2, not 3-4) or in a column (1-4)."""
    pairs = {frozenset((a, b)) for row in ROWS for a, b in zip(row, row[1:])}
    return pairs | {frozenset((n, n + 3)) for n in range(1, 34)}


@lru_cache(maxsize=None)
def legal_bets(wheel: Wheel) -> Mapping[str, frozenset[frozenset]]:
    """Every bet the layout allows, by kind, as the sets of pockets covered, built from the grid's geometry."""
    chevaux = adjacent_pairs() | {frozenset(pair) for pair in wheel.zero_chevaux}
    # A trio with a zero (PT n.º 25: "rua 0-2-3") is three cells bordering each other; the 1-36 grid has none.
    trios = {frozenset((a, b, c)) for a in wheel.zeros for b, c in map(tuple, chevaux)
             if {frozenset((a, b)), frozenset((a, c))} <= chevaux and a not in (b, c)}
    squares = {frozenset((n, n + 1, n + 3, n + 4)) for row in ROWS[:-1] for n in row[:2]}
    top_line = frozenset(wheel.zeros + ROWS[0])
    kinds = {
        "plein": {frozenset((p,)) for p in wheel.pockets},
        "cheval": chevaux,
        "transversale": {frozenset(row) for row in ROWS} | trios,
        "carre": squares | ({top_line} if wheel.top_line_kind == "carre" else set()),
        "sixain": {frozenset(ROWS[i] + ROWS[i + 1]) for i in range(len(ROWS) - 1)},
        "cinq_numeros": {top_line} if wheel.top_line_kind == "cinq_numeros" else set(),
        "colonne": set(COLUMNS), "douzaine": set(DOZENS),
        "deux_colonnes": {COLUMNS[i] | COLUMNS[i + 1] for i in (0, 1)},
        "deux_douzaines": {DOZENS[i] | DOZENS[i + 1] for i in (0, 1)},
        **{name: {numbers} for name, numbers in SIMPLE_CHANCES.items()},
    }
    return MappingProxyType({kind: frozenset(sets) for kind, sets in kinds.items()})  # cached: read-only


def validate(wheel: Wheel, placed: Bet) -> list[str]:
    """The problems with a bet on this wheel's layout (an empty list: the bet is good). Never raises."""
    if placed.kind not in BET_SHAPES:
        return [f"unknown bet {placed.kind!r}: the bets are {', '.join(BET_SHAPES)}"]
    problems, numbers = [], frozenset(placed.numbers)
    if not isinstance(placed.stake, Decimal) or to_decimal(placed.stake) is None or placed.stake <= 0:
        problems.append(f"the stake must be a positive Decimal amount, not {placed.stake!r}")
    strangers = [n for n in numbers if n not in wheel.pockets]
    if strangers:
        problems.append(f"{_names(strangers)} not on the {wheel.name} wheel")
    elif numbers not in legal_bets(wheel)[placed.kind]:
        sizes = {len(s) for s in legal_bets(wheel)[placed.kind]}
        count = (f" ({len(numbers)} numbers, a {placed.kind} covers {'/'.join(map(str, sorted(sizes)))})"
                 if sizes and len(numbers) not in sizes else "")
        problems.append(f"{placed.kind} on {_names(numbers) or 'nothing'} is not {BET_SHAPES[placed.kind]}"
                        f" on the {wheel.name} layout{count}")
    return problems


def _names(pockets) -> str:
    def layout_order(p):  # 0, 00, 1 ... 36, then anything that is no pocket
        if p == DOUBLE_ZERO_POCKET:
            return (0, Fraction(1, 2))
        return (0, p) if isinstance(p, int) else (1, str(p))
    return "-".join(str(p) for p in sorted(pockets, key=layout_order))


# --- Zero rules -------------------------------------------------------------------------------------------
ZeroOutcome = Literal["lose", "half_back", "en_prison_one_spin"]
ZERO_OUTCOMES = ("lose", "half_back", "en_prison_one_spin")
IMPRISONED = "imprisoned"  # settle's outcome for a simple chance put en prison: neither won nor lost yet


@dataclass(frozen=True)
class ZeroRule:
    """What the simple chances do when a zero comes out; every other bet not covering it simply loses.

    `en_prison_one_spin`: the stake stays on the table one more spin (settled with `imprisoned=True`): freed
    (net 0) if its chance wins then, lost otherwise, a zero included. No text shipped describes en prison; this
    is the model of the rule a caller names, not a reading of law."""
    simple_chances: ZeroOutcome
    citation: str = ""

    def __post_init__(self):  # a misspelt rule would otherwise pass unseen until a zero comes out
        if self.simple_chances not in ZERO_OUTCOMES:
            raise ValueError(f"unknown zero rule {self.simple_chances!r}: one of {', '.join(ZERO_OUTCOMES)}")


class ZeroRuleMissing(ValueError):
    """The law's text is silent on the zero and the caller gave no rule: never guessed."""


def zero_rule_for(play, given: ZeroRule | None = None) -> ZeroRule:
    """The zero rule the law states for a game (its ruleset's `play:` entry, rulesets.Play, or None where the
    text is silent); where the text is silent, the one the caller gives, never a guess."""
    rule = (play.data.get("zero_rule") if play is not None else None) or {}
    if "simple_chances" in rule:
        stated = ZeroRule(rule["simple_chances"], f"{play.citation.article}: « {play.citation.text} »")
        if given is not None and given.simple_chances != stated.simple_chances:
            raise ValueError(f"the law states {stated.simple_chances!r} on zero ({stated.citation}), "
                             f"not {given.simple_chances!r}")
        return stated
    if given is None:
        raise ZeroRuleMissing("what the simple chances do on zero must be given: the ruleset's text states none")
    return given


# --- Settling a coup ----------------------------------------------------------------------------------------
def payout_for(kind: str, payouts: Mapping[str, object]) -> Decimal:
    """The bet's payout (times the stake) from a schedule under any of the law's names for it."""
    names = PAYOUT_NAMES[kind] + (SIMPLE_CHANCES_GROUP_NAMES if kind in SIMPLE_CHANCES else ())
    found = {name: payouts[name] for name in names if name in payouts}
    own = {name: value for name, value in found.items() if name not in SIMPLE_CHANCES_GROUP_NAMES} or found
    if not own:
        raise KeyError(f"the payouts give none for {kind} (named {', '.join(names)})")
    values = {_money(value, f"payout {name}") for name, value in own.items()}
    if len(values) > 1:
        raise ValueError(f"the payouts name {kind} twice with different values: {own}")
    return values.pop()


def _money(value, what: str) -> Decimal:
    # A float is already rounded (0.95 is not 19/20): refused, like everywhere in casino-audit.
    if isinstance(value, bool) or not isinstance(value, (Decimal, int, str)):
        raise TypeError(f"{what} must be exact (Decimal, int or decimal text), not {value!r}")
    amount = to_decimal(value)  # None for NaN, infinities and numbers past 30 digits (1e999999 is no stake)
    if amount is None:
        raise ValueError(f"{what} is not a finite amount: {value!r}")
    return amount


def settle(placed: Bet, number, payouts: Mapping[str, object], zero_rule: ZeroRule | None, *,
           imprisoned: bool = False) -> Decimal | str:
    """The player's net result of a bet on a coup: +stake x payout, -stake, -stake/2, or IMPRISONED.

    `imprisoned=True` settles a stake held en prison on the spin that follows. The bet is assumed validated
    (`validate`); a simple chance needs a zero rule whatever the number, so that a missing rule shows on the
    first such bet and not only when a zero happens to come out."""
    number = pocket(number)
    if number not in SINGLE_ZERO.pockets + DOUBLE_ZERO.zeros:
        raise ValueError(f"{number!r} is no pocket of a roulette wheel")
    stake = _money(placed.stake, "the stake")
    simple = placed.kind in SIMPLE_CHANCES
    if simple and zero_rule is None:
        raise ZeroRuleMissing(f"a {placed.kind} bet needs the zero rule for the simple chances")
    if imprisoned:
        if not simple or zero_rule.simple_chances != "en_prison_one_spin":
            raise ValueError(f"a {placed.kind} bet is not held en prison under this zero rule")
        return Decimal(0) if number in placed.numbers else _EXACT.minus(stake)
    if number in placed.numbers:
        return _EXACT.multiply(stake, payout_for(placed.kind, payouts))
    if simple and number in DOUBLE_ZERO.zeros:  # a zero: 0, or 00 on a double-zero wheel
        if zero_rule.simple_chances == "half_back":
            return _EXACT.minus(_EXACT.multiply(stake, _HALF))
        if zero_rule.simple_chances == "en_prison_one_spin":
            return IMPRISONED
    return _EXACT.minus(stake)


def house_edge(wheel: Wheel, placed: Bet, payouts: Mapping[str, object], zero_rule: ZeroRule | None) -> Fraction:
    """The bank's expected gain per unit staked, exact, by enumerating the wheel's equally likely pockets.

    A stake put en prison is worth its expected result on the next spin (one spin more, see ZeroRule)."""
    problems = validate(wheel, placed)
    if problems:
        raise ValueError("; ".join(problems))
    total = Fraction(0)
    for spun in wheel.pockets:
        outcome = settle(placed, spun, payouts, zero_rule)
        if outcome == IMPRISONED:
            released = [settle(placed, again, payouts, zero_rule, imprisoned=True) for again in wheel.pockets]
            total += sum(map(Fraction, released), Fraction(0)) / len(wheel.pockets)
        else:
            total += Fraction(outcome)
    return -total / (len(wheel.pockets) * Fraction(placed.stake))
