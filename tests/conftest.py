import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent / "hostile"))
import background  # noqa: E402
import worst  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
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


# Hypothesis's deadline is a timed test: on two shared cores an example now and then takes longer than 200 ms and
# the test fails for the machine's load, not the code's (seen on test_provisions' property test).
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


@pytest.fixture
def cli():
    return run_in_process


def log_findings(cli, directory: Path, records: list, *args: str) -> list[dict]:
    """The JSON report's findings for a JSON Lines log of `records` written in `directory` and checked with `args`."""
    path = directory / "log.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), "utf-8")
    done = cli("check", str(path), "--format", "json", *args)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)["findings"]


def pytest_configure(config):
    """The worst-case cost measures (tests/hostile/background.py) start with the session, in the one process that
    is not an xdist worker; the workers inherit where the results will be."""
    if hasattr(config, "workerinput") or os.environ.get(background.ENV) or not background.wanted(config):
        return
    config.worst_cases = background.Measurer(worst.CASES)
    os.environ[background.ENV] = str(config.worst_cases.directory)


def pytest_unconfigure(config):
    measurer = getattr(config, "worst_cases", None)
    if measurer is not None:
        measurer.stop()
        os.environ.pop(background.ENV, None)


def pytest_collection_modifyitems(items):
    """The tests that wait for the worst-case measures go last, so the rest of the suite runs meanwhile."""
    items.sort(key=lambda item: item.module.__name__ == "test_hostile_cost")
