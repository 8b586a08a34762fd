"""Config files, options, house rulesets, waivers and baselines that switch a
rule of law off or narrow it in silence, or make a report lie; each bug found kept as a test."""

from __future__ import annotations

import json

from helpers.command import EXAMPLES, run_in_process, without_par
import pytest

EROUL_LOG = (EXAMPLES / "lu" / "log-english-roulette.jsonl").read_text(encoding="utf-8")


def test_a_house_ruleset_replacing_the_laws_rules_of_play_is_named_a_change_of_the_law(tmp_path):
    # LU Art. 37-2: on zero the simple chances lose half. A house ruleset that keeps every rule of the law but
    # writes its own `play:` (the whole stake lost) let a rouge of 4 taken whole on zero pass, exit 0, with
    # `law_changes` empty: the rules of play the replays read were the house's, and no report said so.
    log = tmp_path / "log.jsonl"
    log.write_text(EROUL_LOG.replace('"stake": 4, "net": -2}', '"stake": 4, "net": -4}'), encoding="utf-8")
    house = tmp_path / "house.yaml"
    house.write_text("ruleset: lu-house\nextends: lu\nrules: []\nplay:\n  english_roulette:\n"
                     "    zero_rule: {simple_chances: lose}\n"
                     "    citation: {article: Art. 37-2, text: house reading}\n", encoding="utf-8")
    assert run_in_process("check", str(log)).returncode == 1  # the law's replay finds it
    done = run_in_process("check", str(log), "--ruleset", str(house), "--format", "json")
    [lu] = json.loads(done.stdout)["rulesets"]
    changes = {change["rule_id"]: change for change in lu["law_changes"]}
    settlement = changes["LU-EROUL-LOG-SETTLEMENT"]
    assert settlement["change"] == "replaced"
    assert any("english_roulette" in reason and "zero_rule" in reason for reason in settlement["reasons"])
    rich = run_in_process("check", str(log), "--ruleset", str(house)).stdout
    assert "LU-EROUL-LOG-SETTLEMENT replaced" in rich


def _without_rate(tmp_path):
    machine = tmp_path / "machine.yaml"
    text = (EXAMPLES / "lu" / "machine-compliant.yaml").read_text(encoding="utf-8")
    machine.write_text("".join(line for line in text.splitlines(keepends=True)
                               if not line.startswith("redistribution_rate:")), encoding="utf-8")
    return machine


def test_a_rule_whose_missing_value_another_rule_reports_says_it_when_that_rule_is_switched_off(tmp_path):
    # LU-SLOT-RTP-MIN leaves a missing `redistribution_rate` to LU-SLOT-RTP-DECLARED (`missing: {reported_by:
    # ...}`, so that it is said once). `--select LU-SLOT-RTP-MIN` (or `--ignore LU-SLOT-RTP-DECLARED`) on a machine
    # that declares no rate at all: PASSED, exit 0, the minimum rule listed as passed; now the rule says the value
    # is missing itself.
    machine = _without_rate(tmp_path)
    config = str(EXAMPLES / "example.casino-audit.yaml")
    for option in (["--select", "LU-SLOT-RTP-MIN"], ["--ignore", "LU-SLOT-RTP-DECLARED"]):
        done = run_in_process("check", str(machine), "--config", config, *option, "--format", "json")
        assert done.returncode == 1, (option, done.stdout)
        found = [(f["rule_id"], f["pointer"]) for f in json.loads(done.stdout)["findings"]]
        assert ("LU-SLOT-RTP-MIN", "/redistribution_rate") in found, (option, found)
    # with its reporter on, the omission is still said once, by the reporter
    done = run_in_process("check", str(machine), "--config", config, "--format", "json")
    found = [f["rule_id"] for f in json.loads(done.stdout)["findings"] if f["pointer"] == "/redistribution_rate"]
    assert found == ["LU-SLOT-RTP-DECLARED"]


def test_a_parameter_of_the_config_replaced_by_an_option_is_named_so(tmp_path):
    # The config holds the minister's order (a 0.50 minimum); `--param slot_stake_minimum_eur=0.05` replaced it,
    # and the report said `params = ..., slot_stake_minimum_eur=0.05 [from config ... and option --param]`: which
    # value came from where, and that the config's was set aside, was said nowhere.
    config = tmp_path / "settings" / "casino-audit.yaml"
    config.parent.mkdir()
    config.write_text("params:\n  slot_stake_minimum_eur: 0.50\n  slot_stake_maximum_eur: 10\n", encoding="utf-8")
    machine = tmp_path / "filings" / "machine.yaml"
    machine.parent.mkdir()
    machine.write_text((EXAMPLES / "lu" / "machine-compliant.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    done = run_in_process("check", str(machine), "--config", str(config), "--param", "slot_stake_minimum_eur=0.05",
                          "--format", "json")
    [params] = [s for s in json.loads(done.stdout)["settings"] if s["name"] == "params"]
    assert params["value"]["slot_stake_minimum_eur"] == "0.05"
    assert "option --param (slot_stake_minimum_eur" in params["source"], params["source"]
    assert "slot_stake_minimum_eur=0.50" in params["source"], params["source"]  # the value set aside
    only_option = run_in_process("check", str(machine), "--param", "slot_stake_minimum_eur=0.50", "--param",
                                 "slot_stake_maximum_eur=10", "--format", "json", cwd=machine.parent)
    [params] = [s for s in json.loads(only_option.stdout)["settings"] if s["name"] == "params"]
    assert params["source"] == "option --param"


HOUSE_STRICT = """ruleset: lu-strict
extends: lu
instruments:
  policy: {title: House policy HP-7, language: en}
rules:
  - id: HOUSE-RTP-88
    title: RTP at least 88 %
    severity: error
    applies_to: {kind: machine}
    check: {kind: value, target: /redistribution_rate, unit: percent, min: "88"}
    citation: {instrument: policy, article: "1", text: The house keeps 88 %.}
    rationale: house policy
"""


def test_two_custom_rulesets_of_one_jurisdiction_are_refused_not_one_dropped(tmp_path):
    # The config names the house's strict ruleset; a second --ruleset of the same jurisdiction took its place
    # (the last one read won), while the report listed both under `rulesets` as if both applied: a machine at
    # 87 % passed the house's 88 % rule, exit 0. Now which one applies is ambiguous, and refused.
    (tmp_path / "strict.yaml").write_text(HOUSE_STRICT, encoding="utf-8")
    (tmp_path / "loose.yaml").write_text("ruleset: lu-loose\nextends: lu\nrules: []\n", encoding="utf-8")
    config = tmp_path / "casino-audit.yaml"
    config.write_text("rulesets: [strict.yaml]\nparams: {slot_stake_minimum_eur: 0.50, slot_stake_maximum_eur: 10}\n",
                      encoding="utf-8")
    machine = tmp_path / "machine.yaml"
    machine.write_text(without_par((EXAMPLES / "lu" / "machine-compliant.yaml").read_text(encoding="utf-8"))
                       .replace("redistribution_rate: 92.5 %", "redistribution_rate: 87 %"), encoding="utf-8")
    assert run_in_process("check", str(machine), "--config", str(config)).returncode == 1  # HOUSE-RTP-88
    for options in (["--config", str(config), "--ruleset", str(tmp_path / "loose.yaml")],
                    ["--ruleset", str(tmp_path / "strict.yaml"), "--ruleset", str(tmp_path / "loose.yaml")]):
        done = run_in_process("check", str(machine), *options)
        assert done.returncode == 2, (options, done.stdout)
        assert "LU" in done.stderr and "strict.yaml" in done.stderr and "loose.yaml" in done.stderr, done.stderr
    same = run_in_process("check", str(machine), "--config", str(config), "--ruleset", str(tmp_path / "strict.yaml"))
    assert same.returncode == 1, same.stderr  # the config's own ruleset named again is the same one: taken


def test_a_house_rule_that_lets_a_missing_value_pass_is_not_called_tightened():
    # LU-SLOT-RTP-MIN leaves a missing rate to LU-SLOT-RTP-DECLARED. A house rule of the same id with `missing:
    # allowed` and a minimum of 86 was listed as `tightened` (minimum 85 -> 86) only: that the rule now passes a
    # filing without the value (as it does when --ignore switches the reporter off) was said nowhere.
    import dataclasses

    from casino_audit.law.provenance import LOOSENED, REPLACED, classify
    from casino_audit.law.rulesets import load_builtin

    rtp = next(rule for rule in load_builtin("lu").rules if rule.id == "LU-SLOT-RTP-MIN")
    assert isinstance(rtp.check["missing"], dict)
    allowed = classify(rtp, dataclasses.replace(rtp, check={**rtp.check, "missing": "allowed", "min": "86"}))
    assert allowed.change == LOOSENED and any("missing" in reason for reason in allowed.reasons), allowed.reasons
    other = classify(rtp, dataclasses.replace(rtp, check={**rtp.check, "missing": {"reported_by": "HOUSE-X"},
                                                          "min": "86"}))
    assert other.change == REPLACED, other


def test_the_github_warning_names_a_jurisdiction_override_and_a_verdict_that_never_fails(tmp_path):
    # The one warning annotation GitHub shows for settings named --select/--ignore and a weakened law only: -j MC
    # over a Luxembourg filing (checked against Monaco's rules in place of Luxembourg's) or --fail-on never (exit 0
    # whatever is found) were in the collapsed log group alone, never on the run's page.
    from helpers.reports import github_annotations

    table = str(EXAMPLES / "lu" / "table-stud-poker-monaco-limits.yaml")
    for option, said in ((["-j", "MC"], "jurisdiction_override = MC"), (["--fail-on", "never"], "fail_on = never")):
        done = run_in_process("check", table, *option, "--format", "github")
        warnings = [message for command, properties, message in github_annotations(done.stdout)
                    if properties.get("title") == "casino-audit settings"]
        assert len(warnings) == 1 and said in warnings[0], (option, done.stdout)


def test_a_pyproject_tables_decimal_parameter_is_read_exactly(tmp_path):
    # TOML reads 0.50 as a binary float: `params = {slot_stake_minimum_eur = 0.50}` in [tool.casino-audit] was
    # refused with "takes a number, not 0.5" (a number it is); it is now read as the decimal written.
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.casino-audit]\nparams = {slot_stake_minimum_eur = 0.50, "
                                             "slot_stake_maximum_eur = 10.0}\n", encoding="utf-8")
    machine = tmp_path / "machine.yaml"
    machine.write_text((EXAMPLES / "lu" / "machine-compliant.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    done = run_in_process("check", str(machine), "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [params] = [s for s in json.loads(done.stdout)["settings"] if s["name"] == "params"]
    assert params["value"] == {"slot_stake_minimum_eur": "0.50", "slot_stake_maximum_eur": "10.0"}


def test_a_config_file_misnamed_beside_the_filings_is_refused_not_ignored(tmp_path):
    # `casino-audit.yml` (or a pyproject table [tool.casino_audit]) holding `require_params: true`, the CI's gate,
    # was not read and said nowhere: the run passed, exit 0, with two rules not applied for want of a parameter.
    (tmp_path / ".git").mkdir()
    filings = tmp_path / "filings"
    filings.mkdir()
    (filings / "machine.yaml").write_text((EXAMPLES / "lu" / "machine-compliant.yaml").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    for name, text in (("casino-audit.yml", "require_params: true\n"),
                       (".casino_audit.yaml", "require_params: true\n"),
                       ("pyproject.toml", "[project]\nname = 'x'\n[tool.casino_audit]\nrequire_params = true\n")):
        misnamed = tmp_path / name
        misnamed.write_text(text, encoding="utf-8")
        done = run_in_process("check", "filings", cwd=tmp_path)
        assert done.returncode == 2, (name, done.stdout)
        assert name in done.stderr and "casino-audit.yaml" in done.stderr, done.stderr
        misnamed.unlink()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'casino_audit_tools'\n", encoding="utf-8")
    assert run_in_process("check", "filings", cwd=tmp_path).returncode == 0  # a project named so is no config


def test_write_baseline_never_replaces_a_file_that_is_no_baseline(tmp_path):
    # --write-baseline filings/machine.json, a filing of the tree checked: the filing was set aside as "the
    # baseline being written" (its breaches never checked) and then overwritten with the baseline.
    filings = tmp_path / "filings"
    filings.mkdir()
    machine = filings / "machine.json"
    text = (EXAMPLES / "lu" / "machine-rate-as-fraction.json").read_text(encoding="utf-8")
    machine.write_text(text, encoding="utf-8")
    done = run_in_process("check", "filings", "--write-baseline", "filings/machine.json", cwd=tmp_path)
    assert done.returncode == 2 and "machine.json" in done.stderr, (done.returncode, done.stdout)
    assert machine.read_text(encoding="utf-8") == text
    # a baseline written before is replaced, as ever
    first = run_in_process("check", "filings", "--write-baseline", "baseline.json", cwd=tmp_path)
    assert first.returncode == 1 and (tmp_path / "baseline.json").is_file()
    again = run_in_process("check", "filings", "--write-baseline", "baseline.json", cwd=tmp_path)
    assert again.returncode == 1, again.stderr


def test_a_rule_reporting_its_omission_does_so_only_where_the_switched_off_rule_would_have_applied(tmp_path):
    # LU-SLOT-COIN-MIN leaves a missing coin list to LU-SLOT-COIN-DENOMINATIONS, which applies only to a machine
    # that takes coins: a machine taking tokens alone lists none, and passes, whatever is selected.
    machine = tmp_path / "machine.yaml"
    text = (EXAMPLES / "lu" / "machine-compliant.yaml").read_text(encoding="utf-8")
    machine.write_text("".join(line for line in text.splitlines(keepends=True) if "coin_denominations_eur" not in line)
                       .replace("accepts: [coins, tokens]", "accepts: [tokens]"), encoding="utf-8")
    config = str(EXAMPLES / "example.casino-audit.yaml")
    assert run_in_process("check", str(machine), "--config", config, "--select", "LU-SLOT-COIN-MIN").returncode == 0
    coins = tmp_path / "coins.yaml"
    coins.write_text(machine.read_text(encoding="utf-8").replace("accepts: [tokens]", "accepts: [coins]"),
                     encoding="utf-8")
    done = run_in_process("check", str(coins), "--config", config, "--select", "LU-SLOT-COIN-MIN", "--format", "json")
    assert done.returncode == 1
    assert [f["rule_id"] for f in json.loads(done.stdout)["findings"]] == ["LU-SLOT-COIN-MIN"]


@pytest.mark.parametrize("code", ["WAIVER-EXPIRED", "WAIVER", "LOG-GAP"])
def test_the_waiver_and_log_findings_cannot_be_ignored(cli, code):
    done = cli("check", str(EXAMPLES / "lu/machine-compliant.yaml"), "--ignore", code)
    assert done.returncode == 2 and "tool's own findings" in done.stderr


@pytest.mark.parametrize("expires", ["yes", "2027-6-30", "'30.06.2027'", "2027-06-30T00:00:00"])
def test_an_expiry_that_is_not_a_plain_date_is_refused(cli, tmp_path, expires):
    (tmp_path / ".git").mkdir()
    (tmp_path / "m.yaml").write_text((EXAMPLES / "lu/machine-rtp-below-85.yaml").read_text("utf-8"), "utf-8")
    (tmp_path / "casino-audit.yaml").write_text(
        "waivers:\n  - {rule: LU-SLOT-RTP-MIN, files: '*.yaml', justification: j, granted_by: g, reference: r, "
        f"expires: {expires}}}\n", "utf-8")
    done = cli("check", "m.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "casino-audit.yaml" in done.stderr
