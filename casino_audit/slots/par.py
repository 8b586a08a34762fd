"""A machine's PAR data (`par:` of a `kind: machine` filing, docs/par.md): read into the slot engine's model
(casino_audit/slots/model.py), every problem that keeps it from being evaluated a (JSON pointer, message) at the
value that causes it, and the return of each paytable.

Nothing here trusts the shape: a filing's law rules run even when its shape is wrong, so every value is looked at
for its type and bounds before it is used, and a value of the wrong kind is a problem at its place, never a
traceback. The bounds keep a hostile sheet's cost small (the count's work budget does the rest)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from casino_audit.core import pointers
from casino_audit import slots
from casino_audit.slots import simulate as slots_simulate
from casino_audit.core.values import show, to_decimal

ANY = "any"
MAX_REELS, MAX_ROWS, MAX_STOPS, MAX_WEIGHT = 9, 10, 10_000, 10 ** 9
MAX_LINES, MAX_ENTRIES, MAX_SYMBOLS, MAX_PAYTABLES, MAX_SCATTERS = 500, 2_000, 500, 50, 100
MAX_PAY, MAX_MULTIPLIER, MAX_CREDITS, MAX_SPINS = 10 ** 12, 10 ** 6, 10 ** 6, 10 ** 4
SECTION_KEYS = ("symbols", "rows", "stop_row", "reels", "lines", "ways", "line_wins", "groups", "wilds",
                "wild_multipliers", "paytables")
_DECIMAL = r"^[0-9]{1,15}(\.[0-9]{1,12})?$"


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


class _Problems(list):
    def add(self, pointer: str, message: str) -> None:
        self.append((pointer, message))


def read(par: Any, at: str = "/par") -> Reading:
    """The paytables of a `par:` section, or the problems that keep it from being evaluated (all of them)."""
    problems = _Problems()
    reading = Reading(problems=problems)
    if not isinstance(par, dict):
        problems.add(at, f"`par` is {_type(par)}, not a mapping of PAR data")
        return reading
    for key in par:
        if key not in SECTION_KEYS:
            problems.add(pointers.child(at, key), f"the PAR data have no `{key}` ({', '.join(SECTION_KEYS)}): a "
                                                  "misspelt key would leave out what it says")
    symbols = _symbols(par.get("symbols", pointers.MISSING), pointers.child(at, "symbols"), problems)
    groups = _groups(par.get("groups", {}), pointers.child(at, "groups"), symbols, problems)
    rows = _integer(par, "rows", at, problems, 1, MAX_ROWS, default=1)
    stop_row = _integer(par, "stop_row", at, problems, 0, MAX_ROWS - 1, default=0)
    if rows is not None and stop_row is not None and stop_row >= rows:
        problems.add(pointers.child(at, "stop_row"), f"`stop_row` is {stop_row}, outside the window of {rows} "
                                                      f"row(s) (rows are counted from 0 at the top)")
    reels = _reels(par.get("reels", pointers.MISSING), pointers.child(at, "reels"), symbols, rows, problems)
    wilds = _wilds(par.get("wilds", []), pointers.child(at, "wilds"), symbols, problems)
    combine = _choice(par, "wild_multipliers", at, (slots.MULTIPLY, slots.HIGHEST), slots.MULTIPLY, problems)
    line_wins = _choice(par, "line_wins", at, (slots.LINE_HIGHEST, slots.LINE_ALL), slots.LINE_HIGHEST, problems)
    lines, ways = _evaluation(par, at, reels, rows, problems)
    known = _Names(symbols, groups)
    tables_at = pointers.child(at, "paytables")
    tables = _listed(par.get("paytables", pointers.MISSING), tables_at, problems,
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


# --- the pieces ---------------------------------------------------------------------------------------------------

class _Names:
    """What a name in a pay entry may be: a symbol, a group, or `any`."""

    def __init__(self, symbols: set[str] | None, groups: dict[str, frozenset[str]]):
        self.symbols = symbols
        self.groups = groups

    def members(self, name: Any, pointer: str, problems: _Problems, any_allowed: bool) -> frozenset[str] | None | bool:
        """The symbols a name stands for; None for `any`; False (a problem added) for a name that is not known."""
        if not isinstance(name, str):
            problems.add(pointer, f"{show(name)} is not a symbol or group name")
            return False
        if name == ANY:
            if any_allowed:
                return None
            problems.add(pointer, "`any` is not a symbol: it only stands for a position of a combination")
            return False
        if name in self.groups:
            return self.groups[name]
        if self.symbols is not None and name in self.symbols:
            return frozenset([name])
        if self.symbols is not None:
            problems.add(pointer, f"{show(name)} is neither a symbol listed under `symbols` nor a group")
        return False


def _listed(value: Any, at: str, problems: _Problems, missing: str, not_a_list: str, most: int,
            too_many: str) -> list | None:
    """`value` if it is a list of 1 to `most` items; else None, the problem added: `missing` if it is not given,
    `not_a_list` ({type}: what it is instead) if it is no such list, `too_many` ({count}: its length) if longer."""
    if value is pointers.MISSING:
        problems.add(at, missing)
        return None
    if not isinstance(value, list) or not value:
        problems.add(at, not_a_list.format(type=_type(value)))
        return None
    if len(value) > most:
        problems.add(at, too_many.format(count=len(value)))
        return None
    return value


def _symbols(value: Any, at: str, problems: _Problems) -> set[str] | None:
    value = _listed(value, at, problems, "`symbols` is missing: list every symbol the reels show (blanks included), "
                    "so that a misspelt symbol on a reel is caught, not paid as nothing",
                    "`symbols` is {type}, not a list of symbol names",
                    MAX_SYMBOLS, f"{{count:,}} symbols; casino-audit reads at most {MAX_SYMBOLS}")
    if value is None:
        return None
    found: set[str] = set()
    for index, name in enumerate(value):
        pointer = pointers.child(at, index)
        if not isinstance(name, str) or not name.strip():
            problems.add(pointer, f"{show(name)} is not a symbol name")
        elif name == ANY:
            problems.add(pointer, "`any` cannot name a symbol: it stands for any symbol in a combination")
        elif name in found:
            problems.add(pointer, f"symbol {name!r} is listed twice")
        else:
            found.add(name)
    return found


def _groups(value: Any, at: str, symbols: set[str] | None, problems: _Problems) -> dict[str, frozenset[str]]:
    if not isinstance(value, dict):
        problems.add(at, f"`groups` is {_type(value)}, not a mapping of group names to their symbols")
        return {}
    found = {}
    for name, members in value.items():
        pointer = pointers.child(at, name)
        if name == ANY or (symbols is not None and name in symbols):
            problems.add(pointer, f"group {name!r} has the name of a symbol" if name != ANY else
                         "`any` cannot name a group")
            continue
        if not isinstance(members, list) or not members:
            problems.add(pointer, f"group {name!r} is {_type(members)}, not a list of symbols")
            continue
        known = []
        for index, member in enumerate(members):
            if not isinstance(member, str) or (symbols is not None and member not in symbols):
                problems.add(pointers.child(pointer, index), f"group {name!r} names {show(member)}, not a symbol "
                                                             "listed under `symbols`")
            else:
                known.append(member)
        found[name] = frozenset(known)  # known even when broken: the entries naming it are not wrong too
    return found


def _reels(value: Any, at: str, symbols: set[str] | None, rows: int | None, problems: _Problems,
           count: int | None = None) -> tuple[slots.Reel, ...] | None:
    value = _listed(value, at, problems, "`reels` is missing: give each reel's strip (or its symbol weights)",
                    "`reels` is {type}, not a list of reels",
                    MAX_REELS, f"{{count}} reels; casino-audit computes at most {MAX_REELS}")
    if value is None:
        return None
    if count is not None and len(value) != count:
        problems.add(at, f"{len(value)} reels, but the game has {count}")
        return None
    found = []
    for index, reel in enumerate(value):
        found.append(_reel(reel, pointers.child(at, index), symbols, rows, problems))
    return None if any(r is None for r in found) else tuple(found)


def _reel(value: Any, at: str, symbols: set[str] | None, rows: int | None, problems: _Problems) -> slots.Reel | None:
    if not isinstance(value, dict):
        problems.add(at, f"a reel is {_type(value)}, not a mapping with `strip` (and `weights`) or `symbol_weights`")
        return None
    unknown = [k for k in value if k not in ("strip", "weights", "symbol_weights")]
    for key in unknown:
        problems.add(pointers.child(at, key), f"a reel has no `{key}` (it gives `strip` and `weights`, or "
                                              "`symbol_weights`)")
    if "symbol_weights" in value:
        if "strip" in value or "weights" in value:
            problems.add(at, "a reel gives either `strip` (with `weights`) or `symbol_weights`, not both")
            return None
        return _symbol_weights(value["symbol_weights"], pointers.child(at, "symbol_weights"), symbols, rows, problems)
    strip_at = pointers.child(at, "strip")
    strip = _listed(value.get("strip", pointers.MISSING), strip_at, problems,
                    "the reel's `strip` is missing (its symbols in order, top to bottom)",
                    "`strip` is {type}, not a list of symbols",
                    MAX_STOPS, f"{{count:,}} stops; casino-audit reads at most {MAX_STOPS:,} per reel")
    if strip is None:
        return None
    good = True
    for index, symbol in enumerate(strip):
        if not isinstance(symbol, str) or (symbols is not None and symbol not in symbols):
            problems.add(pointers.child(strip_at, index), f"{show(symbol)} on the reel is not a symbol listed under "
                                                          "`symbols`")
            good = False
    weights_at = pointers.child(at, "weights")
    weights = value.get("weights", pointers.MISSING)
    if weights is pointers.MISSING:
        weights = [1] * len(strip)
    elif not isinstance(weights, list):
        problems.add(weights_at, f"`weights` is {_type(weights)}, not a list of whole numbers")
        return None
    elif len(weights) != len(strip):
        problems.add(weights_at, f"{len(weights)} weights for {len(strip)} stops: one weight per stop")
        return None
    else:
        for index, weight in enumerate(weights):
            if not _whole(weight, 0, MAX_WEIGHT):
                problems.add(pointers.child(weights_at, index), f"weight {show(weight)} is not a whole number from 0 "
                                                                f"to {MAX_WEIGHT:,}")
                good = False
    if good and not any(weights):
        problems.add(weights_at, "every stop of the reel has weight 0: the reel can never stop")
        return None
    return slots.Reel(tuple(strip), tuple(weights)) if good else None


def _symbol_weights(value: Any, at: str, symbols: set[str] | None, rows: int | None,
                    problems: _Problems) -> slots.Reel | None:
    if not isinstance(value, dict) or not value:
        problems.add(at, f"`symbol_weights` is {_type(value)}, not a mapping of symbols to weights")
        return None
    if rows is not None and rows != 1:
        problems.add(at, f"a reel given by its symbol weights has no order, so the {rows} rows of the window cannot "
                         "be known: give the `strip` (and its `weights`)")
        return None
    good = True
    for symbol, weight in value.items():
        pointer = pointers.child(at, symbol)
        if symbols is not None and symbol not in symbols:
            problems.add(pointer, f"{show(symbol)} on the reel is not a symbol listed under `symbols`")
            good = False
        if not _whole(weight, 0, MAX_WEIGHT):
            problems.add(pointer, f"weight {show(weight)} is not a whole number from 0 to {MAX_WEIGHT:,}")
            good = False
    if good and not any(value.values()):
        problems.add(at, "every symbol of the reel has weight 0: the reel can never stop")
        return None
    return slots.Reel(tuple(value), tuple(value.values())) if good else None


def _wilds(value: Any, at: str, symbols: set[str] | None, problems: _Problems) -> tuple[slots.Wild, ...]:
    if not isinstance(value, list):
        problems.add(at, f"`wilds` is {_type(value)}, not a list of wild symbols")
        return ()
    raw = []
    for index, wild in enumerate(value):
        pointer = pointers.child(at, index)
        if not isinstance(wild, dict):
            problems.add(pointer, f"a wild is {_type(wild)}, not a mapping with `symbol`")
            continue
        for key in wild:
            if key not in ("symbol", "multiplier", "except", "only"):
                problems.add(pointers.child(pointer, key), f"a wild has no `{key}` (symbol, multiplier, except, only)")
        symbol = wild.get("symbol")
        if not isinstance(symbol, str) or (symbols is not None and symbol not in symbols):
            problems.add(pointers.child(pointer, "symbol"), f"the wild's symbol {show(symbol)} is not one listed "
                                                            "under `symbols`")
            continue
        if any(symbol == other for other, *_ in raw):
            problems.add(pointers.child(pointer, "symbol"), f"{symbol!r} is a wild twice")
            continue
        multiplier = Fraction(1)
        if "multiplier" in wild:
            multiplier = _amount(wild["multiplier"], pointers.child(pointer, "multiplier"), problems, Fraction(1),
                                 MAX_MULTIPLIER, "a wild's multiplier")
        if "except" in wild and "only" in wild:
            problems.add(pointer, "a wild gives `except` or `only`, not both")
            continue
        listed = None
        for key in ("except", "only"):
            if key in wild:
                listed = (key, _symbol_list(wild[key], pointers.child(pointer, key), symbols, problems))
        raw.append((symbol, multiplier, listed))
    wild_symbols = {symbol for symbol, *_ in raw}
    found = []
    for symbol, multiplier, listed in raw:
        if multiplier is None or (listed is not None and listed[1] is None) or symbols is None:
            continue
        ordinary = symbols - wild_symbols  # a wild never stands for another wild
        if listed is None:
            substitutes = ordinary
        elif listed[0] == "except":
            substitutes = ordinary - listed[1]
        else:
            substitutes = listed[1] & ordinary
        found.append(slots.Wild(symbol, frozenset(substitutes), multiplier))
    return tuple(found)


def _symbol_list(value: Any, at: str, symbols: set[str] | None, problems: _Problems) -> frozenset[str] | None:
    if not isinstance(value, list):
        problems.add(at, f"{_type(value)}, not a list of symbols")
        return None
    good = True
    for index, name in enumerate(value):
        if not isinstance(name, str) or (symbols is not None and name not in symbols):
            problems.add(pointers.child(at, index), f"{show(name)} is not a symbol listed under `symbols`")
            good = False
    return frozenset(value) if good else None


def _evaluation(par: dict, at: str, reels, rows, problems: _Problems):
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
    lines = _listed(par["lines"], lines_at, problems, "", "`lines` is {type}, not a list of paylines",
                    MAX_LINES, f"{{count:,}} lines; casino-audit computes at most {MAX_LINES}")  # given: never missing
    if lines is None:
        return None, False
    found = []
    for index, line in enumerate(lines):
        pointer = pointers.child(lines_at, index)
        if not isinstance(line, list) or not line:
            problems.add(pointer, f"a payline is {_type(line)}, not a list of rows (one per reel)")
            continue
        if reels is not None and len(line) != len(reels):
            problems.add(pointer, f"the payline gives {len(line)} row(s) for {len(reels)} reels")
            continue
        outside = [(position, row) for position, row in enumerate(line)
                   if not _whole(row, 0, MAX_ROWS) or (rows is not None and row >= rows)]
        if outside:  # once per payline, at its first row outside the window
            shown = ", ".join(f"{show(row)} on reel {position + 1}" for position, row in outside)
            problems.add(pointers.child(pointer, outside[0][0]), f"the payline reads row {shown}, outside the window "
                                                                 f"(rows 0 to {(rows or 1) - 1}, 0 at the top)")
        else:
            found.append(tuple(line))
    return tuple(found), False


def _paytable(value: Any, at: str, known: _Names, reels, rows, stop_row, lines, ways: bool, wilds, combine,
              line_wins, symbols, problems: _Problems) -> ParPaytable | None:
    if not isinstance(value, dict):
        problems.add(at, f"a paytable is {_type(value)}, not a mapping")
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
        own_reels = _reels(value["reels"], pointers.child(at, "reels"), symbols, rows, problems,
                           None if reels is None else len(reels))
    reel_count = len(own_reels) if own_reels else (len(reels) if reels else None)
    pays = _pays(value.get("pays", pointers.MISSING), pointers.child(at, "pays"), known, reel_count, ways, problems)
    scatters = _scatters(value.get("scatters", []), pointers.child(at, "scatters"), known, problems)
    free_reels, multiplier, free_at = None, Fraction(1), pointers.child(at, "free_spins")
    if "free_spins" in value:
        free = value["free_spins"]
        if not isinstance(free, dict):
            problems.add(free_at, f"`free_spins` is {_type(free)}, not a mapping (multiplier, reels)")
        else:
            for key in free:
                if key not in ("multiplier", "reels"):
                    problems.add(pointers.child(free_at, key), f"`free_spins` has no `{key}` (multiplier, reels)")
            if "multiplier" in free:
                multiplier = _amount(free["multiplier"], pointers.child(free_at, "multiplier"), problems,
                                     Fraction(1), MAX_MULTIPLIER, "the free spins' multiplier")
            if "reels" in free:
                free_reels = _reels(free["reels"], pointers.child(free_at, "reels"), symbols, rows, problems,
                                    reel_count)
        if scatters is not None and not any(s.free_spins for s in scatters):
            problems.add(free_at, "`free_spins` is described but no scatter entry awards any (`free_spins: N` on a "
                                  "scatter entry)")
    declared = None
    if "redistribution_rate" in value:
        rate_at = pointers.child(at, "redistribution_rate")
        rate = value["redistribution_rate"]
        if to_decimal(rate, "percent") is None:
            problems.add(rate_at, f"`redistribution_rate` is {show(rate)}, not a rate with a % sign (\"92.5 %\")")
        declared = (rate_at, rate)
    denomination = None
    if "denomination" in value:
        denomination = _denomination(value["denomination"], pointers.child(at, "denomination"), problems)
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


def _bet(value: dict, at: str, lines, ways: bool, problems: _Problems) -> Fraction | None:
    wanted, other = ("credits_per_spin", "credits_per_line") if ways else ("credits_per_line", "credits_per_spin")
    if other in value:
        problems.add(pointers.child(at, other), f"a {'ways' if ways else 'lines'} game states `{wanted}`, not "
                                                f"`{other}`")
        return None
    if wanted not in value:
        problems.add(at, f"the paytable's `{wanted}` is missing: the bet the pays are for")
        return None
    credits = value[wanted]
    if not _whole(credits, 1, MAX_CREDITS):
        problems.add(pointers.child(at, wanted), f"`{wanted}` is {show(credits)}, not a whole number from 1 to "
                                                 f"{MAX_CREDITS:,}")
        return None
    if ways:
        return Fraction(credits)
    return Fraction(credits * len(lines)) if lines else None


def _pays(value: Any, at: str, known: _Names, reels: int | None, ways: bool, problems: _Problems):
    value = _listed(value, at, problems, "the paytable's `pays` is missing",
                    "`pays` is {type}, not a list of pay entries",
                    MAX_ENTRIES, f"{{count:,}} pay entries; casino-audit reads at most {MAX_ENTRIES:,}")
    if value is None:
        return None
    found = []
    for index, entry in enumerate(value):
        pay = _pay(entry, pointers.child(at, index), known, reels, ways, problems)
        if pay is not None:
            found.append((index, pay))
    if ways:
        _ways_order([(i, p) for i, p in found if isinstance(p, slots.WaysPay)], at, problems)
    return None if len(found) != len(value) else [p for _, p in found]


def _pay(entry: Any, at: str, known: _Names, reels: int | None, ways: bool, problems: _Problems):
    if not isinstance(entry, dict):
        problems.add(at, f"a pay entry is {_type(entry)}, not a mapping")
        return None
    for key in entry:
        if key not in ("name", "combination", "symbol", "count", "pays"):
            problems.add(pointers.child(at, key), f"a pay entry has no `{key}` (name, combination or symbol and count, "
                                                  "pays)")
    pays = _amount(entry.get("pays", pointers.MISSING), pointers.child(at, "pays"), problems, Fraction(0), MAX_PAY,
                   "the pay", positive=True)
    name = entry.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        problems.add(pointers.child(at, "name"), f"the entry's `name` is {show(name)}, not a name")
        return None
    if "combination" in entry:
        if "symbol" in entry or "count" in entry:
            problems.add(at, "a pay entry gives a `combination`, or a `symbol` and its `count`, not both")
            return None
        if ways:
            problems.add(pointers.child(at, "combination"), "a ways game pays a symbol's count of adjacent reels "
                                                            "(`symbol` and `count`), not a combination on a line")
            return None
        return _combination(entry["combination"], pointers.child(at, "combination"), known, reels, pays, name, problems)
    if "symbol" not in entry or "count" not in entry:
        problems.add(at, "a pay entry gives a `combination` (the symbols on a line, left to right), or a `symbol` "
                         "and its `count` (of adjacent reels from the left)")
        return None
    members = known.members(entry["symbol"], pointers.child(at, "symbol"), problems, any_allowed=False)
    count = entry["count"]
    if not _whole(count, 1, MAX_REELS) or (reels is not None and count > reels):
        problems.add(pointers.child(at, "count"), f"`count` is {show(count)}, not a number of reels from 1 to "
                                                  f"{reels or MAX_REELS}")
        return None
    if members is False or pays is None:
        return None
    subject = entry["symbol"]
    name = name or f"{count} {subject}"
    if ways:
        return slots.WaysPay(name, subject, members, count, pays)
    return slots.LinePay(name, (members,) * count, pays)


def _combination(value: Any, at: str, known: _Names, reels: int | None, pays, name, problems: _Problems):
    if not isinstance(value, list) or not value:
        problems.add(at, f"`combination` is {_type(value)}, not a list of symbols, groups or `any`, left to right")
        return None
    if reels is not None and len(value) > reels:
        problems.add(at, f"the combination names {len(value)} positions on a line of {reels} reels")
        return None
    pattern = []
    good = True
    for index, item in enumerate(value):
        members = known.members(item, pointers.child(at, index), problems, any_allowed=True)
        if members is False:
            good = False
        pattern.append(members)
    if not good or pays is None:
        return None
    while pattern and pattern[-1] is None:
        pattern.pop()
    if not pattern:
        problems.add(at, "a combination of `any` only pays on every line whatever the reels show")
        return None
    return slots.LinePay(name or "-".join(str(v) for v in value), tuple(pattern), pays)


def _ways_order(found: list, at: str, problems: _Problems) -> None:
    """A ways subject pays its longest run; counts listed twice, or a longer run paying less, leave it unclear."""
    by_subject: dict[str, list] = {}
    for index, pay in found:
        by_subject.setdefault(pay.subject, []).append((index, pay))
    for subject, entries in by_subject.items():
        entries.sort(key=lambda item: item[1].count)
        for (i, shorter), (j, longer) in zip(entries, entries[1:]):
            if shorter.count == longer.count:
                problems.add(pointers.child(pointers.child(at, j), "count"), f"{subject} pays {longer.count} of a kind "
                                                                             "twice")
            elif longer.pays < shorter.pays:
                problems.add(pointers.child(pointers.child(at, j), "pays"),
                             f"{longer.count} {subject} pays less than {shorter.count} {subject}: a ways game pays the "
                             "longest run, so the shorter would never pay on it")


def _scatters(value: Any, at: str, known: _Names, problems: _Problems):
    if not isinstance(value, list):
        problems.add(at, f"`scatters` is {_type(value)}, not a list of scatter entries")
        return None
    if len(value) > MAX_SCATTERS:
        problems.add(at, f"{len(value):,} scatter entries; casino-audit reads at most {MAX_SCATTERS}")
        return None
    found, seen = [], {}
    good = True
    for index, entry in enumerate(value):
        pointer = pointers.child(at, index)
        if not isinstance(entry, dict):
            problems.add(pointer, f"a scatter entry is {_type(entry)}, not a mapping")
            good = False
            continue
        for key in entry:
            if key not in ("name", "symbol", "count", "pays", "free_spins", "retrigger"):
                problems.add(pointers.child(pointer, key),
                             f"a scatter entry has no `{key}` (name, symbol, count, pays, free_spins, retrigger)")
        symbol = entry.get("symbol")
        if not isinstance(symbol, str) or known.symbols is None or symbol not in known.symbols:
            problems.add(pointers.child(pointer, "symbol"),
                         f"the scatter symbol {show(symbol)} is not one listed under `symbols`")
            good = False
            continue
        count = entry.get("count")
        if not _whole(count, 1, MAX_ROWS * MAX_REELS):
            problems.add(pointers.child(pointer, "count"), f"`count` is {show(count)}, not a number of symbols from 1")
            good = False
            continue
        if (symbol, count) in seen:
            problems.add(pointers.child(pointer, "count"),
                         f"{count} {symbol} is listed twice (first at {seen[(symbol, count)]})")
            good = False
            continue
        seen[(symbol, count)] = pointer
        pays = Fraction(0)
        if "pays" in entry:
            pays = _amount(entry["pays"], pointers.child(pointer, "pays"), problems, Fraction(0), MAX_PAY, "the pay")
        spins = {}
        for key in ("free_spins", "retrigger"):
            spins[key] = entry.get(key, 0)
            if not _whole(spins[key], 0, MAX_SPINS):
                problems.add(pointers.child(pointer, key), f"`{key}` is {show(spins[key])}, not a number of spins from "
                                                           f"0 to {MAX_SPINS:,}")
                good = False
        if pays is None:
            good = False
            continue
        if good and not pays and not spins["free_spins"] and not spins["retrigger"]:
            problems.add(pointer, "the scatter entry neither pays nor awards free spins")
            good = False
            continue
        name = entry.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            problems.add(pointers.child(pointer, "name"), f"the entry's `name` is {show(name)}, not a name")
            good = False
            continue
        if good:
            found.append(slots.ScatterPay(name or f"{count} {symbol}", symbol, count, pays,
                                          spins["free_spins"], spins["retrigger"]))
    return found if good else None


# --- values -------------------------------------------------------------------------------------------------------

def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _amount(value: Any, at: str, problems: _Problems, low: Fraction, high: int, what: str,
            positive: bool = False) -> Fraction | None:
    """A whole number or a decimal written as text ("0.5"), exactly."""
    if value is pointers.MISSING:
        problems.add(at, f"{what} is missing")
        return None
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = Fraction(value)
    elif isinstance(value, str):
        if re.fullmatch(_DECIMAL, value.strip()):
            number = Fraction(Decimal(value.strip()))
    if number is None:
        problems.add(at, f"{what} is {show(value)}, not a whole number or a decimal written as text (\"0.5\")")
        return None
    if number < low or number > high or (positive and number == 0):
        bound = "above 0" if positive else f"at least {show(Decimal(low.numerator) / low.denominator)}"
        problems.add(at, f"{what} is {show(value)}, must be {bound} and at most {high:,}")
        return None
    return number


def _denomination(value: Any, at: str, problems: _Problems) -> Decimal | None:
    number = to_decimal(value) if isinstance(value, str) else None
    if number is None or number <= 0:
        problems.add(at, f"`denomination` is {show(value)}, not an amount in euros written as text (\"0.25\")")
        return None
    return number


def _integer(par: dict, key: str, at: str, problems: _Problems, low: int, high: int, default: int) -> int | None:
    value = par.get(key, default)
    if not _whole(value, low, high):
        problems.add(pointers.child(at, key), f"`{key}` is {show(value)}, not a whole number from {low} to {high}")
        return None
    return value


def _choice(par: dict, key: str, at: str, options: tuple, default: str, problems: _Problems) -> str | None:
    value = par.get(key, default)
    if value not in options:
        problems.add(pointers.child(at, key), f"`{key}` is {show(value)}, not one of {', '.join(options)}")
        return None
    return value


def _type(value: Any) -> str:
    if value is pointers.MISSING:
        return "missing"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, Decimal)):
        return f"the number {show(value)}"
    if isinstance(value, str):
        return f"the text {show(value)}"
    if isinstance(value, list):
        return "an empty list" if not value else "a list"
    if isinstance(value, dict):
        return "an empty mapping" if not value else "a mapping"
    return "null" if value is None else type(value).__name__


# --- the return ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Computed:
    paytable: ParPaytable
    result: slots.Result | None  # None: past the work limit, nothing is known of it


MIN_ROUNDS = slots_simulate.MIN_ROUNDS  # fewer spins than this say nothing: the paytable is left uncounted (None)
USEFUL_ROUNDS = 2_000  # spins an estimate is given at least, while the estimates' work lasts
MAX_ROUNDS = 1_000_000  # spins one paytable's simulation plays at most, however much work is left


def returns(reading: Reading, *, moments: bool = False, rounds: int | None = None, seed: int = 1,
            line_budget: int | None = None, joint_budget: int | None = None,
            work: slots.Work | None = None, estimate_work: slots.Work | None = None,
            moments_work: slots.Work | None = None) -> list[Computed]:
    """Each paytable's result (the return only, unless `moments`), in three passes over the paytables, each with
    its own budget of operations shared by every paytable (a file's, never a paytable's: fifty paytables cost what
    one budget allows):
    1. the return, counted exactly, within `work` (slots.RETURN_WORK by default). `check` and `rtp` run this same
       pass with the same budget, so whatever `rtp` counts exactly `check` judges exactly;
    2. the returns not counted, estimated by seeded simulations sharing `estimate_work` (slots.ESTIMATE_WORK):
       `rounds` spins each, or as many as the work left allows (at least MIN_ROUNDS, else no result: None);
    3. with `moments`, the hit frequency and standard deviation of each paytable counted, within `moments_work`
       (slots.MOMENTS_WORK): past it, the return stands and the result says they were not computed."""
    work = slots.Work(slots.RETURN_WORK) if work is None else work
    estimate_work = slots.Work(slots.ESTIMATE_WORK) if estimate_work is None else estimate_work
    results: list[slots.Result | None] = []
    for table in reading.paytables:
        try:
            results.append(slots.evaluate(table.paytable, moments=False, line_budget=line_budget, work=work,
                                          estimate=False))
        except slots.Uncountable:
            results.append(None)
    left = [i for i, result in enumerate(results) if result is None]
    for n, i in enumerate(left):
        paytable = reading.paytables[i].paytable
        # each paytable still to estimate alike, but none fewer spins than say something (the first have them)
        share = slots.Work(min(max(estimate_work.left, 0), max(
            estimate_work.left // (len(left) - n), USEFUL_ROUNDS * slots_simulate.spin_cost(paytable))))
        note = (f"the exact count outgrew the {slots.RETURN_WORK:,} operations a file's returns are counted within"
                if work.left < 0 else "the exact count outgrew its work budget")
        given = share.left
        try:  # the spins asked for, or as many as its share allows (a free spin or a multiplier costs more)
            results[i] = slots_simulate.simulate(paytable, rounds or MAX_ROUNDS, seed, note=note, work=share,
                                                 until_spent=True)
        except slots.Uncountable:
            pass
        estimate_work.left -= given - max(share.left, 0)
    if moments:
        moments_work = slots.Work(slots.MOMENTS_WORK) if moments_work is None else moments_work
        for i, result in enumerate(results):
            if result is None or not result.exact:
                continue  # an estimate's simulation gave its moments
            try:
                results[i] = slots.evaluate(reading.paytables[i].paytable, moments=True, rounds=rounds or 20_000,
                                            seed=seed, line_budget=line_budget, joint_budget=joint_budget,
                                            work=moments_work)
            except slots.Uncountable:
                results[i] = replace(result, notes=(*result.notes, (
                    f"the hit frequency and standard deviation are not computed: they need more than the "
                    f"{slots.MOMENTS_WORK:,} operations allowed a file's figures beside its returns")))
    return [Computed(table, result) for table, result in zip(reading.paytables, results)]
