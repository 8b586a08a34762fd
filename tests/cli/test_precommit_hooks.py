"""The pre-commit hooks (.pre-commit-hooks.yaml): what they hand to casino-audit, and what it says of it.

pre-commit itself runs them in CI (.ci/pre-commit-try-repo: a virtual environment and a pip install each, too
slow for this suite); here the hook file is read and its entry run in-process, as pre-commit would call it.
"""

import re
import shlex
import shutil
import tomllib

import pytest
import yaml

from casino_audit.read.parsers import WALKED_EXTENSIONS
from helpers.command import EXAMPLES, REPO

HOOKS = {hook["id"]: hook for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))}
COMPLIANT = ["examples/lu/machine-compliant.yaml", "examples/lu/table-punto-banco.yaml",
             "examples/lu/log-punto-banco.jsonl"]
NON_COMPLIANT = {"examples/lu/machine-rtp-below-85.yaml": "LU-SLOT-RTP-MIN",
                 "examples/lu/log-punto-banco-breaches.jsonl": "LU-PB-LOG-OUTCOME"}

def readme_config() -> list[dict]:
    """The .pre-commit-config.yaml docs/how-to/ci-gate.md shows."""
    blocks = re.findall(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", (REPO / "docs/how-to/ci-gate.md").read_text("utf-8"), re.S)
    assert len(blocks) == 1
    [repo] = yaml.safe_load(blocks[0])
    return repo["hooks"]


README_HOOKS = {hook["id"]: hook for hook in readme_config()}
README_EXCLUDE = README_HOOKS["casino-audit"]["exclude"]  # what narrows the hook to a directory


def entry(hook_id: str) -> list[str]:
    """The hook's command after the program name, which must be the package's console script."""
    program, *arguments = shlex.split(HOOKS[hook_id]["entry"])
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    assert program in scripts, f"the hook runs {program!r}, which the package does not install"
    return arguments


def test_the_hooks_are_the_two_documented():
    assert set(HOOKS) == set(README_HOOKS) == {"casino-audit", "casino-audit-all"}
    assert README_HOOKS["casino-audit-all"]["args"] == ["filings/"] and "files" not in README_HOOKS["casino-audit"]
    for hook in HOOKS.values():
        assert hook["language"] == "python"  # pre-commit pip-installs this repository, rulesets and all
        assert hook["require_serial"] is True  # one report, rulesets read once
        assert "types_or" not in hook and hook.get("types", ["file"]) == ["file"]
    assert HOOKS["casino-audit"].get("pass_filenames", True) is True
    assert HOOKS["casino-audit-all"]["pass_filenames"] is False


@pytest.mark.parametrize("hook_id", sorted(HOOKS))
def test_the_files_pattern_is_every_type_a_walk_reads_and_nothing_else(hook_id):
    pattern = re.compile(HOOKS[hook_id]["files"])
    for extension in WALKED_EXTENSIONS:
        for name in (f"filings/a{extension}", f"filings/A{extension.upper()}"):
            assert pattern.search(name), name
    for name in ("notes.md", "scan.pdf", "a.yaml.gz", "a.txt", "a.py", "yaml", "a.json5", "a.jsonld", "a.csv.bak"):
        assert not pattern.search(f"filings/{name}"), name


def test_pre_commit_reads_the_hook_file_and_hands_the_hook_the_files_of_the_readme_snippet(tmp_path, monkeypatch):
    pytest.importorskip("pre_commit", reason="pre-commit is not installed (CI installs it: .ci/run)")
    from pre_commit.clientlib import load_manifest
    from pre_commit.commands.run import Classifier

    manifest = {hook["id"]: hook for hook in load_manifest(str(REPO / ".pre-commit-hooks.yaml"))}
    names = ["filings/m.yaml", "filings/sub/t.YML", "filings/d.json", "filings/log.jsonl.gz", "filings/log.csv",
             "filings/notes.md", "filings/scan.pdf", ".github/workflows/ci.yml", "other/m.yaml",
             "casino-audit.yaml"]
    monkeypatch.chdir(tmp_path)
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("kind: machine\n")
    hook = manifest["casino-audit"]
    handed = Classifier(names).by_types(
        (n for n in names if re.search(hook["files"], n) and not re.search(README_EXCLUDE, n)),
        hook["types"], hook["types_or"], hook["exclude_types"])
    assert list(handed) == ["filings/m.yaml", "filings/sub/t.YML", "filings/d.json", "filings/log.jsonl.gz",
                            "filings/log.csv"]


def test_the_hook_passes_compliant_filings_and_fails_a_breach_naming_it(cli):
    assert entry("casino-audit") == ["check", "--allow-empty"]
    done = cli(*entry("casino-audit"), *COMPLIANT)
    assert done.returncode == 0, done.stdout
    done = cli(*entry("casino-audit"), *COMPLIANT, *NON_COMPLIANT)
    assert done.returncode == 1 and "FAILED" in done.stdout
    for path, finding in NON_COMPLIANT.items():
        assert path in done.stdout and finding in done.stdout


def test_a_commit_of_only_a_config_file_passes_the_hook(cli, tmp_path):
    (tmp_path / "casino-audit.yaml").write_text("jurisdiction: LU\n")
    done = cli(*entry("casino-audit"), "casino-audit.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    done = cli("check", "casino-audit.yaml", cwd=tmp_path)  # without --allow-empty it would stop the commit
    assert done.returncode == 2


def test_the_whole_dossier_hook_reads_the_config_and_needs_its_paths(cli, tmp_path):
    filings = tmp_path / "filings"
    filings.mkdir()
    shutil.copy(EXAMPLES / "lu" / "machine-compliant.yaml", filings)
    assert cli(*entry("casino-audit-all"), "filings", cwd=tmp_path).returncode == 0
    # A config change tightens the law for a filing the commit does not touch: this hook sees it.
    (tmp_path / "casino-audit.yaml").write_text("params: {slot_stake_minimum_eur: 5, slot_stake_maximum_eur: 10}\n")
    done = cli(*entry("casino-audit-all"), "filings", cwd=tmp_path)
    assert done.returncode == 1 and "LU-SLOT-STAKE-MIN-ORDER" in done.stdout, done.stdout
    assert "below the minimum of 5" in done.stdout
    done = cli(*entry("casino-audit-all"), cwd=tmp_path)
    assert done.returncode == 2 and "PATH" in done.stderr  # no args: a usage error, never an empty pass
