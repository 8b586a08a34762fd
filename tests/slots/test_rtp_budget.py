"""`casino-audit rtp` holds its budget (issue 22): every operation of a file's counts and simulations is charged to
one of three budgets (slots.RETURN_WORK, ESTIMATE_WORK, MOMENTS_WORK), whatever the number of paytables, and what
was not computed within them is said, paytable by paytable, never a traceback or a run of minutes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))

import par_sheets  # noqa: E402

from casino_audit.slots import par_read, par_returns  # noqa: E402
from casino_audit import slots  # noqa: E402


def _two_paytables() -> dict:
    data = par_sheets.lines_par()
    data["paytables"].append({**data["paytables"][0], "name": "second"})
    return data


def test_a_paytable_past_the_budget_is_said_not_computed_the_others_are_given(cli, tmp_path, monkeypatch):
    # Room for one 200-line paytable's return (539,000 readings), not two, and no estimate: the first is given,
    # the second said not computed, with why and what would give it. Today the whole command fails.
    monkeypatch.setattr(slots, "RETURN_WORK", 700_000)
    monkeypatch.setattr(slots, "ESTIMATE_WORK", 1_000)
    monkeypatch.setattr(slots, "MOMENTS_WORK", 1_000)
    path = tmp_path / "machine.yaml"
    path.write_text(par_sheets._machine_with_par(_two_paytables()), "utf-8")
    done = cli("rtp", str(path), "--format", "json")
    assert done.returncode == 0, done.stderr
    first, second = json.loads(done.stdout)["paytables"]
    assert first["computed"] and first["exact"] and first["rtp_percent"].startswith("93.734")
    assert any("hit frequency and standard deviation are not computed" in note for note in first["notes"])
    assert second["computed"] is False and "rtp" not in second
    assert "not computed" in second["notes"][0] and "--paytable NAME" in second["notes"][0]
    alone = cli("rtp", str(path), "--format", "json", "--paytable", "second")
    assert json.loads(alone.stdout)["paytables"][0]["exact"] is True


def test_the_paytables_share_one_budget(monkeypatch):
    # Fifty paytables cost what one budget allows, not fifty budgets: the operations charged never pass it by
    # more than the last charge. Today each paytable had its own line budget, uncharged.
    monkeypatch.setattr(slots, "RETURN_WORK", 1_200_000)  # two of them (539,000 each), not three
    reading = par_read.read(_par_of(par_sheets.rtp_many_paytables()))
    work = slots.Work(slots.RETURN_WORK)
    found = par_returns.returns(reading, work=work, estimate_work=slots.Work(0))
    counted = [item for item in found if item.result is not None]
    assert len(counted) == 2 and all(item.result.exact for item in counted)
    assert work.left > -100_000


@pytest.mark.parametrize("case", ["rtp_ways_terms", "rtp_ways_multipliers"])
def test_an_estimate_plays_the_spins_its_budget_allows(case):
    # A ways sheet too large to count is simulated for as many spins as the estimates' budget allows (never a
    # simulation that runs on uncharged, never nothing where a few hundred spins fit).
    reading = par_read.read(_par_of(getattr(par_sheets, case)()))
    estimates = slots.Work(slots.ESTIMATE_WORK)
    [item] = par_returns.returns(reading, work=slots.Work(200_000), estimate_work=estimates)
    assert item.result is not None and not item.result.exact and item.result.rounds >= 200
    assert estimates.left > -slots.ESTIMATE_WORK // 10


def _par_of(text: str):
    return json.loads(text[text.index("\npar: ") + 6:])  # the generators write the PAR data as one JSON line
