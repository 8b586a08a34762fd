"""One document (or a log's header) through the stages: identify its kind, validate its shape, choose its
jurisdiction, check it against the law; a ruleset met among the filings is validated instead. The run's
Context is what every document is checked with."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from casino_audit.core import findings as F
from casino_audit.core.display import brief
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.results import FindingSink
from casino_audit.core.values import show
from casino_audit.documents import kinds
from casino_audit.law.engine import Checker
from casino_audit.law.model import RulesetError
from casino_audit.law.rulesets import looks_like_ruleset, ruleset_from_document
from casino_audit.law.scopes import Dossier


@dataclass
class Context:
    """What every document of a run is checked with: the checker, where findings go, the jurisdiction given from
    outside (an option replaces a document's own, a config only fills in), the dossier of the run."""

    checker: Checker
    sink: FindingSink
    override: str | None
    default: str | None
    dossier: Dossier


def keep(sink: FindingSink, findings: Iterable[Finding]) -> None:
    for finding in findings:
        if finding.file is None or sink.admit(finding.file, finding.rule_id, finding.severity):
            sink.keep(finding) if finding.file is not None else sink.add(finding)


def ruleset_findings(document) -> list[Finding]:
    """A ruleset met among the filings, validated: its problems are findings on its lines."""
    try:
        ruleset_from_document(document, Path(document.file))
    except RulesetError as error:
        for found in error.problems:
            found.document = document.index if found.file == document.file else found.document
        return list(error.problems)
    return []


def check_document(document, context: Context, said: list[Finding] | None = None) -> tuple[str, str] | None:
    """One document (or record) through the stages: identify its kind, validate its shape, choose its
    jurisdiction, check it against the law. Returns (kind, jurisdiction) when it reached the law, else None;
    `said`, if given, gets the findings of the stages before the law (why it did not reach it)."""
    found: list[Finding] = list(document.findings)
    try:
        return _stages(document, context, found)
    finally:
        if said is not None:
            said.extend(found)
        context.sink.extend(found)


def _stages(document, context: Context, found: list[Finding]) -> tuple[str, str] | None:
    if looks_like_ruleset(document.data):  # a house ruleset kept beside the filings: validate it, do not misread it
        found.extend(ruleset_findings(document))
        return None
    kind = identify(document, found)
    if kind is None:
        return None
    misshapen = validate_shape(document, kind, context, found)
    jurisdiction = choose_jurisdiction(document, kind, context, misshapen, found)
    if jurisdiction is None:
        return None
    check_law(document, kind, jurisdiction, context)
    if context.dossier.wants(kind):
        keep(context.sink, context.dossier.feed(kind, document))
    return kind, jurisdiction


def tool_finding(document, rule_id: str, message: str, pointer: str = "", jurisdiction: str | None = None) -> Finding:
    line, column = document.position(pointer) or (None, None)
    return Finding(rule_id, Severity.ERROR, message, document.file, line, column, pointer, document.index,
                   jurisdiction)


def _given_jurisdiction(document, context: Context):
    own = document.data.get("jurisdiction")
    return context.override or (own if own is not None else context.default)


def identify(document, found: list[Finding]) -> str | None:
    kind, problem = kinds.identify(document.data)
    if kind is None:
        found.append(tool_finding(document, *problem, pointer="/kind" if isinstance(document.data, dict) else ""))
    return kind


def validate_shape(document, kind: str, context: Context, found: list[Finding]) -> set[str]:
    """The shape findings; returns the pointers of values of the wrong shape."""
    jurisdiction = _given_jurisdiction(document, context)
    named = jurisdiction if isinstance(jurisdiction, str) else None
    errors = kinds.validator(kind).errors(document.data, getattr(document, "values", None))
    found.extend(tool_finding(document, rule_id, message, pointer, named) for rule_id, pointer, message in errors)
    return {pointer for rule_id, pointer, _ in errors if rule_id == F.SHAPE_INVALID}


def choose_jurisdiction(document, kind: str, context: Context, misshapen: set[str],
                        found: list[Finding]) -> str | None:
    """The ruleset the document is checked against, or None with the finding that says why there is none."""
    jurisdiction = _given_jurisdiction(document, context)
    checker = context.checker
    if not jurisdiction:
        found.append(tool_finding(document, F.JURISDICTION_MISSING, "the document does not name its jurisdiction "
                                   "(add `jurisdiction: LU`, or pass --jurisdiction)"))
        return None
    if "/jurisdiction" in misshapen and not context.override:
        return None  # already reported as a shape error; no ruleset can be chosen for it
    if not isinstance(jurisdiction, str) or jurisdiction not in checker.rulesets:
        loaded = ", ".join(sorted(checker.rulesets)) or "none"
        found.append(tool_finding(document, F.JURISDICTION_UNSUPPORTED, f"no ruleset is loaded for jurisdiction "
                                   f"{brief(show(jurisdiction))} (loaded: {loaded}); the document was not checked "
                                   "against law", "/jurisdiction"))
        return None
    game_field = kinds.KINDS[kind].game_field
    game = kinds.KINDS[kind].game_of(document.data)
    if not checker.covers(jurisdiction, kind, game):
        what = f"{kind} documents" + (f" for the game {brief(show(game))}" if game_field else "")
        found.append(tool_finding(document, F.JURISDICTION_NO_RULES, f"the {jurisdiction} ruleset has no rules for "
                                   f"{what}; the document was not checked against law",
                                   f"/{game_field}" if game_field else "", jurisdiction))
        return None
    return jurisdiction


def check_law(document, kind: str, jurisdiction: str, context: Context) -> None:
    """The jurisdiction's document rules. A law rule reading a value of the wrong shape still reports (or says
    it could not check): never a silent pass."""
    sink = context.sink
    for finding in context.checker.check(document, kind, jurisdiction, sink.admit):
        if finding.file is None:
            sink.add(finding)  # a rule not applied for want of a parameter: once per run
        else:
            sink.keep(finding)
