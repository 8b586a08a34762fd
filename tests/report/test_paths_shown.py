"""The paths a report names (issue 24): no `./` from a walk of `.`, a file given by its absolute path under the
working directory named relative to it, a built-in ruleset as `lu.yaml (built-in, casino-audit VERSION)`; no
format carries the absolute path of the machine the check ran on (SARIF's %SRCROOT% has no uri)."""

from __future__ import annotations

import json
import shutil

import pytest

from casino_audit import __version__
from casino_audit.core.display import shown_path
from helpers.command import EXAMPLES, run_in_process

FORMATS = ["rich", "json", "sarif", "github", "junit", "markdown"]


@pytest.fixture
def here(tmp_path):
    shutil.copy(EXAMPLES / "lu" / "machine-rtp-below-85.yaml", tmp_path / "machine.yaml")
    return tmp_path


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("given", [".", "./machine.yaml", "ABSOLUTE"])
def test_no_format_names_a_dot_slash_or_the_machines_absolute_path(here, fmt, given):
    path = str(here / "machine.yaml") if given == "ABSOLUTE" else given
    done = run_in_process("check", path, "--format", fmt, cwd=here)
    assert done.returncode == 1, done.stderr
    assert str(here) not in done.stdout and "./machine.yaml" not in done.stdout
    assert "machine.yaml" in done.stdout
    assert "/work/" not in done.stdout and "rulesets/lu.yaml" not in done.stdout


def test_the_json_report_names_the_file_and_the_built_in_ruleset_as_shown(here):
    done = run_in_process("check", str(here / "machine.yaml"), "--format", "json", cwd=here)
    report = json.loads(done.stdout)
    assert [f["path"] for f in report["files"]] == ["machine.yaml"]
    assert {f["file"] for f in report["findings"] if f["file"]} == {"machine.yaml"}
    assert report["rulesets"][0]["files"][0]["path"] == f"lu.yaml (built-in, casino-audit {__version__})"


@pytest.mark.parametrize("raw, shown", [("./a.yaml", "a.yaml"), ("././a.yaml", "a.yaml"), (".//a.yaml", "a.yaml"),
                                        ("../a.yaml", "../a.yaml"), ("a/../b.yaml", "a/../b.yaml"), (".", "."),
                                        ("./", "./"), ("/elsewhere/a.yaml", "/elsewhere/a.yaml")])
def test_shown_path_changes_only_the_text_never_the_file_named(raw, shown):
    assert shown_path(raw) == shown
