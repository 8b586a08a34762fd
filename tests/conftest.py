import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent / "hostile"))
import background  # noqa: E402
import worst  # noqa: E402
from helpers.command import run_in_process  # noqa: E402


# Hypothesis's deadline is a timed test: on two shared cores an example now and then takes longer than 200 ms and
# the test fails for the machine's load, not the code's (seen on test_provisions' property test).
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


@pytest.fixture
def cli():
    return run_in_process


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
    items.sort(key=lambda item: item.module.__name__ == "hostile.test_cost")
