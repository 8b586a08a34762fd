"""The machines a meter log reads, as their homologation files and the log's header file them: each machine's state
(Machine, with the sums its realised return is judged on), the homologation file a header names read once, the ids
it files a machine under, each meter's capacity, the units one game may stake (the maximum stake over the
denomination, checked against the denominations the file gives).

FiledMachines is a part of meters.session.MeterSession: its methods use the session's findings (_tool) and state."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from casino_audit.core import findings as F
from casino_audit.core.display import brief, same_name
from casino_audit.core.findings import Severity
from casino_audit.core.values import show, to_decimal
from casino_audit.meters import theory as theories
from casino_audit.meters.figures import exact_decimal, percent
from casino_audit.meters.records import METERS, homologated_digits
from casino_audit.read.loader import NotOneDocument, load_single_document, named_file


@dataclass
class Sums:
    """What a machine staked, paid and played over the periods whose every increment is known."""

    staked: int = 0
    paid: int = 0
    games: int = 0
    periods: int = 0
    ungamed: int = 0  # of `staked`, the units staked over periods whose games_played count is not known
    ungamed_periods: int = 0
    left_out: dict = field(default_factory=dict)  # why a period was left out -> how many times
    first_line: int | None = None
    last_line: int | None = None


@dataclass
class Machine:
    name: str
    capacity: dict  # meter -> digits, or None where no one says (the homologation file's, else the header's)
    filed: dict  # meter -> digits its homologation file gives: the only capacity a meter rolls over at
    theory: Any  # theories.Theory or None
    unknown_theory: str | None  # why its return cannot be judged, or None
    max_bet: int | None  # units one game may stake at most, where known
    top: Any = None  # Fraction: the most one game pays per unit staked, where the PAR data's pays bound it
    progressive: bool = False  # the file shows a progressive jackpot (paid by hand, beyond the paytable's pays)
    meters: dict | None = None  # the last reading used: meter -> count
    time: datetime | None = None
    record: Any = None  # the last reading used (its position, for findings made later)
    first_time: datetime | None = None
    first_record: Any = None
    difference: int = 0  # coin_in_1 - coin_in_2 at the last reading, modulo the smaller capacity
    difference_line: int | None = None
    sums: Sums = field(default_factory=Sums)
    month: tuple[int, int] | None = None  # (year, month) of the last reading used
    month_whole: bool = False  # the machine was read on the 1st of that month or before it
    counted: bool = False  # its drop box was counted in that month

    @property
    def label(self) -> str:
        """The machine's name as a message quotes it: cut short past 80 characters (a name of a megabyte would be
        quoted whole in every finding about the machine)."""
        return brief(self.name)


class FiledMachines:
    """A meter session's machines: found by name or filed id, made from the header and their homologation file."""

    def _machine_file(self, named: str, pointer: str) -> Any:
        """The homologation file a header names, read once (None, with a finding at the header, if it cannot be)."""
        if named in self.files:
            return self.files[named]
        path, outside = named_file(self.file, named, "the homologation file")
        if outside is not None:  # never opened: nothing of it is quoted
            self._pending.append(self._tool(F.LOAD_UNREADABLE, pointer, f"{outside}; the machines it is named for "
                                            "are judged by the header alone"))
            self.files[named] = None
            return None
        data = None
        try:
            data = load_single_document(path, "a homologation file").data
        except NotOneDocument as error:
            why = f"cannot be read ({brief(error.problems[0], 200)})"
        else:
            why = None if isinstance(data, dict) and data.get("kind") == "machine" else \
                "is not a homologation file (kind: machine)"
        if why is not None:
            data = None
            self._pending.append(self._tool(F.LOAD_UNREADABLE, pointer, f"the homologation file it names {why}; "
                                            "the machines it is named for are judged by the header alone"))
        elif data.get("jurisdiction") not in (None, self.data.get("jurisdiction")):
            self._pending.append(self._tool(F.LOAD_UNREADABLE, pointer, f"the homologation file it names is filed "
                                            f"under {brief(show(data.get('jurisdiction')))}, the log under "
                                            f"{brief(show(self.data.get('jurisdiction')))}"))
        self.files[named] = data
        if data is not None:
            self.filings.append(path)
        return data

    def named_filings(self) -> list[str]:
        """The homologation files the log's machines were judged under (checked with the log)."""
        return self.filings

    def _new_machine(self, name: str) -> Machine:
        own = self.data.get("machines")
        if isinstance(own, dict) and name not in own:
            self._misnamed(own, name)
        own = own.get(name) if isinstance(own, dict) else None
        own = own if isinstance(own, dict) else {}
        if isinstance(own.get("machine"), str):
            pointer = f"/machines/{_escape(name)}/machine"
            filed = self._machine_file(own["machine"], pointer)
        else:
            pointer = "/machine"
            filed = self.files.get(self.data.get("machine")) if isinstance(self.data.get("machine"), str) else None
        named = own.get("machine") or self.data.get("machine")
        capacity = self._capacities(name, own, filed, pointer)
        theory = theories.theory_of(filed, self.work) if filed is not None else None
        if not isinstance(named, str):
            why = "the header names no homologation file (`machine:`) to give the theoretical return"
        elif filed is None:
            why = "the homologation file named cannot be read"
        elif theory is None and not isinstance(filed.get("par"), dict):
            why = ("the homologation file gives no PAR data (`par:`), from which alone the standard deviation per "
                   "game, or the top award bounding it, is known (a declared `standard_deviation_per_spin` is not "
                   "taken on trust)")
        elif theory is None and to_decimal(filed.get("redistribution_rate"), "percent") is None:
            why = "the homologation file declares no redistribution rate (with a % sign)"
        elif theory is None:
            why = ("the homologation file's PAR data can neither be counted exactly nor bound one game's pay (free "
                   "spins, or data the slot engine cannot evaluate)")
        else:
            why = None
        if theory is not None and theory.declared_too_large() and ("/sd", named) not in self.conflicts:
            self.conflicts.add(("/sd", named))
            allowed = ("its PAR data give" if theory.source == theories.PAR else
                       f"any machine returning {percent(theory.rtp)} and paying at most {exact_decimal(theory.top)} per "
                       "unit staked in one game can have")
            self._pending.append(self._tool(
                F.LOAD_AMBIGUOUS, pointer, f"the homologation file ({brief(show(named))}) declares a standard "
                f"deviation per game of {show(theory.declared_sd)}, more than the {exact_decimal(theory.variance_root)} "
                f"{allowed}: the declaration is not used"))
        filed_digits = {meter: homologated_digits(filed, meter) for meter in METERS}
        # a progressive jackpot shown in the file counts as there unless the file says it has none
        progressive = isinstance(filed, dict) and filed.get("progressive_jackpot") not in (None, False, {})
        return Machine(name, capacity, filed_digits, theory, why, self._max_bet(filed, named),
                       theory.top if theory is not None else None, progressive)

    def _filed_machine(self, name: str) -> tuple[Machine | None, str | None]:
        """The machine a new name reads, where it is one already read under its other filed id (its location
        number and its serial number name one machine: its readings continue, never a new machine), and why the
        name is no filed machine's (None where it is): no homologation file is named for it, or the name is neither
        the location number nor the serial number the one named gives (or it gives neither)."""
        own = self.data.get("machines")
        own = own.get(name) if isinstance(own, dict) else None
        named = own.get("machine") if isinstance(own, dict) and isinstance(own.get("machine"), str) else \
            self.data.get("machine") if isinstance(self.data.get("machine"), str) else None
        if named is None:
            return None, (f"machine {show(brief(name))} has no homologation file: the header names none for it "
                          "(`machine:`, or its entry in `machines`)")
        pointer = f"/machines/{_escape(name)}/machine" if isinstance(own, dict) and own.get("machine") == named \
            else "/machine"
        filed = self._machine_file(named, pointer)
        if not isinstance(filed, dict):
            return None, None  # said at the header: the file cannot be read
        ids = _filed_ids(filed)
        if not any(ids.values()):
            return None, (f"machine {show(brief(name))} is tied to no machine: its homologation file "
                          f"({brief(show(named))}) gives neither a location number nor a serial number")
        if same_name(name) not in {same_name(value) for value in ids.values() if value is not None}:
            # a file filed for one machine: a reading under another name (one file shared by several machines,
            # or a serial number's file read as M-001) is no reading of it
            filed_for = ", ".join(f"{what} {show(brief(ids[key]))}" for key, what in
                                  (("location", "location number"), ("serial", "serial number")) if ids[key])
            return None, (f"machine {show(brief(name))} is not the machine its homologation file "
                          f"({brief(show(named))}) is filed for: {filed_for}")
        # The machine's identity, never the header's text for its file: "machine-m-001.yaml" and
        # "./machine-m-001.yaml", or a copy of the file under another name, file one machine. Its ids together:
        # one serial number filed at two location numbers is two machines' files (a file copied for each).
        key = ("filed", *(same_name(ids[what]) if ids[what] else None
                          for what in ("location", "plate_location", "serial", "plate_serial")))
        other = self.machines.get(key)
        if other is not None:
            self.machines[name] = other
            return other, None
        machine = self.machines[name] = self._new_machine(name)
        self.machines[key] = machine
        return machine, None

    def _misnamed(self, entries: dict, name: str) -> None:
        """A header entry (`machines`) for a name that differs from a machine read only in spaces, case or Unicode
        form: said, and not applied to it, as two readings' names are (its capacities and file would otherwise be
        dropped in silence)."""
        if self.entry_spellings is None:  # read once: a header may list thousands of machines
            self.entry_spellings = {}
            for key in entries:
                if isinstance(key, str):
                    self.entry_spellings.setdefault(spelling(key), key)
        other = self.entry_spellings.get(spelling(name))
        if other is not None:
            self._pending.append(self._tool(F.LOAD_AMBIGUOUS, f"/machines/{_escape(other)}", f"the header's entry "
                                            f"for machine {show(brief(other))} differs from machine "
                                            f"{show(brief(name))}, read in the log, only in spaces, case or Unicode "
                                            "form: it is not applied to it"))

    def _capacities(self, name: str, own: dict, filed, pointer: str) -> dict:
        """Each meter's capacity in digits: the header's (for this machine, else for the log), the homologation
        file's; where both say and differ, a finding, and the homologation file's is used."""
        found: dict[str, int | None] = {}
        for meter in METERS:
            said = _digits(own.get("capacity_digits"), meter)
            where = f"/machines/{_escape(name)}/capacity_digits"
            if said is None:
                said, where = _digits(self.data.get("capacity_digits"), meter), "/capacity_digits"
            homologated = homologated_digits(filed, meter)
            named = own.get("machine") or self.data.get("machine")
            if said is not None and homologated is not None and said != homologated and \
                    (where, meter, named) not in self.conflicts:  # said once, not for every machine sharing them
                self.conflicts.add((where, meter, named))
                self._pending.append(self._tool(
                    F.LOAD_AMBIGUOUS, where, f"the header gives the {meter} meter {said} digits (machine {brief(name)}), "
                    f"its homologation file ({brief(show(named))}) {homologated}; the homologation file's capacity "
                    "is used"))
            found[meter] = homologated if homologated is not None else said
        return found

    def _max_bet(self, filed, named=None) -> int | None:
        """The most units one game may stake: the homologation file's maximum stake over the log's denomination; a
        denomination over the maximum stake (no game could stake one unit) is a finding, said once per file."""
        if not isinstance(filed, dict):
            return None
        stakes = filed.get("stakes")
        maximum = to_decimal(stakes.get("maximum_eur")) if isinstance(stakes, dict) else None
        denomination = self.denomination
        currency = self.data.get("currency", "EUR")
        if denomination is not None and denomination > 0 and currency == "EUR":
            denomination = self._filed_denomination(filed, named, denomination)
        elif maximum is not None:  # no denomination in EUR: never fewer units than the smallest the machine counts
            given = _denominations(filed)
            denomination = min(given) if given else None
            if ("/denomination/none", named) not in self.conflicts and \
                    (currency != "EUR" or self.data.get("denomination") is None):  # else said as unreadable
                self.conflicts.add(("/denomination/none", named))
                pointer, what = ("/currency", f"the log's currency is {brief(show(currency))}, not the EUR its "
                                 "homologation file gives its stakes in") if currency != "EUR" else \
                    ("/denomination", "the log gives no denomination")
                self._pending.append(self._tool(
                    F.LOAD_AMBIGUOUS, pointer, f"{what}: " + (f"the smallest unit the file ({brief(show(named))}) "
                    f"gives, {show(min(given))} EUR, bounds the units a game may stake" if given else
                    "the units a game may stake are not bounded"),
                    severity=Severity.WARNING if currency != "EUR" else Severity.INFO))
        if maximum is None or denomination is None or denomination <= 0:
            return None
        units = int(Fraction(maximum) / Fraction(denomination))  # floored exactly, never rounded up
        if units < 1 and ("/denomination", named) not in self.conflicts:
            self.conflicts.add(("/denomination", named))
            self._pending.append(self._tool(
                F.LOAD_AMBIGUOUS, "/denomination", f"the log's denomination of {show(self.denomination)} is more "
                f"than the maximum stake of {show(maximum)} EUR its homologation file ({brief(show(named))}) allows: "
                "no game could stake one unit; the realised return is judged with every game staking the same"))
        return units if units >= 1 else None

    def _filed_denomination(self, filed: dict, named, denomination: Decimal) -> Decimal | None:
        """The log's denomination where its homologation file gives it (a coin, the token or a paytable's credit);
        else a finding, said once per file, and the smallest the file gives bounds the units a game stakes (the
        most units, the widest interval: a filer's denomination never narrows what a legal machine may stake)."""
        given = _denominations(filed)
        if denomination in given:
            return denomination
        if ("/denomination/filed", named) not in self.conflicts:
            self.conflicts.add(("/denomination/filed", named))
            if given:
                listed = ", ".join(show(value) for value in sorted(given))
                then = f"the smallest of them, {show(min(given))}, bounds the units a game may stake"
            else:
                listed, then = "none", "the units a game may stake are not bounded"
            self._pending.append(self._tool(
                F.LOAD_AMBIGUOUS, "/denomination", f"the log's denomination of {show(denomination)} is none its "
                f"homologation file ({brief(show(named))}) gives (coins, token, paytable credits: {listed}): {then}"))
        return min(given) if given else None


def _filed_ids(filed: dict) -> dict:
    """The ids a homologation file gives its machine: its location number and its serial number (None where not)."""
    def text(value):
        return value if isinstance(value, str) and value.strip() else None

    location = filed.get("location_number")
    plate = filed.get("identification_plate") if isinstance(filed.get("identification_plate"), dict) else {}
    machine = filed.get("machine") if isinstance(filed.get("machine"), dict) else {}
    return {"location": text(location.get("number")) if isinstance(location, dict) else text(plate.get("location_number")),
            "plate_location": text(plate.get("location_number")),
            "serial": text(machine.get("serial_number")) or text(plate.get("serial_number")),
            "plate_serial": text(plate.get("serial_number"))}


def _denominations(filed: dict) -> set[Decimal]:
    """The values one unit may have on the machine, in euros: its coins, its token, its paytables' credits."""
    found: set[Decimal] = set()
    acceptor = filed.get("coin_acceptor")
    if isinstance(acceptor, dict):
        coins = acceptor.get("coin_denominations_eur")
        for value in (*(coins if isinstance(coins, list) else ()), acceptor.get("token_value_eur")):
            found.add(to_decimal(value))
    par = filed.get("par")
    tables = par.get("paytables") if isinstance(par, dict) else None
    for table in tables if isinstance(tables, list) else ():
        if isinstance(table, dict):
            found.add(to_decimal(table.get("denomination")))
    return {value for value in found if isinstance(value, Decimal) and value.is_finite() and value > 0}


def spelling(name: str) -> str:
    """What is left of a machine's name without spaces, case, Unicode compatibility form (NFKC) or invisible format
    characters: names that differ only there name one machine to a reader."""
    return same_name(name).replace(" ", "")


def _digits(given, meter: str) -> int | None:
    """A capacity the header gives for a meter: one number for every meter, or one per meter."""
    value = given.get(meter) if isinstance(given, dict) else given
    return value if type(value) is int and 1 <= value <= 30 else None


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
