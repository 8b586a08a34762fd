"""Reading files fast holds to what they replace (the PAR data's cache key, the bound on a JSON
filing's keys and values, the read of a regular file, a trailing wildcard's walk, a log line read by the C
scanner); what the red-team pass found in them stays mended (a name no file can have, a FIFO or a device never
opened); the PAR lists read by one helper keep their words."""

from __future__ import annotations

import json
import os
from decimal import Decimal

from hypothesis import given, settings, strategies as st

from casino_audit.core import pointers
from casino_audit.law.checks import par as par_check
from casino_audit.read.json_fast import read_fast
from casino_audit.read.json_reader import JsonReader
from casino_audit.read.loader import _read_bytes, _read_path
from helpers.json_values import LIMITS, json_values, same

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


LINE_ENDS = ["", " ", "\t", "\r", "\u00a0", "\x0c", "\u2028", " x", "}", ",", " {}", "\x0b"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", " ", "\t"]), json_values, st.sampled_from(LINE_ENDS)), min_size=1,
                max_size=6))
def test_a_log_line_is_a_record_exactly_when_json_reads_it_whole(tmp_path_factory, lines):
    """The scanner at a line's start takes what json.loads takes and nothing more: a record followed by a
    non-breaking space, a form feed or a second value is a finding at its line, never a record."""
    from casino_audit.logs.reader import read_json_lines

    texts = [start + json.dumps(value) + end for start, value, end in lines]
    log = tmp_path_factory.mktemp("log") / "log.jsonl"
    log.write_text("".join(text + "\n" for text in texts), "utf-8")
    stream = read_json_lines(str(log))
    records = [(record.line, record.data) for record in stream]
    expected, refused = [], []
    for number, text in enumerate(texts, start=1):
        if not (text + "\n").strip():
            continue
        try:
            expected.append((number, json.loads(text + "\n", parse_float=Decimal)))
        except ValueError:
            refused.append(number)
    assert [line for line, _ in records] == [line for line, _ in expected]
    assert all(same(a, b) for (_, a), (_, b) in zip(records, expected))
    assert sorted(f.line for f in stream.findings if f.rule_id in ("LOAD-SYNTAX", "LOAD-DUPLICATE-KEY")) == refused


def test_each_list_of_the_par_data_says_what_is_wrong_with_it_in_its_own_words():
    """The six lists read by one helper (par_fields.listed) keep their messages: missing, not a list, too long."""
    from casino_audit.slots import par_fields, par_read

    base = {"symbols": ["A"], "reels": [{"strip": ["A"]}], "lines": [[0]],
            "paytables": [{"name": "t", "credits_per_line": 1, "pays": [{"combination": ["A"], "pays": 1}]}]}

    def said(**change):
        return [message for _, message in par_read.read({**base, **change}).problems]

    assert said() == []
    assert said(symbols=5) == ["`symbols` is the number 5, not a list of symbol names"]
    assert said(symbols=["A"] * 3000) == [f"3,000 symbols; casino-audit reads at most {par_fields.MAX_SYMBOLS}"]
    assert said(paytables=[]) == ["`paytables` is an empty list, not a list of one or more paytables"]
    assert said(paytables=[{"name": "t", "credits_per_line": 1}]) == ["the paytable's `pays` is missing"]
    assert said(reels="r") == ["`reels` is the text 'r', not a list of reels"]
    assert said(reels=[{"strip": ["A"] * (par_fields.MAX_STOPS + 1)}]) == [
        f"{par_fields.MAX_STOPS + 1:,} stops; casino-audit reads at most {par_fields.MAX_STOPS:,} per reel"]
    assert said(lines="x") == ["`lines` is the text 'x', not a list of paylines"]


def test_a_name_no_file_can_have_is_said_as_no_such_file_not_a_crash(tmp_path):
    """A meter log's header can name the machine's file: a NUL byte or a lone surrogate in that name made os.open
    raise ValueError, where the path's own checks say "no such file"."""
    for name in ("machine.yaml\x00", "machine\udc80.yaml"):
        try:
            _read_bytes(str(tmp_path / name), 1 << 20)
        except Exception as problem:  # noqa: BLE001 - the loader's _Problem
            assert "no such file" in str(problem.args), problem
        else:
            raise AssertionError("a file was read under an impossible name")


def test_a_fifo_or_a_device_is_never_opened(tmp_path, monkeypatch):
    """Opening a FIFO releases a writer waiting on it, opening some devices acts on them: only regular files are."""
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, *args, **kwargs: opened.append(path) or real_open(path, *args,
                                                                                                  **kwargs))
    targets = [tmp_path, "/dev/zero"] if os.path.exists("/dev/zero") else [tmp_path]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.yaml")
        targets.append(tmp_path / "pipe.yaml")
    for target in targets:
        try:
            _read_bytes(str(target), 1 << 20)
        except Exception:  # noqa: BLE001 - refused, as it must be
            pass
    assert opened == []


def test_a_ruleset_named_by_an_impossible_path_is_a_ruleset_problem_not_an_internal_error():
    from casino_audit.law.model import RulesetError
    from casino_audit.law.rulesets import load_ruleset

    for name in ("a\x00b.yaml", "a\udc80.yaml"):
        try:
            load_ruleset(name)
        except RulesetError as error:
            assert "no such file" in str(error)
        else:
            raise AssertionError("a ruleset was read under an impossible name")


def _money_uncached(text: str):
    from decimal import InvalidOperation

    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return number if number.is_finite() and -30 <= number.adjusted() <= 30 else None


amount_texts = st.one_of(st.sampled_from(["25", "25.0", "-12.50", " 7 ", "1e3", "1E31", "NaN", "inf", "-0", "0.00",
                                          "", "abc", "1_000", "٣", "12.5.0", "9" * 30, "0." + "0" * 28 + "1"]),
                         st.decimals(allow_nan=True, allow_infinity=True).map(str), st.text(max_size=6))


@settings(max_examples=300, deadline=None)
@given(st.lists(amount_texts, min_size=1, max_size=20))
def test_an_amount_written_as_text_reads_the_same_whether_read_before_or_not(texts):
    """money() keeps what it read of each text (a roulette log repeats its stakes): the same text read again, or
    first, or past the number kept, is the same amount, of the same digits."""
    from casino_audit import replay

    for text in texts + texts:  # each text read twice: the second time from what was kept
        expected, got = _money_uncached(text), replay.money(text) if len(text) <= 30 else _money_uncached(text)
        assert (expected is None and got is None) or (got is not None and expected is not None
                                                       and str(got) == str(expected)), (text, got, expected)


def test_amounts_past_the_number_kept_are_still_read(monkeypatch):
    from casino_audit import replay

    monkeypatch.setattr(replay, "_TEXT_READ", {})
    for n in range(replay._TEXT_KEPT + 50):
        assert replay.money(str(n)) == n
    assert len(replay._TEXT_READ) == replay._TEXT_KEPT
    assert replay.money("x1") is None and str(replay.money("7.50")) == "7.50"
