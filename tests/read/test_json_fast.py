"""The C decoder's fast path reads a JSON filing exactly as the position-keeping tokenizer does, or steps aside."""

from __future__ import annotations

import json
from decimal import Decimal

from hypothesis import given, settings, strategies as st

from casino_audit.read.json_fast import _brackets_nest_within, _nests_within, read_fast
from casino_audit.read.json_reader import JsonProblem, JsonReader
from casino_audit.read.loader import load_text
from helpers.json_values import LIMITS, json_values, same


def tokenizer(text: str):
    reader = JsonReader(text, "f.json", *LIMITS)
    try:
        data, _ = reader.read()
    except JsonProblem as problem:
        return ("problem", problem.rule_id), reader.findings
    return data, reader.findings


pieces = st.sampled_from(['{', '}', '[', ']', ',', ':', '"a"', '"b"', '1', '-0', '1.50', '1e400', 'NaN', 'true',
                          'null', '"\\ud800"', '"\\u00e9"', ' ', '\n', '"\\"', "'x'", '9' * 40, '0.' + '1' * 40])


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_what_the_fast_path_reads_the_tokenizer_reads_alike(value):
    text = json.dumps(value, ensure_ascii=False)
    fast = read_fast(text, "f.json", *LIMITS)
    data, findings = tokenizer(text)
    if fast is not None:
        assert not findings and same(fast[0], data)


@settings(max_examples=300, deadline=None)
@given(st.lists(pieces, max_size=12).map("".join))
def test_the_fast_path_steps_aside_for_anything_the_tokenizer_would_say(text):
    fast = read_fast(text, "f.json", *LIMITS)
    data, findings = tokenizer(text)
    if fast is not None:
        assert not findings, findings
        assert not (isinstance(data, tuple) and data and data[0] == "problem"), data
        assert same(fast[0], data)


def test_duplicate_keys_and_deep_nesting_go_to_the_tokenizer():
    assert read_fast('{"a": 1, "a": 2}', "f.json", *LIMITS) is None
    assert read_fast("[" * 101 + "]" * 101, "f.json", *LIMITS) is None
    loaded = load_text('{\n"a": 1,\n"a": 2}', "f.json", json_syntax=True)
    [duplicate] = loaded.documents[0].findings
    assert duplicate.rule_id == "LOAD-DUPLICATE-KEY" and duplicate.line == 3


def depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


# Strings full of what the bracket reading must not be fooled by: brackets, quotes, backslashes.
tricky_text = st.text(alphabet='[]{}"\\ab,:', max_size=6)
nested = st.recursive(st.none() | st.integers(0, 9) | tricky_text,
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(tricky_text, inner, max_size=3),
                      max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(nested, st.integers(0, 8), st.sampled_from([None, 1]))
def test_nesting_is_measured_exactly_from_the_text_or_the_data(value, limit, indent):
    raw = json.dumps(value, indent=indent).encode()
    from_text = _brackets_nest_within(raw, limit)
    assert from_text is None or from_text == (depth(value) <= limit)
    assert _nests_within(value, limit) == (depth(value) <= limit)


def test_deep_nesting_behind_a_string_of_closing_brackets_is_still_deep():
    hidden = "[" * 60 + '"' + "]" * 40 + '",' + "[" * 50 + "]" * 50 + "]" * 60  # 110 levels
    assert _brackets_nest_within(hidden.encode(), 100) is None
    assert read_fast(hidden, "f.json", *LIMITS) is None
    plain = "[" * 60 + '"ab",' + "[" * 40 + "]" * 40 + "]" * 60  # 100 levels
    assert _brackets_nest_within(plain.encode(), 100) is True and read_fast(plain, "f.json", *LIMITS) is not None


def test_positions_are_found_when_asked():
    loaded = load_text('{\n  "machine": {\n    "model": "X"\n  }\n}', "f.json", json_syntax=True)
    document = loaded.documents[0]
    assert type(document.positions).__name__ == "LazyPositions"
    assert document.position("/machine/model") == (3, 5)


@settings(max_examples=100, deadline=None)
@given(json_values, st.sampled_from([None, 0, 2, 4]), st.lists(st.sampled_from(["a", "0", "1", "x", "00", ""]),
                                                                max_size=3))
def test_the_text_walk_finds_every_position_the_tokenizer_records(value, indent, extra):
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    fast = read_fast(text, "f.json", *LIMITS)
    if fast is None:
        return
    table = JsonReader(text, "f.json", *LIMITS).read()[1]
    lazy = fast[1]
    for pointer in table:
        assert lazy.nearest(pointer) == table.nearest(pointer), pointer
        below = pointer + "".join("/" + segment for segment in extra)  # not written: its nearest ancestor
        assert lazy.nearest(below) == table.nearest(below), below
