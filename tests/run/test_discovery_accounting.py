"""Every path a run meets is accounted for: a filing named like a config file is still a filing, a hidden one in a
walked directory is listed as skipped. Each was a breaching filing that exited 0."""

from __future__ import annotations

from pathlib import Path

from helpers.filer import report_of, ids, example


def _breaching_machine() -> str:
    text = example("lu/machine-compliant.yaml").replace("redistribution_rate: 92.5 %", "redistribution_rate: 50 %")
    assert "50 %" in text
    return text


def test_filing_named_like_a_config_file_is_skipped_even_when_named_explicitly(tmp_path):
    """BYPASS (exit 0). Any file whose name ends in `.casino-audit.yaml` is skipped as a config file on the name
    alone, even when its content is a filing (`kind: machine`, a 50 % RTP) and even when it is named on the
    command line. The report's own advice, "name one explicitly to check it anyway", does not work for it.
    A vendor names the breaching filing `machine-7.casino-audit.yaml` and the batch passes. A file that holds a
    `kind:` is not a config file (the config schema has no `kind`), and a file named explicitly should be read."""
    (tmp_path / "ok.yaml").write_text(example("lu/machine-compliant.yaml"), "utf-8")
    (tmp_path / "machine-7.casino-audit.yaml").write_text(_breaching_machine(), "utf-8")
    done, report = report_of("ok.yaml", "machine-7.casino-audit.yaml", cwd=tmp_path)
    assert done.returncode == 1, (done.returncode, report["summary"], sorted(ids(report)))
    assert "LU-SLOT-RTP-MIN" in ids(report)


def test_hidden_filing_in_a_walked_directory_is_not_accounted_for(tmp_path):
    """OMISSION (exit 0, no trace). A filing whose name starts with a dot (`.machine-7.yaml`) inside a walked
    directory is dropped without a word: it is neither checked nor listed among the skipped paths, so an
    inspector reading the report cannot know it exists. "Every input file is accounted for": at the least it
    must appear in the report's file list (as skipped), as non-YAML files and outside links do."""
    dossier = tmp_path / "dossier"
    dossier.mkdir()
    (dossier / "ok.yaml").write_text(example("lu/machine-compliant.yaml"), "utf-8")
    (dossier / ".machine-7.yaml").write_text(_breaching_machine(), "utf-8")
    done, report = report_of("dossier", cwd=tmp_path)
    listed = {Path(f["path"]).name for f in report["files"]}
    assert ".machine-7.yaml" in listed or done.returncode == 1, (done.returncode, report["files"])
