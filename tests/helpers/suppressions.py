"""The command run with waivers and baselines: its JSON report read back (None when it wrote none), and the
command run in a working directory tests may move."""

from __future__ import annotations

import json
from pathlib import Path


REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "lu"


def run_json(cli, *args):
    done = cli("check", *args, "--format", "json")
    try:
        return done, json.loads(done.stdout)
    except ValueError:
        return done, None


class Place:
    """The command run in a directory that tests may move (a user's working directory)."""

    def __init__(self, run, cwd: Path):
        self.run, self.cwd = run, cwd

    def __call__(self, *args):
        return self.run(*args, cwd=self.cwd)
