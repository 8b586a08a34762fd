"""Rule cases: per rule, a base filing with a small patch and what the rule (and any other) must report on it.

A built-in ruleset's cases are `rulesets/cases/<name>.yaml`, keyed by rule id; the filings they patch are in
`rulesets/cases/bases/`. Both ship in the package: `rules explain` shows the cases, and the test suite runs them.

A patch is `set:` (JSON pointer -> value; a new key is added to an existing mapping, `/-` at the end of a
pointer appends to a list, and `null` is a value like any other) then `delete:` (pointers that must exist,
removed in the order listed: deleting a list item shifts the items after it). A case runs through the real
pipeline on the patched document rendered as YAML, so the cases hold rule ids and JSON pointers, never line
numbers: the rendering's lines say nothing about a filing. `render` says where it wrote each pointer, so a test
can hold each finding's line to its pointer.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

from casino_audit.core import pointers
from casino_audit.law.engine import Checker
from casino_audit.core.findings import Finding
from casino_audit.read.loader import Document, NotOneDocument, load_bytes, load_single_document
from casino_audit.run.pipeline import run
from casino_audit.law.model import Rule, Ruleset
from casino_audit.law.rulesets import builtin_names, load_builtin, rulesets_dir
from casino_audit.documents.shape import ShapeValidator

OUTCOMES = ("pass", "fail")  # what the case's own rule does on the patched document

_POINTER = {"type": "string", "pattern": "^/"}
_SCHEMA = {
    "type": "object",
    "additionalProperties": {"type": "array", "minItems": 1, "items": {
        "type": "object", "required": ["name", "base", "outcome", "expect"], "additionalProperties": False,
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "base": {"type": "string", "pattern": r"^[a-z]+/[a-z0-9-]+\.(yaml|jsonl)$"},
            "params": {"type": "object", "additionalProperties": {"type": ["string", "number"]}},
            "set": {"type": "object", "propertyNames": _POINTER},
            "delete": {"type": "array", "items": _POINTER},
            "outcome": {"enum": list(OUTCOMES)},
            "expect": {"type": "array", "items": {
                "type": "object", "required": ["id"], "additionalProperties": False,
                "properties": {"id": {"type": "string"}, "pointer": {"type": "string"}}}},
        }}},
}


class CasesError(Exception):
    """A cases file that cannot be used; `problems` are 'file:line:col: message' lines."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


class PatchError(ValueError):
    def __init__(self, pointer: str, message: str):
        super().__init__(f"{pointer}: {message}")
        self.pointer = pointer


@dataclass(frozen=True)
class Expected:
    rule_id: str
    pointer: str | None = None


@dataclass
class Case:
    rule_id: str
    name: str
    base: str  # a file under bases/, e.g. lu/machine-compliant.yaml
    outcome: str  # "pass" or "fail"
    expect: list[Expected]
    set: dict[str, Any] = field(default_factory=dict)
    delete: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)  # as written; parsed by the ruleset's Param
    source: str = ""  # file:line of the case


@dataclass
class CaseRun:
    findings: list[Finding]  # on the document; a rule not applied for want of a parameter is in not_applied
    not_applied: list[str]
    lines: dict[str, int]  # pointer -> line where the rendering wrote it


def cases_dir() -> Path:
    return rulesets_dir() / "cases"


def bases_dir() -> Path:
    return cases_dir() / "bases"


@lru_cache(maxsize=None)
def _base(name: str) -> Document:
    if is_log(name):  # a game log: its records as a list, `/0` the header, `/1` the first coup
        path = bases_dir() / name
        records = [json.loads(line, parse_float=Decimal) for line in path.read_text("utf-8").splitlines()
                   if line.strip()]
        return Document(str(path), 0, records, {})
    return load_single_document(bases_dir() / name, "a case's base filing")


def is_log(name: str) -> bool:
    return name.endswith(".jsonl")


def base_data(name: str) -> Any:
    """A fresh copy of a base filing's data."""
    return copy.deepcopy(_base(name).data)


def apply_patch(data: Any, set_values: dict[str, Any], delete: list[str]) -> Any:
    """A patched copy of `data`; PatchError names the first pointer that does not lead where it should."""
    data = copy.deepcopy(data)
    for pointer, value in set_values.items():
        parent, key = _parent(data, pointer)
        if key == "-":  # RFC 6901: the item past the end of a list
            parent.append(copy.deepcopy(value))
            continue
        if isinstance(parent, list) and key not in range(len(parent)):
            raise PatchError(pointer, f"no item {key} in a list of {len(parent)}")
        parent[key] = copy.deepcopy(value)
    for pointer in delete:
        parent, key = _parent(data, pointer)
        if key == "-" or key not in (range(len(parent)) if isinstance(parent, list) else parent):
            raise PatchError(pointer, "nothing there to delete")
        del parent[key]
    return data


def _parent(data: Any, pointer: str) -> tuple[dict | list, Any]:
    segments = pointers.split(pointer)
    if not segments:
        raise PatchError(pointer, "a patch changes a value inside the document, not the whole of it")
    parent = pointers.get(data, pointers.join(segments[:-1]))
    if isinstance(parent, dict):
        return parent, segments[-1]
    index = pointers.list_index(segments[-1])
    if isinstance(parent, list) and (index is not None or segments[-1] == "-"):
        return parent, index if index is not None else "-"
    raise PatchError(pointer, "the base has no mapping or list to hold it" if parent is pointers.MISSING
                     else "its parent is not a mapping, nor a list indexed by number")


def load_cases(ruleset: Ruleset, path: Path | None = None) -> dict[str, list[Case]]:
    """The cases of a built-in ruleset (rule id -> cases), validated: every id names a rule of the ruleset,
    every base exists, every patch applies to its base, every parameter is the ruleset's."""
    path = path or cases_dir() / f"{ruleset.name}.yaml"
    try:
        document = load_single_document(path, "a cases file")
    except NotOneDocument as error:
        raise CasesError(error.problems) from None
    problems: list[str] = []

    def problem(pointer: str, message: str) -> None:
        line, column = document.position(pointer) or (1, 1)
        problems.append(f"{document.file}:{line}:{column}: {message}")

    for _, pointer, message in ShapeValidator(_SCHEMA).errors(document.data):
        problem(pointer, message)
    if problems:
        raise CasesError(problems)
    rule_ids = {rule.id for rule in ruleset.rules}
    found: dict[str, list[Case]] = {}
    for rule_id, raw_cases in document.data.items():
        if rule_id not in rule_ids:
            problem(pointers.child("", rule_id), f"no rule {rule_id} in the {ruleset.name} ruleset")
            continue
        for number, raw in enumerate(raw_cases):
            at = f"{pointers.child('', rule_id)}/{number}"
            case = Case(rule_id, raw["name"], raw["base"], raw["outcome"],
                        [Expected(e["id"], e.get("pointer")) for e in raw["expect"]], raw.get("set", {}),
                        raw.get("delete", []), raw.get("params", {}),
                        f"{document.file}:{(document.position(at) or (1, 1))[0]}")
            _check_case(case, at, ruleset, found.get(rule_id, []), problem)
            found.setdefault(rule_id, []).append(case)
    if problems:
        raise CasesError(problems)
    return found


def _check_case(case: Case, at: str, ruleset: Ruleset, siblings: list[Case], problem) -> None:
    if any(other.name == case.name for other in siblings):
        problem(at + "/name", f"{case.rule_id} has two cases named {case.name!r}")
    if (case.outcome == "fail") != any(e.rule_id == case.rule_id for e in case.expect):
        problem(at + "/outcome", f"a case that {case.outcome}s {'must' if case.outcome == 'fail' else 'cannot'} "
                                 f"expect {case.rule_id}")
    for name, value in case.params.items():
        if name not in ruleset.params:
            problem(f"{at}/params/{pointers.escape(name)}", f"no parameter {name} in the {ruleset.name} ruleset")
            continue
        try:
            ruleset.params[name].parse(value)
        except ValueError as error:
            problem(f"{at}/params/{pointers.escape(name)}", str(error))
    if not (bases_dir() / case.base).is_file():
        problem(at + "/base", f"no base filing {case.base} in {bases_dir()}")
        return
    try:
        apply_patch(_base(case.base).data, case.set, [])
    except PatchError as error:
        problem(f"{at}/set/{pointers.escape(error.pointer)}", f"{error}")
        return
    for number in range(len(case.delete)):
        try:
            apply_patch(_base(case.base).data, case.set, case.delete[:number + 1])
        except PatchError as error:
            problem(f"{at}/delete/{number}", f"{error}")
            return


def builtin_of(rule: Rule) -> Ruleset | None:
    """The built-in ruleset that defines this very rule; None for a rule a house ruleset defines or replaces
    (the law's cases do not describe it)."""
    for name in builtin_names():
        builtin = load_builtin(name)
        if builtin.code == rule.jurisdiction and rule in builtin.rules:
            return builtin
    return None


def run_case(case: Case, ruleset: Ruleset) -> CaseRun:
    """The findings of the ruleset (with the case's parameters) on the patched base, through the pipeline."""
    data = apply_patch(base_data(case.base), case.set, case.delete)
    text, lines = render(data)

    def loader(path: str):  # the patched document stands in for its base file
        loaded = load_bytes(text.encode("utf-8"), path)
        if [_canonical(d.data) for d in loaded.documents] != [_canonical(data)]:
            raise ValueError(f"the rendering of case {case.name!r} does not read back as the patched data")
        return loaded

    values = {name: ruleset.params[name].parse(value) for name, value in case.params.items()}
    if is_log(case.base):
        return _run_log_case(case, ruleset, data, values)
    result = run([str(bases_dir() / case.base)], Checker({ruleset.code: ruleset}, {ruleset.code: values}),
                 loader=loader)
    return CaseRun([f for f in result.findings if f.file is not None], result.not_applied, lines)


def _run_log_case(case: Case, ruleset: Ruleset, records: list, values: dict) -> CaseRun:
    """A game log case: the patched records written as JSON Lines where the log is read from; a finding's pointer
    is given from the log's top, `/2/bets/0/net` for coup record 2 (the header is record 0)."""
    text, lines = render_log(records)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / Path(case.base).name
        path.write_text(text, encoding="utf-8")
        header = records[0] if records and isinstance(records[0], dict) else {}
        own = header.get("machines") if isinstance(header.get("machines"), dict) else {}
        for named in (header.get("table_config"), header.get("machine"),
                      *(entry.get("machine") for entry in own.values() if isinstance(entry, dict))):
            if isinstance(named, str) and "/" not in named and \
                    (bases_dir() / Path(case.base).parent / named).is_file():
                # the table configuration (a meter log: the homologation files, the log's and each machine's) the
                # header names is read beside the log, as it is beside the base
                shutil.copy(bases_dir() / Path(case.base).parent / named, Path(directory) / named)
        result = run([str(path)], Checker({ruleset.code: ruleset}, {ruleset.code: values}))
    findings = []
    for finding in result.findings:
        if finding.file is not None:
            finding.pointer = f"/{finding.document or 0}{finding.pointer or ''}"
            finding.file = str(bases_dir() / case.base)
            findings.append(finding)
    return CaseRun(findings, result.not_applied, lines)


def render_log(records: list) -> tuple[str, dict[str, int]]:
    """A log as JSON Lines, and the line of each record (`/N` on line N + 1)."""
    text = "".join(json.dumps(record, ensure_ascii=False, default=_number) + "\n" for record in records)
    return text, {"": 1, **{f"/{index}": index + 1 for index in range(len(records))}}


def _number(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)  # an amount as text, digit for digit ("9.50"): logs take amounts as strings too
    raise TypeError(f"a log holds no {type(value).__name__}")


def changes(case: Case) -> bool:
    """Whether the patch changes the base at all."""
    base = base_data(case.base)
    return _canonical(apply_patch(base, case.set, case.delete)) != _canonical(base)


def _canonical(data: Any) -> str:
    # Decimal("0.50") == Decimal("0.5"), but a filing that says 0.50 is not the one that says 0.5.
    return json.dumps(data, sort_keys=True, default=lambda v: f"Decimal {v}" if isinstance(v, Decimal) else repr(v))


def flow(value: Any) -> str:
    """A value as YAML flow text: every string quoted, numbers as written."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    raise TypeError(f"a filing holds no {type(value).__name__}")


def _key(key: str) -> str:
    # YAML 1.1 reads a plain `no` or `on` as a boolean: such keys, and any not a plain name, are quoted.
    plain = re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) and key.lower() not in _YAML_WORDS
    return key if plain else flow(key)


_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def render(data: Any) -> tuple[str, dict[str, int]]:
    """A document as block YAML, and the line each pointer is written at (a mapping member's at its key, a list
    item's at its dash): found here, apart from the loader's position table, so the two can be compared."""
    out: list[str] = []
    lines: dict[str, int] = {"": 1}
    _block(data, "", 0, out, lines)
    return "\n".join(out) + "\n", lines


def _block(value: Any, pointer: str, indent: int, out: list[str], lines: dict[str, int]) -> None:
    pad = " " * indent
    members = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in members:
        at = pointers.child(pointer, key)
        lines[at] = len(out) + 1
        head = f"{pad}{_key(key)}:" if isinstance(value, dict) else f"{pad}-"
        if isinstance(item, (dict, list)) and item:
            if isinstance(value, dict):
                out.append(head)
                _block(item, at, indent + 2, out, lines)
            else:  # the item's first member on the dash's line, where the loader places the item
                first = len(out)
                _block(item, at, indent + 2, out, lines)
                out[first] = f"{pad}- {out[first][indent + 2:]}"
        else:
            out.append(f"{head} {flow(item)}")
