"""Progress a person sees on one big log and on a long sample: a log's bytes read of its size, the percentage,
the speed and the time left (not `0/1 files` for the whole run), and `sample-log`'s coups written; on standard
error in a terminal only, and what goes to standard output or a report is the same byte for byte."""

import gzip
import io
import os
import subprocess
import sys

import pytest

from casino_audit.cli import app
from casino_audit.law.engine import Checker
from casino_audit.law.rulesets import builtin_names, load_builtin
from casino_audit.run import one_file, progress_bar
from casino_audit.run.pipeline import Progress, run
from casino_audit.samples import log as sample_log
from helpers.command import EXAMPLES, REPO

RULESETS = {rs.code: rs for rs in (load_builtin(name) for name in builtin_names())}
LOG = EXAMPLES / "lu" / "log-punto-banco-breaches.jsonl"


class Terminal(io.StringIO):
    def isatty(self):
        return True


def plain(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def test_the_pipeline_tells_a_logs_bytes_read_of_its_size(monkeypatch, tmp_path):
    monkeypatch.setattr(one_file, "PROGRESS_EVERY", 10)
    squeezed = tmp_path / "log.jsonl.gz"
    squeezed.write_bytes(gzip.compress(LOG.read_bytes()))
    for path, size in ((LOG, LOG.stat().st_size), (squeezed, squeezed.stat().st_size)):
        told: list[Progress] = []
        run([str(path)], Checker(RULESETS), progress=told.append)
        read = [(at.records, at.bytes_read, at.bytes_total) for at in told if at.bytes_total is not None]
        assert [records for records, _, _ in read] == [10, 20, 30, 40]
        assert all(total == size and 0 < at <= size for _, at, total in read)  # a gzipped log: its own bytes
        assert [at for _, at, _ in read] == sorted(at for _, at, _ in read)
        assert told[-1].bytes_total is None and told[-1].files_done == 1  # the file done: no byte row left


def test_a_big_log_shows_its_bytes_percentage_speed_and_time_left():
    now = [0.0]
    stream = Terminal()
    bar = progress_bar.ProgressBar(stream, 0.5, clock=lambda: now[0])
    now[0] = 1.0
    bar(Progress(0, 1, "big.jsonl"))
    for step in range(1, 5):
        now[0] = 1.0 + step
        bar(Progress(0, 1, "big.jsonl", 5000 * step, 25_000_000 * step, 200_000_000))
    bar._bar.refresh()
    shown = plain(stream.getvalue())
    bar(Progress(1, 1, "big.jsonl", 30_000))  # the file done: its row goes
    assert bar._reading is None
    bar.close()
    last = shown[shown.rindex("checking"):]
    assert "0/1" in last and "20,000 records" in last
    assert "50%" in last and "100.0/200.0 MB" in last and "25.0 MB/s" in last and "eta 0:00:04" in last


def invoke(*args):
    from typer.testing import CliRunner

    previous = os.getcwd()
    os.chdir(REPO)
    try:
        return CliRunner().invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "200"},
                                  prog_name="casino-audit", catch_exceptions=False)
    finally:
        os.chdir(previous)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_in_a_terminal_the_report_is_the_same_with_the_byte_row(monkeypatch, jobs):
    monkeypatch.delenv("CI", raising=False)
    paths = [str(LOG), "examples/mc", "examples/pt"]
    before = invoke("check", *paths, "--jobs", jobs)
    as_json = invoke("check", *paths, "--jobs", jobs, "--format", "json", "-o", os.devnull)
    real_wanted = progress_bar.wanted
    monkeypatch.setattr(progress_bar, "wanted", lambda machine: real_wanted(machine, Terminal(), {}))
    monkeypatch.setattr(progress_bar, "SHOW_AFTER_S", 0)
    monkeypatch.setattr(one_file, "PROGRESS_EVERY", 5)
    with_bar = invoke("check", *paths, "--jobs", jobs)
    assert with_bar.exit_code == before.exit_code == 1
    assert with_bar.stdout_bytes == before.stdout_bytes and before.stderr_bytes == b""
    drawn = plain(with_bar.stderr)
    assert "reading" in drawn and "%" in drawn and " kB" in drawn and "eta" in drawn  # the log, read
    assert as_json.exit_code == 1


def test_sample_log_tells_its_coups_and_writes_the_same_log(monkeypatch):
    monkeypatch.setattr(sample_log, "PROGRESS_EVERY", 50)
    without = invoke("sample-log", "punto_banco", "-j", "LU", "--coups", "300")
    monkeypatch.delenv("CI", raising=False)
    real_wanted = progress_bar.wanted
    monkeypatch.setattr(progress_bar, "wanted", lambda machine: real_wanted(machine, Terminal(), {}))
    monkeypatch.setattr(progress_bar, "SHOW_AFTER_S", 0)
    with_bar = invoke("sample-log", "punto_banco", "-j", "LU", "--coups", "300")
    assert with_bar.exit_code == without.exit_code == 0
    assert with_bar.stdout_bytes == without.stdout_bytes and without.stderr_bytes == b""
    assert "300/300 coups" in plain(with_bar.stderr) and "eta" in plain(with_bar.stderr)


def test_the_sampler_tells_every_n_coups(monkeypatch):
    monkeypatch.setattr(sample_log, "PROGRESS_EVERY", 100)
    told = []
    out = io.StringIO()
    ruleset = RULESETS["LU"]
    sample_log.write(ruleset, "punto_banco", 350, 1, [], out, progress=told.append)
    same = io.StringIO()
    sample_log.write(ruleset, "punto_banco", 350, 1, [], same)
    assert told == [100, 200, 300] and out.getvalue() == same.getvalue()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_the_real_command_draws_on_a_terminal_only_and_never_on_stdout(tmp_path):
    """stderr a real terminal, stdout a file: the bar on the terminal, the sample in the file as without one."""
    env = {**os.environ, "COLUMNS": "120"}
    env.pop("CI", None)
    command = [sys.executable, "-m", "casino_audit", "sample-log", "punto_banco", "-j", "LU", "--coups", "50000"]  # well past SHOW_AFTER_S on a fast machine
    piped = subprocess.run(command, capture_output=True, env=env, timeout=120)
    assert piped.returncode == 0 and piped.stderr == b""  # stderr a pipe: nothing drawn
    leader, follower = os.openpty()
    with open(tmp_path / "log.jsonl", "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=follower, env=env)
        os.close(follower)
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            drawn += chunk
        assert process.wait(timeout=120) == 0
    os.close(leader)
    assert (tmp_path / "log.jsonl").read_bytes() == piped.stdout
    assert b"coups" in drawn and b"50000/50000" in drawn
