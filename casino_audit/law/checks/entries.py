"""`kind: entries`: which entries a mapping may (`allowed`) and must (`required`) give, where the law names the
entries but gives them no values (the side bets a game may have)."""

from __future__ import annotations

from casino_audit.core import pointers
from casino_audit.law.checks.common import (MISSING_SCHEMA, POINTER, CompiledCheck, check_schema, describe_missing,
                                        missing_is_breach, name, target_list)
from casino_audit.law.checks.schedule import on_mapping, unlisted

NAME = "entries"
_KEYS = {"type": "array", "items": {"type": "string"}}
PARAMETERS = check_schema(
    NAME,
    {"target": {**POINTER, "description": "the mapping"},
     "allowed": {**_KEYS, "minItems": 1, "description": "the only entries it may give"},
     "required": {**_KEYS, "description": "entries it must give"},
     "missing": MISSING_SCHEMA},
    required=["allowed"])


def targets(spec):
    return target_list((spec["target"], dict))


def compile(spec) -> CompiledCheck:
    at, allowed, needed = spec["target"], spec["allowed"], spec.get("required", [])

    def inspect(data, mapping):
        for key in needed:
            if key not in mapping:
                yield pointers.child(at, key), f"`{name(pointers.child(at, key))}` is not declared"
        yield from unlisted(at, mapping, set(allowed), ", ".join(allowed))
    return on_mapping(at, missing_is_breach(spec), f"allowed: {', '.join(allowed)}", inspect)


def describe(spec) -> str:
    must = f", and must give {', '.join(spec['required'])}" if spec.get("required") else ""
    return f"`{name(spec['target'])}` may only give {', '.join(spec['allowed'])}{must}{describe_missing(spec)}"


EXAMPLES = [
    ({"kind": NAME, "target": "/payouts", "allowed": ["ponto", "banca", "empate"], "required": ["ponto"]},
     {"payouts": {"ponto": 1, "empate": 8}}, {"payouts": {"banca": 1, "dragon": 30}},
     [("/payouts/ponto", "`payouts/ponto` is not declared"),
      ("/payouts/dragon", "`payouts/dragon` is not one the law allows (only ponto, banca, empate)")]),
    ({"kind": NAME, "target": "/side_bets", "allowed": ["super_jack"], "missing": "allowed"},
     {}, {"side_bets": {"jackpot": {}}},
     [("/side_bets/jackpot", "`side_bets/jackpot` is not one the law allows (only super_jack)")]),
]
