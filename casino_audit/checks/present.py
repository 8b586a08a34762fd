"""`kind: present`: each target is given and not empty (no null, blank text, empty list or mapping)."""

from __future__ import annotations

from casino_audit.checks.common import CompiledCheck, check_schema, compiled_targets, name, names, reached, target_list
from casino_audit.pointers import MISSING

NAME = "present"
PARAMETERS = check_schema(NAME, {})


def targets(spec):
    return target_list((spec["target"], None))


def compile(spec) -> CompiledCheck:
    compiled = compiled_targets(spec)

    def check(data):  # a list, or one value at a time where a wildcard may reach many
        return _judged(data) if compiled.plain else _judged_each(data)

    def _judged(data):
        return [found for found in map(_judge, reached(data, compiled)) if found is not None]

    def _judged_each(data):
        for reading in reached(data, compiled):
            found = _judge(reading)
            if found is not None:
                yield found
    return check


def _judge(reading) -> tuple[str, str] | None:
    pointer, value = reading
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
