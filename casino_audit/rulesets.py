"""Rulesets: load, validate against the meta-schema and the check kinds' parameter schemas, extend.

A ruleset problem is reported with file:line:column before any document is checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from casino_audit import checks
from casino_audit.findings import Citation, Severity
from casino_audit.kinds import KINDS
from casino_audit.loader import Document, NotOneDocument, load_single_document
from casino_audit.pointers import child
from casino_audit.shape import ShapeValidator, packaged_schema
from casino_audit.values import to_decimal


class RulesetProblem(str):
    """'file:line:col: message', keeping its parts, so a problem can be printed or become a finding."""

    def __new__(cls, file: str, line: int, column: int, message: str):
        problem = super().__new__(cls, f"{file}:{line}:{column}: {message}")
        problem.file, problem.line, problem.column, problem.message = file, line, column, message
        return problem


class RulesetError(Exception):
    """A ruleset that cannot be used; `problems` are 'file:line:col: message' lines."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    description: str
    citation: Citation
    unit: str = ""

    def parse(self, raw: Any) -> Any:
        if self.type == "string":
            return str(raw)
        number = to_decimal(raw if not isinstance(raw, str) else raw.strip())
        if number is None or (self.type == "integer" and number != number.to_integral_value()):
            raise ValueError(f"parameter {self.name} takes {'a whole number' if self.type == 'integer' else 'a number'}, "
                             f"not {raw!r}")
        return int(number) if self.type == "integer" else number


@dataclass
class Rule:
    id: str
    title: str
    severity: Severity
    kind: str
    games: tuple[str, ...]
    check: dict
    when: tuple[dict, ...]
    citation: Citation
    rationale: str
    jurisdiction: str
    source: str  # file:line where the rule is defined
    params: tuple[str, ...] = ()

    def compile(self, values: dict[str, Any]) -> Callable[[Any], Any]:
        spec = checks.bind_params(self.check, values)
        return checks.CHECK_KINDS[spec["kind"]].compile(spec)

    def describe(self) -> str:
        text = checks.CHECK_KINDS[self.check["kind"]].describe(self.check)
        if self.when:
            text += " — when " + " and ".join(checks.describe_condition(c) for c in self.when)
        return text


@dataclass
class Ruleset:
    name: str
    code: str
    jurisdiction_name: str
    instrument: dict
    params: dict[str, Param]
    rules: list[Rule]
    source: str
    instruments: dict = field(default_factory=dict)  # every instrument a citation may name, by key
    not_encoded: list = field(default_factory=list)  # provisions left out on purpose: {article, subject, reason}
    chain: tuple[str, ...] = field(default_factory=tuple)  # names from this one up to the root


def rulesets_dir() -> Path:
    packaged = resources.files("casino_audit").joinpath("rulesets")
    if packaged.is_dir():  # installed: hatch puts the top-level rulesets/ here
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "rulesets"  # running from a source checkout


def builtin_names() -> list[str]:
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


@lru_cache(maxsize=None)
def _meta_validator() -> ShapeValidator:
    return ShapeValidator(packaged_schema("ruleset.schema.json"))


@lru_cache(maxsize=None)
def _check_validator(kind: str) -> ShapeValidator:
    return ShapeValidator(checks.CHECK_KINDS[kind].parameters)


@lru_cache(maxsize=None)
def _condition_validator() -> ShapeValidator:
    return ShapeValidator(checks.CONDITION_SCHEMA)


def load_builtin(name: str) -> Ruleset:
    return load_ruleset(rulesets_dir() / f"{name}.yaml")


def load_ruleset(path: str | Path, _seen: tuple[str, ...] = ()) -> Ruleset:
    path = Path(path)
    key = str(path.resolve())
    if key in _seen:
        raise RulesetError([f"{path}: `extends` goes round in a circle ({' -> '.join(_seen + (key,))})"])
    return ruleset_from_document(_read_single(path), path, _seen)


def looks_like_ruleset(data: Any) -> bool:
    return isinstance(data, dict) and "kind" not in data and "ruleset" in data and "rules" in data


def ruleset_from_document(document: Document, path: Path, _seen: tuple[str, ...] = ()) -> Ruleset:
    """A ruleset from a document already loaded (a ruleset met among filings is validated this way)."""
    _seen = _seen + (str(Path(path).resolve()),)
    data = document.data
    problems = [_at(document, pointer, message) for _, pointer, message in _meta_validator().errors(data)]
    if problems:
        raise RulesetError(problems)
    parent = None
    if "extends" in data:
        target = data["extends"]
        candidate = (path.parent / target) if ("/" in target or target.endswith((".yaml", ".yml"))) \
            else rulesets_dir() / f"{target}.yaml"
        if not candidate.is_file():
            raise RulesetError([_at(document, "/extends", f"`extends: {target}` names no built-in ruleset "
                                                         f"({', '.join(builtin_names())}) and no file")])
        parent = load_ruleset(candidate, _seen)
    return _build(document, data, parent)


def _read_single(path: Path) -> Document:
    try:
        return load_single_document(path, "a ruleset file")
    except NotOneDocument as error:
        raise RulesetError(error.problems) from None


def _at(document: Document, pointer: str, message: str) -> RulesetProblem:
    line, column = document.position(pointer) or (1, 1)
    return RulesetProblem(document.file, line, column, message)


def _build(document: Document, data: dict, parent: Ruleset | None) -> Ruleset:
    problems: list[str] = []
    jurisdiction = data.get("jurisdiction")
    if jurisdiction is None and parent is None:
        problems.append(_at(document, "", "a ruleset that extends none must name its `jurisdiction`"))
    if jurisdiction is not None and parent is not None and jurisdiction["code"] != parent.code:
        problems.append(_at(document, "/jurisdiction/code", f"extends a {parent.code} ruleset but says {jurisdiction['code']}"))
    instrument = data.get("instrument") or (parent.instrument if parent else None)
    if instrument is None:
        problems.append(_at(document, "", "a ruleset that extends none must name its `instrument`"))
    code = jurisdiction["code"] if jurisdiction else (parent.code if parent else "??")
    name = jurisdiction["name"] if jurisdiction else (parent.jurisdiction_name if parent else "")
    instruments = dict(parent.instruments) if parent else {}
    if parent is not None:
        instruments[parent.name] = parent.instrument  # a house rule may cite the law it tightens
    instruments.update(data.get("instruments", {}))
    if instrument:
        instruments[""] = instrument

    params = dict(parent.params) if parent else {}
    for param_name, spec in data.get("params", {}).items():
        params[param_name] = Param(param_name, spec["type"], spec["description"],
                                   _citation(spec["citation"], instruments, document, child("/params", param_name),
                                             problems), spec.get("unit", ""))

    rules = list(parent.rules) if parent else []
    index = {rule.id: position for position, rule in enumerate(rules)}
    seen_here: set[str] = set()
    for position, raw in enumerate(data["rules"]):
        pointer = f"/rules/{position}"
        rule = _rule(raw, pointer, document, code, instruments, params, problems)
        if rule is None:
            continue
        if rule.id in seen_here:
            problems.append(_at(document, pointer + "/id", f"rule id {rule.id} is defined twice in this ruleset"))
        seen_here.add(rule.id)
        if rule.id in index:  # a ruleset that extends another may replace one of its rules (to tighten it)
            rules[index[rule.id]] = rule
        else:
            index[rule.id] = len(rules)
            rules.append(rule)
    if problems:
        raise RulesetError(problems)
    chain = (data["ruleset"],) + (parent.chain if parent else ())
    not_encoded = (parent.not_encoded if parent else []) + list(data.get("not_encoded", []))
    return Ruleset(data["ruleset"], code, name, instrument, params, rules, document.file, instruments,
                   not_encoded, chain)


def _citation(raw: dict, instruments: dict, document: Document, pointer: str, problems: list[str]) -> Citation:
    key = raw.get("instrument", "")
    instrument = instruments.get(key)
    if instrument is None:
        problems.append(_at(document, pointer + "/instrument", f"citation names instrument {key!r}, which "
                                                               "neither `instrument` nor `instruments` defines"))
        instrument = {"title": key, "language": ""}
    return Citation(instrument.get("short") or instrument["title"], raw["article"], raw["text"],
                    instrument.get("language", ""))


def _rule(raw: dict, pointer: str, document: Document, code: str, instruments: dict,
          params: dict[str, Param], problems: list[str]) -> Rule | None:
    before = len(problems)
    kind = raw["applies_to"]["kind"]
    if kind not in KINDS:
        problems.append(_at(document, pointer + "/applies_to/kind",
                            f"unknown document kind {kind!r}; known: {', '.join(KINDS)}"))
    games = raw["applies_to"].get("game", ())
    games = (games,) if isinstance(games, str) else tuple(games)
    if kind in KINDS:
        known_games = KINDS[kind].games()
        for game in games:
            if game not in known_games:
                problems.append(_at(document, pointer + "/applies_to/game",
                                    f"unknown game {game!r} for kind {kind}; known: {', '.join(known_games) or 'none'}"))
    check = raw["check"]
    check_kind = check["kind"]
    if check_kind not in checks.CHECK_KINDS:
        problems.append(_at(document, pointer + "/check/kind",
                            f"unknown check kind {check_kind!r}; known: {', '.join(checks.CHECK_KINDS)}"))
    else:
        for _, where, message in _check_validator(check_kind).errors(check):
            problems.append(_at(document, pointer + "/check" + where, f"{check_kind}: {message}"))
    for number, condition in enumerate(raw.get("when", [])):
        for _, where, message in _condition_validator().errors(condition):
            problems.append(_at(document, f"{pointer}/when/{number}{where}", f"when: {message}"))
    needed = tuple(dict.fromkeys(checks.param_names(check)))
    for name in needed:
        if name not in params:
            problems.append(_at(document, pointer + "/check", f"the check uses parameter {name!r}, which `params` "
                                                              "does not declare"))
    citation = _citation(raw["citation"], instruments, document, pointer + "/citation", problems)
    if len(problems) > before:
        return None
    line, _ = document.position(pointer) or (1, 1)
    return Rule(raw["id"], raw["title"], Severity.parse(raw["severity"]), kind, games, check,
                tuple(raw.get("when", ())), citation, raw["rationale"].strip(), code,
                f"{document.file}:{line}", needed)

