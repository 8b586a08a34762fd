"""Each reading's machine is a filed machine: a machine no homologation file is named for is an error, a name that
is neither the file's location number nor its serial number is an error (a renamed machine is never a new one),
and the two ids of one filed machine read one machine's meters."""

from __future__ import annotations

from casino_audit.core.findings import Severity
from helpers.meters import COIN_IN_RESET, MACHINE_TEXT, check, header, month, write

SERIAL = "NV-232-0048817"  # machine-compliant.yaml's
LOCATED = MACHINE_TEXT.replace("\nredistribution_rate:", "\nlocation_number: {number: M-001, on_front: true}\n"
                                                         "redistribution_rate:", 1)


def _unfiled(path) -> list[tuple[int, Severity]]:
    return [(f.line, f.severity) for f in check(path).findings if f.rule_id == "LOG-UNFILED"]


def test_a_machine_no_homologation_file_is_named_for_is_an_error_at_its_first_reading(tmp_path):
    records = [header(machine=None, capacity_digits={"coin_in_1": 10, "coin_in_2": 8}), *month(3, "M-001"),
               *month(3, "M-002")]
    path = write(tmp_path, records, machine_text=None)
    assert _unfiled(path) == [(2, Severity.ERROR), (5, Severity.ERROR)]
    # named in `machines` with its own file, it is filed; the others still are not
    records[0] = header(machine=None, machines={"M-001": {"machine": "machine.yaml"}})
    assert _unfiled(write(tmp_path, records)) == [(5, Severity.ERROR)]


def test_a_name_the_file_does_not_give_is_an_error_and_its_location_number_or_serial_passes(tmp_path):
    records = [header(), *month(40, "M-001")]
    assert [f for f in check(write(tmp_path, records, machine_text=LOCATED)).findings if f.file] == []
    records = [header(), *month(40, SERIAL)]
    assert [f for f in check(write(tmp_path, records, machine_text=LOCATED)).findings if f.file] == []
    records = [header(), *month(3, "M-002")]
    path = write(tmp_path, records, machine_text=LOCATED)
    [said] = [f for f in check(path).findings if f.rule_id == "LOG-UNFILED"]
    assert (said.line, said.severity, said.pointer) == (2, Severity.ERROR, "/machine")
    assert "location number 'M-001'" in said.message and SERIAL in said.message


def test_a_machine_renamed_mid_log_is_a_finding_never_a_new_machine(tmp_path):
    records = [header(), *month(10, "M-001"), *(dict(r, machine="M-001-B") for r in month(20)[10:])]
    path = write(tmp_path, records, machine_text=LOCATED)
    assert _unfiled(path) == [(12, Severity.ERROR)]


def test_the_location_number_and_the_serial_read_one_machines_meters(tmp_path):
    # read as M-001, then under its serial: one machine, its meters going on (clean), or set back (a reset)
    readings = month(20, "M-001")
    records = [header(), *readings[:10], *(dict(r, machine=SERIAL) for r in readings[10:])]
    assert [f for f in check(write(tmp_path, records, machine_text=LOCATED)).findings if f.file] == []
    records[11]["coin_in_1"] = records[11]["coin_in_2"] = 500
    found = [(f.rule_id, f.line) for f in check(write(tmp_path, records, machine_text=LOCATED)).findings
             if f.rule_id == COIN_IN_RESET]
    assert found == [(COIN_IN_RESET, 12), (COIN_IN_RESET, 12)]
