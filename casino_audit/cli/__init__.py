"""Command line: casino-audit check | rules list | rules explain | rulesets validate | schema | edge | rtp |
sample-log | sample-meters.

Each command module registers its commands on `app` when imported, in the order `--help` lists them. A
pre-commit hook starts this tool for a handful of files on every commit, and `--help` should not pay for
rulesets, schemas and validators: the command modules import at their top only what naming the commands and
options needs, the rest where a command runs (`checking.py` for `check`).
"""

from __future__ import annotations

from casino_audit.cli.apps import app
from casino_audit.cli import check, tools, samples, rules  # noqa: F401 - registering their commands, in this order

__all__ = ["app", "main"]


def main() -> None:
    app(prog_name="casino-audit")
