"""Rulesets: the shipped ones are valid and cite the law word for word; custom ones extend and fail clearly."""

import re
from pathlib import Path

import pytest

from casino_audit.rulesets import RulesetError, builtin_names, load_builtin, load_ruleset, rulesets_dir
from casino_audit.shape import ShapeValidator, packaged_schema
from casino_audit.loader import load_file

SOURCES = {"LU": "lu-rgd-2002-03-08.txt", "PT": "pt-portaria-217-2007.txt", "MC": "mc-am-2003-281.txt"}


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("name", builtin_names())
def test_shipped_ruleset_validates_against_the_meta_schema(name):
    data = load_file(rulesets_dir() / f"{name}.yaml").documents[0].data
    assert ShapeValidator(packaged_schema("ruleset.schema.json")).errors(data) == []
    assert load_builtin(name).rules


@pytest.mark.parametrize("name", builtin_names())
def test_every_citation_quotes_the_original_words(name):
    ruleset = load_builtin(name)
    source = normalise((rulesets_dir() / "sources" / SOURCES[ruleset.code]).read_text("utf-8"))
    for rule in ruleset.rules:
        assert rule.citation.article.startswith(("Art.", "Article", "n.º", "Título", "Capítulo")), rule.id
        assert len(rule.citation.text) >= 20, rule.id
        assert normalise(rule.citation.text) in source, f"{rule.id}: citation not found word for word"
        assert rule.citation.language == ruleset.instrument["language"]
    for param in ruleset.params.values():
        assert normalise(param.citation.text) in source, param.name


def test_rule_ids_are_unique_and_stable_in_form():
    for name in builtin_names():
        ids = [rule.id for rule in load_builtin(name).rules]
        assert len(ids) == len(set(ids))
        assert all(re.fullmatch(r"[A-Z]{2}-[A-Z]+(-[A-Z0-9]+)+", i) for i in ids), ids


def write(tmp_path: Path, text: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


HOUSE = """\
ruleset: house
extends: lu
instruments:
  policy: {title: Casino house policy HP-7, language: en}
rules:
  - id: LU-SLOT-RTP-MIN
    title: House policy, RTP at least 88 %
    severity: error
    applies_to: {kind: machine}
    check: {kind: range, field: /redistribution_rate, unit: percent, min: "88", required: false}
    citation: {instrument: policy, article: HP-7 s. 2, text: Machines return at least 88 per cent.}
    rationale: Tighter than the law's 85 %.
"""


def test_a_house_ruleset_extends_and_tightens_the_law(tmp_path):
    house = load_ruleset(write(tmp_path, HOUSE))
    lu = load_builtin("lu")
    assert house.code == "LU" and house.chain == ("house", "lu")
    assert len(house.rules) == len(lu.rules)
    rule = next(r for r in house.rules if r.id == "LU-SLOT-RTP-MIN")
    assert rule.citation.instrument == "Casino house policy HP-7" and "88" in rule.check["min"]


@pytest.mark.parametrize("text, where, words", [
    ("ruleset: x\nextends: lu\nrules:\n  - id: X-A\n", ":4:", "required"),
    ("ruleset: x\nextends: lu\nrules: []\nbogus: 1\n", ":4:1", "unknown field `bogus`"),
    ("ruleset: x\nextends: nowhere\nrules: []\n", ":2:", "names no built-in ruleset"),
    ("ruleset: x\nextends: lu\nrules:\n  - id: X-A\n    title: t\n    severity: error\n    applies_to: {kind: machine}\n"
     "    check: {kind: range, field: /a, minimum: 1}\n    citation: {article: Art. 1, text: words}\n    rationale: r\n",
     ":8:", "range"),
    ("ruleset: x\nextends: lu\nrules:\n  - id: X-A\n    title: t\n    severity: error\n    applies_to: {kind: machine}\n"
     "    check: {kind: telepathy}\n    citation: {article: Art. 1, text: words}\n    rationale: r\n",
     ":8:", "unknown check kind"),
    ("ruleset: x\nextends: lu\nrules:\n  - id: X-A\n    title: t\n    severity: error\n    applies_to: {kind: machine}\n"
     "    check: {kind: range, field: /a, min: {param: nope}}\n    citation: {article: Art. 1, text: words}\n"
     "    rationale: r\n", ":8:", "does not declare"),
    ("ruleset: x\nextends: lu\nrules:\n  - id: X-A\n    title: t\n    severity: fatal\n    applies_to: {kind: machine}\n"
     "    check: {kind: present, field: /a}\n    citation: {article: Art. 1, text: words}\n    rationale: r\n",
     ":6:", "fatal"),
    ("ruleset: x\nrules: []\nrules: []\n", ":3:1", "duplicate key"),
])
def test_malformed_ruleset_is_reported_with_its_position(tmp_path, text, where, words):
    with pytest.raises(RulesetError) as raised:
        load_ruleset(write(tmp_path, text))
    problems = "\n".join(raised.value.problems)
    assert where in problems and words in problems, problems


def test_extends_cycle_is_refused(tmp_path):
    write(tmp_path, "ruleset: a\nextends: b.yaml\nrules: []\n", "a.yaml")
    write(tmp_path, "ruleset: b\nextends: a.yaml\nrules: []\n", "b.yaml")
    with pytest.raises(RulesetError, match="circle"):
        load_ruleset(tmp_path / "a.yaml")


def test_params_are_typed():
    param = load_builtin("lu").params["slot_stake_minimum_eur"]
    assert str(param.parse("0.50")) == "0.50"
    with pytest.raises(ValueError):
        param.parse("fifty cents")


def test_one_of_errors_show_the_best_match_not_every_alternative(tmp_path):
    text = ("ruleset: x\nextends: lu\nrules:\n  - id: X-A\n    title: t\n    severity: error\n"
            "    applies_to: {kind: machine}\n    check: {kind: range, field: /a, min: {parm: x}}\n"
            "    citation: {article: Art. 1, text: words}\n    rationale: r\n")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(write(tmp_path, text))
    problems = "\n".join(raised.value.problems)
    assert ":8:" in problems and "unknown field `parm`; did you mean `param`?" in problems, problems
    assert "is not valid under any of the given schemas" not in problems, problems


def test_coverage_document_is_generated_from_the_rulesets():
    from casino_audit.coverage import markdown

    rulesets = [load_builtin(name) for name in builtin_names()]
    generated = markdown(rulesets)
    committed = (Path(__file__).resolve().parent.parent / "docs" / "coverage.md").read_text("utf-8")
    assert committed == generated, "run: casino-audit rules list --format markdown > docs/coverage.md"
    for ruleset in rulesets:
        assert ruleset.not_encoded, f"{ruleset.name} says nothing of what it leaves out"
        for rule in ruleset.rules:
            assert f"`{rule.id}`" in generated


def test_same_game_is_judged_by_each_jurisdictions_own_rules():
    lu, mc = load_builtin("lu"), load_builtin("mc")
    assert {r.jurisdiction for r in lu.rules} == {"LU"} and {r.jurisdiction for r in mc.rules} == {"MC"}
    assert any(r.id == "LU-STUD-MAXIMUM" for r in lu.rules)
    assert not any("MAXIMUM" in r.id for r in mc.rules)  # Monaco sets no coefficient
