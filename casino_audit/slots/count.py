"""Slot machines from their PAR data: the exact return to player, hit frequency, standard deviation per spin,
each pay's hits and share of the return, and the odds of the top award, as fractions.

Pure functions, no I/O. The model below is what `casino_audit.slots.par_read` reads from a filing's `par:` section (and
checks for consistency: every symbol known, every line inside the window); docs/par.md describes the format.

How it is counted, never by visiting every stop combination:
- a **line** is read by an automaton over its symbols, reel by reel (slots/lines.py): a state is the set of pay
  entries still matching (with the wild multipliers met so far) and the best win completed; the per-reel symbol
  weights of the line's rows are pushed through it, and a line whose entries are all decided stops there, its
  weight carried over the remaining reels as a product. "Highest win only" is exact because a state keeps the best
  completed win and drops an entry only when it can no longer beat it;
- **ways** (every left-to-right path across adjacent reels) are sums of products of per-reel counts
  (slots/ways.py): the number of paths of a symbol over reels 1..k is the product of its cells on each reel, and
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
from dataclasses import replace
from fractions import Fraction

from casino_audit.slots import lines as slots_lines, simulate as slots_simulate, ways as slots_ways
from casino_audit.slots.model import (JOINT_BUDGET, ZERO, LINE_BUDGET, EntryResult, FreeSpinsResult, Game, GameStats,
                                     NotEvaluable, Paytable, Result, ScatterCounts, Uncountable, Work,
                                     decimal_text, square_root)


def evaluate(paytable: Paytable, *, moments: bool = True, rounds: int = 20_000, seed: int = 1,
             line_budget: int | None = None, joint_budget: int | None = None, work: Work | None = None,
             estimate: bool = True) -> Result:
    """The paytable's return, counted exactly; with `moments`, also its hit frequency and standard deviation.
    A count that outgrows its budget (LINE_BUDGET, JOINT_BUDGET unless given) is replaced by a seeded simulation of
    `rounds` spins, labelled so (without `estimate`, the return's count raises Uncountable instead). `work` bounds
    the operations of both (Uncountable past it)."""

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
        return slots_ways.stats(game, moments=moments, hit_frequency=hit_frequency, work=work)
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
