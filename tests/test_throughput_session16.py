"""The shortcuts of session 16's throughput work hold to what they replace: the PAR data's cache key, the bound on
a JSON filing's keys and values, the read of a regular file, and a trailing wildcard's walk."""

from __future__ import annotations

import json
import os
from decimal import Decimal

from hypothesis import given, settings, strategies as st

from casino_audit import pointers
from casino_audit.checks import par as par_check
from casino_audit.json_reader import JsonReader, read_fast
from casino_audit.loader import _read_bytes, _read_path
from tests.test_json_fast import LIMITS, json_values

PAR = {"symbols": ["A", "B"], "reels": [[{"symbol": "A", "weight": 3}, {"symbol": "B", "weight": 1}]],
       "paytables": [{"name": "base", "pays": [{"symbols": ["A"], "pays": 2}]}]}


def test_equal_par_data_share_a_key_and_data_of_other_types_never_do():
    # Two filings read alike give one key (the same data interned otherwise would only cost a computation).
    assert par_check._key(json.loads(json.dumps(PAR))) == par_check._key(json.loads(json.dumps(PAR)))
    weighed_true = json.loads(json.dumps(PAR).replace('"weight": 1', '"weight": true'))
    weighed_float = json.loads(json.dumps(PAR).replace('"weight": 1', '"weight": 1.0'))
    keys = {par_check._key(json.loads(json.dumps(PAR))), par_check._key(weighed_true), par_check._key(weighed_float)}
    assert len(keys) == 3  # 1, true and 1.0 are three readings: never one cached figure for all


def test_what_marshal_cannot_write_is_keyed_by_pickle_apart_from_it():
    class Mapping(dict):
        pass

    decimal = {"reels": [Decimal("1")]}
    integer = {"reels": [1]}
    assert par_check._key(decimal).startswith(b"p") and par_check._key(integer).startswith(b"m")
    assert par_check._key(decimal) != par_check._key(integer)
    subclassed = par_check._key(Mapping(PAR))  # a local class pickle cannot find: its repr
    assert not (isinstance(subclassed, bytes) and subclassed.startswith(b"m"))


@settings(max_examples=150, deadline=None)
@given(json_values, st.sampled_from([None, 0, 2]))
def test_the_bound_on_keys_and_values_is_never_below_the_tokenizers_count(value, indent):
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    fast = read_fast(text, "f.json", *LIMITS)
    if fast is None:
        return
    reader = JsonReader(text, "f.json", *LIMITS)
    reader.read()
    assert fast[2] >= reader.nodes


def test_a_regular_file_is_read_whole_and_an_empty_one_as_nothing(tmp_path):
    full, empty = tmp_path / "a.yaml", tmp_path / "b.yaml"
    full.write_bytes(b"kind: machine\n" * 1000)
    empty.write_bytes(b"")
    assert _read_bytes(str(full), 1 << 20) == full.read_bytes()
    assert _read_bytes(empty, 1 << 20) == b""


def test_what_the_one_stat_read_refuses_is_said_as_before(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"x" * 100)
    problems = []
    for path, limit in ((big, 10), (tmp_path, 1 << 20), (tmp_path / "none.yaml", 1 << 20)):
        for read in (_read_bytes, _read_path):
            try:
                read(path if read is _read_path else str(path), limit)
            except Exception as problem:  # noqa: BLE001 - the loader's _Problem
                problems.append((read.__name__, problem.args))
    assert [args for name, args in problems if name == "_read_bytes"] == \
        [args for name, args in problems if name == "_read_path"]
    assert len(problems) == 6


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    if not hasattr(os, "mkfifo"):
        return
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    try:
        _read_bytes(str(fifo), 1 << 20)
    except Exception as problem:  # noqa: BLE001
        assert "not a regular file" in str(problem.args)
    else:
        raise AssertionError("a FIFO was read")


KEYS = ["a", "b", "0", "1", "x", "a/b", "~0", ""]
paths = st.lists(st.sampled_from(KEYS), max_size=3).map(lambda p: (*p, pointers.WILDCARD))
keyed_values = st.recursive(st.none() | st.integers() | st.text(max_size=3),
                            lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner,
                                                                                         max_size=4),
                            max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(keyed_values, paths)
def test_a_trailing_wildcard_reaches_what_the_general_walk_reaches(value, segments):
    assert list(pointers.resolve(value, segments)) == list(pointers._resolve(value, segments, 0, ""))
