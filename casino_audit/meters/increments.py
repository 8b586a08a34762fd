"""What each meter counted between a machine's two readings: the two coin-in meters agree, an increment modulo
the meter's capacity where it rolled over, no increment where it went back by hand (a reset), and the period's
increments joining the sums its realised return is judged on.

MeterIncrements is a part of meters.session.MeterSession: its methods use the session's findings and rules."""

from __future__ import annotations

from typing import Iterator

from casino_audit.core.findings import Finding
from casino_audit.meters.figures import exact_decimal
from casino_audit.meters.machines import Machine
from casino_audit.meters.records import COIN_IN, METERS


class MeterIncrements:
    """A meter session's increments between a machine's readings."""

    def _agreement(self, machine: Machine, meters: dict, record) -> Iterator[Finding]:
        """The two coin-in meters count the same coins: they read the same, modulo the smaller capacity where
        both are known (an 8-digit meter shows the last 8 digits of a 10-digit one). A difference is reported
        where it appears or changes, not again at every reading it stays the same."""
        first, second = meters["coin_in_1"], meters["coin_in_2"]
        # the filed capacities, else the header's: a capacity only the header gives makes meters that differ agree
        # modulo it, so the comparison it narrows is said once (a declaration never loosens the law in silence)
        digits = [machine.filed.get(meter) or machine.capacity.get(meter) for meter in COIN_IN]
        unfiled = [meter for meter in COIN_IN if machine.filed.get(meter) is None and machine.capacity.get(meter)]
        if unfiled and None not in digits and not getattr(machine, "agreement_said", False):
            machine.agreement_said = True
            yield from self._said(self.by_aspect["coin_in_agree"], record,
                                  f"machine {machine.label}: its coin-in meters are compared modulo 10^{min(digits)}, "
                                  f"the header's capacity of {', '.join(unfiled)}, which its homologation file does "
                                  "not give: meters that differ by a multiple of it are taken to agree")
        modulus = 10 ** min(digits) if None not in digits else None
        difference = (first - second) % modulus if modulus else first - second
        if difference and difference != machine.difference:
            since = "" if not machine.difference else \
                f" (they differed otherwise since line {machine.difference_line})"
            shown = f" modulo 10^{min(digits)}" if modulus and max(digits) != min(digits) else ""
            yield from self._breach(self.by_aspect["coin_in_agree"], record, "/coin_in_2",
                                    f"machine {machine.label}: coin_in_1 reads {first:,} and coin_in_2 {second:,}: "
                                    f"they differ by {_signed(difference, modulus)}{shown}{since}")
            machine.difference_line = record.line
        machine.difference = difference

    def _increments(self, machine: Machine, meters: dict, beyond: set, record):
        """Each meter's increment since the machine's previous reading (modulo its capacity over a rollover), or
        None where it is not known (a meter that went back by hand, read beyond its capacity, or went down with
        no capacity known). A generator: the findings are yielded, the increments returned."""
        previous = machine.meters
        raw: dict[str, int | None] = {}
        back: dict[str, tuple[int, int, int]] = {}  # meter -> (before, after, what a rollover would have counted)
        set_back: set[str] = set()  # meters that went back where none can roll over: reset by hand
        cleared = _ram_clear(previous, meters)
        for meter, after in meters.items():
            before = previous.get(meter)
            digits = machine.filed.get(meter)  # a meter rolls over at the capacity filed, never at one merely said
            if before is None or meter in beyond or (digits is not None and before >= 10 ** digits):
                raw[meter] = None
            elif after >= before:
                raw[meter] = after - before
            elif cleared:
                raw[meter] = None
                yield from self._breach(self.reset_rules[meter], record, f"/{meter}",
                                        f"machine {machine.label}: {meter} goes back from {before:,} to 0 with every "
                                        f"other meter ({', '.join(cleared)}) since the last reading (line "
                                        f"{machine.record.line}): a RAM clear, a reset, not a rollover")
            elif digits is None:
                raw[meter] = None
                set_back.add(meter)
                yield from self._breach(self.reset_rules[meter], record, f"/{meter}",
                                        f"machine {machine.label}: {meter} goes back from {before:,} to {after:,} "
                                        f"since the last reading (line {machine.record.line}): reset by hand, not "
                                        "rolled over, for its homologation file gives it no capacity to roll over "
                                        "at" + ("" if machine.capacity.get(meter) is None else
                                                f" (the header's {machine.capacity[meter]} digits are not the "
                                                "file's)"))
            else:
                back[meter] = (before, after, 10 ** digits - before + after)
                raw[meter] = back[meter][2]
        yield from self._rollovers(machine, raw, back, record, set_back)
        return raw

    def _rollovers(self, machine: Machine, raw: dict, back: dict, record, set_back: frozenset | set = frozenset()
                   ) -> Iterator[Finding]:
        """Each meter that went back, taken to have rolled over unless something says otherwise: then its increment
        is not known (None in `raw`) and the meter is reported reset. Then a coin-in meter gone forward by more than
        the games can stake is reported altered (its display moved on by hand: no rollover explains it)."""
        # A rollover is taken only where nothing says otherwise: it counts less than half the meter's capacity (a
        # meter read that seldom could not be told going forward from going back) unless the other coin-in meter,
        # the larger, counted the same modulo this one's capacity; the other coin-in meter counted as much (modulo
        # the smaller capacity: an 8-digit meter shows the last 8 digits of a 10-digit one); coins staked fit the
        # games played at the maximum stake; the drop does not exceed the coins in; what was paid does not exceed
        # what the coins staked can win at the paytable's top award.
        larger_first = sorted(COIN_IN, key=lambda meter: -(machine.filed.get(meter) or 0))
        for meter in [m for m in (*larger_first, *(m for m in METERS if m not in COIN_IN)) if m in back]:
            before, after, counted = back[meter]
            if meter in COIN_IN:
                why = self._coin_in_rollover(machine, meter, counted, raw, back, set_back)
            elif 2 * counted >= 10 ** machine.filed[meter]:
                why = f"more than half the meter's capacity of {machine.filed[meter]} digits"
            elif meter == "drop":
                staked = _staked(raw, machine)
                why = f"more than the {staked:,} coins put in" if staked is not None and counted > staked else None
            else:
                why = _overpaid(machine, meter, counted, raw)
                if why is not None and meter == "hand_paid_jackpots" and machine.progressive:
                    yield from self._said(self.reset_rules[meter], record, (
                        f"machine {machine.label}: {meter} goes back from {before:,} to {after:,}, taken as a "
                        f"rollover counting {counted:,} though that is {why}: its homologation file shows a "
                        "progressive jackpot, which is paid by hand beyond the paytable's pays"))
                    why = None
            if why is not None:
                raw[meter] = None
                yield from self._breach(self.reset_rules[meter], record, f"/{meter}",
                                        f"machine {machine.label}: {meter} goes back from {before:,} to {after:,}: "
                                        f"reset by hand, not rolled over, for a rollover would mean {counted:,} "
                                        f"counted since the last reading (line {machine.record.line}), {why}")
        games = raw.get("games_played")
        for meter in COIN_IN:
            counted = raw.get(meter)
            if meter in back or counted is None or machine.max_bet is None or games is None or \
                    counted <= machine.max_bet * games:
                continue
            raw[meter] = None
            yield from self._breach(self.reset_rules[meter], record, f"/{meter}",
                                    f"machine {machine.label}: {meter} counted {counted:,} since the last reading "
                                    f"(line {machine.record.line}), more than {games:,} games can stake at the most "
                                    f"of {machine.max_bet} units a game: its display was moved on by hand")
        for meter in ("coin_out", "hand_paid_jackpots"):
            counted = raw.get(meter)
            if meter in back or counted is None or (meter == "hand_paid_jackpots" and machine.progressive):
                continue
            why = _overpaid(machine, meter, counted, raw)
            if why is not None:
                raw[meter] = None
                yield from self._breach(self.reset_rules[meter], record, f"/{meter}",
                                        f"machine {machine.label}: {meter} counted {counted:,} since the last "
                                        f"reading (line {machine.record.line}), {why}: its display was moved on "
                                        "by hand")

    def _coin_in_rollover(self, machine: Machine, meter: str, counted: int, raw: dict, back: dict,
                          set_back: set | frozenset) -> str | None:
        """Why a coin-in meter that went back did not roll over, or None. The larger meter is judged first, so a
        smaller one is held to what the larger counted."""
        other = COIN_IN[1 - COIN_IN.index(meter)]
        told = raw.get(other)  # the other's increment (its rollover's, where it went back and was taken as one)
        modulus = _coin_in_modulus(machine)
        agrees = told is not None and _congruent(told, counted, modulus)
        larger_other = (machine.filed.get(other) or 0) > (machine.filed.get(meter) or 0)
        games = raw.get("games_played")  # the games a rollover of games_played counted too bound the stakes
        if "games_played" in set_back:  # the games meter set back by hand: nothing bounds the coins in
            return "while games_played was set back by hand at the same reading (a reset, not rollovers)"
        if other in back and told is None and not _congruent(back[other][2], counted, modulus):
            # the larger went back too and was found reset: what its rollover would have counted still disagrees
            return f"where the other coin-in meter, going back too, would have counted {back[other][2]:,}"
        if told is not None and not agrees:
            which = ", going back too, would have" if other in back else ""
            return f"where the other coin-in meter{which} counted {told:,}"
        if 2 * counted >= 10 ** machine.filed[meter] and not (agrees and larger_other):
            return f"more than half the meter's capacity of {machine.filed[meter]} digits"
        if machine.max_bet is not None and games is not None and counted > machine.max_bet * games:
            return f"more than {games:,} games can stake at the most of {machine.max_bet} units a game"
        return None

    def _add(self, machine: Machine, increments: dict, record) -> None:
        """The period since the machine's previous reading joins its realised return if every increment it needs is
        known and the two coin-in meters counted alike."""
        sums = machine.sums
        # The games played only bound the squared stakes; where the maximum stake bounds each of them, a period whose
        # games_played meter went back (or cannot be read) still counts what was staked and paid: never a meter no
        # law rule reads that takes a low return out of the judgement.
        needed = (*COIN_IN, "coin_out", "hand_paid_jackpots", *(("games_played",) if machine.max_bet is None else ()))
        unknown = [meter for meter in needed if increments.get(meter) is None]
        if unknown:
            why = f"{', '.join(unknown)} not known"
        elif not _congruent(increments["coin_in_1"], increments["coin_in_2"], _coin_in_modulus(machine)):
            why = "the coin-in meters counted differently"
        else:
            sums.staked += _staked(increments, machine)
            sums.paid += increments["coin_out"] + increments["hand_paid_jackpots"]
            if increments.get("games_played") is None:
                sums.ungamed += increments["coin_in_1"]
                sums.ungamed_periods += 1
            else:
                sums.games += increments["games_played"]
            sums.periods += 1
            sums.first_line = sums.first_line or machine.record.line
            sums.last_line = record.line
            return
        sums.left_out[why] = sums.left_out.get(why, 0) + 1


def _ram_clear(previous: dict, meters: dict) -> list[str]:
    """The meters that went back to 0 where every meter of the reading reads 0 (games_played among them) and one
    at least went back: a RAM clear, whatever a rollover of each could have counted. Else []."""
    if "games_played" not in meters or any(meters.values()):
        return []
    return [meter for meter, count in previous.items() if meter in meters and count]


def _coin_in_modulus(machine: Machine) -> int | None:
    """The two coin-in meters agree modulo the smaller's filed capacity (None: one is filed with none, so exactly)."""
    digits = [machine.filed.get(meter) for meter in COIN_IN]
    return None if None in digits else 10 ** min(digits)


def _congruent(first: int, second: int, modulus: int | None) -> bool:
    return first == second if modulus is None else (first - second) % modulus == 0


def _staked(raw: dict, machine: Machine) -> int | None:
    """The coins put in over the period, where the two coin-in meters give it alike (modulo the smaller's capacity):
    the count of the meter of the larger capacity, the smaller having rolled over where they differ."""
    first, second = raw.get("coin_in_1"), raw.get("coin_in_2")
    if first is None or second is None or not _congruent(first, second, _coin_in_modulus(machine)):
        return None
    return max(first, second)


def _overpaid(machine: Machine, meter: str, counted: int, raw: dict) -> str | None:
    """Why a pay meter's rollover cannot be (more than its half capacity is said before): more paid than the coins
    staked over the period can win at the paytable's top award; None where it can, or nothing bounds it."""
    staked = _staked(raw, machine)
    if machine.top is None or staked is None:
        return None
    paid = counted + (raw.get("coin_out") or 0 if meter == "hand_paid_jackpots" and not machine.progressive else 0)
    most = staked * machine.top
    if paid <= most:
        return None
    return (f"more than the {staked:,} units staked can win at the paytable's top award of "
            f"{exact_decimal(machine.top)} per unit staked ({exact_decimal(most)})")


def _signed(difference: int, modulus: int | None) -> str:
    if modulus and difference > modulus // 2:
        difference -= modulus
    return f"{difference:+,}"
