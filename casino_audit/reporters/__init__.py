"""Reporters: one module per output format, all behind one function signature.

    report(result: RunResult, context: ReportContext, stream: TextIO) -> None

Adding a format is one new module and one line in REPORTERS.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, TextIO

from casino_audit.findings import Severity
from casino_audit.results import RunResult
from casino_audit.reporters import json_report, rich_report


@dataclass
class ReportContext:
    fail_on: Severity | None  # None: never fail
    rulesets: list = field(default_factory=list)  # provenance.RulesetInUse, one per jurisdiction
    settings: list = field(default_factory=list)  # settings.Setting: every setting not at its default, with its source
    color: bool | None = None  # None: decide from the terminal
    require_params: bool = False


Reporter = Callable[[RunResult, ReportContext, TextIO], None]

REPORTERS: dict[str, Reporter] = {
    "rich": rich_report.report,
    "json": json_report.report,
}
