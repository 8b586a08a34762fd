"""A report rendered in memory for the report tests: the context it is written with, and its text in a format."""

from casino_audit.core.findings import Severity
from casino_audit.law.provenance import in_use
from casino_audit.law.rulesets import load_builtin
from casino_audit.report import ReportContext, reporter


def context_for(fail_on=Severity.ERROR, settings=(), rulesets=("lu",)):
    return ReportContext(fail_on, in_use({code.upper(): load_builtin(code) for code in rulesets}),
                         list(settings))


def render(result, context, name: str) -> str:
    from io import StringIO

    stream = StringIO()
    reporter(name)(result, context, stream)
    return stream.getvalue()
