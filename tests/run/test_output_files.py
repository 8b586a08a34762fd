"""The files a run writes never overwrite what it reads (the house ruleset in use), and a run refused at its
usage leaves the previous report in place."""

from __future__ import annotations

from helpers.filer import run, example


def test_output_overwrites_the_house_ruleset_in_use(tmp_path):
    """LOST FILE. `-o` refuses to overwrite a filing being checked, but not the ruleset the run reads:
    `check m.yaml --ruleset house.yaml -o house.yaml` replaces the house ruleset with the JSON report and exits
    0 (cli._guard_output only compares with PATH arguments, not --ruleset or --config). The same happens with
    `--config cfg.yaml -o cfg.yaml`. Inputs of the run must never be overwritten."""
    (tmp_path / "m.yaml").write_text(example("lu/machine-compliant.yaml"), "utf-8")
    house = "ruleset: casino-house\nextends: lu\nrules: []\n"
    (tmp_path / "house.yaml").write_text(house, "utf-8")
    (tmp_path / "cfg.yaml").write_text("fail_on: error\n", "utf-8")
    done = run("check", "m.yaml", "--ruleset", "house.yaml", "-o", "house.yaml", "--format", "json", cwd=tmp_path)
    after_ruleset = (tmp_path / "house.yaml").read_text("utf-8")
    done2 = run("check", "m.yaml", "--config", "cfg.yaml", "-o", "cfg.yaml", cwd=tmp_path)
    after_config = (tmp_path / "cfg.yaml").read_text("utf-8")
    assert after_ruleset == house and done.returncode == 2, (done.returncode, after_ruleset[:80])
    assert after_config == "fail_on: error\n" and done2.returncode == 2, (done2.returncode, after_config[:80])


def test_unknown_format_leaves_the_previous_report_in_place(tmp_path):
    """STALE REPORT. "A run that fails leaves no earlier report in its place" - but `--format jsn -o report.json`
    fails (exit 2) before the try/unlink in cli.check, so last week's report.json stays and reads as this run's
    verdict in a CI artefact. (A missing PATH, by contrast, does remove it.)"""
    (tmp_path / "m.yaml").write_text(example("lu/machine-compliant.yaml"), "utf-8")
    (tmp_path / "report.json").write_text('{"failed": false, "exit_code": 0}\n', "utf-8")
    done = run("check", "m.yaml", "--format", "jsn", "-o", "report.json", cwd=tmp_path)
    assert done.returncode == 2
    assert not (tmp_path / "report.json").exists()
