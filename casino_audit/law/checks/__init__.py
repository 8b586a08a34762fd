"""The vocabulary rulesets are written in: the check kinds, one module each, and the predicates that checks and
`when:` conditions share.

A kind module holds its NAME, the JSON Schema of its PARAMETERS, `compile` (a rule's `check:` mapping, its
parameters already bound, to a function from a document's data to its violations, so pointers are parsed once
per run), `describe` (what passes, for `rules explain`), `targets` (the places it reads, each with the container
it expects there) and EXAMPLES of its own. `CHECK_KINDS` below is the one list of kinds; nothing registers
itself on import."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from casino_audit.law.checks import count, entries, meters, par, present, replay, schedule, sequence, value
from casino_audit.law.checks.common import (CompiledCheck, Target, bind_params, blocked, param_names,
                                        pointer_list)
from casino_audit.law.checks.predicates import (CONDITION_SCHEMA, compile_condition, compile_undecidable, condition_targets,
                                            describe_condition, undecidable)
from casino_audit.law.scopes import DOCUMENT

__all__ = ["CHECK_KINDS", "CONDITION_SCHEMA", "CheckKind", "bind_params", "blocked", "compile_condition",
           "compile_undecidable", "condition_targets", "describe_condition", "param_names", "targets", "undecidable"]


@dataclass(frozen=True)
class CheckKind:
    name: str
    compile: Callable[[dict], CompiledCheck]
    parameters: dict  # JSON Schema of the whole `check:` mapping, `kind` included
    describe: Callable[[dict], str]  # what passes, in words, for `rules explain`
    targets: Callable[[dict], tuple[Target, ...]]
    examples: tuple = ()  # (spec, data that passes, data that fails, its violations)
    scopes: tuple[str, ...] = (DOCUMENT,)  # the rule scopes it can check at (record and dossier kinds: later)


CHECK_KINDS: dict[str, CheckKind] = {module.NAME: CheckKind(module.NAME, module.compile, module.PARAMETERS,
                                                            module.describe, module.targets, tuple(module.EXAMPLES),
                                                            getattr(module, "SCOPES", (DOCUMENT,)))
                                     for module in (present, value, schedule, entries, count, sequence, replay, meters,
                                                    par)}


def targets(spec: dict) -> tuple[Target, ...]:
    """The places a check reads values at, each with the container type expected there (or None): where a value
    of another type stands, the engine says the rule could not check it rather than pass it."""
    return CHECK_KINDS[spec["kind"]].targets(spec)


def reporter_problem(spec: dict, rules: dict) -> str | None:
    """Why `missing: {reported_by: ID}` is wrong, or None: the rule it names must exist in the ruleset (or one
    it extends), read the same place, and itself report a missing value."""
    wanted = spec.get("missing")
    if not isinstance(wanted, dict):
        return None
    other = rules.get(wanted["reported_by"])
    if other is None:
        return f"`missing: {{reported_by: {wanted['reported_by']}}}` names no rule of this ruleset or those it extends"
    mine = [segments for segments, _ in targets(spec)][:len(pointer_list(spec["target"]))]
    theirs = [segments for segments, _ in targets(other.check)]
    if not any(_related(a, b) for a in mine for b in theirs):
        return f"`missing: {{reported_by: {other.id}}}` names a rule that reads none of this rule's targets"
    if "missing" in other.check:
        return f"`missing: {{reported_by: {other.id}}}` names a rule that does not report a missing value either"
    return None


def _related(a: tuple, b: tuple) -> bool:
    """One path leads to the other (a value, or the list or mapping that holds it)."""
    return a[:len(b)] == b or b[:len(a)] == a
