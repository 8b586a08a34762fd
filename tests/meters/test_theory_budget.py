"""The slot engine's work for one meter log's PAR data is capped (theory.EXACT_SHEETS distinct sheets): a filer
decides which machines are read first, so a machine whose sheet went uncounted for the work others spent, and whose
return is below its rate, is never passed on the top award's wide bound (a warning; an error under
--require-params)."""

from __future__ import annotations

import json

import pytest

from casino_audit.core.findings import Severity
from casino_audit.meters import theory as theories
from helpers.meters import MACHINE_TEXT, START, check, header, reading

RETURN_RULES = {"LU-SLOT-LOG-RETURN-DEPARTURE", "LU-SLOT-LOG-RETURN-MIN", "LU-SLOT-LOG-RETURN-RATE"}
DAYS, PER_DAY_IN, GAMES = 60, 40_000, 16_000


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The theories are cached by sheet across logs: each test counts its sheets afresh."""
    theories._COMPUTED.clear()
    yield
    theories._COMPUTED.clear()


def _log(tmp_path, paid_per_day: int, decoys: int) -> str:
    """M-1 (the compliant example's sheet) read after `decoys` machines of distinct sheets paying at the rate."""
    (tmp_path / "machine.yaml").write_text(MACHINE_TEXT, "utf-8")
    names = [f"D-{i}" for i in range(decoys)]
    for i in range(decoys):  # the same mathematics, a distinct sheet (its credit's value differs)
        (tmp_path / f"decoy{i}.yaml").write_text(
            MACHINE_TEXT.replace('denomination: "0.05"', f'denomination: "0.0{i + 1}"'), "utf-8")
    records = [header(machines={name: {"machine": f"decoy{i}.yaml"} for i, name in enumerate(names)})]
    for day in range(DAYS):
        for name in [*names, "M-1"]:
            records.append(reading(day, machine=name, coin_in_1=START["coin_in_1"] + day * PER_DAY_IN,
                                   coin_in_2=(START["coin_in_1"] + day * PER_DAY_IN) % 10 ** 8,
                                   coin_out=START["coin_out"] + day * (paid_per_day if name == "M-1" else 37_000),
                                   games_played=START["games_played"] + day * GAMES))
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), "utf-8")
    return str(path)


def _return_findings(path, **options):
    theories._COMPUTED.clear()  # the decoys' sheets counted by an earlier check would leave M-1 the work
    return sorted((f.rule_id, f.severity) for f in check(path, **options).findings if f.rule_id in RETURN_RULES
                  and f.severity != Severity.INFO)


def test_alone_a_machine_paying_75_percent_of_a_92_5_percent_rate_is_an_error(tmp_path):
    assert ("LU-SLOT-LOG-RETURN-RATE", Severity.ERROR) in _return_findings(_log(tmp_path, 30_000, 0))


def test_decoy_sheets_read_first_never_pass_it_on_the_bound(tmp_path):
    path = _log(tmp_path, 30_000, theories.EXACT_SHEETS)
    said = [f for f in check(path).findings if f.rule_id in RETURN_RULES and f.severity == Severity.WARNING]
    assert sorted(f.rule_id for f in said) == sorted(RETURN_RULES)
    assert all("M-1" in f.message and "read before it" in f.message for f in said)
    assert {severity for _, severity in _return_findings(path, require_params=True)} == {Severity.ERROR}


def test_a_machine_at_its_rate_behind_decoys_is_only_said_to_pass_on_the_bound(tmp_path):
    path = _log(tmp_path, 37_000, theories.EXACT_SHEETS)  # 92.5 % exactly
    assert _return_findings(path) == []
    theories._COMPUTED.clear()
    assert any("passed, judged only against" in f.message for f in check(path).findings)
