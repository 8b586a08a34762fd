"""--jobs: files checked in several processes give the same report, byte for byte, as one process."""

from __future__ import annotations

import gc
import json
import os
import shutil
from pathlib import Path

import pytest

from casino_audit.run import one_file, parallel, pipeline
from casino_audit.law.engine import Checker
from casino_audit.law.rulesets import load_builtin
from casino_audit.law.scopes import Dossier, ScopedCheck
from casino_audit.core.findings import Severity

REPO = Path(__file__).resolve().parents[2]
CONFIG = str(REPO / "examples" / "example.casino-audit.yaml")


@pytest.mark.parametrize("extra", [[], ["--max-per-rule", "1"], ["--max-per-rule", "0", "--fail-on", "info"]])
def test_the_report_is_the_same_with_one_process_or_several(cli, extra):
    reports = {}
    for jobs in ("1", "2", "3"):
        done = cli("check", "examples", "--config", CONFIG, "--format", "json", "--jobs", jobs, *extra)
        assert done.returncode == 1, done.stderr
        reports[jobs] = done.stdout
    assert reports["1"] == reports["2"] == reports["3"]
    report = json.loads(reports["1"])
    assert report["summary"]["records_checked"] > 200 and report["summary"]["files_checked"] > 40
    if extra[:2] == ["--max-per-rule", "1"]:
        assert report["omitted"]


def test_waivers_and_baselines_are_the_same_with_several_processes(cli, tmp_path):
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    (tmp_path / ".git").mkdir()
    (tmp_path / "casino-audit.yaml").write_text(
        "params: {punto_banco_minimum_multiple_eur: 20}\nwaivers:\n"
        "  - {rule: LU-SLOT-RTP-MIN, files: 'examples/**', justification: trial, granted_by: M, reference: R,"
        " expires: 2999-01-01}\n"
        "  - {rule: LU-SLOT-COIN-MIN, files: 'nothing/*', justification: trial, granted_by: M, reference: R2,"
        " expires: 2999-01-01}\n")
    outputs = {}
    for jobs in ("1", "2"):
        done = cli("check", "examples", "--format", "json", "--jobs", jobs, "--write-baseline", f"b{jobs}.json",
                   cwd=tmp_path)
        outputs[jobs] = done.stdout
        assert done.returncode == 1
    assert outputs["1"] == outputs["2"]
    assert (tmp_path / "b1.json").read_text() == (tmp_path / "b2.json").read_text()
    report = json.loads(outputs["1"])
    assert report["summary"]["waived"] >= 1
    assert [f["rule_id"] for f in report["findings"] if f["rule_id"].startswith("WAIVER")] == ["WAIVER-UNUSED"]
    again = cli("check", "examples", "--format", "json", "--jobs", "2", "--baseline", "b1.json", cwd=tmp_path)
    counted = [f for f in json.loads(again.stdout)["findings"] if f["suppression"] is None and f["file"]]
    assert counted and all(f["rule_id"].split("-")[0] in ("LOAD", "SHAPE", "LOG", "KIND", "WAIVER")
                           for f in counted), counted  # the tool's own findings are never baselined


def test_how_many_processes():
    empty = Dossier([])
    assert parallel.parallel_workers(None, 10, empty) == 1  # a handful of files: start-up would cost more
    assert parallel.parallel_workers(None, 500, empty) == (os.cpu_count() or 1)
    assert parallel.parallel_workers(4, 2, empty) == 2
    assert parallel.parallel_workers(1, 500, empty) == 1
    judged_together = Dossier([ScopedCheck("LU-X", Severity.ERROR, ("machine",), dict, lambda s, d: ())])
    assert parallel.parallel_workers(4, 500, judged_together) == 1


def test_a_worker_that_dies_leaves_its_files_unknown_not_passed(tmp_path, monkeypatch):
    for n in range(6):
        shutil.copy(REPO / "examples/lu/machine-compliant.yaml", tmp_path / f"m{n}.yaml")
    real, parent = one_file._check_file, os.getpid()

    def dying(path, *args, **kwargs):
        if os.getpid() != parent:
            os._exit(9)  # a worker is killed mid-file
        return real(path, *args, **kwargs)

    monkeypatch.setattr(one_file, "_check_file", dying)
    result = pipeline.run([str(tmp_path)], Checker({"LU": load_builtin("lu")}), jobs=2)
    assert result.internal_errors >= 1 and result.exit_code(Severity.ERROR) == 2
    unknown = {f.file for f in result.findings if f.rule_id == "INTERNAL-ERROR"}
    checked_here = {r.path for r in result.files} - unknown
    assert unknown and str(tmp_path / "m0.yaml") in checked_here  # the first file is checked before the fork
    assert len(result.files) == 6
    assert gc.get_freeze_count() == 0  # the objects frozen for the workers are collectable again, even so


def test_the_workers_are_forked_with_the_collector_frozen(tmp_path, monkeypatch):
    """Frozen, the objects a worker inherits are never walked (nor copied) by its collector."""
    for n in range(4):
        shutil.copy(REPO / "examples/lu/machine-compliant.yaml", tmp_path / f"m{n}.yaml")
    real = one_file._check_file

    def noting(path, *args, **kwargs):  # in a worker: what its collector sees as frozen
        (tmp_path / f"frozen-{os.getpid()}").write_text(str(gc.get_freeze_count()))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(one_file, "_check_file", noting)
    pipeline.run([str(tmp_path)], Checker({"LU": load_builtin("lu")}), jobs=2)
    counts = [int(p.read_text()) for p in tmp_path.glob("frozen-*") if p.name != f"frozen-{os.getpid()}"]
    assert counts and all(count > 1000 for count in counts)  # the rulesets and the checker, at least
    assert gc.get_freeze_count() == 0  # the parent's objects are collectable again


def test_the_plain_report_is_what_rich_would_write_without_colour(cli, monkeypatch):
    from casino_audit.report import rich_report
    from rich.text import Text

    args = ("check", "examples", "--config", CONFIG, "--no-color", "--max-per-rule", "2")
    fast = cli(*args).stdout
    monkeypatch.setattr(rich_report, "_block", lambda console, stream, lines: console.print(
        Text("\n").join(Text.assemble(*line) for line in lines)))
    assert cli(*args).stdout == fast and "LU-PB-LOG-OUTCOME" in fast


def test_the_rulesets_workers_read_are_named_in_the_report(cli):
    """Without a config, the rulesets are read where documents need them: in the workers."""
    one = cli("check", "examples/lu", "--format", "json", "--jobs", "1").stdout
    two = cli("check", "examples/lu", "--format", "json", "--jobs", "2").stdout
    assert one == two and [r["name"] for r in json.loads(two)["rulesets"]] == ["lu"]


def test_this_process_checks_files_beside_its_workers_and_after_one_dies(tmp_path, monkeypatch):
    """The workers take chunks from the front and this process from the back: a worker that dies leaves unknown
    only what it had taken, and this process checks the rest."""
    for n in range(12):
        shutil.copy(REPO / "examples/lu/machine-compliant.yaml", tmp_path / f"m{n:02}.yaml")
    real, parent = one_file._check_file, os.getpid()

    def noting(path, *args, **kwargs):
        if os.getpid() != parent:
            os._exit(9)  # the worker is killed in its first file
        (tmp_path / f"{Path(path).stem}.by").write_text(str(os.getpid()))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(one_file, "_check_file", noting)
    result = pipeline.run([str(tmp_path)], Checker({"LU": load_builtin("lu")}), jobs=2)
    unknown = [f.file for f in result.findings if f.rule_id == "INTERNAL-ERROR"]
    assert unknown == [str(tmp_path / "m01.yaml")]  # the first file is checked before the fork, the next by the worker
    assert sorted(p.stem for p in tmp_path.glob("*.by")) == [f"m{n:02}" for n in range(12) if n != 1]
    assert len(result.files) == 12 and result.internal_errors == 1


def test_an_interrupted_run_stops_its_workers_taking_chunks(tmp_path, monkeypatch):
    for n in range(40):
        shutil.copy(REPO / "examples/lu/machine-compliant.yaml", tmp_path / f"m{n:02}.yaml")
    real, parent = one_file._check_file, os.getpid()

    def noting(path, *args, **kwargs):
        if os.getpid() == parent and not path.endswith("m00.yaml"):
            raise KeyboardInterrupt
        (tmp_path / f"{Path(path).stem}.by").write_text("")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(one_file, "_check_file", noting)
    with pytest.raises(KeyboardInterrupt):
        pipeline.run([str(tmp_path)], Checker({"LU": load_builtin("lu")}), jobs=2)
    assert len(list(tmp_path.glob("*.by"))) < 20  # the worker stopped with what it had taken
    assert gc.get_freeze_count() == 0
