"""Every rule of every ruleset has a passing and a failing fixture, and each gives exactly its expected ids."""

import pytest

from casino_audit.engine import Checker
from casino_audit.pipeline import run
from casino_audit.rulesets import builtin_names, load_builtin
from conftest import FIXTURES, TEST_PARAMS, expected_ids

RULESETS = {rs.code: rs for rs in (load_builtin(name) for name in builtin_names())}
FIXTURE_FILES = sorted(p for p in FIXTURES.rglob("*.yaml") if "-pass" in p.name or "-fail" in p.name)


def checker() -> Checker:
    values = {code: {name: rs.params[name].parse(value) for name, value in TEST_PARAMS.items() if name in rs.params}
              for code, rs in RULESETS.items()}
    return Checker(RULESETS, values)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.name)
def test_fixture_gives_exactly_its_expected_ids(path):
    result = run([str(path)], checker())
    found = {f.rule_id for f in result.findings}
    assert found == expected_ids(path), [f"{f.line}: {f.rule_id} {f.message}" for f in result.findings]


@pytest.mark.parametrize("rule_id", [r.id for rs in RULESETS.values() for r in rs.rules])
def test_every_rule_has_a_pass_and_a_fail_fixture(rule_id):
    names = {p.name for p in FIXTURE_FILES}
    assert any(n.startswith(f"{rule_id}-pass") for n in names), f"no pass fixture for {rule_id}"
    fails = [p for p in FIXTURE_FILES if p.name.startswith(f"{rule_id}-fail")]
    assert fails, f"no fail fixture for {rule_id}"
    assert any(rule_id in expected_ids(p) for p in fails), f"no fail fixture of {rule_id} expects it"
