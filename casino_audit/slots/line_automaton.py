"""A line's automaton: it reads a line's symbols reel by reel (casino_audit.slots.lines counts line games with it,
casino_audit.slots.simulate plays them). A state is (the entries still matching, each with its wild multiplier so
far; the best win completed; the entry that pays it); with "highest win only", an entry is dropped as soon as it
can no longer beat the best completed win, which keeps the states few and changes nothing: the best is exact.
Equal wins go to the entry listed first.
"""

from __future__ import annotations

from fractions import Fraction

from casino_audit.slots.model import HIGHEST, JOINT_COST, LINE_ALL, Game, Uncountable

_MAX_STATES = 200_000


def _plain(value):
    """An integer Fraction as an int: sums over millions of weights stay in fast integer arithmetic."""
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value


class Automaton:
    """Reads a line left to right. States are interned as numbers; `step(position, state, symbol)` is memoised."""

    def __init__(self, game: Game, work=None):
        """`work`: a slots.Work bounding the entry readings (a hostile sheet's states are many and wide)."""
        self.work = work
        pays = game.pays
        self.patterns = [p.pattern for p in pays]
        self.values = [_plain(p.pays) for p in pays]  # ints where they are whole: fast, and hashed as such
        self.all_wins = game.line_wins == LINE_ALL
        self.highest = game.wild_multipliers == HIGHEST
        self.wilds = {w.symbol: (w.substitutes, _plain(w.multiplier)) for w in game.wilds}
        self.most = max([_plain(w.multiplier) for w in game.wilds] + [1])
        # what a joint transition is charged: its sums are of wins, fractions where a pay or multiplier is one
        # (some ten times the cost of integers)
        whole = all(type(v) is int for v in self.values) and all(type(m) is int for _, m in self.wilds.values())
        self.joint_cost = JOINT_COST if whole else JOINT_COST * 10
        # After position i matched, the most the wilds could still multiply entry e by (for pruning).
        self.headroom = []
        for pattern in self.patterns:
            rest = [sum(1 for spec in pattern[i + 1:] if spec is not None) for i in range(len(pattern))]
            self.headroom.append(rest)
        self.length = max(len(p) for p in self.patterns) if self.patterns else 0
        start = (tuple((e, 1) for e in range(len(pays))), 0, -1)
        self.states = [start]
        self.index = {start: 0}
        self.memo: list[dict] = [dict() for _ in range(max(self.length, 1))]
        self.terminal = [not start[0]]
        self.win = [0]  # the best win of each state (final once terminal)
        self.entry = [-1]  # the entry paying it (-1: none; in "all wins" mode, -2: several)

    def _intern(self, state) -> int:
        found = self.index.get(state)
        if found is None:
            found = len(self.states)
            if found > _MAX_STATES:
                raise Uncountable("line automaton states")
            self.states.append(state)
            self.index[state] = found
            self.terminal.append(not state[0])
            self.win.append(_plain(state[1]))
            self.entry.append(state[2])
        return found

    def step(self, position: int, sid: int, symbol: str) -> int:
        memo = self.memo[position]
        key = (sid, symbol)
        found = memo.get(key)
        if found is not None:
            return found
        alive, best, paid = self.states[sid]
        if self.work is not None:
            self.work.spend(len(alive) + 1)
        wild = self.wilds.get(symbol)
        carried = []
        for e, multiplier in alive:
            spec = self.patterns[e][position]
            if spec is not None and symbol not in spec:
                if wild is None or not (wild[0] & spec):
                    continue
                multiplier = max(multiplier, wild[1]) if self.highest else multiplier * wild[1]
            if position == len(self.patterns[e]) - 1:
                win = _plain(self.values[e] * multiplier)
                if self.all_wins:
                    best, paid = _plain(best + win), (e if paid == -1 else -2)
                elif win > best or (win == best and e < paid):
                    best, paid = win, e
            else:
                carried.append((e, _plain(multiplier)))
        if carried and not self.all_wins and paid >= 0:
            carried = [(e, m) for e, m in carried if self._could_beat(e, m, position, best, paid)]
        found = self._intern((tuple(carried), best, paid))
        memo[key] = found
        return found

    def _could_beat(self, e: int, multiplier: Fraction, position: int, best: Fraction, paid: int) -> bool:
        rest = self.headroom[e][position]
        if rest:
            multiplier = max(multiplier, self.most) if self.highest else multiplier * self.most ** rest
        potential = self.values[e] * multiplier
        return potential > best or (potential == best and e < paid)
