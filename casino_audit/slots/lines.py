"""Line games, counted: an automaton reads a line's symbols reel by reel; the per-reel weights of the symbols a
line's rows show are pushed through it (one line at a time for the return, all lines together for the hit
frequency and the variance).

The automaton (casino_audit.slots.line_automaton): a state is (the entries still matching, each with its wild multiplier so far; the best win completed;
the entry that pays it). A line whose state has no entry left is decided: its weight is carried over the reels
left as a product of their totals, never visited stop by stop. With "highest win only", an entry is dropped as
soon as it can no longer beat the best completed win (its pay times the most the wilds left could multiply it),
which keeps the states few and changes nothing: the best is exact. Equal wins go to the entry listed first.
"""

from __future__ import annotations

import math
from fractions import Fraction

from casino_audit.slots.line_automaton import Automaton
from casino_audit.slots.model import ZERO, Game, GameStats, ScatterCounts, Uncountable


def marginals(game: Game) -> list[list[dict[str, int]]]:
    """Per reel, per row: the weight of each symbol showing in that row."""
    found = []
    for reel in game.reels:
        by_row = [dict() for _ in range(game.rows)]
        for column, weight in reel.windows(game.rows, game.stop_row):
            for row, symbol in enumerate(column):
                by_row[row][symbol] = by_row[row].get(symbol, 0) + weight
        found.append(by_row)
    return found


def line_outcomes(automaton: Automaton, rows: tuple[int, ...], by_row, totals, budget: list[int]) -> dict[int, int]:
    """The decided states of one line, each with its weight over the cycle."""
    spread = {0: 1}
    reels = len(rows)
    work = automaton.work
    for position in range(reels):
        weights = by_row[position][rows[position]]
        following = {}
        for sid, weight in spread.items():
            if automaton.terminal[sid] or position >= automaton.length:
                following[sid] = following.get(sid, 0) + weight * totals[position]
                continue
            budget[0] -= len(weights)
            if budget[0] < 0:
                raise Uncountable("line budget")
            if work is not None:  # every paytable of a file draws on one budget
                work.spend(len(weights))
            for symbol, count in weights.items():
                nxt = automaton.step(position, sid, symbol)
                following[nxt] = following.get(nxt, 0) + weight * count
        spread = following
    return spread


def stats(game: Game, *, moments: bool, line_budget: int, joint_budget: int, hit_frequency: bool = True,
          work=None) -> GameStats:
    automaton = Automaton(game, work)
    by_row = marginals(game)
    totals = [reel.total for reel in game.reels]
    cycle = math.prod(totals)
    budget = [line_budget]
    # Lines whose rows show the same weights give the same outcomes: computed once.
    signature = [[id_of for id_of in _row_ids(by_row[i])] for i in range(len(game.reels))]
    outcomes_of: dict[tuple, dict[int, int]] = {}
    hits = [0] * len(game.pays)
    wins = [ZERO] * len(game.pays)
    line_win = ZERO
    for line in game.lines:
        key = tuple(signature[i][row] for i, row in enumerate(line))
        outcomes = outcomes_of.get(key)
        if outcomes is None:
            outcomes = outcomes_of[key] = line_outcomes(automaton, line, by_row, totals, budget)
        if work is not None:  # a line whose outcomes are known already still adds each of them up, exactly
            work.spend(len(outcomes))
        for sid, weight in outcomes.items():
            win = automaton.win[sid]
            if not win:
                continue
            line_win += win * weight
            entry = automaton.entry[sid]
            if entry >= 0:
                hits[entry] += weight
                wins[entry] += win * weight
    if automaton.all_wins:  # every win on a line pays: each entry counted on its own
        hits, wins = _each_entry(game, by_row, totals, signature, work)
    found = GameStats(cycle, line_win, entries=[(pay, hits[e], wins[e]) for e, pay in enumerate(game.pays)])
    scatters = ScatterCounts(game.scatters)
    found.by_counts = {k: [w, None, None] for k, w in scatters.distribution(game, work).items()}
    if hit_frequency:
        try:
            found.no_win = _charged(lambda left: no_win_weight(game, automaton, scatters, joint_budget, left),
                                    automaton, joint_budget)
        except Uncountable:
            return found  # the moments keep more states than this count: they would outgrow it too
    if moments:
        try:
            found.by_counts = _charged(lambda left: joint_moments(game, automaton, scatters, joint_budget, left),
                                       automaton, joint_budget)
            found.moments = True
        except Uncountable:
            pass
    return found


def _row_ids(rows: list[dict[str, int]]) -> list[int]:
    seen: dict[tuple, int] = {}
    return [seen.setdefault(tuple(sorted(r.items())), len(seen)) for r in rows]


def _each_entry(game: Game, by_row, totals, signature, work=None) -> tuple[list, list]:
    """With every win on a line paid, an entry's hits and wins are products over the reels (its own matches).
    Lines whose rows show the same weights are read once (times their number), a row's matches of a position once,
    and each reading is charged to `work`."""
    wilds = {w.symbol: w for w in game.wilds}
    distinct: dict[tuple, list] = {}
    for line in game.lines:
        key = tuple(signature[i][row] for i, row in enumerate(line))
        distinct.setdefault(key, [line, 0])[1] += 1
    matches: dict[tuple, tuple] = {}
    hits, wins = [], []
    for pay in game.pays:
        entry_hits, entry_wins = 0, ZERO
        for key, (line, times) in distinct.items():
            if work is not None:
                work.spend(len(line))
            count, value = 1, Fraction(pay.pays)
            for position, row in enumerate(line):
                spec = pay.pattern[position] if position < len(pay.pattern) else None
                if spec is None:
                    count *= totals[position]
                    value *= totals[position]
                    continue
                found = matches.get((position, key[position], spec))
                if found is None:
                    weights = by_row[position][row]
                    if work is not None:
                        work.spend(len(weights))
                    matched, multiplied = 0, ZERO
                    for symbol, weight in weights.items():
                        if symbol in spec:
                            matched += weight
                            multiplied += weight
                        elif symbol in wilds and wilds[symbol].substitutes & spec:
                            matched += weight
                            multiplied += weight * wilds[symbol].multiplier
                    found = matches[(position, key[position], spec)] = (matched, multiplied)
                count *= found[0]
                value *= found[1]
            entry_hits += count * times
            entry_wins += value * times
        hits.append(entry_hits)
        wins.append(entry_wins)
    return hits, wins


# --- the lines together --------------------------------------------------------------------------------------------

class _Reels:
    """Per reel: its distinct windows with weights and scatter counts, and their projections on sets of rows."""

    def __init__(self, game: Game, scatters: ScatterCounts):
        self.windows = []
        for reel in game.reels:
            merged: dict[tuple, int] = {}
            for column, weight in reel.windows(game.rows, game.stop_row):
                key = (column, scatters.of(column))
                merged[key] = merged.get(key, 0) + weight
            self.windows.append(merged)
        self._projections: dict[tuple[int, tuple[int, ...]], list] = {}

    def projection(self, reel: int, rows: tuple[int, ...]) -> list[tuple[tuple[str, ...], tuple, int]]:
        """(the symbols in these rows, the window's scatter counts, weight), merged."""
        key = (reel, rows)
        found = self._projections.get(key)
        if found is None:
            merged: dict[tuple, int] = {}
            for (column, counts), weight in self.windows[reel].items():
                k = (tuple(column[r] for r in rows), counts)
                merged[k] = merged.get(k, 0) + weight
            found = self._projections[key] = [(symbols, counts, w) for (symbols, counts), w in merged.items()]
        return found


def joint_moments(game: Game, automaton: Automaton, scatters: ScatterCounts, budget: int,
                  left: list[int] | None = None) -> dict:
    """Per scatter count: [weight, sum of X, sum of X^2] over the cycle, X the sum of the lines' wins, all lines
    pushed together reel by reel. A state is (the lines not yet decided, each with its automaton state; the
    scatter counts so far); it carries the weight and the sums of the decided lines' wins and of their square."""
    reels = _Reels(game, scatters)
    lines = game.lines
    start = (tuple((j, 0) for j in range(len(lines))), scatters.zero)
    states = {start: [1, 0, 0]}
    left = [budget] if left is None else left
    for position in range(len(game.reels)):
        moves: dict[tuple, list] = {}  # alive lines -> [(next alive lines, wins decided, counts, weight)]
        groups: dict = {}
        following: dict[tuple, list] = {}
        for (alive, counts), (w, x1, x2) in states.items():
            steps = moves.get(alive)
            if steps is None:
                steps = moves[alive] = _moves(automaton, lines, alive, position, reels, left, groups)
            for nxt, decided, window_counts, weight in steps:
                key = (nxt, scatters.add(counts, window_counts) if scatters.symbols else counts)
                if decided:
                    n1 = x1 + decided * w
                    n2 = x2 + 2 * decided * x1 + decided * decided * w
                else:
                    n1, n2 = x1, x2
                slot = following.get(key)
                if slot is None:
                    following[key] = [w * weight, n1 * weight, n2 * weight]
                else:
                    slot[0] += w * weight
                    slot[1] += n1 * weight
                    slot[2] += n2 * weight
                left[0] -= 1
        if left[0] < 0:
            raise Uncountable("joint budget")
        states = following
    found: dict = {}
    for (alive, counts), values in states.items():
        assert not alive, "every line is decided after the last reel"
        slot = found.setdefault(counts, [0, 0, 0])
        for i in range(3):
            slot[i] += values[i]
    return found


def _charged(count, automaton: Automaton, budget: int):
    """`count(left)` (joint_moments, no_win_weight), its transitions charged to the file's work whether or not it
    finishes (each costs automaton.joint_cost operations): every paytable of a file draws on one budget, and the
    count stops at half the file's work left (what it may not finish leaves the other half to a simulation)."""
    if automaton.work is not None:
        budget = min(budget, max(automaton.work.left, 0) // 2 // automaton.joint_cost)
    left = [budget]
    try:
        return count(left)
    finally:
        if automaton.work is not None:
            automaton.work.spend((budget - max(left[0], 0)) * automaton.joint_cost)


def _by_row(automaton: Automaton, lines, alive: tuple, position: int, quiet: bool, memo: dict, left: list[int]):
    """The alive lines grouped by the row they read on this reel, and a function giving a group's outcome for the
    symbol in its row: (the wins decided, the lines still alive) - or None, when `quiet`, if one of them has won.
    A group meets a symbol once per reel (`memo`), whatever the other rows hold."""
    groups: dict[int, list] = {}
    for j, sid in alive:
        groups.setdefault(lines[j][position], []).append((j, sid))
    # a group is keyed by a small number, its lines' tuple hashed once here: keyed by the tuple itself, each of a
    # reel's projections hashed every line alive again (a paytable of 200 lines spent minutes hashing)
    interned = memo.setdefault(None, {})
    groups = {row: tuple(group) for row, group in groups.items()}
    ids = {row: interned.setdefault(group, len(interned)) for row, group in groups.items()}
    step, terminal, win = automaton.step, automaton.terminal, automaton.win

    def outcome(row: int, symbol: str):
        group = groups[row]
        key = (ids[row], symbol)
        found = memo.get(key, memo)
        if found is not memo:
            return found
        # each line of the group is stepped once per symbol: charged, for a paytable of many lines steps them by
        # the million where its projections are few (50 paytables of 200 lines ran 56 s within the budget)
        left[0] -= len(group)
        if left[0] < 0:
            raise Uncountable("joint budget")
        decided, going = 0, []
        for j, sid in group:
            sid = step(position, sid, symbol)
            if quiet and win[sid]:
                memo[key] = None
                return None
            if terminal[sid]:
                decided += win[sid]
            else:
                going.append((j, sid))
        found = memo[key] = (decided, going)
        return found
    return tuple(sorted(groups)), outcome


def _moves(automaton: Automaton, lines, alive: tuple, position: int, reels: _Reels, left: list[int],
           memo: dict) -> list:
    rows, outcome = _by_row(automaton, lines, alive, position, False, memo, left)
    found = []
    for symbols, counts, weight in reels.projection(position, rows):
        decided, nxt = 0, []
        for row, symbol in zip(rows, symbols):
            row_decided, going = outcome(row, symbol)
            decided += row_decided
            nxt += going
        nxt.sort()
        found.append((tuple(nxt), decided, counts, weight))
    left[0] -= len(found) * max(len(rows), 1)
    if left[0] < 0:
        raise Uncountable("joint budget")
    return found


def no_win_weight(game: Game, automaton: Automaton, scatters: ScatterCounts, budget: int,
                  left: list[int] | None = None) -> int:
    """The weight of the combinations on which no line wins and no scatter pays or awards spins: the lines pushed
    together, a state dropped as soon as one of its lines has won (its best win is above nothing)."""
    reels = _Reels(game, scatters)
    lines = game.lines
    states = {(tuple((j, 0) for j in range(len(lines))), scatters.zero): 1}
    left = [budget] if left is None else left
    moves: dict = {}
    for position in range(len(game.reels)):
        moves.clear()
        groups: dict = {}
        following: dict = {}
        for (alive, counts), w in states.items():
            steps = moves.get(alive)
            if steps is None:
                steps = moves[alive] = _quiet_moves(automaton, lines, alive, position, reels, left, groups)
            for nxt, window_counts, weight in steps:
                key = (nxt, scatters.add(counts, window_counts) if scatters.symbols else counts)
                following[key] = following.get(key, 0) + w * weight
        left[0] -= len(following)
        if left[0] < 0:
            raise Uncountable("joint budget")
        states = following
    return sum(w for (alive, counts), w in states.items()
               if not scatters.pay(counts) and not scatters.awarded(counts))


def _quiet_moves(automaton: Automaton, lines, alive: tuple, position: int, reels: _Reels, left: list[int],
                 memo: dict) -> list:
    rows, outcome = _by_row(automaton, lines, alive, position, True, memo, left)
    found = []
    for symbols, counts, weight in reels.projection(position, rows):
        nxt = []
        for row, symbol in zip(rows, symbols):
            result = outcome(row, symbol)
            if result is None:
                break  # a line has won: this combination is a hit
            nxt += result[1]
        else:
            nxt.sort()
            found.append((tuple(nxt), counts, weight))
    left[0] -= len(found) * max(len(rows), 1)
    if left[0] < 0:
        raise Uncountable("joint budget")
    return found
