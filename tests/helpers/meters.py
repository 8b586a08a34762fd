"""A meter log built day by day for the meter tests: the compliant machine file, a header, readings at a
return of 92.5 %, written beside the machine and checked under the shipped rulesets."""

from __future__ import annotations

import json
import shutil

from casino_audit.law.engine import Checker
from casino_audit.law.rulesets import builtin_names, load_builtin
from casino_audit.run.pipeline import run
from helpers.command import EXAMPLES


RULESETS = {rs.code: rs for rs in (load_builtin(name) for name in builtin_names())}
MACHINE_TEXT = (EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8")  # 92.5 %, sd 3.5, coin-in 10 and 8 digits
AGREE, COIN_IN_RESET, METER_RESET = "LU-SLOT-LOG-COIN-IN-AGREE", "LU-SLOT-LOG-COIN-IN-RESET", "LU-SLOT-LOG-METER-RESET"
DEPARTURE, MINIMUM, COUNT = "LU-SLOT-LOG-RETURN-DEPARTURE", "LU-SLOT-LOG-RETURN-MIN", "LU-SLOT-LOG-DROP-COUNT"


START = {"coin_in_1": 123_456_789, "drop": 500_000, "coin_out": 7_000_000, "hand_paid_jackpots": 40_000,
         "games_played": 2_000_000, "door_openings": 10}
PER_DAY = {"coin_in_1": 4000, "drop": 300, "coin_out": 3700, "hand_paid_jackpots": 0, "games_played": 1600,
           "door_openings": 0}  # a return of 92.5 % exactly, 2.5 units a game


def header(**changes) -> dict:
    found = {"kind": "meter-log", "jurisdiction": "LU", "casino": "C", "machine": "machine.yaml",
             "capacity_digits": {"drop": 10, "coin_out": 10, "hand_paid_jackpots": 10, "games_played": 10,
                                 "door_openings": 6},
             "reading_interval_hours": 24, "denomination": "1.00"}
    found.update(changes)
    return {key: value for key, value in found.items() if value is not None}


def reading(day: int, machine: str = "M-1", start: dict | None = None, counted: bool | None = None,
            **changes) -> dict:
    """Machine `machine` read on day `day` (0 is 2026-01-01) at 06:00, its drop box counted every 7th day."""
    base = {**START, **(start or {})}
    meters = {meter: base[meter] + day * PER_DAY[meter] for meter in PER_DAY}
    found = {"time": _day(day), "machine": machine, "coin_in_1": meters["coin_in_1"],
             "coin_in_2": meters["coin_in_1"] % 10 ** 8, **{m: v for m, v in meters.items() if m != "coin_in_1"}}
    if counted if counted is not None else day % 7 == 0:
        found["drop_box_counted"] = True
    found.update(changes)
    return found


def _day(day: int, hour: int = 6) -> str:
    from datetime import datetime, timedelta

    return (datetime(2026, 1, 1, hour) + timedelta(days=day)).isoformat()


def filed_for(machine: str, text: str = MACHINE_TEXT) -> str:
    """The homologation file filed for machine `machine`: its location number (a reading's machine must be its
    file's location number or serial number, and the example gives only a serial number)."""
    if "\nlocation_number:" in text or "\n  location_number:" in text:  # filed for a machine already
        return text
    return f"{text.rstrip()}\nlocation_number: {{number: {json.dumps(machine)}, on_front: true}}\n"


def write(tmp_path, records, name="log.jsonl", machine_text: str | None = MACHINE_TEXT, each: bool = False) -> str:
    """The log, and `machine_text` as machine.yaml filed for the first machine read (a name read otherwise is no
    filed machine); `each`: every machine read its own copy filed for it (one file is one machine's), named in the
    header's `machines` unless the test names one."""
    if machine_text is not None:
        head = records[0] if records and isinstance(records[0], dict) and "kind" in records[0] else {}
        names = list(dict.fromkeys(r["machine"] for r in records[1:] if isinstance(r, dict) and
                                   isinstance(r.get("machine"), str) and r["machine"].strip()))
        own = head.get("machines") if isinstance(head.get("machines"), dict) else {}
        reading = [n for n in names if n not in own or (own[n] or {}).get("machine") == "machine.yaml"]
        names = [n for n in names if n not in own]
        (tmp_path / "machine.yaml").write_text(filed_for(reading[0], machine_text) if reading else machine_text,
                                               "utf-8")
        if each:
            for number, machine in enumerate(names):
                (tmp_path / f"machine-{number}.yaml").write_text(filed_for(machine, machine_text), "utf-8")
            records = [{**head, "machines": {**{m: {"machine": f"machine-{n}.yaml"} for n, m in enumerate(names)},
                                             **own}}, *records[1:]]
    path = tmp_path / name
    path.write_text("".join(json.dumps(record) + "\n" for record in records), "utf-8")
    return str(path)


def sample_files(tmp_path, machines: int) -> list[str]:
    """`--machine` arguments for `sample-meters`: one homologation file per machine, filed for M-001, M-002 ..."""
    arguments = []
    for number in range(1, machines + 1):
        (tmp_path / f"machine-m-{number:03d}.yaml").write_text(filed_for(f"M-{number:03d}"), "utf-8")
        arguments += ["--machine", f"machine-m-{number:03d}.yaml"]
    return arguments


# the rules of homologation files: a meter log's machine file is checked with it (pipeline._check_named_filings),
# and the meter tests look at the log's own findings
MACHINE_RULES = {rule.id for ruleset in RULESETS.values() for rule in ruleset.rules
                 if rule.kind == "machine"}


def check(path, params=None, filings: bool = False, **options):
    """The run over the log; its findings the log's own (and the run's, but the machine file's rules'), unless
    `filings`: then the homologation files' it names too."""
    result = run([str(path)], Checker(RULESETS, {"LU": params or {}}, **options))
    if not filings:
        result.findings = [f for f in result.findings if f.file == str(path) or
                           (f.file is None and f.rule_id not in MACHINE_RULES)]
    return result


def month(days: int = 40, machine: str = "M-1", **kwargs) -> list[dict]:
    return [reading(day, machine, **kwargs) for day in range(days)]


# A small log of the example machine M-001 (examples/lu/machine-m-001.yaml, location M-001, serial NV-232-0048801)
EXAMPLE_HEADER = {"kind": "meter-log", "jurisdiction": "LU", "casino": "Casino Sample", "machine": "machine-m-001.yaml",
                  "capacity_digits": {"coin_in_1": 10, "coin_in_2": 8, "drop": 10, "coin_out": 10,
                                      "hand_paid_jackpots": 10, "games_played": 10, "door_openings": 6},
                  "reading_interval_hours": 24, "denomination": "1.00", "currency": "EUR",
                  "period": {"from": "2026-01-01", "to": "2026-02-28"}}


def example_reading(time: str, machine: str, step: int, counted: bool = False) -> dict:
    """M-001's meters after `step` days of play, each day 2,500 games staking 6,000 and paying 5,550."""
    found = {"time": time, "machine": machine, "coin_in_1": 200_000_000 + 6000 * step, "coin_in_2": 6000 * step,
             "drop": 2_000_000 + 500 * step, "coin_out": 44_000_000 + 5550 * step, "hand_paid_jackpots": 223_646,
             "games_played": 9_000_000 + 2500 * step, "door_openings": 789}
    if counted:
        found["drop_box_counted"] = True
    return found


def write_example(directory, header: dict, readings: list[dict]):
    """The log as meters.jsonl beside a copy of machine-m-001.yaml."""
    shutil.copy(EXAMPLES / "lu" / "machine-m-001.yaml", directory / "machine-m-001.yaml")
    path = directory / "meters.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in [header, *readings]), encoding="utf-8")
    return path


def rule_ids(done) -> list[str]:
    """The rule ids of a `check --format json` run's findings."""
    return [finding["rule_id"] for finding in json.loads(done.stdout)["findings"]]
