"""What a machine's realised return is judged against: its theoretical return to player and the standard deviation
of one game's return per unit staked, from its homologation file.

`theory_of` is the one place that reads them. Where the file gives PAR data of one paytable that the slot engine
counts exactly, return and standard deviation are computed from them (source "par": the machine's mathematics,
not a figure typed in the filing); otherwise the file's own figures are taken (`redistribution_rate`, and
`standard_deviation_per_spin` where given; source "declared").
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from casino_audit.values import to_decimal


@dataclass(frozen=True)
class Theory:
    rtp: Fraction  # the theoretical return to player, 0.925 for 92.5 %
    sd_per_spin: Fraction | None  # standard deviation of one game's return per unit staked; None: not known
    source: str  # where they come from: "declared" (the file's own figures), "par" (computed from its PAR data)


def theory_of(machine_data: Any) -> Theory | None:
    """The machine's theory, or None where its file gives no readable return (a rate without its % sign is not read:
    0.925 and 92.5 cannot be told apart)."""
    if not isinstance(machine_data, dict):
        return None
    computed = _from_par(machine_data.get("par"))
    if computed is not None:
        return computed
    rate = to_decimal(machine_data.get("redistribution_rate"), "percent")
    if rate is None:
        return None
    declared = machine_data.get("standard_deviation_per_spin")
    spread = to_decimal(declared) if not isinstance(declared, str) or declared.strip() else None
    return Theory(Fraction(rate) / 100, Fraction(spread) if spread is not None and spread > 0 else None, "declared")


_COMPUTED: dict[str, Theory | None] = {}
PAR_WORK = 2_000_000  # the slot engine's work for one machine's return and variance (about a second at most)


def _from_par(par: Any) -> Theory | None:
    """Return and standard deviation counted exactly from PAR data of one paytable; None where there are none, they
    cannot be evaluated, there are several paytables (which one a meter counts is not said), or the count would
    only be an estimate: then the declared figures are used, and the report says where they came from."""
    if not isinstance(par, dict):
        return None
    key = repr(par)
    if key not in _COMPUTED:
        from casino_audit import par as par_data
        from casino_audit.games import slots

        reading = par_data.read(par)
        found = None
        if not reading.problems and len(reading.paytables) == 1:
            [computed] = par_data.returns(reading, moments=True, work=slots.Work(PAR_WORK))
            result = computed.result
            if result is not None and result.exact and result.sd_exact and result.sd is not None:
                found = Theory(result.rtp, Fraction(result.sd), "par")
        if len(_COMPUTED) > 32:
            _COMPUTED.clear()
        _COMPUTED[key] = found
    return _COMPUTED[key]
