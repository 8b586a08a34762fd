"""Each reading's machine is a filed machine: a machine no homologation file is named for is an error, a name that
is neither the file's location number nor its serial number is an error (a renamed machine is never a new one),
and the two ids of one filed machine read one machine's meters."""

from __future__ import annotations

from casino_audit.core.findings import Severity
from helpers.meters import (COIN_IN_RESET, EXAMPLE_HEADER, MACHINE_TEXT, check, example_reading, header, month, rule_ids,
                            write, write_example)

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
    # the next reading back at the old count went forward by more than its games can stake: moved on by hand
    assert found == [(COIN_IN_RESET, 12), (COIN_IN_RESET, 12), (COIN_IN_RESET, 13), (COIN_IN_RESET, 13)]


def test_a_serial_only_file_ties_its_serial_and_no_other_name(tmp_path):
    # machine-compliant.yaml gives a serial number and no location number: read as M-001 it is no filed machine
    records = [header(), *month(3, "M-001")]
    (tmp_path / "machine.yaml").write_text(MACHINE_TEXT, "utf-8")
    path = write(tmp_path, records, machine_text=None)
    [said] = [f for f in check(path).findings if f.rule_id == "LOG-UNFILED"]
    assert (said.line, said.severity) == (2, Severity.ERROR) and f"serial number '{SERIAL}'" in said.message
    records = [header(), *month(40, SERIAL)]
    assert [f for f in check(write(tmp_path, records, machine_text=None)).findings if f.file] == []


def test_a_file_giving_neither_a_location_number_nor_a_serial_ties_no_machine(tmp_path):
    text = MACHINE_TEXT.replace(f"  serial_number: {SERIAL}\n", "")
    assert SERIAL not in text
    (tmp_path / "machine.yaml").write_text(text, "utf-8")
    path = write(tmp_path, [header(), *month(3, "M-001")], machine_text=None)
    [said] = [f for f in check(path).findings if f.rule_id == "LOG-UNFILED"]
    assert said.line == 2 and "neither a location number nor a serial number" in said.message


def test_one_file_named_for_two_machines_ties_at_most_one(tmp_path):
    (tmp_path / "machine.yaml").write_text(LOCATED, "utf-8")
    records = [header(machine=None, machines={"M-001": {"machine": "machine.yaml"}, "M-002": {"machine": "machine.yaml"}}),
               *month(3, "M-001"), *month(3, "M-002")]
    assert _unfiled(write(tmp_path, records, machine_text=None)) == [(5, Severity.ERROR)]


def test_a_machine_written_otherwise_goes_on_as_that_machine_and_is_said(tmp_path):
    """With its file filed for M-001, readings under "M-001" then "m-001" (or a zero-width space inside) are one
    machine's: its meters compared across the names (so a reset under the new spelling is found), and the
    spelling said, never merged in silence."""
    (tmp_path / "machine.yaml").write_text(LOCATED, "utf-8")
    for other in ("m-001", "M\u200b-001", "M-001 "):
        days = month(6, "M-001")
        for reading in days[3:]:
            reading["machine"] = other
        records = [header(), *days]
        found = [(f.rule_id, f.line, f.severity) for f in check(write(tmp_path, records, machine_text=None)).findings
                 if f.rule_id in ("LOAD-AMBIGUOUS", "LOG-UNFILED")]
        assert found == [("LOAD-AMBIGUOUS", 5, Severity.WARNING)], other


def _reset_under_the_serial(tmp_path, serial_file: str) -> list[dict]:
    """M-001 read ten days, then read under its serial number NV-232-0048801 after a RAM clear (every meter set
    back near 0), the serial's entry naming `serial_file`."""
    header = {key: value for key, value in EXAMPLE_HEADER.items() if key != "machine"}
    header["machines"] = {"M-001": {"machine": "machine-m-001.yaml"}, "NV-232-0048801": {"machine": serial_file}}
    readings = [example_reading(f"2026-01-{day:02d}T06:00:00", "M-001", day, counted=day == 1) for day in range(1, 11)]
    after = [example_reading(f"2026-01-{day:02d}T06:00:00", "NV-232-0048801", day) for day in range(11, 21)]
    for record in after:
        for meter in ("coin_in_1", "coin_in_2", "drop", "coin_out", "hand_paid_jackpots", "games_played"):
            record[meter] -= readings[-1][meter] - 5
    return header, readings + after


def test_a_reset_under_the_serial_number_is_found_when_the_file_is_named_with_dot_slash(cli, tmp_path):
    header, readings = _reset_under_the_serial(tmp_path, "./machine-m-001.yaml")
    done = cli("check", str(write_example(tmp_path, header, readings)), "--format", "json")
    assert "LU-SLOT-LOG-COIN-IN-RESET" in rule_ids(done), done.stdout


def test_a_copy_of_the_homologation_file_under_another_name_is_the_same_machine(cli, tmp_path):
    header, readings = _reset_under_the_serial(tmp_path, "copy.yaml")
    path = write_example(tmp_path, header, readings)
    (tmp_path / "copy.yaml").write_text((tmp_path / "machine-m-001.yaml").read_text("utf-8"), "utf-8")
    done = cli("check", str(path), "--format", "json")
    assert "LU-SLOT-LOG-COIN-IN-RESET" in rule_ids(done), done.stdout
