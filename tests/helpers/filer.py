"""The command run as a filer or a hostile dossier would run it, in a temporary working directory (so no
casino-audit.yaml is picked up by accident), on files written to tmp_path."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.command import EXAMPLES, run_in_process


def run(*args: str, cwd: Path):
    return run_in_process(*args, cwd=cwd)


def report_of(*args: str, cwd: Path):
    done = run("check", *args, "--format", "json", cwd=cwd)
    return done, json.loads(done.stdout)


def ids(report: dict) -> set[str]:
    return {finding["rule_id"] for finding in report["findings"]}


def example(relative: str) -> str:
    return (EXAMPLES / relative).read_text("utf-8")
