"""The check vocabulary: each kind's own examples, the words `rules explain` prints, predicates shared by checks and
conditions, the generated meta-schema, and the earlier vocabulary refused with its replacement."""

import json
from importlib import resources

import pytest

from casino_audit.law.checks import CHECK_KINDS, compile_condition, describe_condition
from casino_audit.law.checks.metaschema import published
from casino_audit.law.model import RulesetError
from casino_audit.law.rulesets import load_ruleset
from casino_audit.documents.shape import ShapeValidator

EXAMPLES = [(name, n, example) for name, kind in CHECK_KINDS.items() for n, example in enumerate(kind.examples)]


@pytest.mark.parametrize("name, number, example", EXAMPLES, ids=[f"{e[0]}-{e[1]}" for e in EXAMPLES])
def test_each_kind_passes_and_fails_its_own_examples(name, number, example):
    spec, passing, failing, violations = example
    kind = CHECK_KINDS[name]
    assert ShapeValidator(kind.parameters).errors(spec) == []
    assert list(kind.compile(spec)(passing)) == []
    assert list(kind.compile(spec)(failing)) == violations


def test_every_kind_has_examples():
    assert all(kind.examples for kind in CHECK_KINDS.values() if "document" in kind.scopes)


@pytest.mark.parametrize("spec, words", [
    ({"kind": "value", "target": "/redistribution_rate", "unit": "percent", "min": "85"},
     "`redistribution_rate` must be at least 85 %"),
    ({"kind": "value", "target": "/table/seats", "min": 7, "max": 9}, "`table/seats` must be at least 7 and at most 9"),
    ({"kind": "value", "target": "/stakes/maximum_eur", "per": "/stakes/minimum_eur", "one_of": [10, 20, 30]},
     "`stakes/maximum_eur` divided by `stakes/minimum_eur` must be one of 10, 20, 30"),
    ({"kind": "value", "target": "/stakes/minimum_eur", "min": {"param": "slot_stake_minimum_eur"},
      "missing": {"reported_by": "LU-SLOT-STAKES-DECLARED"}},
     "`stakes/minimum_eur` must be at least the parameter `slot_stake_minimum_eur` (where given; "
     "LU-SLOT-STAKES-DECLARED reports it missing)"),
    ({"kind": "value", "target": "/cards/player_cut", "equals": False, "missing": "allowed"},
     "`cards/player_cut` must be false (where given)"),
    ({"kind": "schedule", "target": "/payouts", "equals": {"plein": 35, "cheval": 17}, "closed": True},
     "`payouts` must give plein 35, cheval 17; no other entry is allowed"),
    ({"kind": "schedule", "target": "/stakes/maxima_eur", "per": "/stakes/minimum_eur", "max": {"plein": 40}},
     "`stakes/maxima_eur` must give plein at most 40 times `stakes/minimum_eur`"),
    ({"kind": "entries", "target": "/side_bets", "allowed": ["super_jack"]}, "`side_bets` may only give super_jack"),
    ({"kind": "count", "target": "/meters", "where": {"role": "drop"}, "min": 1},
     "items of `meters` with role = 'drop': at least 1 such items"),
])
def test_rules_explain_says_what_passes(spec, words):
    assert CHECK_KINDS[spec["kind"]].describe(spec) == words


@pytest.mark.parametrize("condition, words", [
    ({"target": "/shuffler/used", "differs": False}, "`shuffler/used` is not false"),
    ({"target": "/shuffler/deals", "equals": True}, "`shuffler/deals` is true"),
    ({"target": "/table/seats", "max": 7}, "`table/seats` is at most 7"),
    ({"target": "/progressive_jackpot", "present": False}, "`progressive_jackpot` is not given"),
    ({"any": [{"target": "/a", "differs": True}, {"target": "/b", "equals": False}]}, "(`a` is not true or `b` is false)"),
])
def test_a_condition_reads_as_it_means(condition, words):
    assert describe_condition(condition) == words


@pytest.mark.parametrize("predicate, parameter, value", [
    ("equals", True, True), ("equals", True, False), ("differs", "none", "none"), ("differs", "none", "card"),
    ("one_of", [6, 7], 7), ("one_of", [6, 7], 8), ("min", "1000", 999), ("min", "1000", 1000),
    ("max", 7, 7), ("max", 7, 8), ("multiple_of", 20, 40), ("multiple_of", 20, 30),
    ("contains", "coins", ["coins"]), ("contains", "coins", ["tokens"]),
])
def test_a_predicate_says_the_same_as_a_check_and_as_a_condition(predicate, parameter, value):
    from decimal import Decimal
    value = Decimal(value) if isinstance(value, int) and not isinstance(value, bool) else value
    as_check = not list(CHECK_KINDS["value"].compile({"kind": "value", "target": "/x", predicate: parameter})(
        {"x": value}))
    as_condition = compile_condition({"target": "/x", predicate: parameter})({"x": value})
    assert as_check is as_condition


def test_the_published_meta_schema_is_the_generated_one():
    packaged = resources.files("casino_audit").joinpath("schemas", "ruleset.schema.json")  # installed or not
    assert packaged.read_text("utf-8") == published(), \
        "run: python -m casino_audit.law.checks.metaschema > casino_audit/schemas/ruleset.schema.json"
    schema = json.loads(published())
    assert [c["if"]["properties"]["kind"]["const"] for c in schema["properties"]["rules"]["items"]["properties"]
            ["check"]["allOf"]] == list(CHECK_KINDS)


HEAD = "ruleset: x\nextends: lu\nrules:\n  - id: X-A\n    title: t\n    severity: error\n    applies_to: {kind: machine}\n"
TAIL = "    citation: {instrument: lu, article: Art. 1, text: words}\n    rationale: r\n"


def problems_of(tmp_path, middle: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text(HEAD + middle + TAIL, "utf-8")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(path)
    return "\n".join(map(str, raised.value.problems))


@pytest.mark.parametrize("middle, where, words", [
    ("    check: {kind: value, target: /a, min: 1, unti: percent}\n", ":8:", "unknown field `unti`"),
    ("    check:\n      kind: schedule\n      target: /payouts\n      equal: {plein: 35}\n", ":8:",
     "unknown field `equal`"),
    ("    when: [{target: /a, equal: true}]\n    check: {kind: present, target: /a}\n", ":8:", "equal"),
])
def test_the_meta_schema_rejects_a_misspelt_parameter_at_its_line(tmp_path, middle, where, words):
    problems = problems_of(tmp_path, middle)
    assert where in problems and words in problems, problems


@pytest.mark.parametrize("middle, where, words", [
    ("    check: {kind: range, field: /a, min: 1}\n", ":8:", "`kind: range` is now `kind: value` with `min:`"),
    ("    check: {kind: range, field: /a, min: 1}\n", ":8:", "`field:` is now `target:`"),
    ("    check:\n      kind: value\n      target: /a\n      min: 1\n      required: false\n", ":12:",
     "`required: false` is now `missing: allowed`"),
    ("    when: [{field: /a, at_least: 2}]\n    check: {kind: present, target: /a}\n", ":8:", "`at_least:` is now `min:`"),
])
def test_the_earlier_vocabulary_is_refused_with_its_replacement(tmp_path, middle, where, words):
    problems = problems_of(tmp_path, middle)
    assert where in problems and words in problems, problems


@pytest.mark.parametrize("reporter, words", [
    ("LU-NO-SUCH-RULE", "names no rule"),
    ("LU-SLOT-TYPE", "reads none of this rule's targets"),
    ("LU-SLOT-RTP-MIN", "does not report a missing value either"),
])
def test_missing_reported_by_names_a_rule_that_reports_the_same_value(tmp_path, reporter, words):
    problems = problems_of(tmp_path, "    check: {kind: value, target: /redistribution_rate, unit: percent, "
                                     f"min: \"88\", missing: {{reported_by: {reporter}}}}}\n")
    assert ":8:" in problems and words in problems, problems


def test_missing_reported_by_a_rule_that_reports_it_loads(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(HEAD + "    check: {kind: value, target: /redistribution_rate, unit: percent, min: \"88\", "
                           "missing: {reported_by: LU-SLOT-RTP-DECLARED}}\n" + TAIL, "utf-8")
    assert load_ruleset(path).rules[-1].id == "X-A"
