"""Red team: one homologation file named in two spellings of its path makes one machine two."""

from _meterlog import HEADER, reading, rules, write


def test_a_reset_under_the_serial_number_is_found_when_the_file_is_named_with_dot_slash(cli, tmp_path):
    # M-001 and its serial NV-232-0048801 are one machine (machine-m-001.yaml gives both); the header names the
    # same file as "machine-m-001.yaml" and "machine-m-001.yaml", and FiledMachines._filed_machine keys the
    # machine by that text, so the readings under the serial number start a second machine and every meter set
    # back to near 0 is never compared with the readings before it.
    header = {key: value for key, value in HEADER.items() if key != "machine"}
    header["machines"] = {"M-001": {"machine": "machine-m-001.yaml"},
                          "NV-232-0048801": {"machine": "./machine-m-001.yaml"}}
    readings = [reading(f"2026-01-{day:02d}T06:00:00", "M-001", day, counted=day == 1) for day in range(1, 11)]
    after = [reading(f"2026-01-{day:02d}T06:00:00", "NV-232-0048801", day) for day in range(11, 21)]
    for record in after:  # a RAM clear on the 10th: every meter set back, then played on
        for meter in ("coin_in_1", "coin_in_2", "drop", "coin_out", "hand_paid_jackpots", "games_played"):
            record[meter] -= readings[-1][meter] - 5
    path = write(tmp_path, header, readings + after)
    done = cli("check", str(path), "--format", "json")
    assert "LU-SLOT-LOG-COIN-IN-RESET" in rules(done), done.stdout
