"""A house rule that replaces a parameter's bound with a constant is judged against the bound the parameter gives:
a huge constant is a loosening, never called a tightening."""

from __future__ import annotations

from helpers.filer import report_of, example


def test_house_rule_replacing_a_parameter_bound_with_a_huge_constant_is_called_tightened(tmp_path):
    """MISREPORTED LOOSENING (exit 0). LU-SLOT-STAKE-MAX-ORDER reads `max: {param: slot_stake_maximum_eur}`.
    A house ruleset replaces it with `max: "1000000"`: with --param slot_stake_maximum_eur=10 the law fails a
    500 EUR maximum stake, the house rule passes it - and the report lists the change as `tightened: maximum
    none -> 1000000` (provenance._compare_checks: a {param} bound reads as None, "no bound", so any constant
    looks tighter). An inspector reads "tightened" and the run exits 0. It must be `loosened` or `replaced`."""
    (tmp_path / "m500.yaml").write_text(
        example("lu/machine-compliant.yaml").replace("maximum_eur: 10.00", "maximum_eur: 500"), "utf-8")
    (tmp_path / "house.yaml").write_text("""\
ruleset: casino-house
extends: lu
rules:
  - id: LU-SLOT-STAKE-MAX-ORDER
    title: The maximum stake respects the order
    severity: error
    applies_to: {kind: machine}
    check: {kind: value, target: /stakes/maximum_eur, max: "1000000", missing: {reported_by: LU-SLOT-STAKES-DECLARED}}
    citation: {instrument: lu, article: Art. 18-4, text: "x"}
    rationale: house
""", "utf-8")
    params = ["--param", "slot_stake_maximum_eur=10", "--param", "slot_stake_minimum_eur=0.50"]
    law, _ = report_of("m500.yaml", *params, cwd=tmp_path)
    assert law.returncode == 1  # the law fails it
    done, report = report_of("m500.yaml", "--ruleset", "house.yaml", *params, cwd=tmp_path)
    changes = {c["rule_id"]: c["change"] for r in report["rulesets"] for c in r["law_changes"]}
    assert changes["LU-SLOT-STAKE-MAX-ORDER"] in ("loosened", "replaced"), changes
