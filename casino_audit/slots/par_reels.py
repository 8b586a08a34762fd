"""The symbols, groups, reels and wilds of a machine's PAR data (`par:`, docs/par.md), read into the slot
engine's model, each problem a (JSON pointer, message) at the value that causes it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from casino_audit import slots
from casino_audit.core import pointers
from casino_audit.core.values import show
from casino_audit.slots.par_fields import (
    MAX_MULTIPLIER, MAX_REELS, MAX_STOPS, MAX_SYMBOLS, MAX_WEIGHT, Problems, amount, listed, type_of, whole,
)

ANY = "any"  # the group every symbol is of


class Names:
    """What a name in a pay entry may be: a symbol, a group, or `any`."""

    def __init__(self, symbols: set[str] | None, groups: dict[str, frozenset[str]]):
        self.symbols = symbols
        self.groups = groups

    def members(self, name: Any, pointer: str, problems: Problems, any_allowed: bool) -> frozenset[str] | None | bool:
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



def read_symbols(value: Any, at: str, problems: Problems) -> set[str] | None:
    value = listed(value, at, problems, "`symbols` is missing: list every symbol the reels show (blanks included), "
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


def read_groups(value: Any, at: str, symbols: set[str] | None, problems: Problems) -> dict[str, frozenset[str]]:
    if not isinstance(value, dict):
        problems.add(at, f"`groups` is {type_of(value)}, not a mapping of group names to their symbols")
        return {}
    found = {}
    for name, members in value.items():
        pointer = pointers.child(at, name)
        if name == ANY or (symbols is not None and name in symbols):
            problems.add(pointer, f"group {name!r} has the name of a symbol" if name != ANY else
                         "`any` cannot name a group")
            continue
        if not isinstance(members, list) or not members:
            problems.add(pointer, f"group {name!r} is {type_of(members)}, not a list of symbols")
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


def read_reels(value: Any, at: str, symbols: set[str] | None, rows: int | None, problems: Problems,
           count: int | None = None) -> tuple[slots.Reel, ...] | None:
    value = listed(value, at, problems, "`reels` is missing: give each reel's strip (or its symbol weights)",
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


def _reel(value: Any, at: str, symbols: set[str] | None, rows: int | None, problems: Problems) -> slots.Reel | None:
    if not isinstance(value, dict):
        problems.add(at, f"a reel is {type_of(value)}, not a mapping with `strip` (and `weights`) or `symbol_weights`")
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
    strip = listed(value.get("strip", pointers.MISSING), strip_at, problems,
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
        problems.add(weights_at, f"`weights` is {type_of(weights)}, not a list of whole numbers")
        return None
    elif len(weights) != len(strip):
        problems.add(weights_at, f"{len(weights)} weights for {len(strip)} stops: one weight per stop")
        return None
    else:
        for index, weight in enumerate(weights):
            if not whole(weight, 0, MAX_WEIGHT):
                problems.add(pointers.child(weights_at, index), f"weight {show(weight)} is not a whole number from 0 "
                                                                f"to {MAX_WEIGHT:,}")
                good = False
    if good and not any(weights):
        problems.add(weights_at, "every stop of the reel has weight 0: the reel can never stop")
        return None
    return slots.Reel(tuple(strip), tuple(weights)) if good else None


def _symbol_weights(value: Any, at: str, symbols: set[str] | None, rows: int | None,
                    problems: Problems) -> slots.Reel | None:
    if not isinstance(value, dict) or not value:
        problems.add(at, f"`symbol_weights` is {type_of(value)}, not a mapping of symbols to weights")
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
        if not whole(weight, 0, MAX_WEIGHT):
            problems.add(pointer, f"weight {show(weight)} is not a whole number from 0 to {MAX_WEIGHT:,}")
            good = False
    if good and not any(value.values()):
        problems.add(at, "every symbol of the reel has weight 0: the reel can never stop")
        return None
    return slots.Reel(tuple(value), tuple(value.values())) if good else None


def read_wilds(value: Any, at: str, symbols: set[str] | None, problems: Problems) -> tuple[slots.Wild, ...]:
    if not isinstance(value, list):
        problems.add(at, f"`wilds` is {type_of(value)}, not a list of wild symbols")
        return ()
    raw = []
    for index, wild in enumerate(value):
        pointer = pointers.child(at, index)
        if not isinstance(wild, dict):
            problems.add(pointer, f"a wild is {type_of(wild)}, not a mapping with `symbol`")
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
            multiplier = amount(wild["multiplier"], pointers.child(pointer, "multiplier"), problems, Fraction(1),
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


def _symbol_list(value: Any, at: str, symbols: set[str] | None, problems: Problems) -> frozenset[str] | None:
    if not isinstance(value, list):
        problems.add(at, f"{type_of(value)}, not a list of symbols")
        return None
    good = True
    for index, name in enumerate(value):
        if not isinstance(name, str) or (symbols is not None and name not in symbols):
            problems.add(pointers.child(at, index), f"{show(name)} is not a symbol listed under `symbols`")
            good = False
    return frozenset(value) if good else None


