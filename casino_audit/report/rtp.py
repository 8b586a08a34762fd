"""`casino-audit rtp`: each paytable's return, hit frequency, standard deviation, pays and top award, as tables for a
person or as JSON (exact fractions as text, "226954/262144", beside decimals with enough digits)."""

from __future__ import annotations

import json
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from casino_audit import slots
from casino_audit.slots import decimal_text, one_in
from casino_audit.core.values import show

FORMATS = ("rich", "json")


def report(file: str, declared, computed: list, output_format: str, stream: TextIO) -> None:
    """`declared`: the machine's `redistribution_rate` as written (or None); `computed`: par_returns.Computed items."""
    if output_format == "json":
        document = {"file": file, "redistribution_rate": declared if isinstance(declared, str) else None,
                    "paytables": [_paytable(item) for item in computed]}
        stream.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return
    console = Console(file=stream, highlight=False, markup=False, emoji=False, soft_wrap=True)
    for item in computed:
        _rich(console, file, declared, item)


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _number(value: Fraction) -> str:
    """An amount that is exact as a decimal (a pay, a bet) written as one; else as a fraction."""
    return show(value.numerator) if value.denominator == 1 else decimal_text(value, 30)


def not_computed() -> str:
    """Why a paytable has no figures: what the file's work was spent on, and what would give them."""
    return (f"not computed: the file's returns are counted within {slots.RETURN_WORK:,} operations and estimated "
            f"within {slots.ESTIMATE_WORK:,} more, and its other paytables (or this one's size) took them; evaluate "
            "this paytable alone (--paytable NAME), or have its return certified by a laboratory")


def _paytable(item) -> dict:
    result, table = item.result, item.paytable
    if result is None:
        return {"name": table.paytable.name, "pointer": table.pointer, "computed": False, "notes": [not_computed()]}
    entry = {"name": result.paytable, "pointer": table.pointer, "computed": True, "bet": _number(result.bet),
             "denomination": str(table.denomination) if table.denomination is not None else None,
             "declared_rate": table.declared[1] if table.declared and isinstance(table.declared[1], str) else None,
             "exact": result.exact, "rtp": _fraction(result.rtp), "rtp_decimal": decimal_text(result.rtp),
             "rtp_percent": decimal_text(result.rtp * 100, 12), "cycle": result.cycle}
    if not result.exact:
        entry["ci95"] = [_fraction(result.ci95[0]), _fraction(result.ci95[1])]
        entry["ci95_decimal"] = [decimal_text(result.ci95[0], 12), decimal_text(result.ci95[1], 12)]
        entry["rounds"] = result.rounds
    if result.hit_frequency is not None:
        entry["hit_frequency"] = _fraction(result.hit_frequency)
        entry["hit_frequency_decimal"] = decimal_text(result.hit_frequency)
        entry["hit_frequency_exact"] = result.hit_frequency_exact
    if result.sd is not None:
        entry["sd"] = format(result.sd, "f")
        entry["sd_exact"] = result.sd_exact
        if result.sd_exact:
            entry["variance"] = _fraction(result.variance)
        else:
            entry["sd_rounds"] = result.sd_rounds
    entry["entries"] = [{"name": e.name, "kind": e.kind, "pays": _number(e.pays) if e.pays is not None else None,
                         "hits": e.hits.numerator if e.hits.denominator == 1 else decimal_text(e.hits),
                         "probability": _fraction(e.probability),
                         "share": _fraction(e.share), "share_decimal": decimal_text(e.share, 12)}
                        for e in result.entries]
    top = result.top_award
    entry["top_award"] = None if top is None else {
        "name": top.name, "pays": _number(top.pays), "probability": _fraction(top.probability),
        "one_in": decimal_text(one_in(top.probability), 12)}
    fs = result.free_spins
    entry["free_spins"] = None if fs is None else {
        "trigger_probability": _fraction(fs.trigger_probability),
        "one_in": decimal_text(one_in(fs.trigger_probability), 12) if fs.trigger_probability else None,
        "spins_per_trigger": _fraction(fs.spins_per_trigger),
        "spins_per_trigger_decimal": decimal_text(fs.spins_per_trigger, 12),
        "retrigger_per_spin": _fraction(fs.retrigger_per_spin), "multiplier": _number(fs.multiplier),
        "win_per_spin": _fraction(fs.win_per_spin), "win_per_trigger": _fraction(fs.win_per_trigger)}
    entry["notes"] = list(result.notes)
    return entry


def _percent(value: Fraction, digits: int = 4) -> str:
    """A rate with `digits` decimals, rounded half even from the exact value (never through a float)."""
    with localcontext() as context:
        context.prec = 60
        exact = Decimal(value.numerator * 100) / Decimal(value.denominator)
        return f"{exact.quantize(Decimal(1).scaleb(-digits)):f} %"


def _odds(probability: Fraction) -> str:
    inverse = one_in(probability)
    return f"1 in {float(inverse):,.2f}" if inverse is not None else "never"


def _rich(console: Console, file: str, declared, item) -> None:
    result, table = item.result, item.paytable

    def say(text: str, style: str = "") -> None:
        console.print(Text(text, style=style))

    if result is None:
        say(f"{file}: paytable {table.paytable.name!r}", "bold")
        say(f"  return to player  {not_computed()}")
        say("")
        return

    bet = f"{_number(result.bet)} credit{'' if result.bet == 1 else 's'}"
    if table.denomination is not None:
        bet += f" of EUR {table.denomination}"
    say(f"{file}: paytable {result.paytable!r} ({bet} a spin)", "bold")
    if result.exact:
        say(f"  return to player  {_percent(result.rtp)}  (exactly {_fraction(result.rtp)})")
    else:
        low, high = result.ci95
        say(f"  return to player  {_percent(result.rtp, 2)} estimated: 95 % interval {_percent(low, 2)} to "
            f"{_percent(high, 2)} ({result.rounds:,} simulated spins)")
    rate = table.declared[1] if table.declared else declared
    if isinstance(rate, str):
        say(f"  declared rate     {rate.strip()}")
    if result.hit_frequency is not None:
        how = "" if result.hit_frequency_exact else " (estimated)"
        say(f"  hit frequency     {_percent(result.hit_frequency, 2)}, {_odds(result.hit_frequency)} spins pays or "
            f"awards free spins{how}")
    if result.sd is not None:
        how = "" if result.sd_exact else f" (estimated, {result.sd_rounds:,} simulated spins)"
        say(f"  standard deviation {float(result.sd):,.4f} bets per spin{how}")
    if result.top_award is not None:
        top = result.top_award
        say(f"  top award         {top.name} pays {_number(top.pays)}: {_odds(top.probability)} spins")
    fs = result.free_spins
    if fs is not None:
        say(f"  free spins        triggered {_odds(fs.trigger_probability)} spins, "
            f"{float(fs.spins_per_trigger):,.4f} spins per trigger (retriggers included), "
            f"wins x{_number(fs.multiplier)}")
    for note in result.notes:
        say(f"  note: {note}", "italic")
    if not result.entries:
        say("")
        return
    grid = Table(title=None, show_edge=False, pad_edge=False)
    for column in ("pay", "pays", "hits per cycle", "odds", "share of return"):
        grid.add_column(column, justify="left" if column == "pay" else "right", overflow="fold")
    for entry in result.entries:
        grid.add_row(Text(entry.name), Text(_number(entry.pays) if entry.pays is not None else "-"),
                     Text(f"{float(entry.hits):,.0f}" if entry.hits.denominator == 1 else f"{float(entry.hits):,.2f}"),
                     Text(_odds(entry.probability)), Text(_percent(entry.share, 2)))
    console.print(grid)
    say(f"  cycle: {result.cycle:,} weighted stop combinations; a line game counts each line's hits")
    say("")
