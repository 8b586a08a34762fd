"""A finding's position in a log line is looked up without reading the line again per finding: the line is read
with its positions once, when its first finding asks, however many findings it has (a 1 MB line with a hundred
findings was read a hundred times: 36-39 s, 150 s with a baseline). The cost itself is measured by
benchmarks/bench_hostile.py; here, the number of readings and that the positions are the same."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
import records  # noqa: E402

from casino_audit.read import loader
from casino_audit.logs.reader import LogRecord, read_json_lines


@pytest.fixture
def readings(monkeypatch):
    """How many times a log line was read again for its positions."""
    calls = []
    real = loader.load_text

    def counted(text, *args, **kwargs):
        calls.append(len(text))
        return real(text, *args, **kwargs)
    monkeypatch.setattr(loader, "load_text", counted)
    return calls


@pytest.mark.parametrize("baseline", [False, True])
def test_a_long_line_with_many_findings_is_read_again_once(cli, tmp_path, readings, baseline):
    log = records.write_long_line(tmp_path, bets=2000, bad=100)
    options = ["--param", "roulette_zero_rule=lose", "--max-per-rule", "0", "--format", "json"]
    if baseline:
        cli("check", str(log), *options[:2], "--write-baseline", str(tmp_path / "b.json"))
        options += ["--baseline", str(tmp_path / "b.json")]
        readings.clear()
    report = json.loads(cli("check", str(log), *options).stdout)
    settled = [f for f in report["findings"] if f["rule_id"] == "LU-ROUL-LOG-SETTLEMENT" and f["line"] == 2]
    assert len(settled) == 100, report["summary"]
    assert len({f["column"] for f in settled}) == 100  # each at its own bet
    assert report["summary"]["baselined"] == (100 if baseline else 0)
    assert len(readings) == 1, len(readings)  # the coup's line, once


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                                max_size=4), max_leaves=20),
       st.lists(st.lists(st.text(max_size=4) | st.integers(0, 5).map(str), max_size=4), max_size=8))
def test_positions_asked_again_are_those_of_a_fresh_reading(data, asked):
    """Whatever is asked first, each pointer's position is the one a line read for that pointer alone gives."""
    text = json.dumps(data, indent=None) + "\n"
    kept = LogRecord("x.jsonl", 1, data, 7, text)
    pointers = ["".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts) for parts in asked]
    for pointer in pointers + pointers:
        assert kept.position(pointer) == LogRecord("x.jsonl", 1, data, 7, text).position(pointer)


def test_a_record_read_from_a_file_answers_every_position_from_one_reading(tmp_path, readings):
    path = tmp_path / "a.jsonl"
    path.write_text('{"kind": "game-log"}\n{"a": [1, {"b": 2}], "c": "x"}\n', encoding="utf-8")
    header, record = list(read_json_lines(str(path)))
    assert [record.position(p) for p in ("/a/1/b", "/c", "/a/0", "/missing", "")] == \
        [(2, 12), (2, 22), (2, 8), (2, 1), (2, 1)]
    assert readings == [len('{"a": [1, {"b": 2}], "c": "x"}\n')]
