"""The real command, run as users run it: exit codes, reports, rules, schemas."""

import json
import re
from dataclasses import replace

import jsonschema
import pytest

from helpers import schema_check
from casino_audit.documents.shape import packaged_schema
from helpers.command import EXAMPLES, REPO, without_par


def example_table() -> dict[str, set[str]]:
    """examples/README.md: file -> the rule ids it must produce, no more and no less."""
    expected = {}
    for line in (EXAMPLES / "README.md").read_text("utf-8").splitlines():
        match = re.match(r"\| `([^`]+)` \|[^|]*\| ([^|]*) \|$", line)
        if match:
            ids = match.group(2).split()
            expected[f"examples/{match.group(1)}"] = set() if ids == ["none"] else set(ids)
    return expected


def json_report(cli, *args):
    done = cli("check", *args, "--format", "json")
    report = json.loads(done.stdout)
    schema_check.validate(report, packaged_schema("report.schema.json"))
    return done, report


def test_examples_report_exactly_the_intended_breaches(cli):
    done, report = json_report(cli, "examples")
    assert done.returncode == 1, done.stderr
    found: dict[str, set[str]] = {}
    for finding in report["findings"]:
        if finding["file"]:
            found.setdefault(finding["file"], set()).add(finding["rule_id"])
    expected = example_table()
    assert set(expected) == {f["path"] for f in report["files"] if f["status"] != "skipped"}, "table out of date"
    assert {k: v for k, v in expected.items() if v} == found
    for finding in report["findings"]:
        if finding["rule_id"].startswith("LU-") and finding["file"]:
            assert finding["citation"]["article"].startswith("Art.") and finding["citation"]["text"]
            assert finding["line"] and finding["column"]


def test_examples_rich_report_names_articles(cli):
    done = cli("check", "examples/lu")
    assert done.returncode == 1
    assert "examples/lu/machine-rtp-below-85.yaml" in done.stdout
    assert "LU-SLOT-RTP-MIN" in done.stdout and "Art. 18-7, al. 3" in done.stdout
    assert "84.999 %" in done.stdout
    assert "FAILED" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_compliant_example_alone_exits_zero(cli):
    done = cli("check", "examples/lu/machine-compliant.yaml")
    assert done.returncode == 0, done.stdout
    assert "PASSED" in done.stdout


def test_missing_parameter_is_said_once_as_info_and_supplied_parameter_applies(cli, tmp_path):
    _, report = json_report(cli, "examples/lu")
    info = [f for f in report["findings"] if f["severity"] == "info" and f["file"] is None]
    assert sorted(f["rule_id"] for f in info) == [  # each once, although several files meet each rule
        "LU-BJ-STAKE-MIN-ORDER", "LU-EROUL-STAKE-MIN-ORDER", "LU-PB-LOG-STAKE-MULTIPLE", "LU-PB-MINIMUM-FLOOR",
        "LU-PB-MINIMUM-MULTIPLE", "LU-PB-STAKE-MIN-ORDER", "LU-ROUL-STAKE-MIN-ORDER", "LU-SLOT-STAKE-MAX-ORDER",
        "LU-SLOT-STAKE-MIN-ORDER", "LU-STUD-STAKE-MIN-ORDER"]
    assert all(f["citation"]["article"] for f in info)
    # A game log's replay aspect the law leaves to a parameter is said, as info, in that log (line 1).
    in_files = [f for f in report["findings"] if f["severity"] == "info" and f["file"]]
    in_logs = sorted((f["file"], f["rule_id"]) for f in in_files if f["rule_id"] != "LU-SLOT-PAR-EVALUABLE")
    # A machine file without PAR data says so, as info, once (its return is not computed from them).
    no_par = sorted(f["file"] for f in in_files if f["rule_id"] == "LU-SLOT-PAR-EVALUABLE")
    assert no_par == [f"examples/lu/{name}" for name in (
        "machine-devices-locks.yaml", "machine-duplicate-rtp.yaml", "machine-meters.yaml", "machine-progressive-typo.yaml",
        "machine-rate-as-fraction.json", "machine-rtp-below-85.yaml", "machine-small-coins.yaml",
        "machine-unsaid-flags.yaml", "machine-used-uncertified.yaml", "machines-batch.yaml", "machines-batch.yaml")]
    assert all(f["pointer"] == "/par" and f["message"].startswith("not checked") for f in in_files
               if f["rule_id"] == "LU-SLOT-PAR-EVALUABLE")
    # (the zero rule decides a simple chance's bet on a zero alone: said in each LU roulette log)
    assert in_logs == [("examples/lu/log-american-roulette.jsonl", "LU-ROUL-LOG-SETTLEMENT"),
                       ("examples/lu/log-blackjack.jsonl", "LU-BJ-LOG-DEALER-DRAWING"),
                       ("examples/lu/log-blackjack.jsonl", "LU-BJ-LOG-DECISIONS"),
                       ("examples/lu/log-blackjack.jsonl", "LU-BJ-LOG-SETTLEMENT"),
                       ("examples/lu/log-roulette.jsonl", "LU-ROUL-LOG-SETTLEMENT"),
                       ("examples/lu/log-stud-poker.jsonl", "LU-STUD-LOG-SETTLEMENT"),
                       *[("examples/lu/meters-breaches.jsonl", "LOG-SET-ASIDE")] * 3]  # periods set aside
    _, report = json_report(cli, "examples", "--config", "examples/example.casino-audit.yaml")
    assert not [f for f in report["findings"] if f["severity"] == "info" and
                f["rule_id"] not in ("LU-SLOT-PAR-EVALUABLE", "LOG-SET-ASIDE")]  # a set-aside is said always
    assert "examples/example.casino-audit.yaml" in {f["path"] for f in report["files"] if f["status"] == "skipped"}
    done, report = json_report(cli, "examples/lu/machine-compliant.yaml", "--param", "slot_stake_minimum_eur=1",
                               "--param", "slot_stake_maximum_eur=10")
    assert done.returncode == 1
    assert [f["rule_id"] for f in report["findings"]] == ["LU-SLOT-STAKE-MIN-ORDER"]
    config = tmp_path / "casino-audit.yaml"
    config.write_text("params:\n  slot_stake_minimum_eur: 0.50\n  slot_stake_maximum_eur: 5\n")
    done, report = json_report(cli, str(REPO / "examples/lu/machine-compliant.yaml"), "--config", str(config))
    assert [f["rule_id"] for f in report["findings"]] == ["LU-SLOT-STAKE-MAX-ORDER"]


@pytest.mark.parametrize("fail_on, code", [("error", 1), ("warning", 1), ("info", 1), ("never", 0)])
def test_fail_on_threshold(cli, fail_on, code):
    assert cli("check", "examples/lu/machine-rtp-below-85.yaml", "--fail-on", fail_on).returncode == code


def test_info_threshold_fails_on_info_alone(cli):
    assert cli("check", "examples/lu/machine-compliant.yaml", "--fail-on", "info").returncode == 1


TOOL_PREFIXES = ("LOAD-", "KIND-", "SHAPE-", "JURISDICTION-", "RULESET-", "INTERNAL-", "LOG-")


def test_select_and_ignore_by_prefix_filter_law_rules_only(cli):
    _, everything = json_report(cli, "examples/lu")
    tool_findings = {f["rule_id"] for f in everything["findings"] if f["rule_id"].startswith(TOOL_PREFIXES)}
    assert {"LOAD-DUPLICATE-KEY", "SHAPE-INVALID", "SHAPE-UNKNOWN-FIELD"} <= tool_findings
    _, report = json_report(cli, "examples/lu", "--select", "LU-SLOT-METER")
    law = {f["rule_id"] for f in report["findings"] if not f["rule_id"].startswith(TOOL_PREFIXES)}
    assert law == {"LU-SLOT-METER-COIN-IN", "LU-SLOT-METER-COIN-IN-LOCKED", "LU-SLOT-METER-JACKPOT"}
    # never filtered; but a period set aside from a return only where a return rule judges one (issue 22)
    assert {f["rule_id"] for f in report["findings"]} - law == tool_findings - {"LOG-SET-ASIDE"}
    assert {"name": "select", "value": ["LU-SLOT-METER"], "source": "option --select"} in report["settings"]
    _, report = json_report(cli, "examples/lu", "--ignore", "LU")
    assert {f["rule_id"] for f in report["findings"]} == tool_findings - {"LOG-SET-ASIDE"}
    _, report = json_report(cli, "examples", "--select", "MC")
    assert {f["rule_id"] for f in report["findings"] if f["rule_id"].startswith("MC")} == {
        "MC-STUD-PAYOUTS", "MC-STUD-SEATS", "MC-STUD-LOG-BOXES", "MC-STUD-LOG-DEAL", "MC-STUD-LOG-LIMITS",
        "MC-STUD-LOG-RAISE", "MC-STUD-LOG-SETTLEMENT"}  # the last five: examples/mc/log-stud-poker-breaches.jsonl


@pytest.mark.parametrize("option", ["--select", "--ignore"])
@pytest.mark.parametrize("code", ["SHAPE", "LOAD-DUPLICATE-KEY", "LOAD", "JURISDICTION-NO-RULES", "INTERNAL"])
def test_tool_findings_cannot_be_selected_away(cli, option, code, tmp_path):
    done = cli("check", "examples/lu/machine-duplicate-rtp.yaml", option, code)
    assert done.returncode == 2 and "always reported" in done.stderr
    config = tmp_path / "casino-audit.yaml"
    config.write_text(f"{option.lstrip('-')}: [{code}]\n")
    done = cli("check", str(EXAMPLES / "lu/machine-duplicate-rtp.yaml"), "--config", str(config))
    assert done.returncode == 2 and "always reported" in done.stderr


def test_select_law_rules_keeps_a_duplicate_key_failing(cli):
    """Today's bypass: --select LU passed a filing with two `redistribution_rate:`."""
    done, report = json_report(cli, "examples/lu/machine-duplicate-rtp.yaml", "--select", "LU")
    assert done.returncode == 1 and "LOAD-DUPLICATE-KEY" in {f["rule_id"] for f in report["findings"]}


def test_a_misshapen_rate_fails_even_with_the_law_rule_selected_alone(cli):
    """Today's bypass: --ignore SHAPE passed a bare 0.9 rate, its law finding dropped for the shape one."""
    done, report = json_report(cli, "examples/lu/machine-rate-as-fraction.json", "--select", "LU-SLOT-RTP-MIN")
    assert done.returncode == 1
    assert {f["rule_id"] for f in report["findings"]} == {"SHAPE-INVALID", "LU-SLOT-RTP-MIN"}


def test_output_file_and_jurisdiction_override(cli, tmp_path):
    target = tmp_path / "report.json"
    done = cli("check", "examples/lu/machine-compliant.yaml", "-j", "PT", "--format", "json", "-o", str(target))
    assert done.returncode == 1 and done.stdout == ""
    report = json.loads(target.read_text())
    assert [f["rule_id"] for f in report["findings"]] == ["JURISDICTION-NO-RULES"]  # PT has no machine rules
    done = cli("check", "examples/lu/machine-compliant.yaml", "-j", "ES", "--format", "json")
    assert [f["rule_id"] for f in json.loads(done.stdout)["findings"]] == ["JURISDICTION-UNSUPPORTED"]


def test_every_input_file_is_accounted_for(cli, tmp_path):
    (tmp_path / "good.yaml").write_text((EXAMPLES / "lu/machine-compliant.yaml").read_text())
    (tmp_path / "broken.yaml").write_text("kind: machine\njurisdiction: [LU\n")
    (tmp_path / "latin1.yaml").write_bytes("kind: machine # caf\xe9\n".encode("latin-1"))
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "notes.txt").write_text("not a filing")
    (tmp_path / "nokind.yaml").write_text("jurisdiction: LU\n")
    done, report = json_report(cli, str(tmp_path))
    assert done.returncode == 1
    statuses = {f["path"].rsplit("/", 1)[1]: f["status"] for f in report["files"]}
    assert statuses == {"good.yaml": "checked", "broken.yaml": "unreadable", "latin1.yaml": "unreadable",
                        "empty.json": "unreadable", "notes.txt": "skipped", "nokind.yaml": "checked"}
    by_file = {f["file"].rsplit("/", 1)[1]: f for f in report["findings"] if f["file"]}
    assert by_file["broken.yaml"]["rule_id"] == "LOAD-SYNTAX" and by_file["broken.yaml"]["line"]
    assert by_file["latin1.yaml"]["rule_id"] == "LOAD-ENCODING"
    assert by_file["empty.json"]["rule_id"] == "LOAD-EMPTY"
    assert by_file["nokind.yaml"]["rule_id"] == "KIND-MISSING"
    summary = report["summary"]
    assert (summary["files"], summary["files_checked"], summary["files_unreadable"], summary["files_skipped"]) == (6, 2, 3, 1)


@pytest.mark.parametrize("args, words", [
    (["check", "no/such/path.yaml"], "no such file"),
    (["check", "examples", "--fail-on", "sometimes"], "--fail-on"),
    (["check", "examples", "--format", "xml"], "unknown --format"),
    (["check", "examples", "--param", "nonsense"], "NAME=VALUE"),
    (["check", "examples", "--param", "slot_stake_minimum_eur=cheap"], "takes a number"),
    (["check", "examples", "--param", "no_such_param=1"], "unknown parameter"),
    (["check", "examples", "-j", "Luxembourg"], "two-letter"),
    (["rules", "explain", "LU-NOPE"], "no rule"),
    (["schema", "spaceship"], "unknown schema"),
    (["check", "--bogus-option", "examples"], "No such option"),
    (["check", "examples", "--select", "LU-SLOT-RTP-MINIMUM"], "no rule matches"),
    (["check", "examples", "--ignore", "LU-SLOTS"], "no rule matches"),
])
def test_usage_errors_exit_two_without_traceback(cli, args, words):
    done = cli(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert words in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_rules_list_json_has_every_rule_with_its_citation(cli):
    done = cli("rules", "list", "-j", "LU", "--format", "json")
    assert done.returncode == 0
    rules = json.loads(done.stdout)
    assert len(rules) >= 40 and len({r["id"] for r in rules}) == len(rules)
    for rule in rules:
        assert rule["jurisdiction"] == "LU"
        assert rule["citation"]["article"] and rule["citation"]["text"] and rule["citation"]["language"] == "fr"
        assert rule["rationale"] and rule["check"]


def test_rules_list_rich_and_explain(cli):
    listing = cli("rules", "list")
    assert listing.returncode == 0 and "LU-SLOT-RTP-MIN" in listing.stdout
    done = cli("rules", "explain", "lu-slot-rtp-min")
    assert done.returncode == 0
    assert "Art. 18-7, al. 3" in done.stdout
    assert "ne peut être inférieur à 85 pour cent" in done.stdout
    assert "at least 85 %" in done.stdout
    explained = cli("rules", "explain", "LU-SLOT-STAKE-MIN-ORDER")
    assert "slot_stake_minimum_eur" in explained.stdout


def test_schema_command_prints_valid_json_schemas(cli):
    for name in ("machine", "table", "ruleset", "report"):
        done = cli("schema", name)
        assert done.returncode == 0
        jsonschema.Draft202012Validator.check_schema(json.loads(done.stdout))


def test_rulesets_validate(cli, tmp_path):
    assert cli("rulesets", "validate", "rulesets/lu.yaml").returncode == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: bad\nextends: lu\nrules:\n  - id: LU-X-Y\n    title: t\n")
    done = cli("rulesets", "validate", str(bad))
    assert done.returncode == 1
    assert f"{bad}:4:" in done.stderr and "required" in done.stderr


def test_house_ruleset_tightens_the_law_through_the_cli(cli, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(
        "ruleset: house\nextends: lu\nrules:\n  - id: HOUSE-RTP-88\n    title: RTP at least 88 %\n"
        "    severity: warning\n    applies_to: {kind: machine}\n"
        "    check: {kind: value, target: /redistribution_rate, unit: percent, min: \"88\",\n"
        "            missing: {reported_by: LU-SLOT-RTP-DECLARED}}\n"
        "    citation: {article: House policy 7, text: at least 88 per cent}\n    rationale: house policy\n")
    doc = tmp_path / "m.yaml"
    doc.write_text(without_par((EXAMPLES / "lu/machine-compliant.yaml").read_text()).replace("92.5 %", "87 %"))
    done, report = json_report(cli, str(doc), "--ruleset", str(house))
    assert done.returncode == 0  # a warning is under the default error threshold
    assert [f["rule_id"] for f in report["findings"] if f["severity"] != "info"] == ["HOUSE-RTP-88"]
    assert report["rulesets"][0]["chain"] == ["house", "lu"]
    assert cli("check", str(doc), "--ruleset", str(house), "--fail-on", "warning").returncode == 1
    broken = tmp_path / "broken.yaml"
    broken.write_text("ruleset: broken\nextends: lu\nrules: {}\n")
    done = cli("check", str(doc), "--ruleset", str(broken))
    assert done.returncode == 2 and "broken.yaml:3" in done.stderr


def test_a_crashing_check_fails_the_run_and_names_the_rule(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from casino_audit import cli as cli_module
    from casino_audit.law import checks

    original = checks.CHECK_KINDS["value"]

    def explode(spec):  # the one rate rule, LU-SLOT-RTP-MIN
        def check(data):
            raise ZeroDivisionError("boom")
        return check if spec.get("unit") == "percent" else original.compile(spec)

    monkeypatch.setitem(checks.CHECK_KINDS, "value", replace(original, compile=explode))
    result = CliRunner().invoke(cli_module.app, ["check", str(EXAMPLES / "lu/machine-compliant.yaml")])
    assert result.exit_code == 2
    assert "LU-SLOT-RTP-MIN" in result.output and "internal error" in result.output


def test_version(cli):
    done = cli("--version")
    assert done.returncode == 0 and done.stdout.startswith("casino-audit ")


def test_wrong_jurisdiction_spelling_is_one_clear_finding(cli, tmp_path):
    doc = tmp_path / "m.yaml"
    doc.write_text("kind: machine\njurisdiction: lu\n")
    _, report = json_report(cli, str(doc))
    assert [(f["rule_id"], f["line"]) for f in report["findings"]] == [("SHAPE-INVALID", 2)]


def test_a_run_with_nothing_to_check_is_a_usage_error_unless_allowed(cli, tmp_path):
    (tmp_path / "notes.txt").write_text("not a filing")
    done = cli("check", str(tmp_path))
    assert done.returncode == 2 and "no filing found" in done.stderr
    done, report = json_report(cli, str(tmp_path), "--allow-empty")
    assert done.returncode == 0 and report["summary"]["files_skipped"] == 1
    assert {"name": "allow_empty", "value": True, "source": "option --allow-empty"} in report["settings"]


def test_a_game_the_jurisdiction_has_no_rules_for_is_not_passed_silently(cli, tmp_path):
    doc = tmp_path / "mc-roulette.yaml"
    doc.write_text("kind: table\njurisdiction: MC\ngame: roulette\n")
    done, report = json_report(cli, str(doc))
    assert done.returncode == 1
    [finding] = report["findings"]
    assert finding["rule_id"] == "JURISDICTION-NO-RULES" and finding["line"] == 3 and "roulette" in finding["message"]


def test_a_ruleset_met_among_filings_is_validated_not_misread(cli, tmp_path):
    (tmp_path / "house.yaml").write_text("ruleset: house\nextends: lu\nrules: []\n")
    done, report = json_report(cli, str(tmp_path))
    assert done.returncode == 0 and report["findings"] == [] and report["summary"]["files_checked"] == 1
    (tmp_path / "house.yaml").write_text("ruleset: house\nextends: lu\nrules:\n  - id: X-Y\n    title: t\n")
    done, report = json_report(cli, str(tmp_path))
    assert done.returncode == 1
    assert {(f["rule_id"], f["line"]) for f in report["findings"]} == {("RULESET-INVALID", 4)}
    assert sorted(f["message"] for f in report["findings"])[0] == "`rules/0/applies_to` is required"


def test_config_files_passed_explicitly_are_skipped_not_misread(cli, tmp_path):
    config = tmp_path / "casino-audit.yaml"
    config.write_text("params: {}\n")
    done, report = json_report(cli, str(config), "examples/lu/machine-compliant.yaml", "--config", str(config))
    assert done.returncode == 0
    assert {f["path"]: f["status"] for f in report["files"]}[str(config)] == "skipped"


def test_partly_broken_multi_document_file_checks_what_it_can(cli, tmp_path):
    good = (EXAMPLES / "lu/machine-compliant.yaml").read_text()
    bad = without_par(good).replace("92.5 %", "80 %")  # its PAR data would disagree with the rate too
    (tmp_path / "batch.yaml").write_text(good + "---\n" + bad + "---\nkind: [machine\n")
    done, report = json_report(cli, str(tmp_path / "batch.yaml"))
    assert done.returncode == 1
    assert report["files"][0]["status"] == "partial" and report["files"][0]["documents"] == 2
    ids = [(f["rule_id"], f["document"]) for f in report["findings"] if f["severity"] == "error"]
    assert ids == [("LU-SLOT-RTP-MIN", 1), ("LOAD-SYNTAX", 2)]
    assert report["summary"]["files_unreadable"] == 1 and report["summary"]["files_checked"] == 1


def test_max_file_size(cli):
    done, report = json_report(cli, "examples/lu/machine-compliant.yaml", "--max-file-size", "100")
    assert done.returncode == 1 and [f["rule_id"] for f in report["findings"]] == ["LOAD-TOO-LARGE"]
