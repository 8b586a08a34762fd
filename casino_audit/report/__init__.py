"""Reporters: one module per output format, all behind one function signature.

    report(result: RunResult, context: ReportContext, stream: TextIO) -> None

Adding a format is one module and one line in REPORTERS. Modules are imported when used, so that naming the
formats (in `--help`) costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Callable, TextIO

from casino_audit.core.findings import Severity
from casino_audit.core.results import RunResult


@dataclass
class ReportContext:
    fail_on: Severity | None  # None: never fail
    rulesets: list = field(default_factory=list)  # provenance.RulesetInUse, one per jurisdiction
    settings: list = field(default_factory=list)  # settings.Setting: every setting not at its default, with its source
    color: bool | None = None  # None: decide from the terminal
    require_params: bool = False


Reporter = Callable[[RunResult, ReportContext, TextIO], None]

REPORTERS: dict[str, str] = {  # format -> module in this package with a `report` function
    "rich": "rich_report",
    "json": "json_report",
    "sarif": "sarif_report",
    "junit": "junit_report",
    "github": "github_report",
    "markdown": "markdown_report",
    "html": "html_report",
}
FORMAT_NAMES = tuple(REPORTERS)


def reporter(name: str) -> Reporter:
    return import_module(f"casino_audit.report.{REPORTERS[name]}").report
