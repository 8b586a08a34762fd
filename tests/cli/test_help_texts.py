"""What `--help` says is what the command does: the config files looked for and where, --max-file-size,
--write-baseline, the logs the tool checks; `-V`; typer's shell completion; and `--help` still loads no reader,
ruleset or rich (a pre-commit hook pays the start-up on every commit)."""

import json
import os
import re
import subprocess
import sys

from casino_audit import __version__
from casino_audit.read.loader import DEFAULT_MAX_BYTES
from casino_audit.run.config import DEFAULT_NAMES
from helpers.command import EXAMPLES, REPO, run_cli

LOG = EXAMPLES / "lu" / "log-punto-banco-breaches.jsonl"


def words(text: str) -> str:
    """The help as one line: click wraps it at the terminal's width, a word at a hyphen too."""
    return re.sub(r"\s+", " ", re.sub(r"(?<=\w)-[ \t]*\n\s*", "-", text))


def help_of(cli, *command) -> str:
    done = cli(*command, "--help")
    assert done.returncode == 0, done.stderr
    return done.stdout


def option_help(text: str, option: str) -> str:
    """One option's help: its lines, from its name to the next option's."""
    lines, taken = text.splitlines(), []
    for line in lines:
        starts = re.match(r" {2}-", line)  # an option's first line; what wraps is indented further
        if taken and starts:
            break
        if taken or (starts and re.match(rf" {{2}}(-\w, )?{re.escape(option)}\b", line)):
            taken.append(line)
    assert taken, option
    return words("\n".join(taken))


def test_the_top_level_help_names_the_logs_and_the_version_and_completion_options(cli):
    text = words(help_of(cli))
    assert "game logs" in text and "meter logs" in text
    assert "-V, --version" in text
    assert "--install-completion" in text and "--show-completion" in text


def test_dash_v_prints_the_version(cli):
    short, long = cli("-V"), cli("--version")
    assert short.returncode == long.returncode == 0
    assert short.stdout == long.stdout == f"casino-audit {__version__}\n"


def test_config_help_names_every_file_discovery_reads_and_where(cli):
    for command in (("check",), ("rules", "list"), ("rules", "explain"), ("edge",), ("sample-log",)):
        said = option_help(help_of(cli, *command), "--config")
        for name in DEFAULT_NAMES:
            assert name in said, (command, said)
        assert "pyproject.toml" in said and "[tool.casino-audit]" in said
        assert "above" in said and ".git" in said
        assert "./casino-audit.yaml if present" not in said


def test_config_is_found_above_the_working_directory_up_to_the_repository_root(cli, tmp_path):
    # What the help says, done: the nearest config upward is read; one above the directory holding .git is not.
    (tmp_path / "casino-audit.yaml").write_text("fail_on: never\n")
    repository = tmp_path / "repo"
    (repository / ".git").mkdir(parents=True)
    below = repository / "filings" / "lu"
    below.mkdir(parents=True)
    (repository / ".casino-audit.yaml").write_text("max_per_rule: 3\n")
    done = cli("check", str(LOG), "--format", "json", cwd=below)
    settings = {s["name"]: s for s in json.loads(done.stdout)["settings"]}
    assert settings["config"]["value"] == os.path.join("..", "..", ".casino-audit.yaml")
    assert settings["max_per_rule"]["value"] == 3 and "fail_on" not in settings
    (repository / ".casino-audit.yaml").unlink()
    (repository / "pyproject.toml").write_text('[tool.casino-audit]\nmax_per_rule = 4\n')
    done = cli("check", str(LOG), "--format", "json", cwd=below)
    settings = {s["name"]: s for s in json.loads(done.stdout)["settings"]}
    assert settings["max_per_rule"]["value"] == 4 and "fail_on" not in settings  # never the one above .git


def test_max_file_size_help_says_its_default_and_that_logs_are_streamed(cli, tmp_path):
    said = option_help(help_of(cli, "check"), "--max-file-size")
    assert f"{DEFAULT_MAX_BYTES}" in said and "10 MiB" in said and "LOAD-TOO-LARGE" in said
    assert "YAML or JSON" in said and "logs" in said and "1 MiB" in said
    # ... and does so: a filing over the limit is not read, a log over it is read record by record.
    small = str(EXAMPLES / "lu" / "machine-compliant.yaml")
    done = cli("check", small, str(LOG), "--max-file-size", "100", "--format", "json")
    report = json.loads(done.stdout)
    # named as given, relative to the working directory where it is inside it (discovery.shown_path)
    [too_large] = [f["file"] for f in report["findings"] if f["rule_id"] == "LOAD-TOO-LARGE"]
    assert too_large == (os.path.relpath(small) if small.startswith(os.getcwd() + os.sep) else small)
    assert LOG.stat().st_size > 100 and report["summary"]["records_read"] == 41


def test_write_baseline_help_says_what_it_writes_and_does(cli, tmp_path):
    said = option_help(help_of(cli, "check"), "--write-baseline")
    assert "--max-per-rule" in said and "waived" in said and "not line" in said
    assert "never another file" in said and "exits as usual" in said
    filing = (EXAMPLES / "lu" / "machine-rtp-below-85.yaml").read_text("utf-8")
    twice = tmp_path / "two.yaml"  # two documents, each below the floor: two findings of one rule in one file
    twice.write_text(filing + "---\n" + filing, "utf-8")
    baseline = tmp_path / "baseline.json"
    done = cli("check", str(twice), "--max-per-rule", "1", "--format", "json", "--write-baseline", str(baseline))
    report = json.loads(done.stdout)
    assert done.returncode == 1  # the run reports and exits as usual
    omitted = {entry["rule_id"]: entry["total"] for entry in report["omitted"]}
    assert omitted["LU-SLOT-RTP-MIN"] == 2
    written = json.loads(baseline.read_text("utf-8"))["findings"]
    assert sum(e["count"] for e in written if e["rule_id"] == "LU-SLOT-RTP-MIN") == 2  # past --max-per-rule too
    assert all("line" not in entry and entry["pointer"] is not None for entry in written)
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    refused = cli("check", str(LOG), "--write-baseline", str(other))
    assert refused.returncode == 2 and other.read_text() == "mine"


def test_paths_help_says_what_a_walk_reads_and_dash(cli):
    said = words(help_of(cli, "check"))
    for extension in (".yaml", ".yml", ".json", ".jsonl", ".ndjson", ".csv"):
        assert extension in said
    assert "- reads one filing or log from standard input" in said and "--stdin-filename" in said


def test_shell_completion_as_typer_gives_it():
    shown = run_cli("--show-completion", "bash")
    assert shown.returncode == 0 and "_CASINO_AUDIT_COMPLETE" in shown.stdout
    env = {**os.environ, "_CASINO_AUDIT_COMPLETE": "complete_bash", "COMP_WORDS": "casino-audit check --max",
           "COMP_CWORD": "2"}
    completed = subprocess.run([sys.executable, "-m", "casino_audit"], env=env, capture_output=True, text=True,
                               timeout=60, cwd=REPO)
    assert completed.stdout.split() == ["--max-file-size", "--max-per-rule"]


def test_help_loads_no_reader_ruleset_or_rich():
    code = ("import atexit, sys\n"
            "atexit.register(lambda: sys.__stderr__.write(' '.join(sorted(sys.modules))))\n"
            "sys.argv = ['casino-audit', '--help']\n"
            "from casino_audit.cli import main\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO)
    loaded = set(done.stderr.split())
    assert "casino_audit.cli.apps" in loaded and "--install-completion" in done.stdout
    heavy = sorted(name for name in loaded if name.split(".")[0] in ("rich", "yaml", "jsonschema")
                   or name.startswith(("casino_audit.law", "casino_audit.read", "casino_audit.run",
                                       "casino_audit.cli.checking", "casino_audit.cli.stdin")))
    assert heavy == []
