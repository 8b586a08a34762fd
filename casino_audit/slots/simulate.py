"""A seeded simulation of a paytable, for what the exact count could not do within its work budget: the same seed
gives the same figures. Its figures are labelled as estimates (`exact` False) with the 95 % interval of the return
(normal approximation: mean +- 1.96 standard errors)."""

from __future__ import annotations

import bisect
import itertools
import random
from fractions import Fraction

from casino_audit.slots.line_automaton import Automaton
from casino_audit.slots.ways import _Subjects
from casino_audit.slots.model import (ONE, ZERO, Game, NotEvaluable, Paytable, Result, ScatterCounts, Uncountable,
                                      decimal_text, square_root)

LINE_NODES = 4  # nodes of the lines' tree a simulated spin reads per operation it is charged (memoised: cheap)
MIN_ROUNDS = 200  # fewer simulated spins than this say nothing: the figure is then not given
FREE_SPINS_CAP = 1_000_000  # free spins played from one trigger at most (the mean is finite; a run is cut there)


class Spinner:
    """Draws a game's window and evaluates it: the line or ways win and the scatter counts. Each stop's column and
    scatter counts are made once; lines are read as a tree of their row prefixes (lines sharing their first rows
    share their first steps, and a prefix that is decided decides every line below it)."""

    def __init__(self, game: Game, rng: random.Random, work=None):
        self.game = game
        self.rng = rng
        self.work = work
        self.scatters = ScatterCounts(game.scatters)
        self.cumulative = [list(itertools.accumulate(reel.weights)) for reel in game.reels]
        self.columns = []
        self.counts = []
        for reel in game.reels:
            size = len(reel.strip)
            columns = [tuple(reel.strip[(stop - game.stop_row + row) % size] for row in range(game.rows))
                       for stop in range(size)]
            self.columns.append(columns)
            self.counts.append([self.scatters.of(column) for column in columns])
        if game.ways:
            self.subjects = _Subjects(game)
        else:
            self.automaton = Automaton(game, work)
            self.tree = _tree(game.lines, 0)
        # what a spin is charged: its stops drawn, and each line's reading (a node of the tree) or each subject's
        # run (charged by ways_win)
        self.cost = len(game.reels) + (0 if game.ways else _nodes(self.tree) // LINE_NODES) + \
            (len(game.reels) + 2) * len(self.scatters.symbols)  # the counts added, then paid and awarded

    def stops(self) -> list[int]:
        randrange = self.rng.randrange
        return [bisect.bisect_right(cumulative, randrange(cumulative[-1])) for cumulative in self.cumulative]

    def window(self) -> list[tuple[str, ...]]:
        return [columns[stop] for columns, stop in zip(self.columns, self.stops())]

    def spin(self) -> tuple[Fraction, tuple[int, ...]]:
        if self.work is not None:
            self.work.spend(self.cost)
        stops = self.stops()
        columns = [columns[stop] for columns, stop in zip(self.columns, stops)]
        counts = self.scatters.zero
        if self.scatters.symbols:
            for reel_counts, stop in zip(self.counts, stops):
                counts = self.scatters.add(counts, reel_counts[stop])
        return (self.ways_win(columns) if self.game.ways else self.lines_win(columns)), counts

    def evaluate(self, columns) -> tuple[Fraction, tuple[int, ...]]:
        counts = self.scatters.zero
        for column in columns:
            counts = self.scatters.add(counts, self.scatters.of(column))
        return (self.ways_win(columns) if self.game.ways else self.lines_win(columns)), counts

    def lines_win(self, columns) -> Fraction:
        automaton = self.automaton
        memo, step, terminal, win = automaton.memo, automaton.step, automaton.terminal, automaton.win
        length = automaton.length

        def walk(nodes, position, sid):
            total = 0
            for row, lines_below, children in nodes:
                state = sid
                if position < length:
                    symbol = columns[position][row]
                    state = memo[position].get((sid, symbol))
                    if state is None:
                        state = step(position, sid, symbol)
                if terminal[state] or not children:
                    total += win[state] * lines_below
                else:
                    total += walk(children, position + 1, state)
            return total
        return walk(self.tree, 0, 0)

    def ways_win(self, columns) -> Fraction:
        subjects, total = self.subjects, ZERO
        if self.work is not None:
            self.work.spend(len(subjects.names) * len(columns))
        for name in subjects.names:
            cells = []
            for column in columns:
                found = subjects.cells(name, column)
                if not found:
                    break
                cells.append(found)
            paid = [p for p in subjects.entries[name] if p.count <= len(cells)]
            if paid:
                pay = paid[-1]
                if self.work is not None and subjects.highest:  # each multiplier level reads every cell
                    used = cells[:pay.count]
                    self.work.spend(len({m for reel in used for m in reel}) * sum(len(reel) for reel in used))
                total += pay.pays * paths(cells[:pay.count], subjects.highest)
        return total

def _tree(lines, position: int) -> list:
    """The lines as a tree of row prefixes: (row on this reel, how many lines go through it, its children)."""
    by_row: dict[int, list] = {}
    for line in lines:
        by_row.setdefault(line[position], []).append(line)
    return [(row, len(group), _tree(group, position + 1) if position + 1 < len(group[0]) else [])
            for row, group in sorted(by_row.items())]


def _round(base: Spinner, free: Spinner | None, multiplier: Fraction) -> tuple[Fraction, int]:
    """One base spin and the free spins it awards: (the win, 1 if it paid or awarded free spins)."""
    win, counts = base.spin()
    win += base.scatters.pay(counts)
    awarded = base.scatters.awarded(counts)
    hit = 1 if win or awarded else 0
    played = 0
    while awarded and free is not None and played < FREE_SPINS_CAP:
        awarded -= 1
        played += 1
        free_win, free_counts = free.spin()
        win += multiplier * (free_win + free.scatters.pay(free_counts))
        awarded += free.scatters.retriggered(free_counts)
    return win, hit


def _nodes(tree: list) -> int:
    return sum(1 + _nodes(children) for _, _, children in tree)


def paths(cells: list[list], highest: bool) -> Fraction:
    """The path multipliers over these reels summed (each reel: its cells' multipliers)."""
    if not highest:
        product = ONE
        for reel in cells:
            product *= sum(reel)
        return product
    levels = sorted({m for reel in cells for m in reel})
    total, previous = ZERO, 0
    for level in levels:  # the paths whose highest multiplier is at least `level`, times the step
        every, below = 1, 1
        for reel in cells:
            every *= len(reel)
            below *= sum(1 for m in reel if m < level)
        total += (level - previous) * (every - below)
        previous = level
    return total


# Standard errors either side of an estimate a verdict rests on: the normal quantile of 1 - 0.5e-9 (two-sided
# 10^-9, as the meter logs' rate check; stats.normal_quantile(1 - 5e-10) = 6.1094)
DECIDING_Z = Fraction(611, 100)


def simulate(paytable: Paytable, rounds: int, seed: int, note: str = "", work=None,
             until_spent: bool = False) -> Result:
    """`rounds` seeded spins; with `until_spent`, as many of them as `work` allows (at least MIN_ROUNDS, else
    Uncountable), the figures then over the spins played."""
    rng = random.Random(seed)
    base = Spinner(paytable.game, rng, work)
    free = None
    if paytable.free_game is not None and any(s.free_spins for s in paytable.game.scatters):
        free = Spinner(paytable.free_game, rng, work)
        _check_finite(paytable.free_game)
    bet, multiplier = paytable.bet, paytable.free_spin_multiplier
    total = squares = ZERO
    hits = 0
    for played_rounds in range(rounds):
        try:
            win, hit = _round(base, free, multiplier)
        except Uncountable:
            if not until_spent or played_rounds < MIN_ROUNDS:
                raise
            rounds = played_rounds  # the work is spent: the figures are those of the rounds played in full
            break
        hits += hit
        total += win
        squares += win * win
    mean = total / rounds
    variance = (squares / rounds - mean * mean) * Fraction(rounds, max(rounds - 1, 1))
    error = Fraction(square_root(variance / rounds)) if variance > 0 else ZERO
    rtp = mean / bet
    notes = (f"estimated by a seeded simulation of {rounds:,} spins (seed {seed})" + (f": {note}" if note else ""),)
    return Result(paytable.name, bet, paytable.game.cycle, rtp, exact=False,
                  ci95=((mean - Fraction(196, 100) * error) / bet, (mean + Fraction(196, 100) * error) / bet),
                  decides=((mean - DECIDING_Z * error) / bet, (mean + DECIDING_Z * error) / bet),
                  rounds=rounds, hit_frequency=Fraction(hits, rounds), hit_frequency_exact=False,
                  variance=variance / (bet * bet), sd=square_root(variance / (bet * bet)), sd_exact=False,
                  sd_rounds=rounds, notes=notes)


def spin_cost(paytable: Paytable) -> int:
    """About what one simulated spin is charged (a base spin; free spins are charged as they are played)."""
    game = paytable.game
    scatters = (len(game.reels) + 2) * len({s.symbol for s in game.scatters})
    if game.ways:
        return len(game.reels) * (1 + len({p.subject for p in game.pays})) + scatters
    return len(game.reels) * (1 + len(game.lines) // LINE_NODES) + scatters


def _check_finite(game: Game) -> None:
    scatters = ScatterCounts(game.scatters)
    distribution = scatters.distribution(game)
    mean = Fraction(sum(scatters.retriggered(k) * w for k, w in distribution.items()), game.cycle)
    if mean >= 1:
        raise NotEvaluable(f"free spins retrigger without end: a free spin awards {decimal_text(mean, 6)} more free "
                           "spins on average (1 or more), so the return is infinite")



