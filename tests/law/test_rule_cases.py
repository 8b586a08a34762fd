"""The rule cases (rulesets/cases/): each gives exactly the findings it expects, through the real pipeline; every
rule has a passing and a failing case; no case is a no-op; a cases file with a wrong id or pointer is refused."""

import dataclasses
import textwrap
from pathlib import Path

import pytest

from casino_audit.law.cases import (CasesError, PatchError, apply_patch, base_data, bases_dir, changes, load_cases,
                                render, run_case)
from casino_audit.read.loader import load_file
from casino_audit.law.rulesets import builtin_names, load_builtin
from helpers.command import EXAMPLES

RULESETS = [load_builtin(name) for name in builtin_names()]
CASES = {rs.name: load_cases(rs) for rs in RULESETS}
ALL = [(rs, case) for rs in RULESETS for found in CASES[rs.name].values() for case in found]


IDS = [f"{case.rule_id}:{case.name}" for _, case in ALL]


def _found(findings) -> list[tuple[str, str]]:
    return sorted((f.rule_id, f.pointer or "") for f in findings)


@pytest.mark.parametrize("ruleset, case", ALL, ids=IDS)
def test_case_gives_exactly_its_expected_findings(ruleset, case):
    done = run_case(case, ruleset)
    assert _found(done.findings) == sorted((e.rule_id, e.pointer or "") for e in case.expect), case.source
    assert case.rule_id not in done.not_applied, f"{case.source}: give the case the parameters its rule needs"
    # The rendering has no lines a filing could be held to; what is checked is that each finding sits where the
    # renderer wrote its pointer (or the nearest ancestor written, for a value that is missing).
    for finding in done.findings:
        pointer = finding.pointer or ""
        while pointer not in done.lines:
            pointer = pointer.rsplit("/", 1)[0]
        assert finding.line == done.lines[pointer], (case.source, finding)


@pytest.mark.parametrize("ruleset, case", ALL, ids=IDS)
def test_no_case_is_a_no_op(ruleset, case):
    assert changes(case), f"{case.source}: the patch leaves the base as it is"
    if case.outcome == "fail":
        unpatched = run_case(dataclasses.replace(case, set={}, delete=[]), ruleset)
        assert case.rule_id not in {f.rule_id for f in unpatched.findings}, \
            f"{case.source}: the rule fires on the base already, so the patch shows nothing"


@pytest.mark.parametrize("rule_id, ruleset", [(rule.id, rs) for rs in RULESETS for rule in rs.rules])
def test_every_rule_has_a_passing_and_a_failing_case(rule_id, ruleset):
    found = CASES[ruleset.name].get(rule_id, [])
    assert any(case.outcome == "pass" for case in found), f"no passing case for {rule_id}"
    assert any(case.outcome == "fail" for case in found), f"no failing case for {rule_id}"


def test_each_base_holds_the_data_of_its_example():
    bases = sorted([*bases_dir().rglob("*.yaml"), *bases_dir().rglob("*.jsonl")])
    used = {case.base for _, case in ALL}
    for name in sorted(used):  # a meter log's machines' homologation files are beside it, read with it
        header = base_data(name)[0] if name.endswith(".jsonl") else {}
        for entry in (header.get("machines") or {}).values():
            used.add(str(Path(name).parent / entry["machine"]))
    assert {str(b.relative_to(bases_dir())) for b in bases} == used, "a base no case uses, or a case without base"
    for base in bases:
        if base.suffix == ".jsonl":  # a game log: the example's bytes
            assert base.read_bytes() == (EXAMPLES / base.relative_to(bases_dir())).read_bytes(), base
            continue
        example = load_file(EXAMPLES / base.relative_to(bases_dir())).documents[0].data
        assert render(base_data(str(base.relative_to(bases_dir()))))[0] == render(example)[0], base


def test_a_patch_sets_null_appends_and_deletes_in_order():
    data = {"a": {"b": 1, "c": [1, 2, 3]}}
    patched = apply_patch(data, {"/a/b": None, "/a/c/-": 4, "/a/d": "new"}, ["/a/c/0", "/a/c/0"])
    assert patched == {"a": {"b": None, "c": [3, 4], "d": "new"}} and data["a"]["c"] == [1, 2, 3]
    for set_values, delete in (({"/x/y": 1}, []), ({"/a/c/9": 1}, []), ({}, ["/a/zz"]), ({}, ["/a/c/-"])):
        with pytest.raises(PatchError):
            apply_patch(data, set_values, delete)


def test_a_cases_file_with_an_unknown_rule_or_a_pointer_not_in_its_base_is_refused_with_file_and_line(tmp_path):
    path = tmp_path / "lu.yaml"
    path.write_text(textwrap.dedent("""\
        LU-SLOT-RTP-MIN:
          - name: fine
            base: lu/machine-compliant.yaml
            set: {/redistribution_rate: 84 %}
            outcome: fail
            expect: [{id: LU-SLOT-RTP-MIN, pointer: /redistribution_rate}]
          - name: a key under a section the base does not have
            base: lu/machine-compliant.yaml
            set:
              /no_such_section/rate: 84 %
            outcome: pass
            expect: []
          - name: deletes what is not there
            base: lu/machine-compliant.yaml
            delete: [/redistribution_rate, /redistribution_rate]
            outcome: pass
            expect: []
        LU-SLOT-NO-SUCH-RULE:
          - {name: x, base: lu/machine-compliant.yaml, set: {/locks/upper: 1}, outcome: pass, expect: []}
        """))
    with pytest.raises(CasesError) as raised:
        load_cases(load_builtin("lu"), path)
    problems = raised.value.problems
    assert [p.split(": ", 1)[0] for p in problems] == [f"{path}:10:7", f"{path}:15:36", f"{path}:18:1"], problems
    assert "no mapping or list" in problems[0] and "nothing there to delete" in problems[1]
    assert "no rule LU-SLOT-NO-SUCH-RULE" in problems[2]


def test_a_case_whose_outcome_contradicts_its_expectations_is_refused(tmp_path):
    path = tmp_path / "lu.yaml"
    path.write_text("LU-SLOT-LOCKS:\n  - {name: x, base: lu/machine-compliant.yaml, set: {/locks/upper: 1},\n"
                    "     outcome: fail, expect: []}\n")
    with pytest.raises(CasesError, match=r"lu.yaml:3:\d+: a case that fails must expect LU-SLOT-LOCKS"):
        load_cases(load_builtin("lu"), path)


def test_rules_explain_shows_the_cases_and_what_they_find(cli):
    done = cli("rules", "explain", "LU-SLOT-RTP-MIN")
    assert done.returncode == 0
    out = done.stdout
    assert out.index("Passing examples") < out.index("exactly 85 % passes") < out.index("Failing examples")
    assert '/redistribution_rate = "84.999 %"' in out
    assert "→ LU-SLOT-RTP-MIN at /redistribution_rate: `redistribution_rate` is 84.999 %" in out
    assert "→ no finding" in out
    stake = cli("rules", "explain", "LU-SLOT-STAKE-MIN-ORDER").stdout
    assert "with slot_stake_minimum_eur=0.50" in stake


def test_rules_explain_of_a_house_rule_says_it_has_no_cases(cli, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(textwrap.dedent("""\
        ruleset: house
        extends: lu
        instruments: {policy: {title: House policy, language: en}}
        rules:
          - id: LU-SLOT-RTP-MIN
            title: RTP at least 88 %
            severity: error
            applies_to: {kind: machine}
            check: {kind: value, target: /redistribution_rate, unit: percent, min: "88", missing: allowed}
            citation: {instrument: policy, article: HP-7, text: "Machines return at least 88 per cent."}
            rationale: The house keeps machines above the floor.
        """))
    replaced = cli("rules", "explain", "LU-SLOT-RTP-MIN", "--ruleset", str(house)).stdout
    assert "none: only the built-in rules have cases, and this rule is a house ruleset's" in replaced
    assert "84.999" not in replaced
    inherited = cli("rules", "explain", "LU-SLOT-LOCKS", "--ruleset", str(house)).stdout
    assert "one lower lock" in inherited

