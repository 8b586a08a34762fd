"""A FIFO, a device or a socket named like a log (`*.jsonl`, `*.csv`, gzipped or not) is refused with a finding and
never opened: opening a FIFO waits for a writer (the run would hang), reading /dev/zero never ends, opening a
device can act on it. The YAML and JSON loader already refused them (tests/read/test_files.py); a log is read by
its own reader (casino_audit/logs/reader.py)."""

from __future__ import annotations

import builtins
import gzip
import json
import os
import socket

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")

SUFFIXES = (".jsonl", ".ndjson", ".csv", ".jsonl.gz", ".csv.gz")


@pytest.fixture
def never_opened(monkeypatch):
    """Fails (instead of hanging) if any of the paths it is given is opened, by any of the ways a reader opens one."""
    watched: set[str] = set()
    opened: list[str] = []

    def guard(real):
        def opening(path, *args, **kwargs):
            if isinstance(path, (str, os.PathLike)) and os.path.realpath(path) in watched:
                opened.append(str(path))
                raise AssertionError(f"{path} was opened")
            return real(path, *args, **kwargs)
        return opening

    monkeypatch.setattr(builtins, "open", guard(builtins.open))
    monkeypatch.setattr(os, "open", guard(os.open))
    monkeypatch.setattr(gzip, "open", guard(gzip.open))

    def watch(*paths):
        watched.update(os.path.realpath(path) for path in paths)
        return opened
    return watch


def _unreadable(report: dict, path) -> list[dict]:
    return [f for f in report["findings"] if f["rule_id"] == "LOAD-UNREADABLE" and f["file"] == str(path)]


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_fifo_named_like_a_log_is_refused_walked_or_named(cli, tmp_path, never_opened, suffix):
    fifo = tmp_path / f"pipe{suffix}"
    os.mkfifo(fifo)
    opened = never_opened(fifo)
    for target in (tmp_path, fifo):  # met in a walked directory, and named on the command line
        done = cli("check", str(target), "--jurisdiction", "LU", "--format", "json")
        report = json.loads(done.stdout)
        assert opened == [], opened
        found = _unreadable(report, fifo)
        assert found and "not a regular file" in found[0]["message"], report["findings"]
        assert done.returncode == 1 and report["summary"]["internal_errors"] == 0
        assert next(f for f in report["files"] if f["path"] == str(fifo))["status"] == "unreadable"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("suffix", (".jsonl", ".csv.gz"))
def test_a_device_named_like_a_log_is_refused(cli, tmp_path, never_opened, suffix):
    link = tmp_path / f"zero{suffix}"
    link.symlink_to("/dev/zero")  # read, it never ends
    opened = never_opened(link)
    done = cli("check", str(link), "--format", "json")
    report = json.loads(done.stdout)
    assert opened == []
    assert "not a regular file" in _unreadable(report, link)[0]["message"]
    assert done.returncode == 1


def test_a_socket_named_like_a_log_is_refused(cli, tmp_path, never_opened):
    path = tmp_path / "s.jsonl"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        opened = never_opened(path)
        report = json.loads(cli("check", str(path), "--format", "json").stdout)
    finally:
        server.close()
    assert opened == []
    assert "not a regular file" in _unreadable(report, path)[0]["message"]


def test_a_regular_log_is_still_read_plain_and_gzipped(cli, tmp_path):
    from helpers.command import EXAMPLES

    text = (EXAMPLES / "lu" / "log-punto-banco.jsonl").read_bytes()
    (tmp_path / "a.jsonl").write_bytes(text)
    (tmp_path / "b.jsonl.gz").write_bytes(gzip.compress(text))
    report = json.loads(cli("check", str(tmp_path), "--format", "json", "--param",
                            "punto_banco_stake_minimum_eur=20").stdout)
    assert {f["path"]: f["records"]["read"] for f in report["files"]} == \
        {str(tmp_path / "a.jsonl"): len(text.splitlines()), str(tmp_path / "b.jsonl.gz"): len(text.splitlines())}
