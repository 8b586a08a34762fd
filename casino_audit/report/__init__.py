"""Reporters: one module per output format, all behind one function signature.

    report(result: RunResult, context: ReportContext, stream: TextIO) -> None

Adding a format is one module, its loader function and one line in REPORTERS. Modules are imported when used,
so that naming the formats (in `--help`) costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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

# Each loader imports its module when its format is asked for (start-up: --help loads no writer, rich no other).
def _rich() -> Reporter:
    from casino_audit.report.rich_report import report
    return report


def _json() -> Reporter:
    from casino_audit.report.json_report import report
    return report


def _sarif() -> Reporter:
    from casino_audit.report.sarif_report import report
    return report


def _junit() -> Reporter:
    from casino_audit.report.junit_report import report
    return report


def _github() -> Reporter:
    from casino_audit.report.github_report import report
    return report


def _markdown() -> Reporter:
    from casino_audit.report.markdown_report import report
    return report


def _html() -> Reporter:
    from casino_audit.report.html_report import report
    return report


REPORTERS: dict[str, Callable[[], Reporter]] = {  # format -> the loader of its module's `report` function
    "rich": _rich,
    "json": _json,
    "sarif": _sarif,
    "junit": _junit,
    "github": _github,
    "markdown": _markdown,
    "html": _html,
}
FORMAT_NAMES = tuple(REPORTERS)


def reporter(name: str) -> Reporter:
    return REPORTERS[name]()
