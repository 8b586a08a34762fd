"""The contributors' commit-msg hook (tools/check_commit_msg.py, wired in the root .pre-commit-config.yaml): a
message is `area: summary` of at most 72 characters, a blank line, then a body; git's own subjects pass."""

import importlib.util
import subprocess
import sys

import pytest
import yaml
from hypothesis import given, strategies as st

import json

from helpers.command import REPO, run_in_process

SCRIPT = REPO / "tools" / "check_commit_msg.py"
_spec = importlib.util.spec_from_file_location("check_commit_msg", SCRIPT)
check_commit_msg = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_commit_msg)
problems = check_commit_msg.problems

GOOD = "meters: a RAM clear is a reset, never two rollovers\n\nWhy and what, in the body.\n"


def test_a_message_in_the_convention_passes():
    assert problems(GOOD) == []
    assert problems("replay/baccarat: draw by the engine's table\n\nOne implementation of the drawing.\n") == []


@pytest.mark.parametrize("message, words", [
    ("Mend after review: the maximum's coefficient\n\nBody.\n", "is not `area: summary`"),
    ("meters a RAM clear is a reset\n\nBody.\n", "is not `area: summary`"),
    ("meters:  two spaces\n\nBody.\n", "is not `area: summary`"),
    (": no area\n\nBody.\n", "is not `area: summary`"),
    ("meters: a RAM clear is a reset\n", "there is no body"),
    ("meters: a RAM clear is a reset\n\n\n", "there is no body"),
    ("meters: a RAM clear is a reset\nthe body at once\n", "the second line is not blank"),
    ("", "the message is empty"),
    ("# only git's comments\n", "the message is empty"),
])
def test_a_message_out_of_the_convention_is_refused_saying_why(message, words):
    found = problems(message)
    assert any(words in problem for problem in found), found


def test_a_subject_of_73_characters_is_refused_and_72_pass():
    subject = "docs: " + "x" * 66
    assert len(subject) == 72 and problems(subject + "\n\nBody.\n") == []
    assert any("73 characters long, over 72" in p for p in problems(subject + "y\n\nBody.\n"))


@given(st.text(alphabet="abcdefghij klmnop", min_size=1, max_size=120).map(str.strip).filter(bool))
def test_any_subject_over_72_characters_is_refused(summary):
    subject = f"area: {summary}"
    refused = any("over 72" in problem for problem in problems(subject + "\n\nBody.\n"))
    assert refused == (len(subject) > 72)


def test_git_comments_and_the_scissors_part_are_not_read():
    verbose = (GOOD + "# Please enter the commit message for your changes.\n"
               "# ------------------------ >8 ------------------------\n"
               "# Do not modify or remove the line above.\ndiff --git a/x b/x\n+a line of the diff\n")
    assert problems("# a comment first\n" + verbose) == []


@pytest.mark.parametrize("subject", ["Merge branch 'docs'", "Revert \"meters: a RAM clear is a reset\"",
                                     "fixup! meters: a RAM clear is a reset", "squash! docs: tutorial"])
def test_git_own_subjects_pass(subject):
    assert problems(subject + "\n") == []


def test_the_hook_exits_1_on_a_bad_message_and_0_on_a_good_one(tmp_path, capsys):
    good, bad = tmp_path / "good", tmp_path / "bad"
    good.write_text(GOOD, encoding="utf-8")
    bad.write_text("Tests: a misspelt burn key is refused and the shoe's burn still due at its next coup and more\n",
                   encoding="utf-8")
    assert check_commit_msg.main(["check_commit_msg.py", str(good)]) == 0
    assert check_commit_msg.main(["check_commit_msg.py", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "over 72" in err and "no body" in err and "CONTRIBUTING.md" in err
    assert check_commit_msg.main(["check_commit_msg.py"]) == 2


def test_the_script_runs_as_the_hook_runs_it(tmp_path):
    message = tmp_path / "COMMIT_EDITMSG"
    message.write_text("no convention here\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), str(message)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "not `area: summary`" in done.stderr


def test_the_root_pre_commit_config_runs_the_script_at_the_commit_msg_stage():
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text("utf-8"))
    assert "commit-msg" in config["default_install_hook_types"]
    [repo] = config["repos"]
    [hook] = repo["hooks"]
    assert repo["repo"] == "local" and hook["stages"] == ["commit-msg"]
    assert hook["entry"].split()[-1] == "tools/check_commit_msg.py" and (REPO / hook["entry"].split()[-1]).is_file()


def test_the_root_pre_commit_config_is_no_filing_and_no_casino_audit_config(tmp_path):
    """A walk of the repository's root passes over it (a hidden entry), as it does .pre-commit-hooks.yaml; it is
    not a name config discovery reads or refuses."""
    from casino_audit.run.config import DEFAULT_NAMES, MISSPELT_NAMES
    assert ".pre-commit-config.yaml" not in DEFAULT_NAMES + MISSPELT_NAMES
    root = tmp_path / "repo"
    (root / "filings").mkdir(parents=True)
    (root / ".git").mkdir()  # config discovery stops here
    (root / ".pre-commit-config.yaml").write_bytes((REPO / ".pre-commit-config.yaml").read_bytes())
    (root / "filings" / "machine.yaml").write_bytes((REPO / "examples/lu/machine-compliant.yaml").read_bytes())
    done = run_in_process("check", ".", "--format", "json", "--param", "slot_stake_minimum_eur=0.50",
                          "--param", "slot_stake_maximum_eur=10", cwd=root)
    report = json.loads(done.stdout)
    assert done.returncode == 0, done.stdout
    assert not any(".pre-commit-config" in (f["file"] or "") for f in report["findings"])
    [listed] = [f for f in report["files"] if f["path"].endswith(".pre-commit-config.yaml")]
    assert listed["status"] == "skipped" and listed["reason"].startswith("hidden")
