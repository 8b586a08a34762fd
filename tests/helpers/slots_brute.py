"""A slot machine by brute force, written from the definitions and apart from the engine: every stop combination
visited, every line read against every pay entry, every ways path enumerated one by one, the free spins' pending
count followed as a Markov chain (truncated far beyond where its tail matters). Only for small machines."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from casino_audit.slots import HIGHEST, LINE_ALL, Game, Paytable


def columns(game: Game, reel) -> list[tuple[tuple[str, ...], int]]:
    size = len(reel.strip)
    return [(tuple(reel.strip[(stop - game.stop_row + row) % size] for row in range(game.rows)), weight)
            for stop, weight in enumerate(reel.weights) if weight]


def combine(game: Game, multipliers: list[Fraction]) -> Fraction:
    if not multipliers:
        return Fraction(1)
    if game.wild_multipliers == HIGHEST:
        return max(multipliers)
    return math.prod(multipliers, start=Fraction(1))


def match(game: Game, spec, symbol: str):
    """None if the symbol does not read as the position; else the multiplier list it adds ([] or [m])."""
    if spec is None or symbol in spec:
        return []
    for wild in game.wilds:
        if wild.symbol == symbol and wild.substitutes & spec:
            return [wild.multiplier]
    return None


def line_pay(game: Game, symbols: tuple[str, ...]) -> tuple[Fraction, list[int]]:
    """The line's win and the entries paid (by index)."""
    wins = []
    for index, pay in enumerate(game.pays):
        multipliers = []
        for spec, symbol in zip(pay.pattern, symbols):
            found = match(game, spec, symbol)
            if found is None:
                break
            multipliers += found
        else:
            wins.append((pay.pays * combine(game, multipliers), index))
    if not wins:
        return Fraction(0), []
    if game.line_wins == LINE_ALL:
        return sum(w for w, _ in wins), [i for _, i in wins]
    best = max(w for w, _ in wins)
    return best, [min(i for w, i in wins if w == best)]


def ways_pay(game: Game, window) -> tuple[Fraction, list[int]]:
    total, paid = Fraction(0), []
    subjects = []
    for pay in game.pays:
        if pay.subject not in subjects:
            subjects.append(pay.subject)
    for subject in subjects:
        entries = [(i, p) for i, p in enumerate(game.pays) if p.subject == subject]
        symbols = entries[0][1].symbols
        cells = []  # per reel: the multipliers lists of the cells that read as the subject
        for column in window:
            found = [match(game, symbols, s) for s in column]
            found = [f for f in found if f is not None]
            if not found:
                break
            cells.append(found)
        reached = [(i, p) for i, p in entries if p.count <= len(cells)]
        if not reached:
            continue
        index, pay = max(reached, key=lambda item: item[1].count)
        for path in itertools.product(*cells[:pay.count]):  # every way, one by one
            total += pay.pays * combine(game, [m for cell in path for m in cell])
        paid.append(index)
    return total, paid


@dataclass
class Spin:
    weight: int
    win: Fraction  # line or ways win, scatter pays included
    counts: dict  # scatter symbol -> count in the window
    paid: list  # (entry index, times) of the line/ways entries paid
    scatter_pay: Fraction
    awarded: int
    retriggered: int


def scatter_entries(game: Game, counts: dict) -> list:
    found = []
    for symbol in {s.symbol for s in game.scatters}:
        reached = [s for s in game.scatters if s.symbol == symbol and s.count <= counts.get(symbol, 0)]
        if reached:
            found.append(max(reached, key=lambda s: s.count))
    return found


def spins(game: Game) -> list[Spin]:
    found = []
    for combo in itertools.product(*(columns(game, reel) for reel in game.reels)):
        window = [column for column, _ in combo]
        weight = math.prod(w for _, w in combo)
        paid = []
        if game.lines is None:
            win, paid = ways_pay(game, window)
        else:
            win = Fraction(0)
            for line in game.lines:
                line_win, entries = line_pay(game, tuple(window[i][row] for i, row in enumerate(line)))
                win += line_win
                paid += entries
        counts = {}
        for column in window:
            for symbol in column:
                counts[symbol] = counts.get(symbol, 0) + 1
        entries = scatter_entries(game, counts)
        scatter = sum((s.pays for s in entries), Fraction(0))
        found.append(Spin(weight, win + scatter, counts, paid, scatter, sum(s.free_spins for s in entries),
                          sum(s.retrigger for s in entries)))
    return found


def pending_chain(free: list[Spin], multiplier: Fraction, cap: int = 80) -> tuple[list[Fraction], list[Fraction]]:
    """The free spins as a Markov chain on the spins still to play, capped at `cap` pending: f[n] the expected
    total win from n pending spins, g[n] its second moment; solved exactly (Gauss-Jordan, fractions)."""
    total = sum(s.weight for s in free)
    outcomes: dict[int, list] = {}  # spins awarded -> [probability, E[w; R=r], E[w^2; R=r]]
    for s in free:
        w = multiplier * s.win
        slot = outcomes.setdefault(s.retriggered, [Fraction(0)] * 3)
        p = Fraction(s.weight, total)
        slot[0] += p
        slot[1] += p * w
        slot[2] += p * w * w

    def solve(constant) -> list[Fraction]:
        # x[n] = constant(n) + sum_r p_r x[min(n - 1 + r, cap)], n = 1..cap; x[0] = 0
        size = cap
        matrix = [[Fraction(0)] * (size + 1) for _ in range(size)]
        for n in range(1, cap + 1):
            row = matrix[n - 1]
            row[n - 1] += 1
            for r, (p, _, _) in outcomes.items():
                target = min(n - 1 + r, cap)
                if target:
                    row[target - 1] -= p
            row[size] = constant(n)
        for col in range(size):  # Gauss-Jordan
            pivot = next(r for r in range(col, size) if matrix[r][col] != 0)
            matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
            lead = matrix[col][col]
            matrix[col] = [v / lead for v in matrix[col]]
            for r in range(size):
                if r != col and matrix[r][col] != 0:
                    factor = matrix[r][col]
                    matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col])]
        return [Fraction(0)] + [matrix[n][size] for n in range(size)]

    mean_w = sum(v[1] for v in outcomes.values())
    f = solve(lambda n: mean_w)
    w2 = sum(v[2] for v in outcomes.values())

    def second(n):
        return w2 + 2 * sum(v[1] * f[min(n - 1 + r, cap)] for r, v in outcomes.items())
    g = solve(second)
    return f, g


def paytable_figures(paytable: Paytable, cap: int = 80) -> dict:
    """rtp, hit frequency, variance (in bets), entry hits, scatter hits, trigger probability: by brute force."""
    base = spins(paytable.game)
    total = sum(s.weight for s in base)
    f = g = None
    if paytable.free_game is not None and any(s.awarded for s in base):
        f, g = pending_chain(spins(paytable.free_game), paytable.free_spin_multiplier, cap)
    first = second = Fraction(0)
    hits = 0
    entry_hits = [0] * len(paytable.game.pays)
    for s in base:
        bonus = bonus2 = Fraction(0)
        if s.awarded and f is not None:
            n = min(s.awarded, cap)
            bonus, bonus2 = f[n], g[n]
        first += s.weight * (s.win + bonus)
        second += s.weight * (s.win * s.win + 2 * s.win * bonus + bonus2)
        if s.win or s.awarded:
            hits += s.weight
        for e in s.paid:
            entry_hits[e] += s.weight
    bet = paytable.bet
    mean = Fraction(first, total)
    return {"rtp": mean / bet, "hit": Fraction(hits, total),
            "variance": (Fraction(second, total) - mean * mean) / (bet * bet), "entry_hits": entry_hits,
            "cycle": total, "trigger": Fraction(sum(s.weight for s in base if s.awarded), total)}
