"""`check -`: a filing or a log read from standard input, named `-` in the reports or by --stdin-filename (as ruff
and yamllint take one), its kind told by that name's extension or by its content; mixed with other paths, and
the same report whatever --jobs is. Never a way round a check: what is caught in a file is caught on stdin."""

import gzip
import json

import pytest

from casino_audit.cli.stdin import extension
from helpers.command import EXAMPLES, REPO, run_cli

LU = EXAMPLES / "lu"


def report(cli, *args, stdin, cwd=REPO):
    done = cli("check", *args, "--format", "json", stdin=stdin, cwd=cwd)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)


def findings(data: dict) -> list[tuple]:
    return [(f["rule_id"], f["file"], f["line"], f["pointer"], f["message"]) for f in data["findings"]]


@pytest.mark.parametrize("name", ["machine-rtp-below-85.yaml", "machine-rate-as-fraction.json",
                                  "log-punto-banco-breaches.jsonl", "log-punto-banco.csv"])
def test_stdin_is_checked_as_the_file_is_under_the_name_dash(cli, name):
    text = (LU / name).read_text("utf-8")
    on_disk = report(cli, name, cwd=LU, stdin=None)
    piped = report(cli, "-", cwd=LU, stdin=text)
    assert [f["path"] for f in piped["files"]][:1] == ["-"]
    assert findings(piped) == [(rule, "-" if file == name else file, line, pointer, message)
                               for rule, file, line, pointer, message in findings(on_disk)]
    assert piped["summary"] == on_disk["summary"] and piped["exit_code"] == on_disk["exit_code"]


def test_stdin_filename_gives_the_report_of_the_file_itself(cli):
    # A log naming its table configuration beside it: found from the name's directory, as for the file on disk.
    name = "examples/lu/log-roulette.jsonl"
    text = (REPO / name).read_text("utf-8")
    on_disk = report(cli, name, stdin=None)
    piped = report(cli, "-", "--stdin-filename", name, stdin=text)
    assert piped == on_disk
    assert "examples/lu/table-roulette.yaml" in [f["path"] for f in piped["files"]]


def test_a_log_on_stdin_finds_its_table_configuration_from_the_working_directory(cli):
    text = (LU / "log-roulette.jsonl").read_text("utf-8")
    piped = report(cli, "-", cwd=LU, stdin=text)
    assert [(f["path"], f["status"]) for f in piped["files"]] == [("-", "checked"), ("table-roulette.yaml", "checked")]
    assert piped["summary"]["records_checked"] == 3


def test_stdin_mixed_with_other_paths_and_the_same_whatever_jobs(cli):
    text = (LU / "log-punto-banco-breaches.jsonl").read_text("utf-8")
    paths = ["examples/mc", "-", "examples/lu/machine-compliant.yaml"]
    one = report(cli, *paths, "--jobs", "1", stdin=text)
    two = report(cli, *paths, "--jobs", "2", stdin=text)
    assert one == two
    listed = [f["path"] for f in one["files"]]
    assert "-" in listed and "examples/lu/machine-compliant.yaml" in listed
    assert any(path.startswith("examples/mc/") for path in listed)
    assert {f["rule_id"] for f in one["findings"] if f["file"] == "-"} >= {"LU-PB-LOG-SETTLEMENT"}


def test_a_gzipped_log_on_stdin_is_read_as_one(cli):
    raw = gzip.compress((LU / "log-punto-banco.csv").read_bytes())
    on_disk = report(cli, "log-punto-banco.csv", cwd=LU, stdin=None)
    piped = report(cli, "-", cwd=LU, stdin=raw)
    assert piped["summary"] == on_disk["summary"] and piped["summary"]["records_read"] == 21


def test_what_a_file_is_caught_for_is_caught_on_stdin(cli):
    no_kind = report(cli, "-", stdin="jurisdiction: LU\nredistribution_rate: 84 %\n")
    assert [f["rule_id"] for f in no_kind["findings"]] == ["KIND-MISSING"] and no_kind["exit_code"] == 1
    empty = report(cli, "-", stdin="")
    assert [f["rule_id"] for f in empty["findings"]] == ["LOAD-EMPTY"]
    big = report(cli, "-", "--max-file-size", "10", stdin=(LU / "machine-compliant.yaml").read_text("utf-8"))
    assert [(f["rule_id"], f["file"]) for f in big["findings"]] == [("LOAD-TOO-LARGE", "-")]


@pytest.mark.parametrize("args, says", [
    (["-", "-"], "only once"),
    (["examples/mc", "--stdin-filename", "x.yaml"], "give - among the paths"),
    (["-", "examples/lu/machine-compliant.yaml", "--stdin-filename", "examples/lu/machine-compliant.yaml"],
     "both a path given and standard input's name"),
])
def test_stdin_used_wrongly_is_a_usage_error(cli, args, says):
    done = cli("check", *args, stdin="kind: machine\n")
    assert done.returncode == 2 and says in done.stderr


@pytest.mark.parametrize("name, head, expected", [
    ("log.jsonl", b"kind: machine\n", ".jsonl"),  # the name's extension wins
    ("a/b.CSV.gz", b"", ".csv.gz"),
    ("filing.txt", b'{"kind": "game-log"}\n{"coup": 1}\n', ".jsonl"),  # no known extension: the content
    (None, b'\xef\xbb\xbf\n{"kind": "game-log"}\n{"coup": 1}\n', ".jsonl"),
    (None, b'{"kind": "machine", "jurisdiction": "LU"}\n', ".yaml"),  # one JSON object: a document
    (None, b'{\n  "kind": "machine"\n}\n', ".yaml"),
    (None, b"kind: machine\njurisdiction: LU\n", ".yaml"),
    (None, b"# kind: game-log\n# game: punto_banco\ncoup,time\n", ".csv"),
    (None, b"# a comment\nkind: table\n", ".yaml"),
    (None, b"", ".yaml"),
    (None, gzip.compress(b'{"kind": "game-log"}\n{"coup": 1}\n', mtime=0), ".jsonl.gz"),
])
def test_the_kind_of_stdin_by_its_name_else_its_content(name, head, expected):
    assert extension(name, head) == expected


def test_the_real_command_reads_a_pipe(tmp_path):
    done = run_cli("check", "-", "--format", "json", stdin=(LU / "log-roulette.jsonl").read_text("utf-8"), cwd=LU)
    assert done.returncode == 0, done.stderr
    assert [f["path"] for f in json.loads(done.stdout)["files"]] == ["-", "table-roulette.yaml"]
