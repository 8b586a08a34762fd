"""The rule engine's shortcuts (a value rule whose value must be one boolean passes by one
lookup per path; a path's prefixes are tested once per document). None of them lets a filing through that the
full check would stop."""

from __future__ import annotations

import pytest

from casino_audit.law.engine import Checker
from casino_audit.read.loader import load_text
from casino_audit.law.rulesets import load_builtin
from helpers.command import EXAMPLES

COMPLIANT = (EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8")


def rule_ids(text: str, suffix: str = ".yaml") -> set[str]:
    [document] = load_text(text, "m" + suffix, json_syntax=suffix == ".json").documents
    checker = Checker({"LU": load_builtin("lu")})
    return {finding.rule_id for finding in checker.check(document, "machine", "LU")}


def test_the_compliant_example_passes_the_rule():
    assert "LU-SLOT-NEW" not in rule_ids(COMPLIANT)


@pytest.mark.parametrize("written", ["new: no", "new: off", "new: 'true'", "new: 1", "new: True\n  new_: false", "nw: true",
                                     "new: [true]", "new: {value: true}", "new: null", "new: !!str true"])
def test_anything_but_the_boolean_true_is_a_breach_of_new(written):
    text = COMPLIANT.replace("  new: true", "  " + written, 1)
    if written == "new: True\n  new_: false":  # YAML 1.2 reads `True` as true: the rule holds, the stray key is shape
        assert "LU-SLOT-NEW" not in rule_ids(text)
        return
    assert "LU-SLOT-NEW" in rule_ids(text), written


def test_yes_is_read_as_a_person_reads_it():
    assert "LU-SLOT-NEW" not in rule_ids(COMPLIANT.replace("  new: true", "  new: yes", 1))  # YAML 1.1 and a reader agree


def test_a_scalar_where_the_path_goes_on_is_still_said():
    assert "LU-SLOT-NEW" in rule_ids(COMPLIANT.replace("machine:\n", "machine: closed\nmachine_:\n", 1))
