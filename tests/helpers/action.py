"""The GitHub Action's metadata (action.yml) and its check step's script run as the runner runs it."""

import re
import subprocess
import sys

import yaml

from helpers.command import REPO


ACTION = yaml.safe_load((REPO / "action.yml").read_text("utf-8"))
STEPS = ACTION["runs"]["steps"]
EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.S)
NAME = r"[A-Za-z_][A-Za-z0-9_-]*"


def run_check_step(cwd, inputs: dict[str, str]):
    """The check step's script as a runner runs it: its env: evaluated from the inputs (defaults for the rest),
    `bash --noprofile --norc -eo pipefail`, outputs read back from $GITHUB_OUTPUT."""
    [step] = [s for s in STEPS if s.get("id") == "check"]
    values = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()} | inputs
    shim = cwd.parent / "bin" / "casino-audit"  # the installed command, replaced by this checkout's
    shim.parent.mkdir(exist_ok=True)
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m casino_audit "$@"\n')
    shim.chmod(0o755)
    outputs = {"install": {"executable": str(shim)}}

    def evaluate(expression: str) -> str:
        inner = EXPRESSION.fullmatch(expression.strip()).group(1).strip()
        if match := re.fullmatch(r"inputs\.(" + NAME + ")", inner):
            return values[match.group(1)]
        step_id, output = re.fullmatch(r"steps\.(" + NAME + r")\.outputs\.(" + NAME + ")", inner).groups()
        return outputs[step_id][output]

    github_output = cwd.parent / "github-output"
    github_output.write_text("")
    script = cwd.parent / "step.sh"
    script.write_text(step["run"])
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd.parent), "CI": "true", "GITHUB_ACTIONS": "true",
           "GITHUB_OUTPUT": str(github_output), "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "200",
           **{name: evaluate(value) for name, value in step["env"].items()}}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)
    written = dict(line.split("=", 1) for line in github_output.read_text().splitlines())
    return done, written
