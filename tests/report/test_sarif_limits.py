"""SARIF kept within GitHub code scanning's hard limits (issue 24): GitHub refuses a whole upload of more than
25,000 results a run, 1,000 locations a result or 10 MB gzipped. Past them the file keeps the errors first, says
in a notification how many of each level it left out, and says so on standard error; the json format keeps all."""

from __future__ import annotations

import json

import pytest

from casino_audit.report import sarif_limits, sarif_report
from helpers.command import run_in_process

ARGS = ("check", "examples/", "--max-per-rule", "0")


def _sarif():
    done = run_in_process(*ARGS, "--format", "sarif")
    return done, json.loads(done.stdout)["runs"][0]


def test_within_the_limits_nothing_is_left_out():
    done, run = _sarif()
    every = json.loads(run_in_process(*ARGS, "--format", "json").stdout)["findings"]
    assert len(run["results"]) == len([f for f in every if f["file"]]) and "left out" not in done.stderr
    assert "resultsLeftOut" not in run["invocations"][0]["properties"]


def test_past_the_result_limit_errors_are_kept_first_and_the_rest_counted(monkeypatch):
    monkeypatch.setattr(sarif_limits, "RESULT_LIMIT", 10)
    done, run = _sarif()
    monkeypatch.undo()
    _, whole = _sarif()
    assert len(run["results"]) == 10
    errors = [r for r in whole["results"] if r["level"] == "error"]
    assert run["results"] == errors[:10]  # the first errors, in their order
    left_out = len(whole["results"]) - 10
    assert run["invocations"][0]["properties"]["resultsLeftOut"] == left_out
    [said] = [n for n in run["invocations"][0]["toolExecutionNotifications"]
              if n["descriptor"]["id"] == "results-left-out"]
    assert said["level"] == "warning" and sum(said["properties"]["leftOut"].values()) == left_out
    assert f"{left_out:,} of " in done.stderr and "GitHub" in done.stderr
    assert done.returncode == 1  # the verdict is the run's, whatever the file holds


def test_past_the_upload_size_results_are_cut_until_it_fits(monkeypatch):
    import gzip

    monkeypatch.setattr(sarif_limits, "GZIP_LIMIT", 100_000)  # the whole file is some 110 kB gzipped
    done, run = _sarif()
    text = done.stdout.rstrip("\n")
    assert len(gzip.compress(text.encode("utf-8"), compresslevel=6)) <= 100_000
    assert run["results"] and run["invocations"][0]["properties"]["resultsLeftOut"] > 0


@pytest.mark.parametrize("related, shown", [(5, 5), (999, 999), (1_000, 999), (2_000, 999)])
def test_a_result_has_at_most_a_thousand_locations(related, shown):
    from casino_audit.core.findings import Finding, Location, Related, Severity

    finding = Finding("X", Severity.ERROR, "m", "a.yaml", 1, 1, "", 0, None,
                      related=tuple(Related("r", Location("a.yaml", n + 2, 1)) for n in range(related)))
    entry = sarif_report._result(finding, {"X": 0}, sarif_report.Locator(), {})
    assert len(entry["locations"]) + len(entry["relatedLocations"]) == shown + 1 <= 1_000
    assert entry["properties"].get("relatedLocationsLeftOut", 0) == related - shown
