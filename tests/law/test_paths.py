"""Rules' paths through a filing, and a finding's position in a JSON filing found by searching for its key (tests/read/test_json_fast.py
holds the walk in general)."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings, strategies as st

from casino_audit.read.json_fast import read_fast
from casino_audit.read.json_reader import JsonReader

LIMITS = (1_000_000, 100)

# Few keys, also written as values and inside other keys, so that a key is often written several times.
names = st.sampled_from(["a", "b", "ab", "", "a b", "é", "[", "{a}"])
crowded = st.recursive(
    st.none() | st.integers(-3, 3) | names,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(names, inner, max_size=4),
    max_leaves=25)
spacing = st.sampled_from([(",", ":"), (", ", ": "), (",", " : "), (",", "\n:\t"), (" ,", ":")])


@settings(max_examples=300, deadline=None)
@given(crowded, spacing, st.sampled_from([None, 0, 2]), st.lists(names | st.sampled_from(["0", "1", "00"]),
                                                                   max_size=2))
def test_a_key_searched_for_is_found_where_the_tokenizer_records_it(value, separators, indent, extra):
    text = json.dumps(value, ensure_ascii=False, separators=separators, indent=indent)
    fast = read_fast(text, "f.json", *LIMITS)
    assert fast is not None
    table = JsonReader(text, "f.json", *LIMITS).read()[1]
    lazy = fast[1]
    for pointer in table:
        assert lazy.nearest(pointer) == table.nearest(pointer), (text, pointer)
        below = pointer + "".join("/" + segment.replace("~", "~0").replace("/", "~1") for segment in extra)
        assert lazy.nearest(below) == table.nearest(below), (text, below)


def test_a_key_written_twice_in_the_text_is_found_in_its_own_mapping():
    text = '{"a": {"x": 1}, "b": {"x": 2}, "x": 3}'
    positions = read_fast(text, "f.json", *LIMITS)[1]
    assert positions.nearest("/b/x") == (1, 23)
    assert positions.nearest("/x") == (1, 32)
    assert positions.nearest("/a/y") == (1, 2)  # not there: its mapping's key


# --- the engine's test that no rule's path is blocked, one mapping level at a time -------------------------

from casino_audit.law.engine import _Bound, _Steps  # noqa: E402

_SEGMENTS = ["a", "b", "0", "1"]
paths = st.lists(st.lists(st.sampled_from(_SEGMENTS), min_size=1, max_size=4).map(tuple), min_size=1, max_size=6)
filed = st.recursive(
    st.none() | st.integers(0, 2) | st.text(max_size=1),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(_SEGMENTS), inner, max_size=4),
    max_leaves=15)


class _Rule:
    id = "X"


@settings(max_examples=400, deadline=None)
@given(paths, filed)
@example([("a", "0", "b")], {"a": [1]}).via("a list on the way, its item a scalar")
@example([("a", "b")], {"a": 1}).via("a scalar where the path goes on")
def test_the_level_test_of_blocked_paths_agrees_with_the_step_by_step_walk(targets, data):
    steps = _Steps([_Bound(_Rule(), None, (), (), tuple((path, None) for path in targets), ())])
    assert steps.clear(data) == steps._clear_stepwise(data)


# --- a declared rate's judgement, kept per rule ----------------------------------------------------------

from casino_audit.law.checks import par as par_check  # noqa: E402


def test_a_kept_judgement_of_a_declared_rate_is_the_one_made_afresh():
    spec = {"kind": "par", "target": "/par", "verify": "declared", "declared": "/redistribution_rate",
            "tolerance": "0.01"}
    kept = par_check.compile(spec)
    small = par_check._SMALL
    for round_ in range(3):
        for weights in [[k, 1] for k in range(1, 41)] * 2:  # more PAR data than the cache holds: ids are reused
            for rate in ("50.02 %", "50 %", "forty", 40):
                data = {"par": {**small, "reels": [{"strip": ["A", "X"], "weights": list(weights)}]},
                        "redistribution_rate": rate}
                assert list(kept(data)) == list(par_check.compile(spec)(data)), (round_, weights, rate)


# --- a rule's condition on a path that a scalar blocks: never read as clear ------------------------------

import dataclasses  # noqa: E402

from casino_audit.law.engine import Checker  # noqa: E402
from casino_audit.read.loader import Document  # noqa: E402
from casino_audit.law.rulesets import load_builtin  # noqa: E402


def _conditioned(condition: dict) -> Checker:
    lu = load_builtin("lu")
    random = next(rule for rule in lu.rules if rule.id == "LU-SLOT-RANDOM")
    ruleset = dataclasses.replace(lu, rules=[dataclasses.replace(random, when=(condition,))])
    return Checker({"LU": ruleset})


def _said(checker: Checker, data: dict) -> list[str]:
    return [f.message for f in checker.check(Document("f.json", 0, data, {}), "machine", "LU")]


@pytest.mark.parametrize("condition", [
    {"target": "/cabinet/colour", "equals": "red"},  # no rule's target goes through /cabinet
    {"any": [{"target": "/cabinet/colour", "equals": "red"}, {"target": "/cabinet/size", "equals": 2}]},
])
def test_a_condition_blocked_by_a_scalar_says_the_rule_was_not_checked(condition):
    checker = _conditioned(condition)
    base = {"kind": "machine", "jurisdiction": "LU", "machine": {"random_outcome": False}}
    assert _said(checker, {**base, "cabinet": {"colour": "blue"}}) == []
    said = _said(checker, {**base, "cabinet": "red"})
    assert len(said) == 1 and "depends on `cabinet`" in said[0], said
    assert any("random_outcome" in message for message in _said(checker, {**base, "cabinet": {"colour": "red"}}))


@settings(max_examples=200, deadline=None)
@given(crowded, st.sampled_from([(",", ":"), (", ", ": ")]))
def test_the_length_bound_on_keys_and_values_holds_on_the_tightest_text(value, separators):
    text = json.dumps(value, ensure_ascii=False, separators=separators)
    fast = read_fast(text, "f.json", *LIMITS)
    reader = JsonReader(text, "f.json", *LIMITS)
    reader.read()
    assert fast[2] >= reader.nodes


def test_the_length_bound_is_tight_on_compact_text_and_the_marks_bound_a_long_one():
    text = "[" + ",".join(["[0,0]"] * 3000) + "]"  # 9,001 values in 18,001 characters: exactly (n + 1) / 2
    reader = JsonReader(text, "f.json", *LIMITS)
    reader.read()
    assert read_fast(text, "f.json", *LIMITS)[2] >= reader.nodes == 9_001
    assert read_fast("[" + ",".join(["0"] * 3) + "]", "f.json", *LIMITS)[2] == 4 >= 4


# --- a pointer segment read as a list index: ASCII digits only ------------------------------------------

from casino_audit.core import pointers  # noqa: E402
from casino_audit.law.checks.common import blocked  # noqa: E402


@pytest.mark.parametrize("segment, index", [("0", 0), ("00", 0), ("01", 1), ("7", 7), ("²", None), ("٣", None),
                                            ("-1", None), ("", None), ("1e2", None), ("9" * 19, None),
                                            ("0" * 5000 + "1", 1)], ids=lambda value: repr(value)[:12])
def test_a_segment_names_a_list_index_only_in_ascii_digits(segment, index):
    assert pointers.list_index(segment) == index


def test_a_unicode_digit_in_a_rules_path_through_a_list_reads_nothing_and_never_crashes():
    text = '{"meters": [{"a": 1}, {"a": 2}]}'
    data = {"meters": [{"a": 1}, {"a": 2}]}
    for segment in ("²", "٣", "0" * 5000 + "1"):
        pointer = f"/meters/{segment}"
        assert pointers.get(data, pointer + "/a") is (2 if segment.endswith("1") else pointers.MISSING)
        assert blocked(data, ("meters", segment, "a")) is None
        lazy = read_fast(text, "f.json", *LIMITS)[1]
        table = JsonReader(text, "f.json", *LIMITS).read()[1]
        assert lazy.nearest(pointer) == table.nearest(pointer)
    checker = _conditioned({"target": "/meters/²/a", "equals": 1})
    assert _said(checker, {"kind": "machine", "jurisdiction": "LU", "machine": {"random_outcome": False},
                           "meters": [{"a": 1}]}) == []
