"""A slot machine's paytable as data (reels, wilds, line, ways and scatter pays, free spins), the figures counted
from it (Result), the work budgets every count is held to, and exact helpers. How the figures are counted is
casino_audit.slots.count; a line by an automaton, slots.lines; ways, slots.ways; a simulation, slots.simulate."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Iterable

ZERO, ONE = Fraction(0), Fraction(1)
MULTIPLY, HIGHEST = "multiply", "highest"  # how the multipliers of several wilds in one win combine
LINE_HIGHEST, LINE_ALL = "highest", "all"  # what a line pays: its highest win only, or every win on it


class Uncountable(Exception):
    """The exact count outgrew its work budget: the caller estimates instead (and says so)."""


class Work:
    """A budget of work shared by everything one evaluation does (counting, then simulating): a sheet that would
    take longer raises Uncountable from wherever it runs out, and the caller says the figures are not known."""

    def __init__(self, left: int):
        self.left = left

    def spend(self, amount: int) -> None:
        self.left -= amount
        if self.left < 0:
            raise Uncountable("work budget")


class NotEvaluable(ValueError):
    """The PAR data describe a game that has no finite return (free spins that retrigger without end)."""


# --- the model --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Reel:
    """A reel strip read top to bottom, each stop with its weight (1 on a physical strip; a virtual reel maps
    several virtual stops to one physical stop)."""

    strip: tuple[str, ...]
    weights: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.weights)

    def windows(self, rows: int, stop_row: int) -> list[tuple[tuple[str, ...], int]]:
        """The distinct columns of `rows` symbols the reel can show, each with its weight: the stop chosen shows
        in row `stop_row`, the stops before and after it above and below (the strip wraps round)."""
        found: dict[tuple[str, ...], int] = {}
        size = len(self.strip)
        for stop, weight in enumerate(self.weights):
            if weight:
                column = tuple(self.strip[(stop - stop_row + row) % size] for row in range(rows))
                found[column] = found.get(column, 0) + weight
        return list(found.items())


@dataclass(frozen=True)
class Wild:
    symbol: str
    substitutes: frozenset[str]  # the symbols it may stand for
    multiplier: Fraction = ONE  # a win it substitutes in is multiplied by it


@dataclass(frozen=True)
class LinePay:
    """A combination on a line: position by position from the left, the symbols that match there (a symbol, or
    an "any of" group's members), None for "any"; positions past the pattern are any."""

    name: str
    pattern: tuple[frozenset[str] | None, ...]
    pays: Fraction  # credits, at the paytable's bet


@dataclass(frozen=True)
class WaysPay:
    """`count` adjacent reels from the left showing the subject (a symbol, or a group's members) on a ways game."""

    name: str
    subject: str
    symbols: frozenset[str]
    count: int
    pays: Fraction  # credits per way, at the paytable's bet


@dataclass(frozen=True)
class ScatterPay:
    """`count` or more of a scatter symbol anywhere in the window (the entry of the highest count reached pays):
    credits for the whole bet, spins awarded in the base game, spins awarded when it happens during free spins."""

    name: str
    symbol: str
    count: int
    pays: Fraction = ZERO
    free_spins: int = 0
    retrigger: int = 0


@dataclass(frozen=True)
class Game:
    """What one spin is played on."""

    reels: tuple[Reel, ...]
    rows: int
    stop_row: int
    lines: tuple[tuple[int, ...], ...] | None  # rows per reel, 0 at the top; None: ways
    pays: tuple  # LinePay for lines, WaysPay for ways
    scatters: tuple[ScatterPay, ...] = ()
    wilds: tuple[Wild, ...] = ()
    wild_multipliers: str = MULTIPLY
    line_wins: str = LINE_HIGHEST

    @property
    def ways(self) -> bool:
        return self.lines is None

    @property
    def cycle(self) -> int:
        """Stop combinations, weighted: the product of the reels' total weights."""
        return math.prod(reel.total for reel in self.reels)


@dataclass(frozen=True)
class Paytable:
    name: str
    bet: Fraction  # credits staked per spin
    game: Game
    free_game: Game | None = None  # what free spins are played on (the base game's reels unless other reels)
    free_spin_multiplier: Fraction = ONE  # every win of a free spin is multiplied by it


# --- scatter counts ----------------------------------------------------------------------------------------------

class ScatterCounts:
    """The scatter symbols of a game and how many of each the window holds, capped at the highest count any entry
    names (more pays the same): a count is a tuple, one number per scatter symbol.

    The counts of many scatter symbols on tall windows have as many combinations as there are windows, and their
    products over the reels grow as the product of those: a polynomial product past MAX_PRODUCT term pairs raises
    Uncountable (a real machine's, a few scatter symbols, needs a few thousand), and so does a product of more than
    MAX_COUNTS combinations of counts (a real machine's has a few hundred at most)."""

    MAX_PRODUCT, MAX_COUNTS = 100_000, 5_000

    def __init__(self, scatters: Iterable[ScatterPay]):
        scatters = tuple(scatters)
        self.symbols = tuple(sorted({s.symbol for s in scatters}))
        self._place = {symbol: i for i, symbol in enumerate(self.symbols)}
        self.caps = tuple(max(s.count for s in scatters if s.symbol == symbol) for symbol in self.symbols)
        self._entries = {symbol: sorted((s for s in scatters if s.symbol == symbol), key=lambda s: s.count)
                         for symbol in self.symbols}
        self.zero = tuple(0 for _ in self.symbols)

    def of(self, column: Iterable[str]) -> tuple[int, ...]:
        """The column's counts, in one pass over it (never one pass per scatter symbol)."""
        place = self._place
        if not place:
            return self.zero
        counts = list(self.zero)
        for symbol in column:
            i = place.get(symbol)
            if i is not None and counts[i] < self.caps[i]:
                counts[i] += 1
        return tuple(counts)

    def add(self, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(min(x + y, cap) for x, y, cap in zip(a, b, self.caps))

    def entries(self, counts: tuple[int, ...]) -> list[ScatterPay]:
        """The entry each scatter symbol pays with at these counts (the highest count reached)."""
        found = []
        for symbol, count in zip(self.symbols, counts):
            reached = [s for s in self._entries[symbol] if s.count <= count]
            if reached:
                found.append(reached[-1])
        return found

    def pay(self, counts) -> Fraction:
        return sum((s.pays for s in self.entries(counts)), ZERO)

    def awarded(self, counts) -> int:
        return sum(s.free_spins for s in self.entries(counts))

    def retriggered(self, counts) -> int:
        return sum(s.retrigger for s in self.entries(counts))

    def distribution(self, game: Game, work: Work | None = None) -> dict[tuple[int, ...], int]:
        """Weighted stop combinations by scatter counts: the product of the reels' count polynomials."""
        total = {self.zero: 1}
        for reel in game.reels:
            if work is not None:
                work.spend(len(reel.strip))
            total = self.multiply(total, self.reel_polynomial(reel, game), work)
        return total

    def reel_polynomial(self, reel: Reel, game: Game) -> dict[tuple[int, ...], int]:
        found: dict[tuple[int, ...], int] = {}
        for column, weight in reel.windows(game.rows, game.stop_row):
            counts = self.of(column)
            found[counts] = found.get(counts, 0) + weight
        return found

    def multiply(self, p: dict, q: dict, work: Work | None = None) -> dict:
        if len(p) * len(q) > self.MAX_PRODUCT:
            raise Uncountable("scatter counts")
        if work is not None:
            work.spend(len(p) * len(q))
        found: dict = {}
        for a, x in p.items():
            for b, y in q.items():
                key = self.add(a, b)
                found[key] = found.get(key, 0) + x * y
        if len(found) > self.MAX_COUNTS:
            raise Uncountable("scatter counts")
        return found


# --- results ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class EntryResult:
    name: str
    kind: str  # line | ways | scatter | free spins
    pays: Fraction | None  # credits (None for the free-spins feature)
    hits: Fraction  # weighted stop combinations it pays on, over one cycle (a line game counts each line)
    probability: Fraction  # hits / cycle: expected times per spin
    win: Fraction  # expected credits per spin it pays
    share: Fraction  # its part of the return


@dataclass(frozen=True)
class FreeSpinsResult:
    trigger_probability: Fraction  # per base spin
    spins_per_trigger: Fraction  # expected, retriggers included
    retrigger_per_spin: Fraction  # expected spins a free spin awards
    win_per_spin: Fraction  # expected credits of one free spin (its multiplier included)
    win_per_trigger: Fraction
    multiplier: Fraction


@dataclass(frozen=True)
class Result:
    paytable: str
    bet: Fraction
    cycle: int
    rtp: Fraction  # expected credits won per credit staked
    exact: bool = True
    ci95: tuple[Fraction, Fraction] | None = None  # the simulation's 95 % interval, when not exact
    # the interval a verdict rests on, when not exact: one a simulation misses about once in a billion runs
    # (DECIDING_Z standard errors), so that a seed anyone can read, tried on variant after variant of a file,
    # never turns a 95 % chance into a pass
    decides: tuple[Fraction, Fraction] | None = None
    rounds: int | None = None  # simulated spins, when not exact
    hit_frequency: Fraction | None = None  # a spin pays something or awards free spins
    hit_frequency_exact: bool = True
    variance: Fraction | None = None  # of the win per spin, in bets
    sd: Decimal | None = None  # its square root, in bets
    sd_exact: bool = True
    sd_rounds: int | None = None
    entries: tuple[EntryResult, ...] = ()
    top_award: EntryResult | None = None
    free_spins: FreeSpinsResult | None = None
    notes: tuple[str, ...] = ()


@dataclass
class GameStats:
    """A game's spin, counted: weighted sums over one cycle. `by_counts` holds, per scatter count, the weight of
    the combinations and the sums of the line/ways win X and of X^2 over them (None where not counted)."""

    cycle: int
    line_win: Fraction  # sum of X over the cycle (lines or ways; scatters apart)
    entries: list = field(default_factory=list)  # (pay, hits, sum of its wins)
    by_counts: dict = field(default_factory=dict)  # counts -> [weight, sum X, sum X^2]
    moments: bool = False  # by_counts has the sums of X and X^2
    no_win: int | None = None  # weight of combinations with no line/ways win and no scatter pay or award


def decimal_text(value: Fraction, digits: int = 30) -> str:
    """A fraction as a decimal text with `digits` significant digits (rounded half even), never a float."""
    with localcontext() as context:
        context.prec = digits
        return format(Decimal(value.numerator) / Decimal(value.denominator), "f")


def square_root(value: Fraction, digits: int = 30) -> Decimal:
    with localcontext() as context:
        context.prec = digits
        return (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()


# --- the evaluation ---------------------------------------------------------------------------------------------

# Work budgets, in counted operations (never the clock: the same file gets the same figures on any machine). A
# real machine needs far less; a hostile PAR sheet must not run for minutes. An operation is at most about 1 us of
# CPU on the reference machine, loaded (an automaton reading of one symbol weight; a joint transition counts
# JOINT_COST, a simulated spin one per slots_simulate.LINE_NODES lines read on a reel).
RETURN_WORK = 3_000_000  # one file's returns, every paytable, counted exactly: `check` and `rtp` alike (~3 s)
ESTIMATE_WORK = 1_000_000  # one file's simulations of the returns that could not be counted (~1 s)
MOMENTS_WORK = 3_000_000  # `rtp`'s hit frequencies and standard deviations, for one file (~3 s)
# `check`: a document met once the file's RETURN_WORK is spent is counted within DOCUMENT_WORK of its own, drawn
# from SPARE_WORK (~1 s): a machine below the minimum after costly ones is judged, and the file stays bounded.
SPARE_WORK = 1_000_000
DOCUMENT_WORK = 20_000  # more than the shipped machines need (the ways example: 11,503)
LINE_BUDGET = RETURN_WORK  # automaton steps for one game's lines (a 50-line 5x3 game on 100-stop reels: ~55,000)
JOINT_BUDGET = 400_000  # transitions of the lines together, for each of hit frequency and variance (~0.8 s at most)
JOINT_COST = 2  # operations a joint transition is charged (it adds three sums of large integers)


def one_in(probability: Fraction) -> Fraction | None:
    """Odds as "1 in N": N = 1 / probability (the mean number of spins between two occurrences)."""
    return 1 / probability if probability else None
