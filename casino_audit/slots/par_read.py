"""A machine's PAR data (`par:` of a `kind: machine` filing, docs/par.md): read into the slot engine's model
(casino_audit/slots/model.py), every problem that keeps it from being evaluated a (JSON pointer, message) at the
value that causes it (the return of each paytable: casino_audit.slots.par_returns).

Nothing here trusts the shape: a filing's law rules run even when its shape is wrong, so every value is looked at
for its type and bounds before it is used, and a value of the wrong kind is a problem at its place, never a
traceback. The bounds keep a hostile sheet's cost small (the count's work budget does the rest)."""


from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from casino_audit import slots
from casino_audit.core import pointers
from casino_audit.core.values import show, to_decimal
from casino_audit.slots.par_fields import (
    MAX_CREDITS, MAX_LINES, MAX_MULTIPLIER, MAX_PAYTABLES, MAX_ROWS, SECTION_KEYS, Problems, amount, choice, euros,
    integer, listed, type_of, whole,
)
from casino_audit.slots.par_pays import read_pays, read_scatters
from casino_audit.slots.par_reels import Names, read_groups, read_reels, read_symbols, read_wilds


@dataclass(frozen=True)
class ParPaytable:
    paytable: slots.Paytable
    pointer: str  # the paytable's place in the filing
    declared: tuple[str, Any] | None = None  # (pointer, value) of the rate this paytable declares, if it does
    denomination: Decimal | None = None  # euros per credit, where given


@dataclass
class Reading:
    paytables: list[ParPaytable] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (pointer, message): why it cannot be evaluated



def read(par: Any, at: str = "/par") -> Reading:
    """The paytables of a `par:` section, or the problems that keep it from being evaluated (all of them)."""
    problems = Problems()
    reading = Reading(problems=problems)
    if not isinstance(par, dict):
        problems.add(at, f"`par` is {type_of(par)}, not a mapping of PAR data")
        return reading
    for key in par:
        if key not in SECTION_KEYS:
            problems.add(pointers.child(at, key), f"the PAR data have no `{key}` ({', '.join(SECTION_KEYS)}): a "
                                                  "misspelt key would leave out what it says")
    symbols = read_symbols(par.get("symbols", pointers.MISSING), pointers.child(at, "symbols"), problems)
    groups = read_groups(par.get("groups", {}), pointers.child(at, "groups"), symbols, problems)
    rows = integer(par, "rows", at, problems, 1, MAX_ROWS, default=1)
    stop_row = integer(par, "stop_row", at, problems, 0, MAX_ROWS - 1, default=0)
    if rows is not None and stop_row is not None and stop_row >= rows:
        problems.add(pointers.child(at, "stop_row"), f"`stop_row` is {stop_row}, outside the window of {rows} "
                                                      f"row(s) (rows are counted from 0 at the top)")
    reels = read_reels(par.get("reels", pointers.MISSING), pointers.child(at, "reels"), symbols, rows, problems)
    wilds = read_wilds(par.get("wilds", []), pointers.child(at, "wilds"), symbols, problems)
    combine = choice(par, "wild_multipliers", at, (slots.MULTIPLY, slots.HIGHEST), slots.MULTIPLY, problems)
    line_wins = choice(par, "line_wins", at, (slots.LINE_HIGHEST, slots.LINE_ALL), slots.LINE_HIGHEST, problems)
    lines, ways = _evaluation(par, at, reels, rows, problems)
    known = Names(symbols, groups)
    tables_at = pointers.child(at, "paytables")
    tables = listed(par.get("paytables", pointers.MISSING), tables_at, problems,
                     "`paytables` is missing: the PAR data give no pay table to compute",
                     "`paytables` is {type}, not a list of one or more paytables",
                     MAX_PAYTABLES, f"{{count:,}} paytables; casino-audit computes at most {MAX_PAYTABLES}")
    if tables is None:
        return reading
    names: dict[str, str] = {}
    for index, table in enumerate(tables):
        table_at = pointers.child(tables_at, index)
        before = len(problems)
        found = _paytable(table, table_at, known, reels, rows, stop_row, lines, ways, wilds, combine, line_wins,
                          symbols, problems)
        if found is None or len(problems) > before:
            continue
        if found.paytable.name in names:
            problems.add(pointers.child(table_at, "name"), f"paytable {found.paytable.name!r} is named twice (first at "
                                                            f"{names[found.paytable.name]})")
            continue
        names[found.paytable.name] = table_at
        reading.paytables.append(found)
    if problems:
        reading.paytables = []
    return reading




def _evaluation(par: dict, at: str, reels, rows, problems: Problems):
    """(lines, ways): the paylines as row patterns, or ways."""
    has_lines, ways = "lines" in par, par.get("ways", False)
    if ways not in (True, False):
        problems.add(pointers.child(at, "ways"), f"`ways` is {show(ways)}, not true or false")
        return None, False
    if has_lines and ways:
        problems.add(pointers.child(at, "ways"), "a game is evaluated by `lines` or by `ways`, not both")
        return None, False
    if not has_lines:
        if not ways:
            problems.add(at, "the PAR data give neither `lines` (the paylines) nor `ways: true`")
        return None, bool(ways)
    lines_at = pointers.child(at, "lines")
    lines = listed(par["lines"], lines_at, problems, "", "`lines` is {type}, not a list of paylines",
                    MAX_LINES, f"{{count:,}} lines; casino-audit computes at most {MAX_LINES}")  # given: never missing
    if lines is None:
        return None, False
    found = []
    for index, line in enumerate(lines):
        pointer = pointers.child(lines_at, index)
        if not isinstance(line, list) or not line:
            problems.add(pointer, f"a payline is {type_of(line)}, not a list of rows (one per reel)")
            continue
        if reels is not None and len(line) != len(reels):
            problems.add(pointer, f"the payline gives {len(line)} row(s) for {len(reels)} reels")
            continue
        outside = [(position, row) for position, row in enumerate(line)
                   if not whole(row, 0, MAX_ROWS) or (rows is not None and row >= rows)]
        if outside:  # once per payline, at its first row outside the window
            shown = ", ".join(f"{show(row)} on reel {position + 1}" for position, row in outside)
            problems.add(pointers.child(pointer, outside[0][0]), f"the payline reads row {shown}, outside the window "
                                                                 f"(rows 0 to {(rows or 1) - 1}, 0 at the top)")
        else:
            found.append(tuple(line))
    return tuple(found), False


def _paytable(value: Any, at: str, known: Names, reels, rows, stop_row, lines, ways: bool, wilds, combine,
              line_wins, symbols, problems: Problems) -> ParPaytable | None:
    if not isinstance(value, dict):
        problems.add(at, f"a paytable is {type_of(value)}, not a mapping")
        return None
    allowed = ("name", "credits_per_line", "credits_per_spin", "denomination", "redistribution_rate", "reels", "pays",
               "scatters", "free_spins")
    for key in value:
        if key not in allowed:
            problems.add(pointers.child(at, key), f"a paytable has no `{key}` ({', '.join(allowed)})")
    name = value.get("name")
    if not isinstance(name, str) or not name.strip():
        shown = show(name) if name is not None else "missing"
        problems.add(pointers.child(at, "name"), f"the paytable's `name` is {shown}, not a name")
        name = None
    bet = _bet(value, at, lines, ways, problems)
    own_reels = reels
    if "reels" in value:
        own_reels = read_reels(value["reels"], pointers.child(at, "reels"), symbols, rows, problems,
                           None if reels is None else len(reels))
    reel_count = len(own_reels) if own_reels else (len(reels) if reels else None)
    pays = read_pays(value.get("pays", pointers.MISSING), pointers.child(at, "pays"), known, reel_count, ways, problems)
    scatters = read_scatters(value.get("scatters", []), pointers.child(at, "scatters"), known, problems)
    free_at = pointers.child(at, "free_spins")
    free_reels, multiplier = None, Fraction(1)
    if "free_spins" in value:
        free_reels, multiplier = _free_spins(value["free_spins"], free_at, symbols, rows, reel_count, scatters,
                                             problems)
    declared = None
    if "redistribution_rate" in value:
        rate_at = pointers.child(at, "redistribution_rate")
        rate = value["redistribution_rate"]
        if to_decimal(rate, "percent") is None:
            problems.add(rate_at, f"`redistribution_rate` is {show(rate)}, not a rate with a % sign (\"92.5 %\")")
        declared = (rate_at, rate)
    denomination = None
    if "denomination" in value:
        denomination = euros(value["denomination"], pointers.child(at, "denomination"), problems)
    if None in (name, bet, own_reels, pays, scatters, multiplier, rows, stop_row) or (not ways and lines is None):
        return None
    if ways and any(isinstance(p, slots.LinePay) for p in pays):
        return None
    game = slots.Game(own_reels, rows, stop_row, None if ways else lines, tuple(pays), tuple(scatters), wilds,
                      combine or slots.MULTIPLY, line_wins or slots.LINE_HIGHEST)
    free_game = None
    if any(s.free_spins for s in scatters):
        free_game = slots.Game(free_reels or own_reels, rows, stop_row, game.lines, game.pays, game.scatters, wilds,
                               game.wild_multipliers, game.line_wins)
        problem = _endless(free_game)
        if problem:
            problems.add(free_at if "free_spins" in value else pointers.child(at, "scatters"), problem)
            return None
    return ParPaytable(slots.Paytable(name, bet, game, free_game, multiplier), at, declared, denomination)


def _free_spins(free: Any, at: str, symbols, rows, reel_count, scatters, problems: Problems):
    """(reels, multiplier) of a paytable's `free_spins`: the reels None where the base game's are kept, the
    multiplier None where it cannot be read."""
    free_reels, multiplier = None, Fraction(1)
    if not isinstance(free, dict):
        problems.add(at, f"`free_spins` is {type_of(free)}, not a mapping (multiplier, reels)")
    else:
        for key in free:
            if key not in ("multiplier", "reels"):
                problems.add(pointers.child(at, key), f"`free_spins` has no `{key}` (multiplier, reels)")
        if "multiplier" in free:
            multiplier = amount(free["multiplier"], pointers.child(at, "multiplier"), problems,
                                Fraction(1), MAX_MULTIPLIER, "the free spins' multiplier")
        if "reels" in free:
            free_reels = read_reels(free["reels"], pointers.child(at, "reels"), symbols, rows, problems, reel_count)
    if scatters is not None and not any(s.free_spins for s in scatters):
        problems.add(at, "`free_spins` is described but no scatter entry awards any (`free_spins: N` on a "
                         "scatter entry)")
    return free_reels, multiplier


def _endless(game: slots.Game) -> str | None:
    scatters = slots.ScatterCounts(game.scatters)
    try:
        distribution = scatters.distribution(game)
    except slots.Uncountable:
        return ("the scatter symbols show in too many combinations of counts across the reels for casino-audit to "
                "tell whether the free spins end: have the return certified by a laboratory")
    mean = Fraction(sum(scatters.retriggered(k) * w for k, w in distribution.items()), game.cycle)
    if mean >= 1:
        return (f"free spins retrigger without end: a free spin awards {slots.decimal_text(mean, 6)} more free spins "
                "on average (1 or more), so the expected number of free spins, and the return, are infinite")
    return None


def _bet(value: dict, at: str, lines, ways: bool, problems: Problems) -> Fraction | None:
    wanted, other = ("credits_per_spin", "credits_per_line") if ways else ("credits_per_line", "credits_per_spin")
    if other in value:
        problems.add(pointers.child(at, other), f"a {'ways' if ways else 'lines'} game states `{wanted}`, not "
                                                f"`{other}`")
        return None
    if wanted not in value:
        problems.add(at, f"the paytable's `{wanted}` is missing: the bet the pays are for")
        return None
    credits = value[wanted]
    if not whole(credits, 1, MAX_CREDITS):
        problems.add(pointers.child(at, wanted), f"`{wanted}` is {show(credits)}, not a whole number from 1 to "
                                                 f"{MAX_CREDITS:,}")
        return None
    if ways:
        return Fraction(credits)
    return Fraction(credits * len(lines)) if lines else None


