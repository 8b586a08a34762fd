"""Slot machines from their PAR data: the exact return to player, hit frequency, standard deviation per spin,
each pay's hits and share of the return, and the odds of the top award, as fractions.

Pure functions, no I/O. The model below is what `casino_audit.par` reads from a filing's `par:` section (and
checks for consistency: every symbol known, every line inside the window); docs/par.md describes the format.

How it is counted, never by visiting every stop combination:
- a **line** is read by an automaton over its symbols, reel by reel (slots_lines.py): a state is the set of pay
  entries still matching (with the wild multipliers met so far) and the best win completed; the per-reel symbol
  weights of the line's rows are pushed through it, and a line whose entries are all decided stops there, its
  weight carried over the remaining reels as a product. "Highest win only" is exact because a state keeps the best
  completed win and drops an entry only when it can no longer beat it;
- **ways** (every left-to-right path across adjacent reels) are sums of products of per-reel counts
  (slots_ways.py): the number of paths of a symbol over reels 1..k is the product of its cells on each reel, and
  "exactly k" is a difference of two such products; so the mean, and the mean of the square (pairs of product
  terms), are products of per-reel expectations;
- **scatters** anywhere in the window are counted by the product of per-reel count polynomials;
- **free spins** triggered by scatters are a branching process: each free spin wins w and awards R more spins, so
  one awarded spin is worth b = E[w] / (1 - E[R]) (Wald), and its second moment
  E[B^2] = (E[w^2] + 2 b E[wR] + E[R(R-1)] b^2) / (1 - E[R]); expected spins per trigger N / (1 - E[R]).

The variance of a multi-line game needs the lines together (they share the reels): slots_lines.joint_moments
pushes every line's automaton state at once, reel by reel, carrying the moments of the wins already decided; past
a work budget it gives up and the standard deviation is estimated by a seeded simulation, labelled so. The same
happens to the return itself only for a PAR sheet whose automaton outgrows its budget (never for a real machine
seen so far): then the whole result is a simulation with its 95 % interval (`exact` False).
"""

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


def evaluate(paytable: Paytable, *, moments: bool = True, rounds: int = 20_000, seed: int = 1,
             line_budget: int | None = None, joint_budget: int | None = None, work: Work | None = None,
             estimate: bool = True) -> Result:
    """The paytable's return, counted exactly; with `moments`, also its hit frequency and standard deviation.
    A count that outgrows its budget (LINE_BUDGET, JOINT_BUDGET unless given) is replaced by a seeded simulation of
    `rounds` spins, labelled so (without `estimate`, the return's count raises Uncountable instead). `work` bounds
    the operations of both (Uncountable past it)."""
    from casino_audit.games import slots_simulate

    line_budget = LINE_BUDGET if line_budget is None else line_budget
    joint_budget = JOINT_BUDGET if joint_budget is None else joint_budget

    try:
        base = game_stats(paytable.game, moments=moments, line_budget=line_budget, joint_budget=joint_budget,
                          hit_frequency=moments, work=work)
        free = None
        if paytable.free_game is not None and _awards(paytable.game):
            free = base if paytable.free_game == paytable.game else game_stats(
                paytable.free_game, moments=moments, line_budget=line_budget, joint_budget=joint_budget,
                hit_frequency=False, work=work)
    except Uncountable:
        if not estimate or (work is not None and work.left < 0):
            raise
        return slots_simulate.simulate(paytable, rounds, seed, note="the exact count outgrew its work budget",
                                       work=work)
    result = combine(paytable, base, free)
    if moments and (result.variance is None or result.hit_frequency is None):
        if work is not None:  # as many of the spins asked for as the work left allows
            rounds = min(rounds, max(work.left, 0) // slots_simulate.spin_cost(paytable))
        if rounds < slots_simulate.MIN_ROUNDS:
            raise Uncountable("moments")
        estimate = slots_simulate.simulate(paytable, rounds, seed, work=work, until_spent=work is not None)
        result = _with_estimates(result, estimate)
    return result


def _awards(game: Game) -> bool:
    return any(s.free_spins for s in game.scatters)


def game_stats(game: Game, *, moments: bool = True, line_budget: int = LINE_BUDGET,
               joint_budget: int = JOINT_BUDGET, hit_frequency: bool = True, work: Work | None = None) -> GameStats:
    if game.ways:
        from casino_audit.games import slots_ways
        return slots_ways.stats(game, moments=moments, hit_frequency=hit_frequency, work=work)
    from casino_audit.games import slots_lines
    return slots_lines.stats(game, moments=moments, line_budget=line_budget, joint_budget=joint_budget,
                             hit_frequency=hit_frequency, work=work)


def combine(paytable: Paytable, base: GameStats, free: GameStats | None) -> Result:
    """A paytable's result from its base game's stats (and its free game's): the closed form of the free spins."""
    game, bet, cycle = paytable.game, paytable.bet, base.cycle
    scatters = ScatterCounts(game.scatters)
    weight = {k: v[0] for k, v in base.by_counts.items()}
    scatter_win = sum((scatters.pay(k) * w for k, w in weight.items()), ZERO)  # summed over the cycle
    entries: list[EntryResult] = []
    kind = "ways" if game.ways else "line"
    total_win = base.line_win + scatter_win
    feature = None
    bonus_sum = ZERO
    if free is not None:
        feature, bonus_sum, free_moments = _free_spins(paytable, base, free)
        total_win += bonus_sum
    rtp = Fraction(total_win, cycle) / bet

    def share(win_sum) -> Fraction:
        return Fraction(win_sum, cycle) / bet / rtp if rtp else ZERO

    for pay, hits, win_sum in base.entries:
        entries.append(EntryResult(pay.name, kind, pay.pays, Fraction(hits), Fraction(hits, cycle),
                                   Fraction(win_sum, cycle), share(win_sum)))
    scatter_hits: dict = {}  # one pass over the counts (never one per scatter entry)
    for k, w in weight.items():
        for entry in scatters.entries(k):
            scatter_hits[id(entry)] = scatter_hits.get(id(entry), 0) + w
    for entry in game.scatters:
        hits = scatter_hits.get(id(entry), 0)
        entries.append(EntryResult(entry.name, "scatter", entry.pays, Fraction(hits), Fraction(hits, cycle),
                                   Fraction(hits, cycle) * entry.pays, share(hits * entry.pays)))
    if feature is not None:
        hits = sum((w for k, w in weight.items() if scatters.awarded(k)), 0)
        entries.append(EntryResult("free spins", "free spins", None, Fraction(hits), Fraction(hits, cycle),
                                   Fraction(bonus_sum, cycle), share(bonus_sum)))
    paying = [e for e in entries if e.pays is not None and e.hits]
    top = max(paying, key=lambda e: e.pays, default=None)  # the first of equal top pays
    hit = None
    if base.no_win is not None:
        hit = 1 - Fraction(base.no_win, cycle)
    variance = sd = None
    if base.moments and (free is None or free.moments):
        second = ZERO  # sum over the cycle of (the spin's win)^2
        for counts, (w, x1, x2) in base.by_counts.items():
            g = scatters.pay(counts)
            second += x2 + 2 * g * x1 + g * g * w
        if feature is not None:
            second += free_moments(base.by_counts, scatters)
        mean = Fraction(total_win, cycle)
        variance = (Fraction(second, cycle) - mean * mean) / (bet * bet)
        sd = square_root(variance)
    return Result(paytable.name, bet, cycle, rtp, hit_frequency=hit, variance=variance, sd=sd,
                  entries=tuple(entries), top_award=top, free_spins=feature)


def _free_spins(paytable: Paytable, base: GameStats, free: GameStats):
    """The free spins' closed form: (FreeSpinsResult, the bonus summed over the base cycle, a function giving the
    bonus's part of the sum of squares)."""
    game, free_game, multiplier = paytable.game, paytable.free_game, paytable.free_spin_multiplier
    scatters, free_scatters = ScatterCounts(game.scatters), ScatterCounts(free_game.scatters)
    cycle, free_cycle = base.cycle, free.cycle
    # One free spin: its win w (multiplied), the spins R it awards.
    free_weight = {k: v[0] for k, v in free.by_counts.items()}
    mean_w = multiplier * (free.line_win + sum((free_scatters.pay(k) * w for k, w in free_weight.items()), ZERO))
    mean_w = Fraction(mean_w, free_cycle)
    mean_r = Fraction(sum(free_scatters.retriggered(k) * w for k, w in free_weight.items()), free_cycle)
    if mean_r >= 1:
        raise NotEvaluable(f"free spins retrigger without end: a free spin awards {decimal_text(mean_r, 6)} "
                           "more free spins on average (1 or more), so the return is infinite")
    per_spin = mean_w / (1 - mean_r)  # b: one awarded spin, its retriggers included
    awarded = {k: scatters.awarded(k) for k in base.by_counts}
    initial = sum(awarded[k] * v[0] for k, v in base.by_counts.items())  # spins awarded, summed over the cycle
    triggers = sum(v[0] for k, v in base.by_counts.items() if awarded[k])
    bonus_sum = initial * per_spin
    result = FreeSpinsResult(
        trigger_probability=Fraction(triggers, cycle),
        spins_per_trigger=Fraction(initial, triggers) / (1 - mean_r) if triggers else ZERO,
        retrigger_per_spin=mean_r, win_per_spin=mean_w,
        win_per_trigger=Fraction(initial, triggers) * per_spin if triggers else ZERO, multiplier=multiplier)

    def squares(by_counts, base_scatters) -> Fraction:
        """The sum over the base cycle of 2 S B + B^2 (S the base spin's win, B its bonus)."""
        if not free.moments:
            raise Uncountable("free game moments")
        w2 = wr = rr = ZERO
        for k, (w, x1, x2) in free.by_counts.items():
            g, r = free_scatters.pay(k), free_scatters.retriggered(k)
            w2 += multiplier * multiplier * (x2 + 2 * g * x1 + g * g * w)
            wr += multiplier * r * (x1 + g * w)
            rr += r * (r - 1) * w
        w2, wr, rr = Fraction(w2, free_cycle), Fraction(wr, free_cycle), Fraction(rr, free_cycle)
        one_squared = (w2 + 2 * per_spin * wr + rr * per_spin * per_spin) / (1 - mean_r)  # E[B_1^2]
        total = ZERO
        for k, (w, x1, x2) in by_counts.items():
            n = awarded[k]
            if n:
                spin = x1 + base_scatters.pay(k) * w  # sum of S over these combinations
                total += 2 * spin * n * per_spin + w * (n * one_squared + n * (n - 1) * per_spin * per_spin)
        return total

    return result, bonus_sum, squares


def _with_estimates(result: Result, estimate: Result) -> Result:
    """The exact result, its hit frequency or standard deviation estimated where they could not be counted."""
    from dataclasses import replace

    changes, estimated = {}, []
    if result.variance is None:
        changes.update(variance=estimate.variance, sd=estimate.sd, sd_exact=False, sd_rounds=estimate.rounds)
        estimated.append("standard deviation")
    if result.hit_frequency is None:
        changes.update(hit_frequency=estimate.hit_frequency, hit_frequency_exact=False)
        estimated.append("hit frequency")
    note = (f"the {' and '.join(estimated)} {'are' if len(estimated) > 1 else 'is'} estimated by a seeded simulation "
            f"of {estimate.rounds:,} spins: the lines counted together outgrew the exact count's work budget")
    return replace(result, notes=(*result.notes, note), **changes)


def one_in(probability: Fraction) -> Fraction | None:
    """Odds as "1 in N": N = 1 / probability (the mean number of spins between two occurrences)."""
    return 1 / probability if probability else None
