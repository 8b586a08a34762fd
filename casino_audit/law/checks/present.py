"""`kind: present`: each target is given and not empty (no null, blank text, empty list or mapping)."""

from __future__ import annotations

from casino_audit.law.checks.common import CompiledCheck, check_schema, compiled_targets, judging, name, names, target_list
from casino_audit.core.pointers import MISSING

NAME = "present"
PARAMETERS = check_schema(NAME, {})


def targets(spec):
    return target_list((spec["target"], None))


def compile(spec) -> CompiledCheck:
    return judging(compiled_targets(spec), _judge)


def _judge(pointer: str, value) -> tuple[str, str] | None:
    if value is MISSING:
        return pointer, f"`{name(pointer)}` is missing"
    if value is None or value == "" or value == [] or value == {} or (isinstance(value, str) and not value.strip()):
        return pointer, f"`{name(pointer)}` is empty"
    return None


def describe(spec) -> str:
    return f"{names(spec['target'])} must be given and not empty"


EXAMPLES = [
    ({"kind": NAME, "target": ["/conformity_certificate/body", "/conformity_certificate/number"]},
     {"conformity_certificate": {"body": "GLI", "number": "LU-1"}}, {"conformity_certificate": {"body": " "}},
     [("/conformity_certificate/body", "`conformity_certificate/body` is empty"),
      ("/conformity_certificate/number", "`conformity_certificate/number` is missing")]),
]
