"""Rulesets: the shipped ones are valid and cite the law word for word; custom ones extend and fail clearly."""

import re
from pathlib import Path

import pytest

from casino_audit.law.model import RulesetError

from casino_audit.law.rulesets import builtin_names, load_builtin, load_ruleset, rulesets_dir
from casino_audit.documents.shape import ShapeValidator, packaged_schema
from casino_audit.read.loader import load_file
from helpers.citations import SOURCES, normalise


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
    for game, play in ruleset.play.items():
        assert normalise(play.citation.text) in source, game


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
    check: {kind: value, target: /redistribution_rate, unit: percent, min: "88", missing: {reported_by: LU-SLOT-RTP-DECLARED}}
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
     "    check: {kind: value, target: /a, minimum: 1}\n    citation: {article: Art. 1, text: words}\n    rationale: r\n",
     ":8:", "minimum"),
    ("ruleset: x\nextends: lu\nrules:\n  - id: X-A\n    title: t\n    severity: error\n    applies_to: {kind: machine}\n"
     "    check: {kind: telepathy}\n    citation: {article: Art. 1, text: words}\n    rationale: r\n",
     ":8:", "expected one of 'present', 'value'"),
    ("ruleset: x\nextends: lu\nrules:\n  - id: X-A\n    title: t\n    severity: error\n    applies_to: {kind: machine}\n"
     "    check: {kind: value, target: /a, min: {param: nope}}\n    citation: {article: Art. 1, text: words}\n"
     "    rationale: r\n", ":8:", "does not declare"),
    ("ruleset: x\nextends: lu\nrules:\n  - id: X-A\n    title: t\n    severity: fatal\n    applies_to: {kind: machine}\n"
     "    check: {kind: present, target: /a}\n    citation: {article: Art. 1, text: words}\n    rationale: r\n",
     ":6:", "fatal"),
    ("ruleset: x\nrules: []\nrules: []\n", ":3:1", "duplicate key"),
])
def test_malformed_ruleset_is_reported_with_its_position(tmp_path, text, where, words):
    with pytest.raises(RulesetError) as raised:
        load_ruleset(write(tmp_path, text))
    problems = "\n".join(map(str, raised.value.problems))
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
            "    applies_to: {kind: machine}\n    check: {kind: value, target: /a, min: {parm: x}}\n"
            "    citation: {article: Art. 1, text: words}\n    rationale: r\n")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(write(tmp_path, text))
    problems = "\n".join(map(str, raised.value.problems))
    assert ":8:" in problems and "unknown field `parm`; did you mean `param`?" in problems, problems
    assert "is not valid under any of the given schemas" not in problems, problems


def test_coverage_document_is_generated_from_the_rulesets():
    from casino_audit.report.coverage import markdown

    rulesets = [load_builtin(name) for name in builtin_names()]
    generated = markdown(rulesets)
    committed = (Path(__file__).resolve().parents[2] / "docs" / "coverage.md").read_text("utf-8")
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


# --- extends: where it may reach, how deep, what it may say -------------------------------------------------

SECRET = "password: hunter2-0310\napi_key: &k sk-live-1234567890\n"


@pytest.mark.parametrize("target", ["../outside.yaml", "/etc/passwd", "sub/../../outside.yaml", "link.yaml"])
def test_extends_reaches_no_file_outside_the_rulesets_own_directory(tmp_path, target):
    house = tmp_path / "house"
    house.mkdir()
    write(tmp_path, "ruleset: outside\nextends: lu\nrules: []\n", "outside.yaml")
    (house / "link.yaml").symlink_to(tmp_path / "outside.yaml")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(write(house, f"ruleset: x\nextends: {target}\nrules: []\n"))
    [problem] = map(str, raised.value.problems)
    assert ":2:" in problem and "outside this ruleset's directory" in problem


def test_extends_a_file_below_the_rulesets_directory(tmp_path):
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "ruleset: base\nextends: lu\nrules: []\n", "base.yaml")
    ruleset = load_ruleset(write(tmp_path, "ruleset: x\nextends: sub/base.yaml\nrules: []\n"))
    assert ruleset.chain == ("x", "base", "lu")


@pytest.mark.parametrize("secret", [SECRET, "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n",
                                    "ruleset: [hunter2-0310]\nrules: 1\n", "a: 0310\nhunter2-0310: 1\nhunter2-0310: 2\n",
                                    b"\xff\xfehunter2-0310", "{hunter2-0310"])
def test_an_extended_file_that_is_no_ruleset_is_located_never_quoted(tmp_path, secret):
    (tmp_path / "secret.yaml").write_bytes(secret if isinstance(secret, bytes) else secret.encode())
    with pytest.raises(RulesetError) as raised:
        load_ruleset(write(tmp_path, "ruleset: x\nextends: secret.yaml\nrules: []\n"))
    problems = "\n".join(map(str, raised.value.problems))
    assert ":2:" in problems and "not a valid ruleset" in problems
    for leak in ("hunter2", "0310", "sk-live", "MIIE", "BEGIN"):
        assert leak not in problems, problems


@pytest.mark.parametrize("text", [SECRET, "- hunter2-0310\n", "hunter2-0310\n", "{a: 0310}\n"])
def test_a_file_that_is_no_ruleset_is_not_quoted(tmp_path, text):
    with pytest.raises(RulesetError) as raised:
        load_ruleset(write(tmp_path, text, "notes.yaml"))
    problems = "\n".join(map(str, raised.value.problems))
    assert "hunter2" not in problems and "0310" not in problems and "sk-live" not in problems, problems


@pytest.mark.parametrize("depth", [21, 150, 400])
def test_a_deep_extends_chain_is_a_clean_ruleset_error(tmp_path, depth):
    write(tmp_path, "ruleset: r0\nextends: lu\nrules: []\n", "r0.yaml")
    for number in range(1, depth):
        write(tmp_path, f"ruleset: r{number}\nextends: r{number - 1}.yaml\nrules: []\n", f"r{number}.yaml")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(tmp_path / f"r{depth - 1}.yaml")
    assert "more than 20 rulesets" in "\n".join(map(str, raised.value.problems))


def test_a_chain_of_twenty_is_fine(tmp_path):
    write(tmp_path, "ruleset: r0\nextends: lu\nrules: []\n", "r0.yaml")
    for number in range(1, 19):
        write(tmp_path, f"ruleset: r{number}\nextends: r{number - 1}.yaml\nrules: []\n", f"r{number}.yaml")
    assert len(load_ruleset(tmp_path / "r18.yaml").chain) == 20


def test_a_house_ruleset_may_not_take_a_builtin_name(tmp_path):
    with pytest.raises(RulesetError) as raised:
        load_ruleset(write(tmp_path, "ruleset: lu\nextends: lu\nrules: []\n"))
    [problem] = map(str, raised.value.problems)
    assert ":1:1:" in problem and "built-in" in problem


def test_a_large_ruleset_extended_twenty_times_is_read_once(tmp_path, monkeypatch):
    from casino_audit.law import rulesets

    write(tmp_path, HOUSE.replace("ruleset: house", "ruleset: big"), "big.yaml")
    for number in range(20):
        write(tmp_path, f"ruleset: small{number}\nextends: big.yaml\nrules: []\n", f"small{number}.yaml")
    parsed = []
    real = rulesets.load_bytes
    monkeypatch.setattr(rulesets, "load_bytes", lambda raw, path, *a: parsed.append(path) or real(raw, path, *a))
    loaded = [load_ruleset(tmp_path / f"small{number}.yaml") for number in range(20)]
    assert sum(path.endswith("big.yaml") for path in parsed) <= 1
    assert len({id(ruleset.parent) for ruleset in loaded}) == 1
    write(tmp_path, HOUSE.replace("ruleset: house", "ruleset: big").replace('"88"', '"89"'), "big.yaml")
    changed = load_ruleset(tmp_path / "small0.yaml")  # new bytes, new digest: read again
    assert any(rule.check.get("min") == "89" for rule in changed.rules)


def test_ruleset_records_its_file_digest_parent_and_replaced_rules(tmp_path):
    import hashlib

    path = write(tmp_path, HOUSE)
    house, lu = load_ruleset(path), load_builtin("lu")
    assert house.path == str(path) and house.digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert house.parent is not None and house.parent.name == "lu" and house.parent.parent is None
    assert house.parent.digest == hashlib.sha256((rulesets_dir() / "lu.yaml").read_bytes()).hexdigest()
    [(old, new)] = house.replaced
    assert old.id == new.id == "LU-SLOT-RTP-MIN"
    assert old is next(rule for rule in lu.rules if rule.id == old.id) and new.check["min"] == "88"
    assert lu.replaced == [] and house.chain == ("house", "lu")
