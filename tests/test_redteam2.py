"""Second red-team pass: record streams, lazy ruleset loading and the game engines.

Each test asserts what the tool SHOULD do; each fails on the code as it stood when it was written.
"""

import json
from decimal import Decimal

import pytest

from casino_audit.games import baccarat, poker_stud, roulette
from casino_audit.law.rulesets import load_builtin
from conftest import run_in_process

import test_games_poker as stud_readings


def _report(tmp_path, *args):
    done = run_in_process("check", *args, "--format", "json", cwd=tmp_path)
    return done, json.loads(done.stdout)


# --- record streams (parsers.py) --------------------------------------------------------------------

def test_csv_duplicate_header_is_not_silently_collapsed(tmp_path):
    """A CSV header naming a column twice: read_csv builds each row with dict(zip(header, row)), so the last cell
    silently wins. A machine whose rate is given as 80 % then 92.5 % loses the 80 % breach without a trace,
    exactly what LOAD-DUPLICATE-KEY exists to prevent in YAML/JSON (README: "a filing with two
    `redistribution_rate:` must not pass"). Cause: casino_audit/read/parsers.py read_csv."""
    (tmp_path / "machines.csv").write_text(
        "kind,jurisdiction,redistribution_rate,redistribution_rate\nmachine,LU,80 %,92.5 %\n", encoding="utf-8")
    done, report = _report(tmp_path, "machines.csv")
    ids = {f["rule_id"] for f in report["findings"]}
    assert "LOAD-DUPLICATE-KEY" in ids or "LU-SLOT-RTP-MIN" in ids, sorted(ids)


@pytest.mark.parametrize("name, text", [
    ("empty.jsonl", ""),
    ("blank.jsonl", "\n\n  \n"),
    ("empty.csv", ""),
    ("header-only.csv", "kind,jurisdiction,redistribution_rate\n"),
])
def test_record_stream_with_no_record_does_not_pass(tmp_path, name, text):
    """An empty (or blank, or header-only) JSON Lines/CSV file named on the command line is reported as
    'checked', 0 documents, no finding, and the run exits 0. An empty YAML file is LOAD-EMPTY (exit 1), and a run
    that finds no filing at all exits 2 (README). A CI gate fed a truncated export passes it as compliant.
    Cause: parsers._lines/read_json_lines/read_csv yield nothing and add no finding; one_file._check_stream
    counts the file as checked."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    done = run_in_process("check", name, cwd=tmp_path)
    assert done.returncode != 0, done.stdout


# --- lazy loading and the report's "rulesets in use" -------------------------------------------------

def test_report_names_only_the_rulesets_the_run_used(tmp_path):
    """A run over one Luxembourg machine names LU, MC and PT as 'rulesets in use' (with their files and hashes):
    settings.param_values iterates `rulesets.items()`, which reads every built-in ruleset, so the lazy loading
    (settings.Rulesets, provenance.in_use 'only those the run read') never applies and the report's provenance
    claims rulesets that judged nothing. Cause: casino_audit/run/settings.py param_values."""
    from conftest import EXAMPLES
    done, report = _report(tmp_path, str(EXAMPLES / "lu" / "machine-compliant.yaml"))
    assert [r["jurisdiction"] for r in report["rulesets"]] == ["LU"]


# --- game engines: bad input is a ValueError, never a wrong amount or another exception ------------------

BACCARAT_PAYOUTS = {"banco": {"wins_on": "banker", "pays": "0.95", "returned_on": ["tie"]},
                    "punto": {"wins_on": "player", "pays": "1"}}


@pytest.mark.parametrize("stake", ["NaN", "Infinity", "-Infinity", "sNaN"])
def test_baccarat_settle_refuses_non_finite_stakes(stake):
    """baccarat.settle returns Decimal('NaN') or Decimal('Infinity') as the 'exact' result of a bet staked
    'NaN' / 'Infinity' (roulette refuses them). A wrong amount, not an error. Cause: baccarat._exact."""
    with pytest.raises(ValueError):
        baccarat.settle("banker", {"banco": stake}, BACCARAT_PAYOUTS)


def test_baccarat_settle_refuses_negative_stake():
    """A stake of -10 on banco that wins is settled at -9.50 (a 'win' that costs the player); roulette and stud
    refuse a stake that is not positive. Cause: baccarat.settle/_exact."""
    with pytest.raises(ValueError):
        baccarat.settle("banker", {"banco": "-10"}, BACCARAT_PAYOUTS)


@pytest.mark.parametrize("stake", ["abc", "1,5", ""])
def test_baccarat_settle_text_that_is_no_number_is_a_value_error(stake):
    """A stake or 'pays' of text that is no number raises decimal.InvalidOperation (an ArithmeticError, not a
    ValueError), so a caller catching ValueError for bad input crashes. Cause: baccarat._exact (Decimal(text))."""
    with pytest.raises(ValueError):
        baccarat.settle("banker", {"banco": stake}, BACCARAT_PAYOUTS)


LU_DRAWING = load_builtin("lu").play["punto_banco"].data["drawing"]


@pytest.mark.parametrize("extra", [{12: 32}, {"A": 32}, {10: 32}, {-1: 4}])
def test_baccarat_odds_refuse_a_shoe_with_unknown_values(extra):
    """outcome_probabilities counts a shoe per point value 0-9; a key outside them (12, "A", 10) is silently
    ignored and the 'exact' odds are those of another shoe (a shoe of only {0: 16, "A": 32} gives tie = 1).
    Bad input must be refused, not turned into wrong exact odds. Cause: baccarat._final_hands."""
    with pytest.raises(ValueError):
        baccarat.outcome_probabilities({**baccarat.full_shoe(8), **extra}, LU_DRAWING)


def test_roulette_settle_refuses_a_boolean_pocket():
    """roulette.settle(bet on 1, True) pays 35 to 1: True == 1 in Python, so a log's `true` is a winning
    pocket. Cause: roulette.pocket/settle compare with `in`, never excluding bool."""
    with pytest.raises(ValueError):
        roulette.settle(roulette.bet("plein", 10, [1]), True, {"plein": 35}, None)


def test_roulette_huge_stake_is_a_value_error():
    """A stake of '1e999999' passes roulette.validate, then settle raises decimal.Inexact (an ArithmeticError),
    not ValueError. Cause: roulette.settle (_EXACT context) / validate."""
    placed = roulette.bet("plein", "1e999999", [17])
    with pytest.raises(ValueError):
        if roulette.validate(roulette.SINGLE_ZERO, placed):
            raise ValueError("refused by validate")
        roulette.settle(placed, 17, {"plein": "1e999999"}, None)


@pytest.mark.parametrize("ante", [Decimal("NaN"), Decimal("Infinity")])
def test_stud_settle_non_finite_ante_is_a_value_error(ante):
    """poker_stud.settle with Decimal('NaN') raises decimal.InvalidOperation and with Decimal('Infinity')
    OverflowError, not ValueError (a negative ante is a ValueError). Cause: poker_stud._money accepts any
    Decimal."""
    rules = poker_stud.stud_rules(stud_readings.LU)
    paytable = poker_stud.paytable_from_payouts("stud_poker", stud_readings.STUD_PAYOUTS)
    with pytest.raises(ValueError):
        poker_stud.settle("AS AH KD 5C 2S", "QS QH 9D 5D 3S", ante, ante * 2, rules, paytable)
