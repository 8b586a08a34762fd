"""A report rendered in memory for the report tests: the context it is written with, and its text in a format."""

from casino_audit.core.findings import Severity
from casino_audit.law.provenance import in_use
from casino_audit.law.rulesets import load_builtin
from casino_audit.report import ReportContext, reporter
import re


def context_for(fail_on=Severity.ERROR, settings=(), rulesets=("lu",)):
    return ReportContext(fail_on, in_use({code.upper(): load_builtin(code) for code in rulesets}),
                         list(settings))


def render(result, context, name: str) -> str:
    from io import StringIO

    stream = StringIO()
    reporter(name)(result, context, stream)
    return stream.getvalue()


def github_annotations(text: str) -> list[tuple[str, dict, str]]:
    out = []
    for line in text.splitlines():
        match = re.match(r"::(error|warning|notice) (.*?)::(.*)$", line)
        if match:
            properties = dict(part.split("=", 1) for part in match.group(2).split(","))
            properties = {name: unescape_property(value) for name, value in properties.items()}
            out.append((match.group(1), properties, unescape_property(match.group(3))))
    return out


def unescape_property(text: str) -> str:
    for escaped, char in (("%3A", ":"), ("%2C", ","), ("%0D", "\r"), ("%0A", "\n"), ("%25", "%")):
        text = text.replace(escaped, char)
    return text
