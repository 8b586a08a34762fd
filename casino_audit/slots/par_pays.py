"""A PAR paytable's pays and scatter pays (`pays:`, `scatters:`, docs/par.md), read into the slot engine's model,
each problem a (JSON pointer, message) at the value that causes it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from casino_audit import slots
from casino_audit.core import pointers
from casino_audit.core.values import show
from casino_audit.slots.par_fields import (
    MAX_ENTRIES, MAX_PAY, MAX_REELS, MAX_ROWS, MAX_SCATTERS, MAX_SPINS, Problems, amount, listed, type_of, whole,
)
from casino_audit.slots.par_reels import Names


def read_pays(value: Any, at: str, known: Names, reels: int | None, ways: bool, problems: Problems):
    value = listed(value, at, problems, "the paytable's `pays` is missing",
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


def _pay(entry: Any, at: str, known: Names, reels: int | None, ways: bool, problems: Problems):
    if not isinstance(entry, dict):
        problems.add(at, f"a pay entry is {type_of(entry)}, not a mapping")
        return None
    for key in entry:
        if key not in ("name", "combination", "symbol", "count", "pays"):
            problems.add(pointers.child(at, key), f"a pay entry has no `{key}` (name, combination or symbol and count, "
                                                  "pays)")
    pays = amount(entry.get("pays", pointers.MISSING), pointers.child(at, "pays"), problems, Fraction(0), MAX_PAY,
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
    if not whole(count, 1, MAX_REELS) or (reels is not None and count > reels):
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


def _combination(value: Any, at: str, known: Names, reels: int | None, pays, name, problems: Problems):
    if not isinstance(value, list) or not value:
        problems.add(at, f"`combination` is {type_of(value)}, not a list of symbols, groups or `any`, left to right")
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


def _ways_order(found: list, at: str, problems: Problems) -> None:
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


def _scatter_symbol_count(entry: dict, pointer: str, known: Names, seen: dict, problems: Problems):
    """(symbol, count) of a scatter entry, its keys checked; None if either is not one or the pair is listed
    before (`seen`: pair -> where it was first, this one added)."""
    for key in entry:
        if key not in ("name", "symbol", "count", "pays", "free_spins", "retrigger"):
            problems.add(pointers.child(pointer, key),
                         f"a scatter entry has no `{key}` (name, symbol, count, pays, free_spins, retrigger)")
    symbol = entry.get("symbol")
    if not isinstance(symbol, str) or known.symbols is None or symbol not in known.symbols:
        problems.add(pointers.child(pointer, "symbol"),
                     f"the scatter symbol {show(symbol)} is not one listed under `symbols`")
        return None
    count = entry.get("count")
    if not whole(count, 1, MAX_ROWS * MAX_REELS):
        problems.add(pointers.child(pointer, "count"), f"`count` is {show(count)}, not a number of symbols from 1")
        return None
    if (symbol, count) in seen:
        problems.add(pointers.child(pointer, "count"),
                     f"{count} {symbol} is listed twice (first at {seen[(symbol, count)]})")
        return None
    seen[(symbol, count)] = pointer
    return symbol, count


def read_scatters(value: Any, at: str, known: Names, problems: Problems):
    if not isinstance(value, list):
        problems.add(at, f"`scatters` is {type_of(value)}, not a list of scatter entries")
        return None
    if len(value) > MAX_SCATTERS:
        problems.add(at, f"{len(value):,} scatter entries; casino-audit reads at most {MAX_SCATTERS}")
        return None
    found, seen = [], {}
    good = True
    for index, entry in enumerate(value):
        pointer = pointers.child(at, index)
        if not isinstance(entry, dict):
            problems.add(pointer, f"a scatter entry is {type_of(entry)}, not a mapping")
            good = False
            continue
        scatter = _scatter_symbol_count(entry, pointer, known, seen, problems)
        if scatter is None:
            good = False
            continue
        symbol, count = scatter
        pays = Fraction(0)
        if "pays" in entry:
            pays = amount(entry["pays"], pointers.child(pointer, "pays"), problems, Fraction(0), MAX_PAY, "the pay")
        spins = {}
        for key in ("free_spins", "retrigger"):
            spins[key] = entry.get(key, 0)
            if not whole(spins[key], 0, MAX_SPINS):
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


