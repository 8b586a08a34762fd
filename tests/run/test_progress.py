"""Progress of long runs: the pipeline tells a callback where it is (and prints nothing); the command draws a
bar from it on standard error, in a terminal only, never in CI nor beside a format a program reads, and the
report is the same byte for byte with or without it."""

import io
import os

import pytest
from typer.testing import CliRunner

from casino_audit.run import one_file, progress_bar
from casino_audit.cli import app
from casino_audit.law.engine import Checker
from casino_audit.run.pipeline import Progress, run
from casino_audit.law.rulesets import builtin_names, load_builtin
from casino_audit.core.display import shown_path
from helpers.command import EXAMPLES, REPO

RULESETS = {rs.code: rs for rs in (load_builtin(name) for name in builtin_names())}
LOG = EXAMPLES / "lu" / "log-punto-banco-breaches.jsonl"
CSV_LOG = EXAMPLES / "lu" / "log-punto-banco.csv"
PATHS = [str(EXAMPLES / "lu" / "machine-compliant.yaml"), str(LOG), str(CSV_LOG),
         str(EXAMPLES / "lu" / "table-punto-banco.yaml")]


def test_the_pipeline_tells_each_file_and_every_n_records(monkeypatch):
    monkeypatch.setattr(one_file, "PROGRESS_EVERY", 7)
    told: list[Progress] = []
    result = run(PATHS, Checker(RULESETS), progress=told.append)
    read = {record.path: record.records["read"] for record in result.files if record.records}
    # The JSON Lines log is a header and 40 coups, one a line; the CSV one a header and 20 coups.
    # named as the reports name them (relative to the working directory where inside it)
    assert read == {shown_path(str(LOG)): 41, shown_path(str(CSV_LOG)): 21}
    assert len(LOG.read_text("utf-8").splitlines()) == 41
    expected = []
    for done, path in enumerate(PATHS):
        path = shown_path(path)
        expected.append(Progress(done, 4, path))
        expected += [Progress(done, 4, path, count) for count in range(7, read.get(path, 0) + 1, 7)]
        expected.append(Progress(done + 1, 4, path, read.get(path, 0)))
    assert told == expected


def test_progress_changes_nothing_in_the_result():
    told = []
    with_progress = run(PATHS, Checker(RULESETS), progress=told.append)
    without = run(PATHS, Checker(RULESETS))
    assert told and with_progress == without


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("stream, environ, machine, shown", [
    (io.StringIO(), {}, False, False),  # not a terminal: piped, a file, CliRunner
    (Terminal(), {}, False, True),
    (Terminal(), {"CI": "true"}, False, False),
    (Terminal(), {"CI": "1"}, False, False),
    (Terminal(), {"CI": "false"}, False, True),
    (Terminal(), {"TERM": "dumb"}, False, False),
    (Terminal(), {}, True, False),  # `--format json | jq` in a terminal
])
def test_a_bar_only_for_a_person_at_a_terminal(stream, environ, machine, shown):
    assert progress_bar.wanted(machine, stream, environ) is shown


def test_the_bar_waits_before_drawing_and_a_broken_display_stops_quietly():
    now = [0.0]
    stream = Terminal()
    bar = progress_bar.ProgressBar(stream, 0.5, clock=lambda: now[0])
    now[0] = 0.4
    bar(Progress(0, 3, "a.yaml"))
    assert not bar.shown and stream.getvalue() == ""
    now[0] = 0.6
    bar(Progress(1, 3, "b.yaml"))
    assert bar.shown
    bar.close()
    assert "1/3" in stream.getvalue()

    class Broken(Terminal):
        def write(self, text):
            raise OSError("the terminal went away")

    broken = progress_bar.ProgressBar(Broken(), 0)
    broken(Progress(0, 3, "a.yaml"))  # no exception: the run goes on, without a bar
    broken(Progress(1, 3, "b.yaml"))
    broken.close()


def invoke(*args):
    previous = os.getcwd()
    os.chdir(REPO)
    try:
        result = CliRunner().invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "200"},
                                    prog_name="casino-audit", catch_exceptions=False)
    finally:
        os.chdir(previous)
    return result


def test_no_bar_and_nothing_on_stderr_without_a_terminal(monkeypatch):
    monkeypatch.delenv("CI", raising=False)

    def never(*args, **kwargs):
        raise AssertionError("a progress bar was made without a terminal")

    monkeypatch.setattr(progress_bar, "ProgressBar", never)
    result = invoke("check", "examples/mc")
    assert result.exit_code == 1 and result.stderr_bytes == b"" and "FAILED" in result.stdout


def test_in_a_terminal_the_bar_goes_to_stderr_and_the_report_is_unchanged(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    plain = invoke("check", "examples/mc")
    real_wanted = progress_bar.wanted
    monkeypatch.setattr(progress_bar, "wanted", lambda machine: real_wanted(machine, Terminal(), {}))
    monkeypatch.setattr(progress_bar, "SHOW_AFTER_S", 0)
    with_bar = invoke("check", "examples/mc")
    assert with_bar.exit_code == plain.exit_code == 1
    assert with_bar.stdout_bytes == plain.stdout_bytes
    files = sum(1 for path in (EXAMPLES / "mc").iterdir() if path.suffix in (".yaml", ".json", ".jsonl", ".csv"))
    assert f"{files}/{files} files" in with_bar.stderr and "\x1b[" in with_bar.stderr
    # A format a program reads on stdout: no bar, even in a terminal.
    as_json = invoke("check", "examples/mc", "--format", "json")
    assert as_json.stderr_bytes == b""
