"""The GitHub Action (action.yml): its metadata as GitHub reads it, expressions that name what exists, inputs
that reach the shell only through quoted environment variables, and the check step's script run as a runner
runs it (bash -eo pipefail, $GITHUB_OUTPUT), with casino-audit from this checkout in place of the installed one.
"""

import json
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from casino_audit.report import FORMAT_NAMES
from helpers.command import EXAMPLES, REPO
from helpers.action import ACTION, EXPRESSION, NAME, STEPS, run_check_step


# The metadata syntax of composite actions (docs.github.com, "Metadata syntax for GitHub Actions"; the
# SchemaStore github-action.json schema says the same): keys allowed at each level, and the required ones.
TOP_KEYS, TOP_REQUIRED = {"name", "author", "description", "inputs", "outputs", "runs", "branding"}, \
    {"name", "description", "runs"}
INPUT_KEYS = {"description", "required", "default", "deprecationMessage"}
STEP_KEYS = {"run", "shell", "uses", "with", "name", "id", "if", "env", "continue-on-error", "working-directory"}


def strings(value, where=""):
    """Every string of the action with where it is, keys included."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key, f"{where}/{key} (key)")
            yield from strings(item, f"{where}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from strings(item, f"{where}/{index}")
    elif isinstance(value, str):
        yield where, value


def test_metadata_is_a_composite_action_github_reads():
    assert TOP_REQUIRED <= set(ACTION) <= TOP_KEYS
    assert set(ACTION["inputs"]) == {"paths", "jurisdiction", "config", "format", "sarif-file", "fail-on", "params",
                                     "python-version"}
    for name, spec in ACTION["inputs"].items():
        assert re.fullmatch(NAME, name) and set(spec) <= INPUT_KEYS and isinstance(spec["description"], str), name
        assert isinstance(spec.get("default", ""), str), f"{name}: a default is a string (YAML 1.1 reads 3.10 as 3.1)"
        assert spec.get("required") is False, f"{name}: every input has a default"
    assert set(ACTION["outputs"]) == {"exit-code", "verdict"}
    for name, spec in ACTION["outputs"].items():
        assert set(spec) == {"description", "value"}, name
    assert ACTION["runs"]["using"] == "composite" and set(ACTION["runs"]) == {"using", "steps"}
    ids = [step["id"] for step in STEPS if "id" in step]
    assert len(ids) == len(set(ids))
    for step in STEPS:
        assert set(step) <= STEP_KEYS, step
        assert ("uses" in step) != ("run" in step), step
        if "run" in step:
            assert step["shell"] == "bash", "bash runs on every runner, Windows included"
        assert all(isinstance(value, str) for value in step.get("env", {}).values())
    assert ACTION["inputs"]["paths"]["default"] == "."


def test_every_expression_names_a_declared_input_or_an_earlier_step_output():
    written = {}  # step id -> the outputs its script writes
    for step in STEPS:
        if "id" in step:
            written[step["id"]] = set(re.findall(r'echo "(' + NAME + r')=[^"]*" >> "\$GITHUB_OUTPUT"',
                                                 step.get("run", "")))
    seen = 0
    for where, text in strings(ACTION):
        expressions = EXPRESSION.findall(text)
        if where.endswith("/if"):  # `if:` is an expression without ${{ }}
            expressions.append(text)
        for expression in expressions:
            for name in re.findall(r"\binputs\.(" + NAME + ")", expression):
                assert name in ACTION["inputs"], f"{where}: inputs.{name} is not declared"
                seen += 1
            for step_id, output in re.findall(r"\bsteps\.(" + NAME + r")\.outputs\.(" + NAME + ")", expression):
                assert output in written.get(step_id, ()), f"{where}: steps.{step_id}.outputs.{output} is never set"
                seen += 1
            rest = re.sub(r"\b(inputs|steps)\.[\w.-]+|!=|''|\s", "", expression)
            assert not rest, f"{where}: an expression of another kind, {expression!r}: check it and this test"
    used = {m for _, text in strings(ACTION) for m in re.findall(r"\binputs\.(" + NAME + ")", text)}
    assert used == set(ACTION["inputs"]), "an input declared and never used"
    assert seen > len(ACTION["inputs"])


def unquoted_variables(script: str, names: set[str]) -> list[str]:
    """The expansions of these variables outside double quotes (where the shell would split and glob them)."""
    found, quoted, single = [], False, False
    for index, char in enumerate(script):
        if char == "\\" and not single:
            continue
        if char == '"' and not single and script[index - 1:index] != "\\":
            quoted = not quoted
        elif char == "'" and not quoted:
            single = not single
        elif char == "$" and not quoted and not single:
            match = re.match(r"\{?([A-Za-z_][A-Za-z0-9_]*)", script[index + 1:])
            if match and match.group(1) in names:
                found.append(match.group(1))
    return found


def test_unquoted_variable_finder_bites():
    assert unquoted_variables('a "$X" b $Y "${X%y}" ${X}', {"X", "Y"}) == ["Y", "X"]
    assert unquoted_variables("echo '$X' \"$X\"", {"X"}) == []


def test_inputs_reach_the_shell_only_through_quoted_environment_variables():
    """GitHub pastes ${{ }} into a script before the shell reads it: an input like `$(curl ...)` would run.
    Through env: it is a value the shell never parses; quoted, it is never split or globbed."""
    for step in STEPS:
        script = step.get("run", "")
        assert "${{" not in script, f"step {step.get('name')}: an expression pasted into its script"
        env = step.get("env", {})
        for name, value in env.items():
            assert EXPRESSION.fullmatch(value.strip()), f"{name}: one expression, nothing around it"
        runner = {"GITHUB_OUTPUT", "GITHUB_ACTION_PATH", "RUNNER_TEMP"}
        assert not unquoted_variables(script, set(env) | runner), step.get("name")
        for name in env:
            assert f'"${name}"' in script, f"{name} is set and never read"


def report_in_log(stdout: str) -> str:
    """The report a step printed, without the `::stop-commands::TOKEN` and `::TOKEN::` lines around it."""
    lines = stdout.splitlines(keepends=True)
    if lines and lines[0].startswith("::stop-commands::"):
        token = lines[0].removeprefix("::stop-commands::").strip()
        assert lines[-1] == f"::{token}::\n"
        lines = lines[1:-1]
    return "".join(lines)


@pytest.fixture
def workspace(tmp_path):
    root = tmp_path / "workspace"
    (root / "my filings").mkdir(parents=True)
    shutil.copy(EXAMPLES / "lu" / "machine-compliant.yaml", root / "my filings")
    (root / "other").mkdir()
    shutil.copy(EXAMPLES / "lu" / "machine-rtp-below-85.yaml", root / "other")
    return root


def test_the_check_step_passes_every_input_as_one_argument(workspace):
    (workspace / "ci config.yaml").write_text("max_per_rule: 5\n")
    done, outputs = run_check_step(workspace, {
        "paths": "  my filings/\n\nother/machine-rtp-below-85.yaml  \r\n", "jurisdiction": "LU",
        "config": "ci config.yaml", "format": "json", "fail-on": "warning",
        "params": "slot_stake_minimum_eur=0.50\n  slot_stake_maximum_eur=10\n"})
    assert (done.returncode, outputs) == (1, {"exit-code": "1", "verdict": "failed"}), done.stderr
    report = json.loads(report_in_log(done.stdout))
    assert [f["path"] for f in report["files"]] == ["my filings/machine-compliant.yaml",
                                                    "other/machine-rtp-below-85.yaml"]
    assert {f["rule_id"] for f in report["findings"] if f["severity"] != "info"} == {"LU-SLOT-RTP-MIN"}  # a machine file without PAR data also says, as info, that its return was not computed from them
    settings = {s["name"]: (s["value"], s["source"]) for s in report["settings"]}
    assert settings["jurisdiction_override"] == ("LU", "option --jurisdiction")
    assert settings["fail_on"] == ("warning", "option --fail-on")
    assert settings["params"] == ({"slot_stake_minimum_eur": "0.50", "slot_stake_maximum_eur": "10"}, "option --param")
    assert settings["max_per_rule"][1] == "config ci config.yaml"


def test_input_text_is_never_run_by_the_shell(workspace):
    attempt = '$(touch pwned)\n`touch pwned`\n"; touch pwned; echo "\n-o pwned\n*'
    done, outputs = run_check_step(workspace, {"paths": attempt, "params": "x=$(touch pwned)", "format": "json",
                                               "config": "$(touch pwned)", "jurisdiction": "LU; touch pwned"})
    assert outputs == {"exit-code": "2", "verdict": "error"}, done.stderr
    assert done.returncode == 2 and not (workspace / "pwned").exists()
    assert sorted(p.name for p in workspace.iterdir()) == ["my filings", "other"]


def test_no_path_is_a_usage_error_said_as_an_annotation(workspace):
    done, outputs = run_check_step(workspace, {"paths": " \n", "format": "json"})
    assert outputs["verdict"] == "error" and done.returncode == 2
    assert "::error title=casino-audit::the paths input names no file or directory" in done.stdout


def test_the_default_inputs_check_the_workspace_in_the_github_format(workspace):
    if ACTION["inputs"]["format"]["default"] not in FORMAT_NAMES:
        pytest.skip("the github report format is not in this branch (it comes with the report formats)")
    (workspace / "other" / "machine-rtp-below-85.yaml").unlink()
    done, outputs = run_check_step(workspace, {})
    assert outputs == {"exit-code": "0", "verdict": "passed"}, done.stdout + done.stderr


def test_a_sarif_file_is_written_beside_the_log_format(workspace):
    if "sarif" not in FORMAT_NAMES:
        pytest.skip("the sarif report format is not in this branch (it comes with the report formats)")
    done, outputs = run_check_step(workspace, {"sarif-file": "casino-audit.sarif", "format": "json"})
    assert outputs["verdict"] == "failed", done.stderr
    assert {f["rule_id"] for f in json.loads(report_in_log(done.stdout))["findings"]
            if f["file"] and f["severity"] != "info"} == {"LU-SLOT-RTP-MIN"}  # a machine file without PAR data also says, as info, that its return was not computed from them
    sarif = json.loads((workspace / "casino-audit.sarif").read_text("utf-8"))
    assert sarif["version"] == "2.1.0"
    assert [r["ruleId"] for r in sarif["runs"][0]["results"] if r["ruleId"] == "LU-SLOT-RTP-MIN"]


def test_the_readme_workflow_uses_the_action_as_declared():
    blocks = re.findall(r"```yaml\n(# \.github/workflows/.*?)```", (REPO / "docs/how-to/ci-gate.md").read_text("utf-8"), re.S)
    assert len(blocks) == 1
    steps = yaml.safe_load(blocks[0])["jobs"]["casino-audit"]["steps"]
    [audit] = [step for step in steps if step.get("uses", "").startswith("OWNER/casino-audit@")]
    assert set(audit["with"]) <= set(ACTION["inputs"])
    [upload] = [step for step in steps if step.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    assert upload["with"]["sarif_file"] == audit["with"]["sarif-file"]
    assert "!cancelled()" in upload["if"]  # the findings of a failed audit are uploaded too
