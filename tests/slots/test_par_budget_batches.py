"""A file's machines share one budget of work for their returns (slots.RETURN_WORK): a filer putting a machine
that returns 80 % after costly legal ones in the same file had it judged "cannot tell ...: the PAR data are too
large to count or simulate ... have the return certified by a laboratory" (its two operations never counted, the
breach never said). Each document past the file's budget is now counted within a floor of its own
(slots.DOCUMENT_WORK, drawn from slots.SPARE_WORK, so a file still costs a bounded amount), and a return still not
counted says that the file's other documents spent the budget, not that its data are too large; "cannot tell"
stays an error."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from collections import OrderedDict

from casino_audit.law.checks import par as par_check
from casino_audit import slots

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))

import par_sheets  # noqa: E402

BELOW = {"symbols": ["A", "X"], "reels": [{"strip": ["A", "X"], "weights": [2, 3]}], "lines": [[0]],
         "paytables": [{"name": "base", "credits_per_line": 1, "pays": [{"symbol": "A", "count": 1, "pays": 2}],
                        "redistribution_rate": "80 %"}]}  # exactly 4/5


def _file(tmp_path: Path, costly: int) -> Path:
    documents = [par_sheets._machine_with_par(par_sheets.lines_par(seed=seed)) for seed in range(7, 7 + costly)]
    documents.append(par_sheets._machine_with_par(BELOW))
    path = tmp_path / "machines.yaml"
    path.write_text("---\n".join(documents), "utf-8")
    return path


def _findings(cli, path: Path) -> list[dict]:
    done = cli("check", str(path), "--format", "json", "--max-per-rule", "0")
    assert done.returncode == 1, done.stdout + done.stderr
    return json.loads(done.stdout)["findings"]


def test_a_machine_below_85_after_a_costly_one_is_found_below_it(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(slots, "RETURN_WORK", 600_000)  # one 200-line machine (539,000 readings) spends it
    monkeypatch.setattr(par_check, "_CACHE", OrderedDict())
    found = [f for f in _findings(cli, _file(tmp_path, 2)) if f["rule_id"] == "LU-SLOT-PAR-MIN" and f["document"] == 2]
    assert [f["severity"] for f in found] == ["error"]
    assert "returns 80.0000 % (exactly 4/5), below the minimum of 85 %" in found[0]["message"]


def test_past_every_budget_the_finding_says_the_file_spent_it_and_stays_an_error(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(slots, "RETURN_WORK", 600_000)
    monkeypatch.setattr(slots, "SPARE_WORK", 0)
    monkeypatch.setattr(slots, "ESTIMATE_WORK", 0)
    monkeypatch.setattr(par_check, "_CACHE", OrderedDict())  # figures of equal data counted by another test
    found = [f for f in _findings(cli, _file(tmp_path, 2)) if f["rule_id"] == "LU-SLOT-PAR-MIN" and f["document"] == 2]
    assert [f["severity"] for f in found] == ["error"]
    message = found[0]["message"]
    assert message.startswith("cannot tell") and "too large" not in message
    assert "the file's other documents" in message and "a file of its own" in message


def test_the_spare_work_bounds_the_file(tmp_path):
    """Each document past the file's budget draws at most DOCUMENT_WORK from SPARE_WORK: a file costs at most
    RETURN_WORK + SPARE_WORK + ESTIMATE_WORK operations, whatever its number of documents."""
    assert slots.DOCUMENT_WORK <= slots.SPARE_WORK <= slots.RETURN_WORK
    assert slots.DOCUMENT_WORK >= 11_503  # the shipped ways machine (examples/lu/machine-par-ways.yaml) alone
