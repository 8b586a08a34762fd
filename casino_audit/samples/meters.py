"""`casino-audit sample-meters`: a meter log of several slot machines read once a day, compliant or with named
breaches injected, the same for the same seed.

Each machine plays 1,500 to 3,000 games a day at stakes of 1, 2, 5 or 10 units under a pay table whose return is
the machine's (its homologation file's declared rate, else 92.5 %); wins of 500 units or more are paid by hand.
One machine's 8-digit coin-in meter starts near its capacity and rolls over, another's coin-out meter. Each drop box is counted every seven
days, on a reading. Integer arithmetic throughout: the seed alone decides every count.
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Iterable, Sequence, TextIO

from casino_audit.meters.records import CSV_LAYOUT, METERS, homologated_digits
from casino_audit.samples.log import SampleError, _json

BREACHES = {
    "coin_in_mismatch": "one machine's second coin-in meter misses 7 coins at one reading and stays behind "
                        "(LU-SLOT-LOG-COIN-IN-AGREE)",
    "manual_reset": "one machine's two coin-in meters set back to 0 by hand (LU-SLOT-LOG-COIN-IN-RESET)",
    "meter_reset": "one machine's coin-out meter set back to 0 by hand (LU-SLOT-LOG-METER-RESET)",
    "low_return": "one machine pays back 65 % (LU-SLOT-LOG-RETURN-DEPARTURE and -RETURN-MIN, where the log "
                  "names a homologation file giving the standard deviation; else they say not checked)",
    "drop_not_counted": "one machine's drop box not counted in the log's first calendar month "
                        "(LU-SLOT-LOG-DROP-COUNT; needs --days 31 or more)",
    "duplicate_time": "one reading written twice (LOG-TIME)",
    "out_of_order": "a reading of one machine written after a later one (LOG-TIME)",
    "missing_readings": "one machine not read for three days (LOG-GAP)",
}

START = datetime(2026, 1, 1, 6, 0)  # the first day's readings, one a minute from 06:00
DEFAULT_RATE = Decimal("92.5")
DEFAULT_DIGITS = {"coin_in_1": 10, "coin_in_2": 8, "drop": 10, "coin_out": 10, "hand_paid_jackpots": 10,
                  "games_played": 10, "door_openings": 6}
HAND_PAID_FROM = 500  # a win of this many units or more is paid at the cash desk
STAKES, STAKE_WEIGHTS = (1, 2, 5, 10), (50, 25, 15, 10)
SCALE = 1_000_000  # pay table weights out of a million
# (pay per unit staked, weight); the weight of pay 1 makes up the machine's return
PAYS = ((2, 120_000), (5, 40_000), (10, 15_000), (25, 4_000), (100, 750))
LOW_TABLE = ((0, 757_500), (1, 100_000), (2, 100_000), (5, 30_000), (10, 10_000), (25, 2_000), (100, 500))


def pay_table(rate: Decimal) -> tuple[tuple[int, int], ...]:
    """(pay, weight) summing to SCALE whose return is `rate` percent exactly."""
    target = rate * SCALE / 100
    fixed = sum(pay * weight for pay, weight in PAYS)
    ones = target - fixed
    if ones != ones.to_integral_value() or not 0 <= ones <= SCALE - sum(weight for _, weight in PAYS):
        raise SampleError(f"cannot sample a machine returning {rate} %: the sample's pay table takes rates from "
                          f"{Decimal(fixed) * 100 / SCALE} % in steps of {Decimal(100) / SCALE} %")
    wins = ((1, int(ones)), *PAYS)
    return ((0, SCALE - sum(weight for _, weight in wins)), *wins)


def table_spread(table) -> tuple[Decimal, Decimal]:
    """The table's return and standard deviation per unit staked (to 6 decimals), for a homologation file."""
    mean = Decimal(sum(pay * weight for pay, weight in table)) / SCALE
    square = Decimal(sum(pay * pay * weight for pay, weight in table)) / SCALE
    return mean, (square - mean * mean).sqrt().quantize(Decimal("0.000001"))


@dataclass
class _Machine:
    name: str
    table: tuple
    meters: dict
    count_day: int  # counted on days d with d % 7 == count_day
    readings: list = field(default_factory=list)


def write(ruleset, machines: int, days: int, seed: int, inject: Iterable[str], out: TextIO,
          output_format: str = "jsonl", files: Sequence[tuple[str, dict]] = ()) -> None:
    """`files`: each machine's homologation file, its path as the header names it and its data, read by the caller;
    the machines are named after them (a reading's machine is its file's location number, else its serial number:
    one file is filed for one machine, Art. 18-2, 18-9), and the first one's rate, meter capacities and maximum
    stake shape the sample (the others must give the same)."""
    inject = set(inject)
    unknown = sorted(inject - set(BREACHES))
    if unknown:
        raise SampleError(f"unknown breach {', '.join(unknown)}; known: {', '.join(BREACHES)}")
    if not any(rule.kind == "meter-log" for rule in ruleset.rules):
        raise SampleError(f"the {ruleset.code} ruleset has no rules for meter logs")
    if machines < 1 or days < 2:
        raise SampleError("a meter log needs at least one machine and two days")
    if "drop_not_counted" in inject and days < 31:
        raise SampleError("drop_not_counted leaves a whole calendar month uncounted: give --days 31 or more")
    names = _filed_names(files, machines)
    machine_data = files[0][1] if files else None
    header, digits, rate = _header(ruleset, machines, days, machine_data)
    if len(files) == 1:
        header = {**dict(list(header.items())[:3]), "machine": files[0][0], **dict(list(header.items())[3:])}
    elif files:
        header = {**dict(list(header.items())[:3]), "machines": {name: {"machine": path} for name, (path, _) in
                                                                  zip(names, files)}, **dict(list(header.items())[3:])}
    rng = random.Random(seed)
    filed = {meter for meter in METERS if machine_data is not None and homologated_digits(machine_data, meter)}
    fleet = _fleet(rng, machines, digits, rate, filed, names)
    targets = _targets(rng, fleet, inject)
    records = _readings(rng, fleet, days, digits, targets, inject)
    if output_format == "jsonl":
        out.write(_json(header))
        for record in records:
            out.write(_json(record))
        return
    for key, value in _flat(header):
        out.write(f"# {key}: {value}\n")
    writer = csv.writer(out, lineterminator="\n")
    columns = list(CSV_LAYOUT.columns)
    columns.remove("note")
    writer.writerow(columns)
    for record in records:
        writer.writerow([_cell(record.get(column)) for column in columns])


def _flat(header: dict, prefix: str = "") -> Iterable[tuple[str, object]]:
    """The header as CSV `# key: value` lines give it, nested keys joined by dots (`machines.M-001.machine`)."""
    for key, value in header.items():
        if isinstance(value, dict):
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _filed_names(files: Sequence[tuple[str, dict]], machines: int) -> list[str] | None:
    """Each file's machine: its location number, else its serial number (the ids a reading's machine must be)."""
    from casino_audit.meters.machines import _filed_ids
    from casino_audit.core.values import to_decimal

    if not files:
        return None
    if len(files) != machines:
        raise SampleError(f"{machines} machine(s) and {len(files)} homologation file(s): a file is filed for one "
                          "machine (Art. 18-2, 18-9), give one --machine per machine")
    names = []
    for path, data in files:
        ids = _filed_ids(data)
        name = ids["location"] or ids["serial"]
        if name is None:
            raise SampleError(f"{path} gives neither a location number nor a serial number: no machine's readings "
                              "can be tied to it")
        if name in names:
            raise SampleError(f"{path} is filed for machine {name}, as another file given is")
        names.append(name)
    first = files[0][1]
    for path, data in files[1:]:
        if to_decimal(data.get("redistribution_rate"), "percent") != \
                to_decimal(first.get("redistribution_rate"), "percent") or \
                any(homologated_digits(data, meter) != homologated_digits(first, meter) for meter in METERS):
            raise SampleError(f"{path} gives another rate or other meter capacities than {files[0][0]}: the "
                              "sample plays one pay table on meters of one size")
    return names


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _header(ruleset, machines: int, days: int, data: dict | None):
    from casino_audit.core.values import to_decimal

    digits = dict(DEFAULT_DIGITS)
    rate = DEFAULT_RATE
    if data is not None:
        for meter in METERS:
            digits[meter] = homologated_digits(data, meter) or digits[meter]
        rate = to_decimal(data.get("redistribution_rate"), "percent") or rate
    last = (START + timedelta(days=days - 1)).date()
    header = {"kind": "meter-log", "jurisdiction": ruleset.code, "casino": "Casino Sample"}
    header.update({"capacity_digits": digits, "reading_interval_hours": 24, "denomination": "1.00",
                   "currency": "EUR", "period": {"from": START.date().isoformat(), "to": last.isoformat()}})
    return header, digits, rate


def _fleet(rng: random.Random, machines: int, digits: dict, rate: Decimal, filed: set,
           names: list[str] | None) -> list[_Machine]:
    """The machines and their meters at the first reading. A meter rolls over only at the capacity its homologation
    file gives (`filed`): the others start far from theirs."""
    table = pay_table(rate)
    fleet = []
    for index in range(machines):
        first = rng.randrange(10 ** (digits["coin_in_1"] - 2), 5 * 10 ** (digits["coin_in_1"] - 2))
        if index == 0 and {"coin_in_1", "coin_in_2"} <= filed:
            # the second coin-in meter 10,000 coins short of its capacity: it rolls over
            first = (first // 10 ** digits["coin_in_2"] + 1) * 10 ** digits["coin_in_2"] - 10_000
        elif "coin_in_2" not in filed:  # far from the second meter's capacity: it never rolls over
            first -= first % 10 ** digits["coin_in_2"] // 2
        meters = {"coin_in_1": first, "coin_in_2": first % 10 ** digits["coin_in_2"],
                  "drop": rng.randrange(10 ** 6, 10 ** 7), "coin_out": rng.randrange(10 ** 7, 10 ** 8),
                  "hand_paid_jackpots": rng.randrange(10 ** 5, 10 ** 6), "games_played": rng.randrange(10 ** 6, 10 ** 7),
                  "door_openings": rng.randrange(10, 1000)}
        if index == 1 and "coin_out" in filed:  # the coin-out meter 3,000 coins short of its capacity: it rolls over
            meters["coin_out"] = 10 ** digits["coin_out"] - 3_000
        fleet.append(_Machine(names[index] if names else f"M-{index + 1:03d}", table, meters, index % 7))
    return fleet


def _targets(rng: random.Random, fleet: list[_Machine], inject: set) -> dict[str, _Machine]:
    """The machine each breach goes to: distinct ones while there are enough, never the first (its 8-digit coin-in
    meter stays near its capacity until it rolls over, where a reset could pass for a rollover)."""
    pool = fleet[1:] or fleet
    order = rng.sample(pool, len(pool))
    return {breach: order[number % len(order)] for number, breach in enumerate(sorted(inject))}


def _readings(rng: random.Random, fleet: list[_Machine], days: int, digits: dict, targets: dict,
              inject: set) -> list[dict]:
    capacity = {meter: 10 ** value for meter, value in digits.items()}
    special = {breach: rng.randrange(3, days - 1) if days > 4 else 1 for breach in inject}
    low = targets.get("low_return")
    records = []
    counts: dict[str, set] = {}  # machine -> the (year, month) its drop box was counted in
    behind = 0  # coins the mismatching meter missed
    for day in range(days):
        for index, machine in enumerate(fleet):
            when = START + timedelta(days=day, minutes=index)
            if day:
                table = LOW_TABLE if machine is low else machine.table
                _play(rng, machine.meters, table, capacity)
            if machine is targets.get("coin_in_mismatch") and day == special["coin_in_mismatch"]:
                behind = 7
            if machine is targets.get("manual_reset") and day == special["manual_reset"]:
                for meter in ("coin_in_1", "coin_in_2"):
                    machine.meters[meter] = rng.randrange(100, 1000)
                machine.meters["coin_in_2"] = machine.meters["coin_in_1"]
            if machine is targets.get("meter_reset") and day == special["meter_reset"]:
                machine.meters["coin_out"] = rng.randrange(100, 1000)
            reading = {"time": when.isoformat(), "machine": machine.name, **machine.meters}
            if machine is targets.get("coin_in_mismatch"):
                reading["coin_in_2"] = (reading["coin_in_2"] - behind) % capacity["coin_in_2"]
            month = (when.year, when.month)
            # every seventh day, and at the log's last reading where its month has had no count yet (a log
            # that ends with a month uncounted leaves that month unjudged: a count in its other days is unknown)
            counted = (day % 7 == machine.count_day or day == days - 1 and month not in counts.get(machine.name, ())) \
                and not (machine is targets.get("drop_not_counted") and when.month == START.month and day < 31)
            if counted:
                counts.setdefault(machine.name, set()).add(month)
                reading["drop_box_counted"] = True
                machine.meters["door_openings"] = (machine.meters["door_openings"] + 1) % capacity["door_openings"]
            if machine is targets.get("missing_readings") and \
                    special["missing_readings"] <= day < special["missing_readings"] + 3:
                continue  # a count that day goes unrecorded with its reading: the month's other counts remain
            records.append(reading)
            if machine is targets.get("duplicate_time") and day == special["duplicate_time"]:
                records.append(dict(reading))
            if machine is targets.get("out_of_order") and day == special["out_of_order"]:
                late = {**reading, "time": (when - timedelta(hours=12)).isoformat()}  # written after a later one
                late.pop("drop_box_counted", None)
                records.append(late)
    return records


def _play(rng: random.Random, meters: dict, table, capacity: dict) -> None:
    """One day's games on a machine: stakes and wins drawn from the seed, every meter moved modulo its capacity."""
    games = rng.randrange(1500, 3001)
    stakes = rng.choices(STAKES, weights=STAKE_WEIGHTS, k=games)
    pays = rng.choices([pay for pay, _ in table], weights=[weight for _, weight in table], k=games)
    staked = sum(stakes)
    by_hand = by_machine = 0
    for stake, pay in zip(stakes, pays):
        if pay:
            won = stake * pay
            if won >= HAND_PAID_FROM:
                by_hand += won
            else:
                by_machine += won
    moved = {"coin_in_1": staked, "coin_in_2": staked, "coin_out": by_machine, "hand_paid_jackpots": by_hand,
             "games_played": games, "drop": max(staked - by_machine, 0) * 3 // 4}
    for meter, amount in moved.items():
        meters[meter] = (meters[meter] + amount) % capacity[meter]
