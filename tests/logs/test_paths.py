"""The files a log names (a game log's `table_config`, a meter log's `machine:`) are read only inside the
directories being checked, or the log's own directory and below (loader.named_file, the one rule for both):
outside (`../x.yaml`, an absolute path, a link leading out), the finding names the path and quotes nothing of the
file, which is never opened. And -o / --write-baseline never overwrite a file a checked document reads."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from helpers.command import EXAMPLES

SECRET = "Sesame-7f3a"  # in the file outside: no finding may quote it
# A table configuration whose values a shape check would quote, and a homologation file likewise.
OUTSIDE_TABLE = f"kind: table\njurisdiction: LU\ngame: roulette\nstakes: {{minimum_eur: {SECRET}}}\n"
OUTSIDE_MACHINE = f"kind: machine\njurisdiction: {SECRET}\n"


def _game_log(directory: Path, table_config: str) -> Path:
    return _example_naming(directory, "log-roulette.jsonl", "table_config", table_config, "log.jsonl")


def _meter_log(directory: Path, machine: str) -> Path:
    return _example_naming(directory, "meters-compliant.jsonl", "machine", machine, "meters.jsonl")


def _example_naming(directory: Path, example: str, key: str, named: str, name: str) -> Path:
    """An LU example log whose header names `named` under `key`, written as `name` in `directory`."""
    lines = (EXAMPLES / "lu" / example).read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header[key] = named
    path = directory / name
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    return path


def _layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    """checked/ (the directory checked, the log in it), outside/ beside it holding the files named."""
    checked, outside = tmp_path / "checked", tmp_path / "outside"
    checked.mkdir()
    outside.mkdir()
    (outside / "table.yaml").write_text(OUTSIDE_TABLE, encoding="utf-8")
    (outside / "machine.yaml").write_text(OUTSIDE_MACHINE, encoding="utf-8")
    return checked, outside, tmp_path


def _at(report: dict, pointer: str) -> list[dict]:
    return [f for f in report["findings"] if f["pointer"] == pointer and f["document"] == 0 and f["file"]]


def _ways_out(checked: Path, outside: Path, name: str) -> list[str]:
    (checked / "link.yaml").symlink_to(outside / name)
    return [f"../outside/{name}", str(outside / name), "link.yaml", f"sub/../../outside/{name}"]


@pytest.mark.parametrize("way", range(4))
def test_a_table_configuration_outside_is_named_not_read(cli, tmp_path, way):
    checked, outside, _ = _layout(tmp_path)
    named = _ways_out(checked, outside, "table.yaml")[way]
    log = _game_log(checked, named)
    for target in (checked, log):
        report = json.loads(cli("check", str(target), "--format", "json", "--param", "roulette_zero_rule=lose").stdout)
        found = _at(report, "/table_config")
        assert any("outside the directories being checked" in f["message"] and repr(named) in f["message"]
                   for f in found), found
        assert SECRET not in json.dumps(report["findings"])
        # the coups are not replayed under it: the law's schedule is unknown for LU roulette, said
        assert any(f["rule_id"] == "LU-ROUL-LOG-SETTLEMENT" and "not checked" in f["message"]
                   for f in report["findings"])


@pytest.mark.parametrize("way", range(4))
def test_a_homologation_file_outside_is_named_not_read(cli, tmp_path, way):
    checked, outside, _ = _layout(tmp_path)
    named = _ways_out(checked, outside, "machine.yaml")[way]
    log = _meter_log(checked, named)
    report = json.loads(cli("check", str(log), "--format", "json").stdout)
    found = _at(report, "/machine")
    assert any("outside the directories being checked" in f["message"] and repr(named) in f["message"]
               for f in found), found
    assert SECRET not in json.dumps(report["findings"])


def test_a_file_outside_is_never_opened(cli, tmp_path, monkeypatch):
    checked, outside, _ = _layout(tmp_path)
    _game_log(checked, "../outside/table.yaml")
    _meter_log(checked, str(outside / "machine.yaml"))
    opened, real_stat = [], os.stat
    banned = {str(outside / "table.yaml"), str(outside / "machine.yaml")}

    def stat(path, *args, **kwargs):
        if os.path.abspath(path) in banned or os.path.normpath(os.fspath(path)) in banned:
            opened.append(path)
        return real_stat(path, *args, **kwargs)
    monkeypatch.setattr(os, "stat", stat)
    cli("check", str(checked), "--format", "json", "--param", "roulette_zero_rule=lose")
    assert opened == []


def test_inside_the_directory_checked_a_log_may_name_a_file_beside_its_own_directory(cli, tmp_path):
    root = tmp_path / "casino"
    (root / "logs").mkdir(parents=True)
    (root / "tables").mkdir()
    shutil.copy(EXAMPLES / "lu" / "table-roulette.yaml", root / "tables" / "table-roulette.yaml")
    _game_log(root / "logs", "../tables/table-roulette.yaml")
    report = json.loads(cli("check", str(root), "--format", "json", "--param", "roulette_zero_rule=lose").stdout)
    assert not _at(report, "/table_config"), _at(report, "/table_config")
    assert not [f for f in report["findings"] if f["rule_id"] == "LU-ROUL-LOG-SETTLEMENT"]  # replayed, clean
    # the log alone: its table configuration is outside its own directory, and no directory is checked
    alone = json.loads(cli("check", str(root / "logs" / "log.jsonl"), "--format", "json").stdout)
    assert any("outside" in f["message"] for f in _at(alone, "/table_config"))


@pytest.mark.parametrize("option", ["-o", "--write-baseline"])
def test_the_report_never_overwrites_the_table_configuration_a_log_reads(cli, tmp_path, option):
    shutil.copy(EXAMPLES / "lu" / "table-roulette.yaml", tmp_path / "table-roulette.yaml")
    log = _game_log(tmp_path, "table-roulette.yaml")
    before = (tmp_path / "table-roulette.yaml").read_bytes()
    done = cli("check", str(log), "--format", "json", option, str(tmp_path / "table-roulette.yaml"))
    assert done.returncode == 2, done
    assert "table-roulette.yaml" in done.stderr + done.stdout
    assert (tmp_path / "table-roulette.yaml").read_bytes() == before


def test_the_report_never_overwrites_the_homologation_file_a_meter_log_reads(cli, tmp_path):
    shutil.copy(EXAMPLES / "lu" / "machine-compliant.yaml", tmp_path / "machine-compliant.yaml")
    log = _meter_log(tmp_path, "machine-compliant.yaml")
    before = (tmp_path / "machine-compliant.yaml").read_bytes()
    done = cli("check", str(log), "--format", "sarif", "-o", str(tmp_path / "machine-compliant.yaml"))
    assert done.returncode == 2 and "a checked document reads" in done.stderr + done.stdout, done
    assert (tmp_path / "machine-compliant.yaml").read_bytes() == before


def test_named_file_is_the_one_rule(tmp_path):
    from casino_audit.read.loader import checking, named_file

    log = str(tmp_path / "a" / "log.jsonl")
    (tmp_path / "a").mkdir()
    assert named_file(log, "t.yaml", "the table configuration")[1] is None
    assert named_file(log, "sub/t.yaml", "the table configuration")[1] is None
    for outside in ("../t.yaml", "/etc/passwd", "a\x00b"):
        path, why = named_file(log, outside, "the table configuration")
        assert why is not None and why.startswith("the table configuration it names ")
    with checking([str(tmp_path)]):
        assert named_file(log, "../t.yaml", "the table configuration")[1] is None
        assert named_file(log, "../../t.yaml", "the table configuration")[1] is not None
