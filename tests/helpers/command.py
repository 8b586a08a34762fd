"""What most tests share: the repository's paths, the command run in this process or as a user runs it, and the
stand-ins for the values ministers' orders fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


REPO = Path(__file__).resolve().parents[2]


EXAMPLES = REPO / "examples"


# Stand-ins for the values ministers' orders fix.
TEST_PARAMS = {"slot_stake_minimum_eur": "0.50", "slot_stake_maximum_eur": "10", "roulette_stake_minimum_eur": "5",
               "blackjack_stake_minimum_eur": "10", "english_roulette_stake_minimum_eur": "2",
               "punto_banco_stake_minimum_eur": "20", "punto_banco_minimum_floor_eur": "0.50",
               "punto_banco_minimum_multiple_eur": "20",
               "stud_poker_stake_minimum_eur": "5"}


def without_par(text: str) -> str:
    """A machine file's text without its PAR data (`par:` comes last): the declared figures alone are what the
    test is about."""
    return text[:text.index("\npar:\n") + 1]


def run_cli(*args: str, cwd: Path = REPO, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The real command, as a user runs it."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    env.pop("GITHUB_ACTIONS", None)  # the default format is github there; tests name it when they want it
    return subprocess.run([sys.executable, "-m", "casino_audit", *args], cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=True, timeout=120)


@dataclass
class Done:
    """What a run left: the same three fields as subprocess.CompletedProcess."""
    returncode: int
    stdout: str
    stderr: str


def run_in_process(*args: str, cwd: Path = REPO, stdin: str | None = None, env: dict | None = None) -> Done:
    """The command run in this process (typer's CliRunner): fast; the process boundary is tested apart.
    `env` sets (None: unsets) environment variables, GITHUB_ACTIONS unset unless it says."""
    from typer.testing import CliRunner

    from casino_audit.cli import app

    previous = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), input=stdin, env={"NO_COLOR": "1", "COLUMNS": "200",
                                                                       "GITHUB_ACTIONS": None, **(env or {})},
                                    prog_name="casino-audit", catch_exceptions=False)
    finally:
        os.chdir(previous)
    return Done(result.exit_code, result.stdout, result.stderr)


def log_findings(cli, directory: Path, records: list, *args: str) -> list[dict]:
    """The JSON report's findings for a JSON Lines log of `records` written in `directory` and checked with `args`."""
    path = directory / "log.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), "utf-8")
    done = cli("check", str(path), "--format", "json", *args)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)["findings"]


def report(cli, *args, cwd=None):
    done = cli("check", *args, "--format", "json", **({"cwd": cwd} if cwd else {}))
    return done, (json.loads(done.stdout) if done.stdout.strip().startswith("{") else None)
