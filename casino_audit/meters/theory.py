"""What a machine's realised return is judged against: its theoretical return to player and the variance of one
game's return per unit staked, from its homologation file: never from a figure the filing merely types in.

`theory_of` is the one place that reads them. Three cases, the report saying which one was used:
- "par": the file's PAR data hold one paytable the slot engine counts exactly: return and variance are computed
  from them (the machine's mathematics);
- "bound": the PAR data cannot be counted exactly (an estimate only, several paytables of which a meter does not
  say which one it counts, the work budget spent): the return is the declared rate p, and the variance is the
  largest any machine of that rate paying at most T per unit staked in one game can have. For a return X of one
  game with 0 <= X <= T and E[X] = p, X^2 <= T X, so E[X^2] <= T p and Var X <= p (T - p) (the Bhatia-Davis
  bound; a two-point machine paying 0 or T reaches it). T is bounded from the paytables' pays (`top_per_unit`),
  so a legal machine is never flagged on a variance smaller than its own;
- None: no return or no bound can be had (no PAR data, free spins whose retriggers bound no game's pay): the
  return is not judged, and the rule says so naming what to give.
A `standard_deviation_per_spin` the file declares is kept only to be held to these: larger than the computed one
(beyond its own rounding) or than the bound, it is a finding; the verdict never rests on it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from casino_audit.core.values import to_decimal

PAR, BOUND = "par", "bound"


@dataclass(frozen=True)
class Theory:
    rtp: Fraction  # the theoretical return to player, 0.925 for 92.5 %
    variance: Fraction | None  # of one game's return per unit staked; None: not known
    source: str  # "par" (computed from the PAR data) or "bound" (the declared rate and the top award's bound)
    top: Fraction | None = None  # the most one game can pay per unit staked, where the pays bound it
    declared_sd: Decimal | None = None  # the file's `standard_deviation_per_spin`, held to the variance
    why: str | None = None  # "bound": why the PAR data were not counted exactly
    high: Fraction | None = None  # "par", several paytables: the highest return (rtp is the lowest)
    tables: int = 1  # "par": the paytables counted, a game being of any of them
    denied: bool = False  # "bound": the log's work for PAR data was spent (in part) on its other machines' sheets

    @property
    def variance_root(self) -> Fraction | None:
        """The standard deviation, to 30 digits (for messages: comparisons use the variance)."""
        from casino_audit.meters.stats import root

        return None if self.variance is None else Fraction(root(self.variance))

    def declared_too_large(self) -> bool:
        """The declared standard deviation exceeds what the PAR data or the bound allow: for PAR data beyond the
        declared figure's own rounding (3.54 for 3.5359 is a rounding, 3.6 is not)."""
        if self.declared_sd is None or self.variance is None or self.declared_sd <= 0:
            return False
        declared = Fraction(self.declared_sd)
        if self.source == PAR:
            exponent = self.declared_sd.as_tuple().exponent
            half = Fraction(1, 2) * Fraction(10) ** exponent if isinstance(exponent, int) else Fraction(0)
            declared -= half
        return declared > 0 and declared * declared > self.variance


def theory_of(machine_data: Any, work: "Any | None" = None) -> Theory | None:
    """The machine's theory, or None where its file gives none that can be relied on (a rate without its % sign is
    not read: 0.925 and 92.5 cannot be told apart). `work`: the slot engine's budget, shared by the caller over
    every machine it asks about (one log naming many heavy PAR sheets computes no more than it allows)."""
    if not isinstance(machine_data, dict):
        return None
    declared_sd = _declared_sd(machine_data.get("standard_deviation_per_spin"))
    rate = to_decimal(machine_data.get("redistribution_rate"), "percent")
    found = _from_par(machine_data.get("par"), Fraction(rate) / 100 if rate is not None else None, work)
    if found is None:
        return None
    return Theory(found.rtp, found.variance, found.source, found.top, declared_sd, found.why, found.high,
                  found.tables, found.denied)


def _declared_sd(value) -> Decimal | None:
    if isinstance(value, bool) or (isinstance(value, str) and not value.strip()):
        return None
    spread = to_decimal(value)
    return spread if spread is not None and spread > 0 else None


_COMPUTED: dict[tuple, Theory | None] = {}
PAR_WORK = 2_000_000  # the slot engine's work for one machine's return and variance (about a second at most)
EXACT_SHEETS = 2  # distinct PAR sheets one log has counted exactly at most: past them, the top award's bound


class Budget:
    """The slot engine's work one meter log may spend on its machines' theories: PAR_WORK in all, over
    EXACT_SHEETS distinct sheets at most (the engine's own count of its work does not bound every sheet's time:
    a log naming forty heavy sheets must not cost forty counts). A sheet past it is judged on its bound, said."""

    def __init__(self, left: int = PAR_WORK, sheets: int = EXACT_SHEETS):
        self.left, self.sheets = left, sheets


def _key(par: Any, rate: Fraction | None) -> tuple:
    """A short key for the PAR data's content (the same sheet in two files, or named twice, is computed once)."""
    try:
        text = json.dumps(par, sort_keys=True, default=str)
    except (TypeError, ValueError):
        text = repr(par)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), rate


def _from_par(par: Any, rate: Fraction | None, work) -> Theory | None:
    """Return and variance counted exactly from PAR data of one paytable; else the declared rate with the bound the
    paytables' top pays give; None where neither is possible. Computed once per distinct sheet and rate."""
    if not isinstance(par, dict):
        return None
    key = _key(par, rate)
    if key in _COMPUTED:
        return _COMPUTED[key]
    found, whole = _compute(par, rate, work)
    if whole:  # not one cut short by what other sheets of the same log spent
        if len(_COMPUTED) > 256:
            _COMPUTED.clear()
        _COMPUTED[key] = found
    return found


def _compute(par: dict, rate: Fraction | None, work) -> tuple[Theory | None, bool]:
    """The theory, and whether it had the whole of one sheet's work (else it is not kept for another log)."""
    from casino_audit.slots import par_read, par_returns
    from casino_audit import slots

    reading = par_read.read(par)
    if reading.problems or not reading.paytables:
        return None, True
    tops = [top_per_unit(table.paytable) for table in reading.paytables]
    top = None if None in tops else max(tops)  # bounds what the pay meters may count (a rollover's plausibility)
    why = "its PAR data hold several paytables and a meter does not say which one it counts"
    whole = True
    if reading.paytables:  # several: each game may be of any, so the lowest return and the largest E[X^2] bound it
        given = PAR_WORK if work is None else max(0, min(PAR_WORK, work.left)) if work.sheets > 0 else 0
        whole = given == PAR_WORK
        budget = slots.Work(given)
        if work is not None:
            work.sheets -= 1
        if given <= 0:
            why = "the slot engine's work for this log's PAR data is spent on its other machines"
        else:
            try:
                computed = par_returns.returns(reading, moments=True, work=budget,
                                            estimate_work=slots.Work(0))  # an estimate is never used here
            except slots.Uncountable:
                computed = []
            if work is not None:
                work.left -= given - max(0, budget.left)
            results = [one.result if one is not None else None for one in computed]
            if results and all(result is not None and result.exact and result.sd_exact and
                               result.variance is not None for result in results):
                low, high = min(r.rtp for r in results), max(r.rtp for r in results)
                second = max(Fraction(r.variance) + r.rtp * r.rtp for r in results)
                return Theory(low, second - low * low, PAR, top, high=high if high != low else None,
                              tables=len(results)), True
            why = "the slot engine could only estimate its PAR data's return or standard deviation" + \
                ("" if whole else " within the work left by this log's other machines")
    if rate is None:
        return None, whole
    if top is None:
        return None, whole
    if top < rate:
        return None, whole  # no machine paying at most `top` returns `rate`: the PAR rules say what is wrong
    return Theory(rate, rate * (top - rate), BOUND, top, why=why, denied=not whole), whole


def top_per_unit(paytable) -> Fraction | None:
    """An upper bound on what one game pays per unit staked, from the pays alone: every line (or every way) paying
    its highest entry (all of them where a line pays every win) at the highest wild multiplier (multiplied on
    every reel where multipliers multiply), plus every scatter symbol's highest pay. None where free spins are
    awarded: a spin's pay then includes the free spins', which retriggers leave without bound."""
    game = paytable.game
    if paytable.free_game is not None or any(s.free_spins or s.retrigger for s in game.scatters):
        return None
    from casino_audit import slots

    most = max((wild.multiplier for wild in game.wilds), default=Fraction(1))
    most = max(most, Fraction(1))
    factor = most if game.wild_multipliers == slots.HIGHEST else most ** len(game.reels)
    pays = [pay.pays for pay in game.pays]
    if game.ways:
        best: dict[str, Fraction] = {}
        for pay in game.pays:
            best[pay.subject] = max(best.get(pay.subject, Fraction(0)), pay.pays)
        lines_pay = sum(best.values(), Fraction(0)) * game.rows ** len(game.reels)
    else:
        per_line = sum(pays, Fraction(0)) if game.line_wins == slots.LINE_ALL else max(pays, default=Fraction(0))
        lines_pay = per_line * len(game.lines)
    scatter: dict[str, Fraction] = {}
    for entry in game.scatters:
        scatter[entry.symbol] = max(scatter.get(entry.symbol, Fraction(0)), entry.pays)
    total = lines_pay * factor + sum(scatter.values(), Fraction(0))
    return Fraction(total) / paytable.bet if paytable.bet > 0 else None
