"""Red team: a capacity the header alone gives the second coin-in meter widens what "agree" means."""

from helpers.command import EXAMPLES

from _meterlog import HEADER, reading, rules, write


def test_a_stuck_second_coin_in_meter_disagrees_whatever_capacity_the_header_gives_it(cli, tmp_path):
    # The homologation file gives the second coin_in meter no capacity; the header says 1 digit. Rollovers are
    # judged at the file's capacity only (increments.py), but MeterIncrements._agreement compares the two meters
    # modulo 10 ** the header's digits: coin_in_2 stuck at 5 while coin_in_1 counts 180,000 coins "agrees".
    text = (EXAMPLES / "lu" / "machine-m-001.yaml").read_text(encoding="utf-8")
    text = text.replace("resets_only_on_overflow: true, capacity_digits: 8}", "resets_only_on_overflow: true}")
    header = dict(HEADER, machine="machine-m-001b.yaml",
                  capacity_digits=dict(HEADER["capacity_digits"], coin_in_2=1))
    readings = [reading(f"2026-01-{day:02d}T06:00:00", "M-001", day, counted=day == 1) for day in range(1, 32)]
    for record in readings:
        record["coin_in_1"] += 5  # 200,006,005, 200,012,005, ...: equal to coin_in_2 modulo 10
        record["coin_in_2"] = 5
    path = write(tmp_path, header, readings)
    (tmp_path / "machine-m-001b.yaml").write_text(text, encoding="utf-8")
    done = cli("check", str(path), "--format", "json")
    assert "LU-SLOT-LOG-COIN-IN-AGREE" in rules(done), done.stdout
