"""A filer trying to sneak a value past the loader. For every input: load_file returns findings or documents
and never raises; where the value read differs from what a person reads, there is a finding at its line and
the value is kept as the text written (so it also fails its schema where a number is expected)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino_audit.read.loader import load_file, load_text

AMBIGUOUS = "LOAD-AMBIGUOUS"


def load(tmp_path, content: str | bytes, name: str = "f.yaml"):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return load_file(path)


def all_findings(loaded) -> list:
    return list(loaded.findings) + [f for document in loaded.documents for f in document.findings]


def ids_at(loaded) -> set[tuple[str, int | None]]:
    return {(f.rule_id, f.line) for f in all_findings(loaded)}


# --- YAML 1.1 readings a person does not see: (text, the value kept, the line of the finding) -------------

@pytest.mark.parametrize("text, kept, line", [
    ("kind: x\nrate: 0310\n", "0310", 2),  # octal 200 in YAML 1.1
    ("rate: -012\n", "-012", 1),
    ("rate: 0_7\n", "0_7", 1),
    ("rate: 08\n", "08", 1),  # text in YAML 1.1, 8 in YAML 1.2
    ("time: 5:10\n", "5:10", 1),  # base 60: 310
    ("time: 1:30.5\n", "1:30.5", 1),
    ("time: 12:30:00\n", "12:30:00", 1),
    ("a: 1\nodds: 1:2\n", "1:2", 2),
    ("n: 1__0\n", "1__0", 1),  # YAML 1.1 drops the underscores: 10
    ("n: 1_\n", "1_", 1),
    ("n: 1._5\n", "1._5", 1),
    ("n: 1e5\n", "1e5", 1),  # a number in YAML 1.2, text in YAML 1.1
    ("n: 1.5e3\n", "1.5e3", 1),
    ("n: 1e400\n", "1e400", 1),
    ("n: +.5\n", "+.5", 1),
    ("n: 0o17\n", "0o17", 1),
    ("n: 0x_\n", "0x_", 1),  # resolves as int, has no digits
    ("n: 0b_\n", "0b_", 1),
    ("n: .inf\n", ".inf", 1),
    ("n: -.inf\n", "-.inf", 1),
    ("n: .nan\n", ".nan", 1),
    ("n: " + "9" * 40 + "\n", "9" * 40, 1),
    ("n: 1.0e+999999999\n", "1.0e+999999999", 1),
    ('outside: !!bool "yes, outside too"\n', "yes, outside too", 1),  # YAML 1.1 reads false
    ("n: !!int abc\n", "abc", 1),
    ("n: !!int 0310\n", "0310", 1),
    ("n: !!int 1.5\n", "1.5", 1),
    ("n: !!float abc\n", "abc", 1),
    ("n: !!float .inf\n", ".inf", 1),
    ("n: !!null nothing\n", "nothing", 1),
    ("n: !!timestamp soon\n", "soon", 1),
])
def test_a_reading_a_person_would_not_see_is_a_finding_and_the_text_is_kept(text, kept, line):
    loaded = load_text(text)
    [document] = loaded.documents
    assert list(document.data.values())[-1] == kept
    assert (AMBIGUOUS, line) in ids_at(loaded), all_findings(loaded)


@pytest.mark.parametrize("text, value", [
    ("n: 0\n", 0), ("n: 0.5\n", Decimal("0.5")), ("n: -0.5\n", Decimal("-0.5")), ("n: 00.5\n", Decimal("0.5")),
    ("n: +1\n", 1), ("n: -0\n", 0), ("n: 1_000\n", 1000), ("n: 1_000.50\n", Decimal("1000.50")),
    ("n: 1.\n", Decimal("1")), ("n: 1.5e+3\n", Decimal("1.5e+3")), ("n: 0x1f\n", 31), ("n: -0x1f\n", -31),
    ("n: 0b101\n", 5), ("n: yes\n", True), ("n: Off\n", False), ("n: ~\n", None), ("n:\n", None),
    ("n: 2026-01-02\n", "2026-01-02"), ("n: !!timestamp 2026-01-02\n", "2026-01-02"), ('n: "0310"\n', "0310"),
    ("n: '5:10'\n", "5:10"), ("n: !!str 0310\n", "0310"), ("n: ! 0310\n", "0310"), ("n: !!int 12\n", 12),
    ("n: !!float 1\n", Decimal("1")), ("n: !!bool yes\n", True), ("n: !!null ~\n", None), ("n: =\n", "="),
    ("n: <<\n", "<<"), ("0310: key as written\n", "key as written"), ("n: 1:60\n", "1:60"),
])
def test_what_reads_as_written_has_no_finding(text, value):
    loaded = load_text(text)
    [document] = loaded.documents
    assert list(document.data.values())[0] == value
    assert all_findings(loaded) == []


def test_a_second_merge_key_is_ambiguous_and_the_mapping_still_read():
    loaded = load_text("a: &a {x: 1}\nb: &b {x: 2, y: 2}\nc:\n  <<: *a\n  <<: *b\n  z: 3\n")
    [document] = loaded.documents
    assert (AMBIGUOUS, 5) in ids_at(loaded)
    assert document.data["c"]["z"] == 3 and document.data["c"]["y"] == 2


def test_merge_keeps_written_keys_and_their_positions():
    loaded = load_text("base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n")
    [document] = loaded.documents
    assert document.data["use"] == {"x": 1, "y": 3}
    assert document.positions["/use/y"] == (4, 3)  # the key written here, not the merged one
    assert document.positions["/use/x"] == (1, 11)  # where the merged value is written
    assert all_findings(loaded) == []


@pytest.mark.parametrize("text, line", [
    ("%TAG !! tag:example.com,2000:\n---\na: 1\n", 1),
    ("%TAG !e! tag:yaml.org,2002:\n---\na: !e!bool yes\n", 1),  # a standard tag in disguise
    ("%YAML 1.1\n%TAG !! tag:example.com,2000:app/\n---\na: 1\n", 2),
    ("%YAML 1.2\n---\nanswer: no\n", 1),  # declares 1.2, where `no` is text, but is read as 1.1
])
def test_directives_that_change_what_is_read_are_findings(text, line):
    loaded = load_text(text)
    assert (AMBIGUOUS, line) in ids_at(loaded), all_findings(loaded)


def test_a_duplicate_anchor_is_ambiguous():
    loaded = load_text("a: &x 1\nb: &x 2\nc: *x\n")
    assert (AMBIGUOUS, 2) in ids_at(loaded)
    assert loaded.documents[0].data["c"] == 2


def test_anchors_on_keys_make_a_duplicate_visible():
    loaded = load_text("&k rate: 80 %\n*k : 92 %\n")
    assert ("LOAD-DUPLICATE-KEY", 2) in ids_at(loaded)


# --- characters a person cannot see --------------------------------------------------------------------

@pytest.mark.parametrize("text, line", [
    ("a: 1\nb: L\ufeffU\n", 2),  # a byte-order mark in the middle
    ("rate: 1\u2028b: 2\n", 1),  # a line break to YAML 1.1, not to YAML 1.2 or most editors
    ("rate: 1\u2029b: 2\n", 1),
    ("rate: 1\x85b: 2\n", 1),  # NEL
    ("a: 1\nredistribution\u200b_rate: 80 %\n", 2),  # zero-width space in a key
    ("a: 1\njurisdiction: L\u200dU\n", 2),
    ("# \u202e a comment that reverses what follows\nrate: 80 %\n", 1),  # bidi override (Trojan Source)
    ('a: 1\nb: "x\u2066y"\n', 2),
])
def test_invisible_characters_are_findings_where_they_are(text, line):
    loaded = load_text(text)
    assert loaded.documents, all_findings(loaded)  # still checked
    assert (AMBIGUOUS, line) in ids_at(loaded), all_findings(loaded)


def test_invisible_characters_by_the_million_are_a_bounded_number_of_findings():
    loaded = load_text("a: '" + "\u200b" * 1_000_000 + "'\n")
    found = [f for f in all_findings(loaded) if f.rule_id == AMBIGUOUS]
    assert 1 <= len(found) <= 20 and "999,980 more" in found[-1].message


# --- JSON -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("noise", ["\x7f", "\x85", "\x9b", "\u2028", "\ufeff"])
def test_json_positions_and_duplicate_keys_survive_any_character(tmp_path, noise):
    content = '{\n  "note": "a' + noise + 'b",\n  "rtp": "80 %",\n  "rtp": "92 %"\n}'
    loaded = load(tmp_path, content, "f.json")
    [document] = loaded.documents
    assert ("LOAD-DUPLICATE-KEY", 4) in ids_at(loaded)
    assert document.positions["/note"] == (2, 3) and document.positions["/rtp"] == (4, 3)
    assert (AMBIGUOUS, 2) in ids_at(loaded)  # the invisible character itself


@pytest.mark.parametrize("content, line", [
    ('{\n  "a": "\\ud800"\n}', 2),
    ('{\n  "a": 1,\n  "k\\udc00": 2\n}', 3),
    ('{"a": "\\udbff\\u0041"}', 1),
])
def test_json_lone_surrogate_is_an_encoding_finding_and_outputs_still_work(tmp_path, content, line):
    loaded = load(tmp_path, content, "f.json")
    [document] = loaded.documents
    assert ("LOAD-ENCODING", line) in ids_at(loaded)
    json.dumps(document.data, ensure_ascii=False).encode("utf-8")  # nothing left that cannot be written
    assert any("\\ud" in key or "\\ud" in str(value) for key, value in document.data.items())


def test_json_surrogate_pair_is_one_character():
    loaded = load_text('{"a": "\\ud83d\\ude00"}', json_syntax=True)
    assert loaded.documents[0].data == {"a": "\U0001f600"} and all_findings(loaded) == []


def test_yaml_surrogate_escape_is_an_encoding_finding():
    loaded = load_text('a: 1\nb: "\\ud800"\n')
    assert ("LOAD-ENCODING", 2) in {(f.rule_id, f.line) for f in loaded.findings}


# --- everything else a filer might try: never a traceback -------------------------------------------------

CORPUS = [
    "a:\tb\n", "a:\n\tb: 1\n", "a: 1\r\nb: 0310\r\n", "a: 1\rb: 2\r", "a: " + "x" * 1_000_000 + "\n",
    "{a: " * 200 + "1" + "}" * 200 + "\n", "[" * 99 + "]" * 99, "? [a, b]\n: x\n", "? a\n: b\n", "? \n: b\n",
    "a: !!python/object:os.system echo\n", "a: !!python/name:os.system\n", "a: !!set {x, y}\n",
    "a: !!omap [{x: 1}]\n", "a: !!binary aGVsbG8=\n", "a: !!pairs [x: 1]\n", "a: !custom 1\n", "!!str {a: 1}\n",
    "a: &x [*x]\n", "a: *nowhere\n", "a: &a {<<: *a}\n", "b: {<<: 5}\n", "b: {<<: [1, 2]}\n",
    "--- |\n%TAG !! tag:x,1:\n", "%TAG !! tag:x,1:\n--- !!int 5\n", "--- 5\n", "--- ~\n", "---\n...\n",
    "- " * 150 + "x\n", "a: '\\ud800'\n", "'" + "k" * 2000 + "': 1\n", "a: 1\n" * 3 + "---\n" * 3,
    "a: \x00\n", "a: \x1b[2J\n", "a: 1\n\ufeffb: 2\n", "a: \x7f\n", "\ufeff\ufeffa: 1\n", "a: \U0010ffff\n", "a: \ue000\n",
    "a: " + "[" * 120 + "]" * 120 + "\n", "x: " + ", ".join(["*a"] * 10) + "\n",
]


@pytest.mark.parametrize("content", CORPUS, ids=range(len(CORPUS)))
@pytest.mark.parametrize("name", ["f.yaml", "f.json"])
def test_hostile_input_never_raises(tmp_path, content, name):
    loaded = load(tmp_path, content, name)
    assert loaded.documents or loaded.findings
    for finding in all_findings(loaded):
        assert finding.message and finding.rule_id.startswith("LOAD-")
        assert len(finding.message) < 1000  # a finding quotes, it does not copy


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200), st.booleans())
def test_any_text_loads_without_raising(text, json_syntax):
    loaded = load_text(text, json_syntax=json_syntax)
    for document in loaded.documents:
        json.dumps(document.data, default=str, ensure_ascii=False).encode("utf-8")
        for pointer in document.positions:
            assert document.position(pointer) is not None
