"""A compliant example edited and checked through the real pipeline: the findings, or their rule ids, the
law's readings give it."""

from casino_audit.core.findings import Severity
from casino_audit.law.engine import Checker
from casino_audit.law.rulesets import builtin_names, load_builtin
from casino_audit.run.pipeline import run
from helpers.command import EXAMPLES, TEST_PARAMS


RULESETS = {rs.code: rs for rs in (load_builtin(name) for name in builtin_names())}


def checker() -> Checker:
    values = {code: {name: rs.params[name].parse(value) for name, value in TEST_PARAMS.items() if name in rs.params}
              for code, rs in RULESETS.items()}
    return Checker(RULESETS, values)


def filing(tmp_path, example: str, edits=()) -> str:
    text = (EXAMPLES / example).read_text("utf-8")
    for old, new in edits:
        assert text.count(old) == 1, (example, old)
        text = text.replace(old, new)
    path = tmp_path / "filing.yaml"
    path.write_text(text, "utf-8")
    return str(path)


def findings(tmp_path, example: str, edits=()):
    return [f for f in run([filing(tmp_path, example, edits)], checker()).findings if f.severity != Severity.INFO]


def ids(tmp_path, example: str, edits=()) -> set[str]:
    return {f.rule_id for f in findings(tmp_path, example, edits)}
