"""What a machine's realised return is judged against: its theoretical return to player and the standard deviation
of one game's return per unit staked, from its homologation file.

`theory_of` is the one place that reads them. For now it takes what the file declares (`redistribution_rate`,
and `standard_deviation_per_spin` where the file gives it, source "declared"); an engine computing both from the
machine's PAR data plugs in here, and nothing else changes.
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
    rate = to_decimal(machine_data.get("redistribution_rate"), "percent")
    if rate is None:
        return None
    declared = machine_data.get("standard_deviation_per_spin")
    spread = to_decimal(declared) if not isinstance(declared, str) or declared.strip() else None
    return Theory(Fraction(rate) / 100, Fraction(spread) if spread is not None and spread > 0 else None, "declared")
