"""Files that are plainly not filings (no `kind:` and no field a filing has: a pre-commit config, a GitHub action,
package.json) are skipped and listed with why, never a failure: the pre-commit hook's first commit passes with its
default `files:` (issue 24). One that looks like a filing but does not say its kind stays KIND-MISSING, in any case
or spelling a reader takes for a filing's field."""

from __future__ import annotations

import json

import pytest

from helpers.command import EXAMPLES, REPO, run_in_process

PARAMS = ("--param", "slot_stake_minimum_eur=0.50", "--param", "slot_stake_maximum_eur=10")


def _report(*args, cwd=None):
    done = run_in_process("check", *args, "--format", "json", *PARAMS, **({"cwd": cwd} if cwd else {}))
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize("name", [".pre-commit-config.yaml", ".pre-commit-hooks.yaml", "action.yml"])
def test_another_tools_file_named_explicitly_is_skipped_and_listed(tmp_path, name):
    path = tmp_path / name
    path.write_bytes((REPO / name).read_bytes())
    code, report = _report("--allow-empty", str(path))
    assert code == 0 and report["findings"] == [], report["findings"]
    [listed] = report["files"]
    assert listed["status"] == "skipped" and listed["reason"].startswith("not a filing: no `kind:`")


def test_the_hooks_first_commit_passes_beside_a_filing(tmp_path):
    (tmp_path / ".pre-commit-config.yaml").write_bytes((REPO / ".pre-commit-config.yaml").read_bytes())
    (tmp_path / "package.json").write_text('{"name": "site", "version": "1.0.0", "scripts": {}}')
    machine = tmp_path / "machine.yaml"
    machine.write_bytes((EXAMPLES / "lu/machine-compliant.yaml").read_bytes())
    code, report = _report("--allow-empty", str(tmp_path / ".pre-commit-config.yaml"), str(tmp_path / "package.json"),
                           str(machine))
    assert code == 0 and report["findings"] == []
    assert {f["path"].rsplit("/", 1)[-1]: f["status"] for f in report["files"]} == {
        ".pre-commit-config.yaml": "skipped", "package.json": "skipped", "machine.yaml": "checked"}


@pytest.mark.parametrize("text", ["Jurisdiction: LU\nrepos: []\n", "KIND: machine\n", "Ｍachine: {type: reel}\n",
                                  "coin-acceptor: {}\n", "- id: x\n- jurisdiction: LU\n"])
def test_a_document_with_a_filings_field_in_any_spelling_is_kind_missing(tmp_path, text):
    path = tmp_path / "filing.yaml"
    path.write_text(text, "utf-8")
    code, report = _report(str(path))
    assert code == 1 and [f["rule_id"] for f in report["findings"]] == ["KIND-MISSING"], report["findings"]


def test_a_non_filing_document_beside_a_filing_in_one_file_is_kind_missing(tmp_path):
    path = tmp_path / "both.yaml"
    path.write_text("repos: []\n---\n" + (EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8"), "utf-8")
    code, report = _report(str(path))
    assert code == 1 and [(f["rule_id"], f["line"]) for f in report["findings"]] == [("KIND-MISSING", 1)]
    assert report["files"][0]["status"] == "checked"


def test_a_file_of_nothing_but_another_tools_file_is_still_no_filing_checked(tmp_path):
    # without --allow-empty: nothing was checked, a usage error (exit 2), not a pass
    path = tmp_path / "mkdocs.yml"
    path.write_text("site_name: Docs\nnav: []\n")
    done = run_in_process("check", str(path))
    assert done.returncode == 2 and "no filing found" in done.stderr
