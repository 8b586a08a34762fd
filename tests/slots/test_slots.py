"""The slot engine (casino_audit/games/slots*.py) against hand counts and against brute force (tests/helpers/slots_brute.py:
every stop combination, every way one by one, the free spins as a Markov chain), for every feature: ordered
combinations, any-of groups, anchored partial pays, highest win only and every win, wilds with substitution limits
and multipliers (multiplied or the highest), scatters, ways, several paytables, free spins with retriggers; and
Hypothesis: random small machines, counted == brute force, exactly."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from casino_audit import slots
from casino_audit.slots import (HIGHEST, LINE_ALL, Game, LinePay, NotEvaluable, Paytable, Reel, ScatterPay,
                                      Wild, WaysPay)
from helpers.slots_brute import paytable_figures

S = frozenset
CAP, TAIL = 40, F(1, 10 ** 9)  # the free-spin chain's cap on pending spins, and the most its tail can weigh here


def reel(text: str, weights=None) -> Reel:
    symbols = tuple(text.split())
    return Reel(symbols, tuple(weights or [1] * len(symbols)))


def line(*names, pays) -> LinePay:
    pattern = tuple(None if n == "any" else (S(n) if isinstance(n, (set, frozenset)) else S([n])) for n in names)
    while pattern and pattern[-1] is None:
        pattern = pattern[:-1]
    return LinePay("-".join("|".join(sorted(n)) if isinstance(n, (set, frozenset)) else n for n in names), pattern,
                   F(pays))


def same_as_brute(paytable: Paytable, check_entries: bool = True):
    result = slots.evaluate(paytable)
    brute = paytable_figures(paytable, cap=CAP)
    assert result.exact and result.sd_exact and result.hit_frequency_exact
    if paytable.free_game is None:
        assert result.rtp == brute["rtp"]
        assert result.variance == brute["variance"]
    else:  # the chain is capped at CAP pending spins: what it leaves out is far below this
        assert abs(result.rtp - brute["rtp"]) < TAIL and abs(result.variance - brute["variance"]) < TAIL
    assert result.hit_frequency == brute["hit"]
    assert result.cycle == brute["cycle"]
    if check_entries:
        pays = [e for e in result.entries if e.kind in ("line", "ways")]
        assert [int(e.hits) for e in pays] == brute["entry_hits"]
    if result.free_spins:
        assert result.free_spins.trigger_probability == brute["trigger"]
    shares = sum(e.share for e in result.entries)
    assert shares == 1 or result.rtp == 0
    return result, brute


# --- hand counts -------------------------------------------------------------------------------------------------

def test_three_reel_partials_and_highest_win_only_by_hand():
    # One row, one line. Reel weights: CH 2 of 10, 3 of 10, 1 of 10.
    reels = (reel("CH X", [2, 8]), reel("CH X", [3, 7]), reel("CH X", [1, 9]))
    pays = (line("CH", "any", "any", pays=2), line("CH", "CH", "any", pays=5), line("CH", "CH", "CH", pays=10))
    result = slots.evaluate(Paytable("t", F(1), Game(reels, 1, 0, ((0, 0, 0),), pays)))
    hits = {e.name: e.hits for e in result.entries}
    assert hits == {"CH-CH-CH": 2 * 3 * 1, "CH-CH-any": 2 * 3 * 9, "CH-any-any": 2 * 7 * 10}
    assert result.cycle == 1000
    assert result.rtp == F(2 * 140 + 5 * 54 + 10 * 6, 1000)
    assert result.top_award.name == "CH-CH-CH" and slots.one_in(result.top_award.probability) == F(1000, 6)


def test_exact_sequence_beats_any_of_group_only_where_it_pays_more():
    reels = (reel("R7 W7 B7 X"), reel("R7 W7 B7 X"), reel("R7 W7 B7 X"))
    sevens = S({"R7", "W7", "B7"})
    pays = (line("R7", "W7", "B7", pays=50), line(sevens, sevens, sevens, pays=10), line("R7", "R7", "R7", pays=100))
    result = slots.evaluate(Paytable("t", F(1), Game(reels, 1, 0, ((0, 0, 0),), pays)))
    hits = {e.name: e.hits for e in result.entries}
    # 27 combinations of sevens: R7-W7-B7 once, R7-R7-R7 once, the 25 others pay "any seven".
    assert hits == {"R7-W7-B7": 1, "B7|R7|W7-B7|R7|W7-B7|R7|W7": 25, "R7-R7-R7": 1}
    assert result.rtp == F(50 + 250 + 100, 64)


def test_wild_substitution_limits_and_multipliers_by_hand():
    # DD is wild for BAR only (not CH), doubling; two DD multiply to four.
    reels = (reel("BAR DD CH"), reel("BAR DD CH"), reel("BAR DD CH"))
    wild = Wild("DD", S({"BAR"}), F(2))
    pays = (line("BAR", "BAR", "BAR", pays=10), line("CH", "CH", "CH", pays=7), line("DD", "DD", "DD", pays=100))
    game = Game(reels, 1, 0, ((0, 0, 0),), pays, wilds=(wild,))
    result = slots.evaluate(Paytable("t", F(1), game))
    hits = {e.name: e.hits for e in result.entries}
    # BAR/DD on each reel: 8 combinations; DD-DD-DD pays 100 > 10 x 8: so 7 pay BAR. CH never substituted.
    assert hits == {"BAR-BAR-BAR": 7, "CH-CH-CH": 1, "DD-DD-DD": 1}
    # BAR wins: no DD 1 (x1), one DD 3 (x2), two DD 3 (x4): 10 * (1 + 6 + 12) = 190.
    assert result.rtp == F(190 + 7 + 100, 27)
    highest = Game(reels, 1, 0, ((0, 0, 0),), pays, wilds=(wild,), wild_multipliers=HIGHEST)
    assert slots.evaluate(Paytable("t", F(1), highest)).rtp == F(10 * (1 + 3 * 2 + 3 * 2) + 7 + 100, 27)


def test_ways_paths_by_hand():
    # Two rows, three reels: A appears in 1, 2, 2 cells; every path of A across three reels pays 1 per way.
    reels = (reel("A X"), reel("A A"), reel("A A X X"))
    game = Game(reels, 2, 0, None, (WaysPay("3 A", "A", S({"A"}), 3, F(1)),))
    result = slots.evaluate(Paytable("t", F(1), game))
    # Reel 3 windows (stops 0..3): AA, AX, XX, XA: cells 2, 1, 0, 1. Reel 1 windows AX, XA: 1 cell each.
    # Reel 2 windows AA, AA: 2 cells. Ways summed over the 2*2*4 combinations: (1+1) * (2+2) * (2+1+0+1) = 32.
    assert result.rtp == F(32, 16)
    assert result.entries[0].hits == 2 * 2 * 3


def test_free_spins_closed_form_by_hand():
    # One reel, one row: S on 1 stop of 4. S pays 0, awards 5 spins, retriggers 2; a free spin wins 1 on A (2 of 4).
    reels = (reel("S A A X"),)
    scatter = ScatterPay("S", "S", 1, F(0), free_spins=5, retrigger=2)
    game = Game(reels, 1, 0, ((0,),), (line("A", pays=1),), (scatter,))
    result = slots.evaluate(Paytable("t", F(1), game, game, F(3)))
    fs = result.free_spins
    assert fs.retrigger_per_spin == F(1, 4) * 2
    assert fs.spins_per_trigger == F(5) / (1 - F(2, 4))  # N / (1 - p N')
    assert fs.win_per_spin == 3 * F(2, 4)
    assert result.rtp == F(2, 4) + F(1, 4) * 10 * F(3, 2)
    same_as_brute(Paytable("t", F(1), game, game, F(3)))


def test_free_spins_that_never_end_are_refused():
    reels = (reel("S A"),)
    scatter = ScatterPay("S", "S", 1, F(0), free_spins=5, retrigger=2)
    game = Game(reels, 1, 0, ((0,),), (line("A", pays=1),), (scatter,))
    with pytest.raises(NotEvaluable, match="without end"):
        slots.evaluate(Paytable("t", F(1), game, game))


# --- every feature against brute force ------------------------------------------------------------------------------

def three_reel_classic() -> Game:
    sevens, bars = S({"R7", "W7", "B7"}), S({"BAR1", "BAR2"})
    reels = (reel("R7 BL BAR1 BL CH BL W7 BL BAR2 BL B7 BL", [1, 5, 3, 5, 2, 4, 2, 5, 3, 4, 2, 4]),
             reel("B7 BL BAR2 BL W7 BL CH BL BAR1 BL R7 BL", [2, 4, 3, 5, 2, 5, 3, 4, 3, 5, 1, 4]),
             reel("W7 BL CH BL BAR1 BL R7 BL BAR2 BL B7 BL", [2, 5, 1, 5, 3, 4, 1, 5, 3, 4, 2, 5]))
    pays = (line("R7", "R7", "R7", pays=200), line("R7", "W7", "B7", pays=60), line(sevens, sevens, sevens, pays=20),
            line("BAR2", "BAR2", "BAR2", pays=25), line(bars, bars, bars, pays=5), line("CH", "CH", "CH", pays=15),
            line("CH", "CH", "any", pays=4), line("CH", "any", "any", pays=1), line("any", "any", "CH", pays=1))
    return Game(reels, 3, 1, ((1, 1, 1), (0, 0, 0), (2, 2, 2)), pays)


def test_three_reel_virtual_reels_three_lines_against_brute_force():
    same_as_brute(Paytable("1 coin", F(3), three_reel_classic()))


def test_several_paytables_are_computed_each_on_its_own():
    game = three_reel_classic()
    richer = Game(game.reels, game.rows, game.stop_row, game.lines,
                  (line("R7", "R7", "R7", pays=500),) + game.pays[1:])
    one, _ = same_as_brute(Paytable("1 coin", F(3), game))
    two, _ = same_as_brute(Paytable("2 coins", F(6), richer))
    assert two.rtp != one.rtp


def five_by_three(line_wins=slots.LINE_HIGHEST, combine=slots.MULTIPLY, ways=False) -> Game:
    strips = ["A K Q W S K", "K A W Q S Q", "Q A K W S A", "A S K Q W K", "K Q A S W A"]
    reels = tuple(reel(s) for s in strips)
    wild = Wild("W", S({"A", "K", "Q"}) - S({"Q"}), F(2))  # W may not replace Q
    if ways:
        pays = (WaysPay("3 A", "A", S({"A"}), 3, F(2)), WaysPay("4 A", "A", S({"A"}), 4, F(5)),
                WaysPay("5 A", "A", S({"A"}), 5, F(20)), WaysPay("3 K", "K", S({"K"}), 3, F(1)),
                WaysPay("5 K", "K", S({"K"}), 5, F(10)), WaysPay("3 Q", "Q", S({"Q"}), 3, F(1)),
                WaysPay("3 W", "W", S({"W"}), 3, F(5)))
        lines = None
    else:
        pays = (line("A", "A", "A", pays=5), line("A", "A", "A", "A", "A", pays=50), line("K", "K", "K", pays=3),
                line("Q", "Q", "Q", "Q", pays=8), line("W", "W", "W", pays=30), line(S({"A", "K"}), "any", "A", pays=1))
        lines = ((1, 1, 1, 1, 1), (0, 0, 0, 0, 0), (2, 2, 2, 2, 2), (0, 1, 2, 1, 0), (2, 1, 0, 1, 2))
    scatters = (ScatterPay("3 S", "S", 3, F(5)), ScatterPay("4 S", "S", 4, F(25)))
    return Game(reels, 3, 0, lines, pays, scatters, (wild,), combine, line_wins)


@pytest.mark.parametrize("line_wins, combine", [(slots.LINE_HIGHEST, slots.MULTIPLY), (LINE_ALL, slots.MULTIPLY),
                                                (slots.LINE_HIGHEST, HIGHEST)])
def test_five_reel_lines_wild_scatter_against_brute_force(line_wins, combine):
    same_as_brute(Paytable("t", F(5), five_by_three(line_wins, combine)), check_entries=line_wins != LINE_ALL)


@pytest.mark.parametrize("combine", [slots.MULTIPLY, HIGHEST])
def test_ways_with_wild_multipliers_and_scatter_against_brute_force(combine):
    same_as_brute(Paytable("t", F(25), five_by_three(combine=combine, ways=True)))


def test_every_win_on_a_line_counts_each_entry_on_its_own():
    result = slots.evaluate(Paytable("t", F(5), five_by_three(LINE_ALL)))
    from helpers.slots_brute import paytable_figures
    brute = paytable_figures(Paytable("t", F(5), five_by_three(LINE_ALL)))
    assert [int(e.hits) for e in result.entries if e.kind == "line"] == brute["entry_hits"]


def test_ways_with_free_spins_and_retriggers_against_brute_force():
    game = five_by_three(ways=True)
    game = Game(game.reels[:3], 3, 0, None, game.pays[:1] + game.pays[3:4],
                (ScatterPay("2 S", "S", 2, F(1), free_spins=3, retrigger=1), ScatterPay("3 S", "S", 3, F(5), 6, 2)),
                game.wilds)
    free_reels = (reel("A S K W Q K A Q"), reel("K A S Q W A Q K"), reel("Q S A K A W K Q"))
    free = Game(free_reels, 3, 0, None, game.pays, game.scatters, game.wilds)
    result, brute = same_as_brute(Paytable("t", F(10), game, free, F(2)))
    assert result.free_spins.spins_per_trigger > 3


def test_lines_with_free_spins_against_brute_force():
    game = three_reel_classic()
    scatter = (ScatterPay("2 CH", "CH", 2, F(0), free_spins=4, retrigger=1),)
    game = Game(game.reels, 3, 1, game.lines, game.pays, scatter)
    same_as_brute(Paytable("t", F(3), game, game, F(2)))


def test_a_count_past_its_budget_is_a_seeded_simulation_with_its_interval():
    paytable = Paytable("t", F(5), five_by_three())
    exact = slots.evaluate(paytable)
    estimated = slots.evaluate(paytable, rounds=20_000, seed=7, line_budget=10)
    assert not estimated.exact and estimated.rounds == 20_000
    low, high = estimated.ci95
    assert low < exact.rtp < high
    assert estimated == slots.evaluate(paytable, rounds=20_000, seed=7, line_budget=10)  # the same seed, the same
    joint = slots.evaluate(paytable, rounds=5_000, seed=7, joint_budget=10)
    assert joint.exact and joint.rtp == exact.rtp and not joint.sd_exact and joint.sd_rounds == 5_000
    assert not joint.hit_frequency_exact and joint.notes


# --- Hypothesis: random small machines ------------------------------------------------------------------------------

SYMBOLS = ["A", "B", "C", "W", "S"]


@st.composite
def machines(draw):
    reels_count = draw(st.integers(1, 3))
    rows = draw(st.integers(1, 3))
    ways = draw(st.booleans())
    reels = tuple(Reel(tuple(draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=4))), ())
                  for _ in range(reels_count))
    reels = tuple(Reel(r.strip, tuple(draw(st.lists(st.integers(0, 3), min_size=len(r.strip),
                                                    max_size=len(r.strip)))))
                  for r in reels)
    reels = tuple(r if r.total else Reel(r.strip, (1,) * len(r.strip)) for r in reels)
    wilds = ()
    if draw(st.booleans()):
        wilds = (Wild("W", S(draw(st.lists(st.sampled_from("ABC"), min_size=1, unique=True))),
                      F(draw(st.integers(1, 3)))),)
    names = st.sampled_from(["A", "B", "C", "W"])
    pays = []
    if ways:
        for _ in range(draw(st.integers(1, 4))):
            subject = draw(names)
            count = draw(st.integers(1, reels_count))
            if any(p.subject == subject and p.count == count for p in pays):
                continue
            pays.append(WaysPay(f"{count} {subject}", subject, S([subject]), count, F(draw(st.integers(1, 9)))))
        # a longer run never pays less (the reader refuses it otherwise): each subject's pays made non-decreasing
        best: dict = {}
        for pay in sorted(pays, key=lambda p: p.count):
            best[pay.subject] = max(best.get(pay.subject, F(0)), pay.pays)
            pays[pays.index(pay)] = WaysPay(pay.name, pay.subject, pay.symbols, pay.count, best[pay.subject])
        lines = None
    else:
        position = st.one_of(st.none(), names.map(lambda n: S([n])),
                             st.lists(names, min_size=2, max_size=3, unique=True).map(S))
        for index in range(draw(st.integers(1, 4))):
            pattern = draw(st.lists(position, min_size=1, max_size=reels_count))
            while pattern and pattern[-1] is None:
                pattern.pop()
            if pattern:
                pays.append(LinePay(f"e{index}", tuple(pattern), F(draw(st.integers(1, 9)), draw(st.integers(1, 2)))))
        if not pays:
            pays.append(LinePay("a", (S("A"),), F(1)))
        lines = tuple(draw(st.lists(st.tuples(*[st.integers(0, rows - 1)] * reels_count), min_size=1, max_size=3)))
    scatters = ()
    free = None
    if draw(st.booleans()):
        count = draw(st.integers(1, 2))
        scatters = (ScatterPay("S", "S", count, F(draw(st.integers(0, 3))), draw(st.integers(0, 3)),
                               draw(st.integers(0, 2))),)
        if not (scatters[0].pays or scatters[0].free_spins or scatters[0].retrigger):
            scatters = ()
    game = Game(reels, rows, draw(st.integers(0, rows - 1)), lines, tuple(pays), scatters, wilds,
                draw(st.sampled_from([slots.MULTIPLY, HIGHEST])),
                draw(st.sampled_from([slots.LINE_HIGHEST, LINE_ALL])))
    if scatters and scatters[0].free_spins:
        free = game
    return Paytable("h", F(draw(st.integers(1, 5))), game, free, F(draw(st.integers(1, 3))))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(machines())
def test_counted_equals_brute_force_on_random_machines(paytable):
    try:
        result = slots.evaluate(paytable)
    except NotEvaluable:
        scatters = slots.ScatterCounts(paytable.game.scatters)
        mean = sum(scatters.retriggered(k) * w for k, w in scatters.distribution(paytable.game).items())
        assert mean >= paytable.game.cycle  # refused only when a free spin awards one or more on average
        return
    # The brute force's chain is capped at CAP pending spins: what it leaves out shrinks like E[R]^CAP.
    assume(result.free_spins is None or result.free_spins.retrigger_per_spin <= F(1, 2))
    brute = paytable_figures(paytable, cap=CAP)
    assert result.hit_frequency == brute["hit"]
    if paytable.free_game is None:
        assert result.rtp == brute["rtp"] and result.variance == brute["variance"]
    else:  # the chain is capped at CAP pending spins: its tail is far below this
        assert abs(result.rtp - brute["rtp"]) < TAIL and abs(result.variance - brute["variance"]) < TAIL
    if paytable.game.line_wins != LINE_ALL or paytable.game.ways:
        assert [int(e.hits) for e in result.entries if e.kind in ("line", "ways")] == brute["entry_hits"]


def test_a_bigger_machine_is_counted_without_visiting_every_combination():
    """A 5-reel 243-ways game on 100-stop reels (10^10 combinations) and a 50-line 5x3 game: exact, quickly."""
    import random
    import time

    rng = random.Random(3)
    names = ["A", "K", "Q", "J", "T", "N", "H1", "H2", "H3", "W", "S"]
    strips = [" ".join("W" if i % 17 == 3 else "S" if i % 23 == 5 else rng.choice(names[:-2]) for i in range(100))
              for _ in range(5)]
    reels = tuple(reel(s, [rng.randint(1, 5) for _ in range(100)]) for s in strips)
    ways_pays = tuple(WaysPay(f"{k} {n}", n, S([n]), k, F(k * (i + 1))) for i, n in enumerate(names[:-2])
                      for k in (3, 4, 5))
    wild = Wild("W", S(names[:-2]), F(1))
    scatters = (ScatterPay("3 S", "S", 3, F(5), 8, 8), ScatterPay("4 S", "S", 4, F(20), 12, 8))
    game = Game(reels, 3, 0, None, ways_pays, scatters, (wild,))
    start = time.process_time()
    result = slots.evaluate(Paytable("ways", F(25), game, game, F(2)))
    ways_time = time.process_time() - start
    assert result.exact and result.sd_exact and result.cycle == math.prod(r.total for r in reels)
    lines = tuple(tuple(rng.randrange(3) for _ in range(5)) for _ in range(50))
    line_pays = tuple(line(*([n] * k), pays=k * (i + 1)) for i, n in enumerate(names[:-2]) for k in (3, 4, 5))
    game = Game(reels, 3, 0, lines, line_pays, scatters[:1], (wild,))
    start = time.process_time()
    result = slots.evaluate(Paytable("lines", F(50), game), moments=False)
    lines_time = time.process_time() - start
    assert result.exact
    assert ways_time < 5 and lines_time < 5, (ways_time, lines_time)  # generous: shared CI machines; see README
