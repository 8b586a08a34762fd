"""Held closed (a find of the fourth hostile pass, issue 22); the regression note:

Past the SARIF result limit, baselined (or waived) errors are kept and the live errors that fail the run are the
ones left out: the uploaded file holds only findings that do not count, while the run fails on the others.

docs/reference/report-formats.md: "past them it keeps the errors first, then the warnings ... the verdict and the
exit code are the run's"; report/sarif_report.py's notification: "counted, errors kept first". And suppressions:
"A covered finding is still reported, marked as waived or baselined, and does not count toward the verdict."

_leave_out ranks results by level alone, then by place: a baselined LU-SLOT-RTP-MIN (Art. 18-7, « au moins
85 % ») in a1.yaml outranks a new, unbaselined one in z1.yaml. With RESULT_LIMIT at 3 (as the project's own test
monkeypatches it) and three baselined errors ahead of two live ones, the SARIF holds the three suppressed results
and neither live error, while the exit code is 1 for the live ones: GitHub code scanning (where suppressed results
show as dismissed) opens no alert for the errors that failed the check.

Consequence: the errors that decide the verdict are the ones dropped from the upload.
"""

from __future__ import annotations

import json
import shutil

import pytest

from casino_audit.report import sarif_limits
from helpers.command import EXAMPLES, run_in_process


def test_live_errors_are_kept_before_suppressed_ones(tmp_path, monkeypatch):
    below = EXAMPLES / "lu" / "machine-rtp-below-85.yaml"
    for name in ("a1", "a2", "a3"):
        shutil.copy(below, tmp_path / f"{name}.yaml")
    done = run_in_process("check", ".", "--write-baseline", "baseline.json", "--format", "json", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    for name in ("z1", "z2"):  # new filings, not in the baseline
        shutil.copy(below, tmp_path / f"{name}.yaml")
    monkeypatch.setattr(sarif_limits, "RESULT_LIMIT", 3)
    done = run_in_process("check", ".", "--baseline", "baseline.json", "--format", "sarif", cwd=tmp_path)
    assert done.returncode == 1
    results = json.loads(done.stdout)["runs"][0]["results"]
    live = [r for r in results if r["level"] == "error" and not r.get("suppressions")]
    assert len(live) == 2, [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                             bool(r.get("suppressions"))) for r in results]
