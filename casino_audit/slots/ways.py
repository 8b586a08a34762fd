"""Ways games, counted: every left-to-right path across adjacent reels is a way; a subject (a symbol or a group)
pays for `k` when its run from the left is at least k reels long and shorter than its next listed count, once per
path, times the path's wild multipliers.

The sum of the path multipliers over reels 1..k is a product of per-reel sums (each wild multiplying: the cells'
multipliers added up per reel), or, when only the highest multiplier of a path counts, a telescoping sum of such
products over the multiplier levels (the paths whose multipliers all stay below a level are a product too). So a
spin's ways win is a sum of terms, each a constant times a product over the reels of a function of that reel's
window; the reels are independent, so the mean of a term is the product of per-reel means, and the mean of the
square is the sum over pairs of terms of products of per-reel means of the two functions multiplied. Scatter counts
ride along as a polynomial in each reel's mean (the coefficient of z^k: the part of the mean with k scatters).
"""

from __future__ import annotations

import math
from fractions import Fraction

from casino_audit.slots.model import HIGHEST, ZERO, Game, GameStats, ScatterCounts, Uncountable

MAX_TERMS = 100_000  # product terms of a spin's ways win (a real game's: a few hundred)


def _plain(value):
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value


class _Subjects:
    """The subjects a ways game pays (in order of first entry), their counts, and per reel the functions of a
    window the terms read: ("a", g) the cells' multipliers summed, ("c", g, u) the cells whose multiplier is
    below u (None: all), ("n", g) whether any cell matches."""

    def __init__(self, game: Game):
        self.names: list[str] = []
        self.symbols: dict[str, frozenset[str]] = {}
        self.entries: dict[str, list] = {}
        for pay in game.pays:
            if pay.subject not in self.symbols:
                self.names.append(pay.subject)
                self.symbols[pay.subject] = pay.symbols
            self.entries.setdefault(pay.subject, []).append(pay)
        for entries in self.entries.values():
            entries.sort(key=lambda p: p.count)
        self.wilds = {w.symbol: w for w in game.wilds}
        self.highest = game.wild_multipliers == HIGHEST

    def cells(self, subject: str, column) -> list:
        """The multiplier of each cell of the column that reads as the subject."""
        symbols = self.symbols[subject]
        found = []
        for symbol in column:
            if symbol in symbols:
                found.append(1)
            else:
                wild = self.wilds.get(symbol)
                if wild is not None and wild.substitutes & symbols:
                    found.append(_plain(wild.multiplier))
        return found

    def value(self, key, column):
        if key is None:
            return 1
        cells = self.cells(key[1], column)
        if key[0] == "a":
            return _plain(sum(cells, ZERO)) if cells else 0
        if key[0] == "n":
            return 1 if cells else 0
        level = key[2]
        return len(cells) if level is None else sum(1 for m in cells if m < level)

    def levels(self, subject: str) -> list:
        symbols = self.symbols[subject]
        found = {1} | {_plain(w.multiplier) for w in self.wilds.values() if w.substitutes & symbols}
        return sorted(found)

    def paths(self, subject: str, k: int, reels: int) -> list[tuple]:
        """S_k: the path multipliers over reels 1..k summed, as (coefficient, per-reel keys) terms."""
        def product(key):
            return tuple(key if i < k else None for i in range(reels))
        if not self.highest:
            return [(1, product(("a", subject)))]
        levels = self.levels(subject)
        terms = [(1, product(("c", subject, None)))]
        for previous, level in zip(levels, levels[1:]):
            step = level - previous
            terms.append((step, product(("c", subject, None))))
            terms.append((-step, product(("c", subject, level))))
        return terms

    def entry_terms(self, pay, reels: int) -> list[tuple]:
        """The terms of one entry's win: pays times S_k, less the paths that run on to the next listed count."""
        entries = self.entries[pay.subject]
        following = [p.count for p in entries if p.count > pay.count]
        terms = []
        for coefficient, keys in self.paths(pay.subject, pay.count, reels):
            terms.append((pay.pays * coefficient, keys))
            if following:
                longer = tuple(("n", pay.subject) if pay.count <= i < following[0] else key
                               for i, key in enumerate(keys))
                terms.append((-pay.pays * coefficient, longer))
        return terms


def stats(game: Game, *, moments: bool, hit_frequency: bool = True, work=None) -> GameStats:
    spend = work.spend if work is not None else (lambda amount: None)
    subjects = _Subjects(game)
    scatters = ScatterCounts(game.scatters)
    reels = len(game.reels)
    windows = [[(column, scatters.of(column), weight) for column, weight in reel.windows(game.rows, game.stop_row)]
               for reel in game.reels]
    totals = [reel.total for reel in game.reels]
    cycle = math.prod(totals)
    per_entry, terms = _terms(game, subjects, reels, spend)
    means: list[dict] = [dict() for _ in range(reels)]  # per reel: (key, key) -> polynomial in the scatter counts

    def reel_mean(i: int, f, g) -> dict:
        pair = (f, g) if repr(f) <= repr(g) else (g, f)
        found = means[i].get(pair)
        if found is None:
            spend(len(windows[i]))
            found = {}
            for column, counts, weight in windows[i]:
                v = subjects.value(pair[0], column)
                if v:
                    v = v * subjects.value(pair[1], column)
                if v:
                    found[counts] = found.get(counts, 0) + weight * v
            means[i][pair] = found
        return found

    def term_mean(keys_f, keys_g=None) -> dict:
        spend(reels)
        polynomial = {scatters.zero: 1}
        for i in range(reels):
            polynomial = scatters.multiply(polynomial, reel_mean(i, keys_f[i], None if keys_g is None else keys_g[i]),
                                           work)
            if not polynomial:
                break
        return polynomial

    first: dict = {}
    for keys, coefficient in terms.items():
        for counts, v in term_mean(keys).items():
            first[counts] = first.get(counts, 0) + coefficient * v
    by_counts = {k: [w, _plain(Fraction(first.get(k, 0))), None] for k, w in scatters.distribution(game, work).items()}
    found = GameStats(cycle, Fraction(sum(first.values(), ZERO)), by_counts=by_counts)
    if moments:
        second = _second_moment(terms, term_mean)
        for k, slot in found.by_counts.items():
            slot[2] = _plain(Fraction(second.get(k, 0)))
        found.moments = True
    for pay, entry_terms in zip(game.pays, per_entry):
        found.entries.append((pay, _entry_hits(subjects, pay, windows, totals),
                              Fraction(sum((c * sum(term_mean(keys).values()) for c, keys in entry_terms), ZERO))))
    if hit_frequency:
        found.no_win = _no_win(subjects, game, scatters, windows, spend)
    return found


def _terms(game: Game, subjects: _Subjects, reels: int, spend) -> tuple[list[list[tuple]], dict[tuple, Fraction]]:
    """Each entry's terms, and all of them summed by their keys, those that cancel out left out."""
    per_entry, made = [], 0
    for pay in game.pays:  # many wild multipliers under `highest` make many terms: counted as they are made
        per_entry.append(subjects.entry_terms(pay, reels))
        made += len(per_entry[-1])
        spend(len(per_entry[-1]) * reels)
        if made > MAX_TERMS:
            raise Uncountable("ways terms")
    terms: dict[tuple, Fraction] = {}
    for entry_terms in per_entry:
        for coefficient, keys in entry_terms:
            terms[keys] = terms.get(keys, 0) + coefficient
    return per_entry, {keys: c for keys, c in terms.items() if c}


def _second_moment(terms: dict[tuple, Fraction], term_mean) -> dict:
    """The mean square of the pay, by scatter counts: the mean product of each pair of terms."""
    listed = list(terms.items())
    second: dict = {}
    for a, (keys_f, cf) in enumerate(listed):
        for keys_g, cg in listed[a:]:
            factor = cf * cg * (1 if keys_f == keys_g else 2)
            for counts, v in term_mean(keys_f, keys_g).items():
                second[counts] = second.get(counts, 0) + factor * v
    return second


def _entry_hits(subjects: _Subjects, pay, windows, totals) -> int:
    """Weighted combinations on which the entry pays: the run reaches its count and not the next listed one."""
    reached = [sum(w for column, _, w in reel if subjects.cells(pay.subject, column)) for reel in windows]

    def at_least(k: int) -> int:
        return math.prod(reached[:k]) * math.prod(totals[k:])
    following = [p.count for p in subjects.entries[pay.subject] if p.count > pay.count]
    return at_least(pay.count) - (at_least(following[0]) if following else 0)


def _no_win(subjects: _Subjects, game: Game, scatters: ScatterCounts, windows, spend) -> int:
    """The weight of the combinations with no ways win, no scatter pay and no free spins: reel by reel, the
    subjects whose run is still going (and short of paying), and the scatter counts."""
    least = {name: subjects.entries[name][0].count for name in subjects.names}
    states = {(frozenset(subjects.names), scatters.zero): 1}
    for i, reel_windows in enumerate(windows):
        following: dict = {}
        for (alive, counts), w in states.items():
            spend(len(reel_windows) * (len(alive) + 1))
            for column, window_counts, weight in reel_windows:
                going = frozenset(name for name in alive if subjects.cells(name, column))
                if any(i + 1 >= least[name] for name in going):
                    continue  # a subject has reached a paying count
                key = (going, scatters.add(counts, window_counts))
                following[key] = following.get(key, 0) + w * weight
        states = following
    return sum(w for (_, counts), w in states.items() if not scatters.pay(counts) and not scatters.awarded(counts))
