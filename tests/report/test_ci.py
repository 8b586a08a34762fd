"""Reports as CI reads them (the GitHub format, the Action's output, waived findings counted in every format),
each bug found kept as a test."""

import json
from collections import Counter

import pytest

from casino_audit.core.findings import Finding, Severity
from casino_audit.core.results import FileRecord, FindingSink, Omitted, RunResult
from casino_audit.run.settings import Setting
from helpers.reports import context_for, render

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

    from casino_audit.run.suppressions import Suppressor, Waiver

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


def capped_waived_run():
    """One file, one rule: 1 finding waived and 2 that count, 3 waived in all, capped at 1 a kind (the sink caps
    the findings that count and those waived apart)."""
    from datetime import date

    from casino_audit.run.suppressions import Suppressor, Waiver

    path = "filings/a.yaml"
    waiver = Waiver("LU-SLOT-RTP-MIN", "filings/a.yaml", "/w", "trial", "Ministère", "D-1", date(2099, 1, 1),
                    "casino-audit.yaml", 2, 5, "/waivers/0")
    sink = FindingSink(1, Suppressor([waiver]))
    for line, pointer in ((1, "/w/1"), (2, "/c/1"), (3, "/w/2"), (4, "/c/2"), (5, "/w/3")):
        sink.add(Finding("LU-SLOT-RTP-MIN", Severity.ERROR, f"below 85 % at {pointer}", path, line, 1, pointer,
                         0, "LU"))
    return RunResult(files=[FileRecord(path, "checked", 1)], findings=sink.kept, totals=sink.totals,
                     suppressed=sink.suppressed, omitted=sink.omitted(), applied=["LU-SLOT-RTP-MIN"])


def test_findings_not_listed_say_whether_they_are_waived_in_every_format():
    result = capped_waived_run()
    assert [(o.total, o.shown, o.suppression) for o in result.omitted] == [(2, 1, None), (3, 1, "waiver")]
    context = context_for()
    report = json.loads(render(result, context, "json"))
    assert report["summary"]["errors"] == 2 and report["summary"]["waived"] == 3
    markdown = render(result, context, "markdown")
    assert "1 more LU-SLOT-RTP-MIN finding(s) (2 in all)" in markdown
    assert "2 more waived LU-SLOT-RTP-MIN finding(s) (3 in all)" in markdown
    github = render(result, context, "github")
    assert "1 more LU-SLOT-RTP-MIN finding(s) not listed (2 in all" in github
    assert "2 more waived LU-SLOT-RTP-MIN finding(s) not listed (3 in all" in github
    junit = render(result, context, "junit")
    assert "2 more waived LU-SLOT-RTP-MIN finding(s) in this file not listed (3 in all;" in junit
    assert 'name="omitted.filings/a.yaml.LU-SLOT-RTP-MIN.waived" value="2 of 3"' in junit
    sarif = json.loads(render(result, context, "sarif"))
    notes = [n for n in sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
             if n["descriptor"]["id"] == "findings-not-listed"]
    assert [n["properties"].get("suppression") for n in notes] == [None, "waiver"]
    assert "2 more waived LU-SLOT-RTP-MIN" in notes[1]["message"]["text"]


def test_html_counts_a_rule_and_a_file_as_the_verdict_does_when_waived_findings_are_capped():
    from casino_audit.report.html_tables import file_counts, rule_counts

    result = capped_waived_run()
    counted, suppressed = rule_counts(result)
    assert counted["LU-SLOT-RTP-MIN"] == 2 == result.summary()["errors"]  # not 2 - 1 shown waived + 2 waived
    assert suppressed["LU-SLOT-RTP-MIN"] == 3 == result.summary()["waived"]
    assert file_counts(result)["filings/a.yaml"] == 2
    page = render(result, context_for(), "html")
    assert "2 more waived <code>LU-SLOT-RTP-MIN</code> finding(s) in this file, not counted in the verdict" in page
    assert "1 more <code>LU-SLOT-RTP-MIN</code> finding(s) in this file, counted in the verdict" in page


def runner_log(log: str) -> list[tuple[str, str]]:
    """The workflow commands the runner would run from a step's log, `::stop-commands::TOKEN` honoured (nothing
    but `::TOKEN::` is a command until it comes)."""
    done, stopped = [], None
    for line in log.splitlines():
        if stopped is not None:
            if line.strip() == f"::{stopped}::":
                stopped = None
            continue
        for name, text in runner_commands(line):
            done.append((name, text))
            if name == "stop-commands":
                stopped = text.split("::stop-commands::", 1)[1] if "::stop-commands::" in text else \
                    text.split("]", 1)[1]
    return done


def test_the_action_prints_a_report_that_is_not_annotations_with_workflow_commands_off(tmp_path):
    import shutil

    from helpers.command import EXAMPLES
    from helpers.action import run_check_step

    root = tmp_path / "workspace"
    root.mkdir()
    hostile = "::error title=PASSED::all clear ##[stop-commands]x.yaml"
    shutil.copy(EXAMPLES / "lu" / "machine-rtp-below-85.yaml", root / hostile)
    for fmt in ("rich", "markdown", "json"):
        done, outputs = run_check_step(root, {"paths": hostile, "format": fmt})
        assert outputs["verdict"] == "failed", done.stdout + done.stderr
        assert "all clear" in done.stdout
        commands = runner_log(done.stdout + done.stderr)
        # only the step's own stop, then nothing of the report's: resumed by the step's token
        assert [name for name, _ in commands] == ["stop-commands"], (fmt, commands)
        assert commands[0][1].startswith("::stop-commands::casino-audit-")
    done, outputs = run_check_step(root, {"paths": hostile, "format": "github"})
    assert "error" in [name for name, _ in runner_log(done.stdout)]  # annotations stay on for github
    assert not any(text.lstrip().startswith("::error title=PASSED") for _, text in runner_log(done.stdout))
