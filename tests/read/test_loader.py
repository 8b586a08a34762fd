"""Bad input never raises and is never skipped silently; good input keeps positions and exact numbers."""

import os
from decimal import Decimal

import pytest

from casino_audit.read.loader import load_file, load_text


def one_finding(loaded):
    assert not loaded.documents or loaded.findings, "expected the file to be reported"
    assert len(loaded.findings) == 1, loaded.findings
    return loaded.findings[0]


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def test_numbers_are_decimal_from_the_text_as_written():
    doc = load_text("rate: 84.999\nmoney: 0.10\nwhole: 85\nbig: 1_000.50\n").documents[0]
    assert doc.data == {"rate": Decimal("84.999"), "money": Decimal("0.10"), "whole": 85, "big": Decimal("1000.50")}
    assert str(doc.data["money"]) == "0.10"


def test_positions_are_kept_by_json_pointer():
    doc = load_text("a:\n  b: [x, {c: 1}]\n'k/~': 2\n").documents[0]
    assert doc.positions["/a"] == (1, 1)
    assert doc.positions["/a/b"] == (2, 3)
    assert doc.positions["/a/b/1"] == (2, 10)
    assert doc.positions["/a/b/1/c"] == (2, 11)
    assert doc.positions["/k~1~0"] == (3, 1)
    assert doc.position("/a/b/7/missing") == (2, 3)  # nearest ancestor in the source


def test_duplicate_key_is_an_error_finding_with_both_positions():
    doc = load_text("rtp: 80 %\nother: 1\nrtp: 92 %\n").documents[0]
    [finding] = doc.findings
    assert finding.rule_id == "LOAD-DUPLICATE-KEY"
    assert (finding.line, finding.column) == (3, 1)
    assert "line 1" in finding.message


def test_duplicate_key_in_json(tmp_path):
    loaded = load_file(write(tmp_path, "a.json", '{\n  "rtp": "80 %",\n  "rtp": "92 %"\n}'))
    [finding] = loaded.documents[0].findings
    assert finding.rule_id == "LOAD-DUPLICATE-KEY" and finding.line == 3


def test_multi_document_yaml_gives_each_document():
    loaded = load_text("a: 1\n---\nb: 2\n---\nc: 3\n")
    assert [d.data for d in loaded.documents] == [{"a": 1}, {"b": 2}, {"c": 3}]
    assert [d.index for d in loaded.documents] == [0, 1, 2]
    assert loaded.documents[2].positions["/c"] == (5, 1)


def test_syntax_error_after_good_documents_keeps_them_and_reports_the_break():
    loaded = load_text("a: 1\n---\nb: [1, 2\n")
    assert [d.data for d in loaded.documents] == [{"a": 1}]
    finding = one_finding(loaded)
    assert finding.rule_id == "LOAD-SYNTAX" and finding.line == 4 and finding.document == 1


@pytest.mark.parametrize("content, rule_id, line", [
    (b"", "LOAD-EMPTY", 1),
    (b"   \n\n# only a comment\n", "LOAD-EMPTY", 1),
    (b"a: \xff\xfe broken\n", "LOAD-ENCODING", 1),
    (b"a: 1\nb: \x00\x01\x02\n", "LOAD-BINARY", 2),
    (b"a: [1,\n  b: {\n", "LOAD-SYNTAX", None),
    (b"key: value\n\tbad: tab\n", "LOAD-SYNTAX", 2),
    (b"a: !!python/object:os.system echo\n", "LOAD-UNSUPPORTED", 1),
    (b"a: !custom 1\n", "LOAD-UNSUPPORTED", 1),
    (b"? [a, b]\n: complex key\n", "LOAD-UNSUPPORTED", 1),
    (b"a: &x [*x]\n", "LOAD-UNSUPPORTED", 1),
    (b"a: 1\x07\n", "LOAD-SYNTAX", 1),
])
def test_bad_yaml_becomes_one_finding(tmp_path, content, rule_id, line):
    finding = one_finding(load_file(write(tmp_path, "bad.yaml", content)))
    assert finding.rule_id == rule_id, finding
    assert finding.message
    if line is not None:
        assert finding.line == line, finding


@pytest.mark.parametrize("content, rule_id", [
    ('{"a": 1,}', "LOAD-SYNTAX"),
    ('{"a": NaN}', "LOAD-SYNTAX"),
    ('{"a": Infinity}', "LOAD-SYNTAX"),
    ('[' * 100000 + ']' * 100000, "LOAD-UNSUPPORTED"),  # deeper than 100 levels
])
def test_bad_json_becomes_one_finding(tmp_path, content, rule_id):
    finding = one_finding(load_file(write(tmp_path, "bad.json", content)))
    assert finding.rule_id == rule_id


def test_json_numbers_are_exact_and_positions_known(tmp_path):
    doc = load_file(write(tmp_path, "a.json", '{\n\t"rate": 84.999,\n\t"n": 1e2\n}')).documents[0]
    assert doc.data == {"rate": Decimal("84.999"), "n": Decimal("1E+2")}
    assert doc.positions["/rate"] == (2, 2)


def test_oversized_file_is_refused_before_reading(tmp_path):
    path = write(tmp_path, "big.yaml", "a: 1\n" * 1000)
    finding = one_finding(load_file(path, max_bytes=100))
    assert finding.rule_id == "LOAD-TOO-LARGE"


def test_alias_bomb_is_stopped():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [{', '.join('*' + prev for _ in range(9))}]")
    finding = one_finding(load_text("\n".join(lines) + "\n"))
    assert finding.rule_id == "LOAD-TOO-LARGE"


def test_deep_nesting_is_refused():
    finding = one_finding(load_text("[" * 5000 + "]" * 5000))
    assert finding.rule_id in ("LOAD-UNSUPPORTED", "LOAD-SYNTAX")


def test_not_a_regular_file(tmp_path):
    assert one_finding(load_file(tmp_path)).rule_id == "LOAD-UNREADABLE"
    assert one_finding(load_file(tmp_path / "nope.yaml")).rule_id == "LOAD-UNREADABLE"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_not_read(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert one_finding(load_file(fifo)).rule_id == "LOAD-UNREADABLE"


def test_yaml_features_a_filing_may_use():
    doc = load_text("base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\nwhen: 2026-01-02\nflag: yes\nnull_: ~\n"
                    "hex: 0x1f\nnan: .nan\n").documents[0]
    assert doc.data["use"] == {"x": 1, "y": 3}
    assert doc.data["when"] == "2026-01-02"  # dates stay text
    assert doc.data["flag"] is True and doc.data["null_"] is None and doc.data["hex"] == 31
    assert doc.data["nan"] == ".nan"  # never a number a rule could compare


def test_bom_is_accepted(tmp_path):
    doc = load_file(write(tmp_path, "bom.yaml", b"\xef\xbb\xbfa: 1\n")).documents[0]
    assert doc.data == {"a": 1}


def test_hostile_numbers_stay_text_and_never_explode():
    doc = load_text("a: 1.0e+999999999\nb: " + "9" * 5000 + "\nc: 0.000000000000000000000000000000000001\n"
                    "d: 12.50\n").documents[0]
    assert doc.data["a"] == "1.0e+999999999" and isinstance(doc.data["b"], str) and isinstance(doc.data["c"], str)
    assert doc.data["d"] == Decimal("12.50")


@pytest.mark.parametrize("content", ['{"a": 1e999999999}', '{"a": ' + "9" * 5000 + "}"])
def test_hostile_json_numbers_are_a_finding(tmp_path, content):
    finding = one_finding(load_file(write(tmp_path, "n.json", content)))
    assert finding.rule_id == "LOAD-SYNTAX" and "too" in finding.message


def test_json_positions_come_from_the_json_text(tmp_path):
    doc = load_file(write(tmp_path, "c.json", '{"a":{"b":[1,{"c":2}]},"k/~":[]}')).documents[0]
    assert doc.positions["/a"] == (1, 2) and doc.positions["/a/b"] == (1, 7)
    assert doc.positions["/a/b/1"] == (1, 14) and doc.positions["/a/b/1/c"] == (1, 15)
    assert doc.positions["/k~1~0"] == (1, 24)
    pretty = load_file(write(tmp_path, "p.json", '{\r\n\t"a": {\r\n\t\t"b": [1, 2]\r\n\t}\r\n}')).documents[0]
    assert pretty.positions["/a"] == (2, 2) and pretty.positions["/a/b/1"] == (3, 12)  # a tab is one column
    with pytest.raises(KeyError):
        pretty.positions["/a/b/9"]
    assert pretty.position("/a/b/9/x") == (3, 3)
    assert sorted(pretty.positions) == ["", "/a", "/a/b", "/a/b/0", "/a/b/1"]


def test_json_syntax_errors_are_located(tmp_path):
    finding = one_finding(load_file(write(tmp_path, "b.json", '{\n  "a": 1,\n  "b": [1 2]\n}')))
    assert finding.rule_id == "LOAD-SYNTAX" and (finding.line, finding.column) == (3, 11)
    assert "expected `,` or `]`" in finding.message


def test_json_values_past_the_node_limit_are_refused(tmp_path):
    finding = one_finding(load_file(write(tmp_path, "n.json", "[" + "0," * 1_000_001 + "0]")))
    assert finding.rule_id == "LOAD-TOO-LARGE"


def test_documents_past_the_limit_are_refused_and_those_before_kept():
    from casino_audit.read.loader import MAX_DOCUMENTS

    loaded = load_text("--- {a: 1}\n" * (MAX_DOCUMENTS + 1))
    assert len(loaded.documents) == MAX_DOCUMENTS
    [finding] = loaded.findings
    assert finding.rule_id == "LOAD-TOO-LARGE" and finding.line == MAX_DOCUMENTS + 1
    assert finding.document == MAX_DOCUMENTS


def test_aliases_count_the_characters_they_repeat():
    text = "a: &a '" + "x" * 1_000_000 + "'\nb: [" + ", ".join(["*a"] * 50) + "]\n"
    assert one_finding(load_text(text)).rule_id == "LOAD-TOO-LARGE"
    assert load_text(text, max_bytes=20 * 1024 * 1024).documents  # 50 MB of values is within 4 x 20 MiB
