"""The installed package works without the source tree: rulesets and schemas ship inside the wheel."""

import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from helpers.command import EXAMPLES, REPO

pytest.importorskip("hatchling", reason="the test extras install hatchling to build the wheel offline")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"  # a copy, so the build leaves nothing in the checkout
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info",
                                                                 "build", "dist", ".pytest_cache", ".benchmarks"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(work / "dist"), str(source)], check=True, capture_output=True, text=True)
    [wheel] = (work / "dist").glob("casino_audit-*.whl")
    target = work / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, text=True)
    return wheel, target, work


def run_installed(target, cwd, *args):
    env = {**os.environ, "PYTHONPATH": str(target), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "casino_audit", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_wheel_carries_rulesets_sources_and_schemas(installed):
    wheel, _, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("casino_audit/rulesets/lu.yaml", "casino_audit/rulesets/sources/lu-rgd-2002-03-08.txt",
                   "casino_audit/schemas/machine.schema.json", "casino_audit/schemas/table.schema.json",
                   "casino_audit/schemas/ruleset.schema.json", "casino_audit/rulesets/pt.yaml", "casino_audit/rulesets/mc.yaml",
                   "casino_audit/schemas/report.schema.json", "casino_audit/rulesets/cases/lu.yaml",
                   "casino_audit/rulesets/cases/bases/lu/machine-compliant.yaml",
                   "casino_audit/data/confusables.txt"):  # names are compared by their skeleton, offline
        assert needed in names


def test_installed_package_checks_outside_the_source_tree(installed):
    _, target, work = installed
    outside = work / "elsewhere"
    shutil.copytree(EXAMPLES, outside)
    where = run_installed(target, outside, "--version")
    assert where.returncode == 0
    probe = subprocess.run([sys.executable, "-c", "import casino_audit, sys; print(casino_audit.__file__)"],
                           cwd=outside, env={**os.environ, "PYTHONPATH": str(target)}, capture_output=True, text=True)
    assert probe.stdout.startswith(str(target)), probe.stdout
    done = run_installed(target, outside, "check", ".", "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert any(f["rule_id"] == "LU-SLOT-RTP-MIN" for f in report["findings"])
    assert run_installed(target, outside, "check", "lu/machine-compliant.yaml").returncode == 0
    assert run_installed(target, outside, "schema", "machine").returncode == 0
    explained = run_installed(target, outside, "rules", "explain", "LU-SLOT-RTP-MIN")
    assert explained.returncode == 0, explained.stderr
    assert "→ LU-SLOT-RTP-MIN at /redistribution_rate" in explained.stdout  # the cases ran from the wheel
