"""`kind: par`: what a machine's PAR data (`par:`, docs/par.md) show, computed by the slot engine
(casino_audit/slots/model.py) rather than taken from the rate the filing declares.

`verify` names what is checked:
- `evaluable`: the PAR data can be evaluated (every symbol on a reel listed, every payline inside the window, no
  reel whose stops all weigh 0, groups of known symbols, free spins that end...); each problem at its value;
- `minimum`: each paytable returns at least `min` per cent, computed exactly (an estimate, where the exact count
  outgrows its budget, is judged on an interval a simulation misses once in a billion (slots_simulate.DECIDING_Z
  standard errors; a public seed tried on variant files never passes on a 95 % chance): below it all is a breach,
  across the minimum "cannot tell");
- `declared`: the rate declared (a paytable's own `redistribution_rate`, else the one at `declared`) equals each
  paytable's computed return within `tolerance` percentage points;
- `stakes`: each paytable that gives its `denomination` stakes, per spin (its bet in credits times the
  denomination), no less than the machine's minimum stake and no more than its maximum (`minimum_eur`,
  `maximum_eur` of the mapping at `stakes`).

PAR data are optional: a filing without them is said "not checked" as info, by the rule that does not say
`missing:`; the others name it with `missing: {reported_by: ...}`, so that it is said once, and leave to it the
problems of PAR data that cannot be evaluated (without `missing:`, they say they could not check them)."""

from __future__ import annotations

import marshal
import pickle
import weakref
from collections import OrderedDict
from decimal import Decimal
from fractions import Fraction

from casino_audit.core import pointers
from casino_audit.law.checks.common import (MISSING_SCHEMA, NUMBER, NUMBER_OR_PARAM, PLAIN_POINTER, CompiledCheck,
                                        NotChecked, check_schema, describe_missing, document_memo, file_memo,
                                        missing_is_breach, name, shown_number, target_list)
from casino_audit.core.pointers import MISSING
from casino_audit.core.values import show, show_quotient, to_decimal

NAME = "par"
VERIFY = ("evaluable", "minimum", "declared", "stakes")
PARAMETERS = check_schema(
    NAME,
    {"target": {**PLAIN_POINTER, "description": "the PAR data (`/par`)"},
     "verify": {"enum": list(VERIFY), "description": "evaluable: the PAR data can be evaluated; minimum: each "
                                                     "paytable's computed return is at least `min` per cent; "
                                                     "declared: the declared rate equals the computed return within "
                                                     "`tolerance` percentage points"},
     "min": {**NUMBER_OR_PARAM, "description": "minimum: the least return, in per cent"},
     "declared": {**PLAIN_POINTER, "description": "declared: where the machine declares its rate (a paytable's own "
                                                  "`redistribution_rate` comes first)"},
     "tolerance": {**NUMBER, "description": "declared: how far apart, in percentage points, the declared and the "
                                            "computed return may be"},
     "stakes": {**PLAIN_POINTER, "description": "stakes: the machine's stakes (`minimum_eur`, `maximum_eur`), "
                                                "which each paytable's stake per spin must keep within"},
     "missing": MISSING_SCHEMA},
    required=["verify"],
    allOf=[{"if": {"properties": {"verify": {"const": "minimum"}}}, "then": {"required": ["min"]}},
           {"if": {"properties": {"verify": {"const": "declared"}}}, "then": {"required": ["declared", "tolerance"]}},
           {"if": {"properties": {"verify": {"const": "stakes"}}}, "then": {"required": ["stakes"]}},
           {"if": {"properties": {"verify": {"const": "evaluable"}}},
            "then": {"properties": {"min": False, "declared": False, "tolerance": False, "stakes": False}}}])


def targets(spec):
    return target_list((spec["target"], dict), (spec.get("declared"), None), (spec.get("stakes"), None))


# The returns are counted as `casino-audit rtp` counts them (casino_audit.slots.par_returns.returns' first pass), within one
# budget of operations per file (slots.RETURN_WORK, every document and paytable of the file drawing on it), and
# the returns not counted are estimated within another (slots.ESTIMATE_WORK): whatever `rtp` counts exactly is
# judged exactly here, and a file of any number of machines costs what the two budgets allow.
_WORK_KEY = "par.work"
_CACHE: OrderedDict = OrderedDict()  # the PAR data as written -> their reading and returns (three rules read them)
_CACHE_SIZE = 16
_KEY = "par.computed"
_DRAWN_KEY = "par.drawn"  # PAR data not counted after the file's other documents drew on its budget
DRAWN = ("the file's other documents spent the operations its returns are counted within before this one; "
         "checked in a file of its own, it may be counted exactly")


def computed(par):
    """(reading, returns) of PAR data: read and computed once for the rules that read the same data."""
    memo = document_memo()  # the three rules of one document: the data are pickled once, not thrice
    held = memo.get((_KEY, id(par)))
    if held is not None and held[0] is par:
        return held[1]
    key = _key(par)
    found = _CACHE.get(key)
    if found is None:
        from casino_audit.slots import par_read, par_returns  # the slot engine loads when a filing gives PAR data
        from casino_audit import slots  # (as above)

        reading = par_read.read(par)
        shared = file_memo()
        if _WORK_KEY not in shared:
            shared[_WORK_KEY] = (slots.Work(slots.RETURN_WORK), slots.Work(slots.ESTIMATE_WORK),
                                 slots.Work(slots.SPARE_WORK))
        work, estimate_work, spare = shared[_WORK_KEY]
        fresh = work.left == slots.RETURN_WORK and estimate_work.left == slots.ESTIMATE_WORK
        own = None
        if work.left < slots.DOCUMENT_WORK and spare.left > 0 and not reading.problems:
            own = slots.Work(min(slots.DOCUMENT_WORK, spare.left))  # the file's spent: a floor of its own
        given = own.left if own is not None else 0
        found = (reading, par_returns.returns(reading, work=own or work, estimate_work=estimate_work)
                 if not reading.problems else [])
        if own is not None:
            spare.left -= given - max(own.left, 0)
        if not fresh and any(item.result is None or not item.result.exact for item in found[1]):
            memo[(_DRAWN_KEY, id(par))] = par  # the others drew on the budget first: said with the finding
        # Figures made from a budget other documents had drawn on are this file's, not the data's: not kept.
        if fresh or all(item.result is not None and item.result.exact for item in found[1]):
            _CACHE[key] = found
            if len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    memo[(_KEY, id(par))] = (par, found)
    return found


def _key(par) -> bytes | str:
    """The data as written, types and order included: equal data, equal figures (never an object's identity).
    marshal writes plain JSON and YAML values exactly, at half a pickle's cost (a quarter of repr's), and refuses
    any other type (a Decimal, a subclass), which a pickle then writes. The two never meet: a marshal is keyed
    as bytes starting b"m", a pickle b"p". Data differing only in what objects they share are written apart,
    which costs a computation, never a wrong figure."""
    try:
        return b"m" + marshal.dumps(par)
    except ValueError:
        pass
    try:
        return b"p" + pickle.dumps(par, protocol=5)
    except Exception:  # noqa: BLE001 - a value pickle cannot write: its repr says as much
        return repr(par)


def percent(value: Fraction, digits: int = 4) -> str:
    """A return as a person reads it: 92.4973 %, never rounded to look like the limit it misses."""
    text = format(round(Decimal(value.numerator * 100) / Decimal(value.denominator), digits), "f")
    return f"{text} %"


def compile(spec) -> CompiledCheck:
    at, verify, breach = spec["target"], spec["verify"], missing_is_breach(spec)
    least = Fraction(to_decimal(spec["min"])) if verify == "minimum" else None
    tolerance = Fraction(to_decimal(spec["tolerance"])) if verify == "declared" else None
    # As fractions of one (the returns' unit), once: every filing is compared with them.
    bound = least / 100 if least is not None else None
    points = tolerance / 100 if tolerance is not None else None
    par_at = pointers.getter(at)
    judged: dict = {}

    def check(data):
        par = par_at(data)
        if par is MISSING or par is None:
            if breach:
                yield NotChecked(at, f"not checked: the filing gives no PAR data (`{name(at)}`); they are optional, "
                                     "and the return is computed from them only where they are given")
            return
        reading, found = computed(par)
        drawn = document_memo().get((_DRAWN_KEY, id(par))) is par
        if verify == "evaluable":
            yield from reading.problems
            return
        if reading.problems:
            if breach:  # else the rule named by `missing: {reported_by: ...}` reports each problem
                yield at, (f"not checked: the PAR data cannot be evaluated ({len(reading.problems)} problem(s); "
                           "`verify: evaluable` reports each where it is)")
            return
        if verify == "minimum":
            yield from _minimum(found, least, bound, drawn)
        elif verify == "stakes":
            yield from _stakes(data, reading, spec["stakes"])
        else:
            yield from _declared(data, found, spec["declared"], tolerance, points, judged, drawn)
    return check


TOO_LARGE = ("the PAR data are too large to count or simulate within casino-audit's work limits: have the return "
             "certified by a laboratory")


def _minimum(found, least: Fraction, bound: Fraction | None = None, drawn: bool = False):
    """`least` in per cent, `bound` the same as a fraction of one (computed once by the compiled rule); `drawn`:
    the file's other documents spent the budget first."""
    bound = least / 100 if bound is None else bound
    for item in found:
        result, table = item.result, item.paytable
        what = f"paytable {table.paytable.name!r}"
        if result is None:
            yield table.pointer, f"cannot tell whether {what} returns {percent(bound, 0)}: {DRAWN if drawn else TOO_LARGE}"
            continue
        if result.exact:
            if result.rtp < bound:
                yield table.pointer, (f"{what} returns {percent(result.rtp)} (exactly {result.rtp}), below the "
                                      f"minimum of {show(Decimal(least.numerator) / least.denominator)} %")
            continue
        low, high = result.decides or result.ci95
        estimate = _estimate(result)
        if high < bound:
            yield table.pointer, f"{what} returns {estimate}, below the minimum of {percent(bound, 0)}"
        elif low < bound:
            yield table.pointer, (f"cannot tell whether {what} returns the minimum of {percent(bound, 0)}: it returns "
                                  f"{estimate}, across the minimum; {_undecided(result, [bound], drawn)}")


_JUDGED_KEPT = 1_024  # (rate as written, paytable) judgements kept per rule: a batch of one model declares few rates


def _declared(data, found, declared_at: str, tolerance: Fraction, points: Fraction | None = None,
              judged: dict | None = None, drawn: bool = False):
    """`tolerance` in percentage points, `points` the same as a fraction of one (computed once by the rule).
    `judged`: the rule's judgements of a rate written as text against a paytable's computed return, kept with
    the item they are about, weakly (its identity is never taken for another's, and it is not kept alive).
    Computing a declared rate's gap to the exact return, and writing it, costs a filing more than its reading."""
    points = tolerance / 100 if points is None else points
    machine_rate = pointers.get(data, declared_at)
    for item in found:
        table = item.paytable
        pointer, rate = table.declared if table.declared else (declared_at, machine_rate)
        if rate is MISSING:
            continue  # no rate declared: the rule that requires one reports it
        if judged is None or type(rate) is not str:
            yield from _judge_declared(item, pointer, rate, tolerance, points, drawn)
            continue
        key = (pointer, rate, id(item), drawn)
        held = judged.get(key)
        if held is None or held[0]() is not item:
            if len(judged) >= _JUDGED_KEPT:
                judged.clear()
            held = judged[key] = (weakref.ref(item), list(_judge_declared(item, pointer, rate, tolerance, points,
                                                                                   drawn)))
        yield from held[1]


def _judge_declared(item, pointer: str, rate, tolerance: Fraction, points: Fraction, drawn: bool = False):
    """What one declared rate says against one paytable's computed return."""
    result, table = item.result, item.paytable
    number = to_decimal(rate, "percent")
    if number is None:
        yield pointer, f"not checked: `{name(pointer)}` is {show(rate)}, not a rate written with a % sign"
        return
    stated = Fraction(number) / 100
    what = f"the PAR data of paytable {table.paytable.name!r}"
    if result is None:
        yield pointer, f"cannot tell whether `{name(pointer)}` is the return of {what}: {DRAWN if drawn else TOO_LARGE}"
        return
    allowed = f"more than the {show(Decimal(tolerance.numerator) / tolerance.denominator)} allowed"
    if result.exact:
        gap = abs(stated - result.rtp)
        if gap > points:
            yield pointer, (f"`{name(pointer)}` declares {show(number, 'percent')} but {what} return "
                            f"{percent(result.rtp)} (exactly {result.rtp}): {percent(gap, 5).removesuffix(' %')} "
                            f"percentage points apart, {allowed}")
        return
    low, high = result.decides or result.ci95
    estimate = _estimate(result)
    if high < stated - points or low > stated + points:
        yield pointer, (f"`{name(pointer)}` declares {show(number, 'percent')} but {what} return {estimate}, "
                        f"{allowed}")
    elif low < stated - points or high > stated + points:
        yield pointer, (f"cannot tell whether `{name(pointer)}` ({show(number, 'percent')}) is the return of "
                        f"{what}: they return {estimate}; {_undecided(result, [stated - points, stated + points], drawn)}")


def _estimate(result) -> str:
    """An estimate as a reader weighs it: its 95 % interval, and the wider one a verdict rests on."""
    low, high = result.ci95
    shown = (f"an estimated {percent(result.rtp, 2)} (95 % interval {percent(low, 2)} to {percent(high, 2)}, "
             f"{result.rounds:,} simulated spins")
    if result.decides is None:
        return shown + ")"
    low, high = result.decides
    return shown + (f"; judged only outside {percent(low, 2)} to {percent(high, 2)}, the interval a simulation "
                    "misses once in a billion)")


def _undecided(result, limits: list[Fraction], drawn: bool = False) -> str:
    """Why an estimate decides nothing, and what would: the exact count (past the work a file's returns are
    counted within), or an interval narrow enough to leave the nearest limit out, that is about this many spins
    (the half-width shrinks as the square root of the spins)."""
    from casino_audit import slots  # loaded by the PAR data already; never for a filing without them

    low, high = result.decides or result.ci95
    half, gap = (high - low) / 2, min(abs(result.rtp - limit) for limit in limits)
    why = DRAWN if drawn else (f"the exact count needs more than the {slots.RETURN_WORK:,} operations casino-audit "
                               "counts a file's returns within")
    if not gap:
        return why + ", and the estimate is at the limit itself: only the exact figure (a laboratory's) decides"
    needed = result.rounds * (half / gap) ** 2
    return (why + f"; a simulation of about {int(Decimal(slots.decimal_text(needed, 2))):,} spins would decide (more than casino-audit "
            "plays), or the exact figure of a laboratory's certified PAR sheet")


def _stakes(data, reading, stakes_at: str):
    """Each paytable's stake per spin in euros (bet times denomination) against the machine's stake limits. A
    limit not given, or not a number, is left to the rules that require it; a paytable without a denomination
    states no stake in euros."""
    stakes = pointers.get(data, stakes_at)
    if not isinstance(stakes, dict):
        return
    limits = {key: to_decimal(stakes.get(key)) for key in ("minimum_eur", "maximum_eur")}
    for table in reading.paytables:
        if table.denomination is None:
            continue
        credits = table.paytable.bet
        euros = Fraction(table.denomination) * credits
        shown = show_quotient(euros)
        what = (f"paytable {table.paytable.name!r} stakes {show_quotient(credits)} credit(s) of EUR "
                f"{table.denomination} a spin, EUR {shown}")
        low, high = limits["minimum_eur"], limits["maximum_eur"]
        at = pointers.child(table.pointer, "denomination")
        if high is not None and euros > Fraction(high):
            yield at, f"{what}, above the machine's maximum stake of EUR {show(high)} (`{name(stakes_at)}/maximum_eur`)"
        if low is not None and euros < Fraction(low):
            yield at, f"{what}, below the machine's minimum stake of EUR {show(low)} (`{name(stakes_at)}/minimum_eur`)"


def describe(spec) -> str:
    at = f"`{name(spec['target'])}`"
    verify = spec["verify"]
    if verify == "evaluable":
        text = (f"the PAR data at {at} must be ones casino-audit can evaluate: every symbol on a reel listed under "
                "`symbols`, every payline inside the window, no reel whose stops all weigh 0, groups and pay entries "
                "naming known symbols, free spins that end")
    elif verify == "minimum":
        text = (f"each paytable of the PAR data at {at} must return at least {shown_number(spec['min'])} per cent, "
                "computed exactly from its reels and pays (an estimate is judged on an interval a simulation misses once in a billion)")
    elif verify == "stakes":
        text = (f"each paytable of the PAR data at {at} that gives its `denomination` must stake, per spin (its bet "
                "in credits times the denomination), no less than the machine's minimum stake and no more than its "
                f"maximum (`{name(spec['stakes'])}`)")
    else:
        text = (f"the rate declared (a paytable's own `redistribution_rate`, else `{name(spec['declared'])}`) must "
                f"equal the return computed from the PAR data at {at} within {shown_number(spec['tolerance'])} "
                "percentage points, for each paytable")
    absent = describe_missing(spec) or " (a filing without PAR data is said not checked, as info)"
    return text + absent


_SMALL = {"symbols": ["A", "X"], "reels": [{"strip": ["A", "X"]}], "lines": [[0]],
          "paytables": [{"name": "base", "credits_per_line": 1, "pays": [{"symbol": "A", "count": 1, "pays": 1}]}]}

EXAMPLES = [
    ({"kind": NAME, "target": "/par", "verify": "minimum", "min": "45"},
     {"par": _SMALL},
     {"par": {**_SMALL, "reels": [{"strip": ["A", "X"], "weights": [2, 3]}]}},
     [("/par/paytables/0", "paytable 'base' returns 40.0000 % (exactly 2/5), below the minimum of 45 %")]),
    ({"kind": NAME, "target": "/par", "verify": "declared", "declared": "/redistribution_rate", "tolerance": "0.01"},
     {"par": _SMALL, "redistribution_rate": "50 %"}, {"par": _SMALL, "redistribution_rate": "50.02 %"},
     [("/redistribution_rate", "`redistribution_rate` declares 50.02 % but the PAR data of paytable 'base' return "
                               "50.0000 % (exactly 1/2): 0.02000 percentage points apart, more than the 0.01 allowed")]),
    ({"kind": NAME, "target": "/par", "verify": "stakes", "stakes": "/stakes"},
     {"par": {**_SMALL, "paytables": [{**_SMALL["paytables"][0], "denomination": "2.00"}]},
      "stakes": {"minimum_eur": "0.50", "maximum_eur": "10"}},
     {"par": {**_SMALL, "paytables": [{**_SMALL["paytables"][0], "denomination": "20.00"}]},
      "stakes": {"minimum_eur": "0.50", "maximum_eur": "10"}},
     [("/par/paytables/0/denomination", "paytable 'base' stakes 1 credit(s) of EUR 20.00 a spin, EUR 20, above the "
                                        "machine's maximum stake of EUR 10 (`stakes/maximum_eur`)")]),
    ({"kind": NAME, "target": "/par", "verify": "evaluable"},
     {"par": _SMALL}, {"par": {**_SMALL, "reels": [{"strip": ["A", "Y"]}]}},
     [("/par/reels/0/strip/1", "'Y' on the reel is not a symbol listed under `symbols`")]),
]
