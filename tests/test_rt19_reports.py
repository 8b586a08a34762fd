"""Red-team session 19 (reports): report formats and CI integration, each bug found kept as a test."""

import json
from collections import Counter

import pytest

from casino_audit.findings import Finding, Severity
from casino_audit.results import FileRecord, FindingSink, Omitted, RunResult
from casino_audit.settings import Setting
from test_reports import context_for, render

# The commands the Actions runner registers (ActionCommandManager): a legacy `##[name]` is read anywhere in a
# line, a `::name` at its start (after blanks).
RUNNER_COMMANDS = ("error", "warning", "notice", "debug", "group", "endgroup", "add-mask", "stop-commands",
                   "set-output", "set-env", "save-state", "add-path", "add-matcher", "remove-matcher", "echo")


def runner_commands(log: str) -> list[tuple[str, str]]:
    """(command, line) for every line of a log the GitHub Actions runner would take as a workflow command."""
    found = []
    for line in log.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("::"):
            name = stripped[2:].split("::", 1)[0].split(" ", 1)[0].lower()
            if name in RUNNER_COMMANDS:
                found.append((name, line))
                continue
        start = line.find("##[")
        while start >= 0:
            end = line.find("]", start)
            if end < 0:
                break
            name = line[start + 3:end].split(" ", 1)[0].lower()
            if name in RUNNER_COMMANDS:
                found.append((name, line))
                break
            start = line.find("##[", start + 1)
    return found


LEGACY = "filings/##[error]forged PASSED ##[stop-commands]tok ##[add-mask]casino-audit.yaml"


def test_github_report_lines_hold_no_legacy_workflow_command_from_a_file_name():
    sink = FindingSink(1)
    for line in (3, 4):
        sink.add(Finding("LU-SLOT-RTP-MIN", Severity.ERROR, "below ##[warning]x", LEGACY, line, 1))
    result = RunResult(files=[FileRecord(LEGACY, "checked", 1)], findings=sink.kept, totals=sink.totals,
                       omitted=sink.omitted())
    context = context_for(settings=[Setting("max_per_rule", 1, f"config {LEGACY}")])
    log = render(result, context, "github")
    commands = runner_commands(log)
    # our own annotation and group commands only: the file name's ##[error] and ##[stop-commands] are no command
    assert [name for name, _ in commands] == ["error", "group", "endgroup"], commands
    assert "casino-audit: filings/#\\x23[error]forged" in log  # the omitted line still names the file


def test_a_waivers_glob_covers_no_file_outside_its_config_directory(tmp_path):
    from datetime import date

    from casino_audit.suppressions import Suppressor, Waiver

    config = tmp_path / "casino-a" / "casino-audit.yaml"
    waiver = Waiver("LU-SLOT-RTP-MIN", "**/*.yaml", None, "trial for casino A", "Ministère", "D-1",
                    date(2099, 1, 1), str(config), 2, 5, "/waivers/0")
    suppressor = Suppressor([waiver])
    inside = tmp_path / "casino-a" / "filings" / "a.yaml"
    outside = tmp_path / "casino-b" / "b.yaml"  # `../casino-b/b.yaml` from the config
    for path, covered in ((inside, True), (outside, False)):
        finding = Finding("LU-SLOT-RTP-MIN", Severity.ERROR, "below 85 %", str(path), 3, 1, "/redistribution_rate")
        assert suppressor.may_match(str(path), "LU-SLOT-RTP-MIN") is covered, path
        assert (suppressor.match(finding) is not None) is covered, path
    star = Waiver("LU-SLOT-RTP-MIN", "*/*.yaml", None, "x", "y", "z", date(2099, 1, 1), str(config), 2, 5,
                  "/waivers/1")
    assert Suppressor([star]).match(Finding("LU-SLOT-RTP-MIN", Severity.ERROR, "m", str(outside))) is None
