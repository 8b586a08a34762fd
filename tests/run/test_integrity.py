"""Verdict integrity through the command line: no option, config, hostile file or crash empties a verdict in
silence, no run loses or overwrites data, no output takes over the terminal."""

import json
import os
import subprocess
import sys
from dataclasses import replace

import pytest

from helpers import schema_check
from casino_audit import __version__
from casino_audit.documents.shape import packaged_schema
from helpers.command import EXAMPLES, REPO, run_cli, without_par

COMPLIANT = (EXAMPLES / "lu/machine-compliant.yaml").read_text("utf-8")
RATE_ONLY = without_par(COMPLIANT)  # without its PAR data, which would disagree with another rate
PARAMS = ["--param", "slot_stake_minimum_eur=0.50", "--param", "slot_stake_maximum_eur=10"]


def report_of(cli, *args, **options):
    done = cli("check", *args, "--format", "json", **options)
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    schema_check.validate(report, packaged_schema("report.schema.json"))
    return done, report


def ids(report) -> set[str]:
    return {f["rule_id"] for f in report["findings"]}


# --- settings: where they came from, and who may override a document ---------------------------------------

def test_config_jurisdiction_fills_in_but_never_overrides(cli, tmp_path):
    (tmp_path / "casino-audit.yaml").write_text("jurisdiction: PT\n")
    lu = tmp_path / "filings" / "lu.yaml"
    lu.parent.mkdir()
    lu.write_text(COMPLIANT)
    unnamed = tmp_path / "filings" / "unnamed.yaml"
    unnamed.write_text(COMPLIANT.replace("jurisdiction: LU\n", ""))
    done, report = report_of(cli, "filings", *PARAMS, cwd=tmp_path)
    by_file = {}
    for finding in report["findings"]:
        by_file.setdefault(finding["file"].rsplit("/", 1)[-1], set()).add(finding["rule_id"])
    assert "lu.yaml" not in by_file  # its own LU stands: checked against Luxembourg, and compliant
    assert by_file["unnamed.yaml"] == {"JURISDICTION-NO-RULES"}  # filled in with PT, which has no machine rules
    assert {"name": "jurisdiction_default", "value": "PT", "source": "config casino-audit.yaml"} in report["settings"]
    done, report = report_of(cli, "filings", *PARAMS, "-j", "PT", cwd=tmp_path)
    assert [f["rule_id"] for f in report["findings"]] == ["JURISDICTION-NO-RULES"] * 2
    assert {"name": "jurisdiction_override", "value": "PT", "source": "option --jurisdiction"} in report["settings"]
    rich = cli("check", "filings", *PARAMS, "-j", "PT", cwd=tmp_path)
    assert "jurisdiction_override = PT" in rich.stdout and "option --jurisdiction" in rich.stdout


def test_every_narrowing_setting_is_named_with_its_source(cli, tmp_path):
    config = tmp_path / "strict.casino-audit.yaml"
    config.write_text("fail_on: never\nignore: [LU-SLOT-RTP-MIN]\nmax_per_rule: 3\n")
    done, report = report_of(cli, "examples/lu/machine-rtp-below-85.yaml", "--config", str(config), *PARAMS)
    assert done.returncode == 0  # fail_on never: passes, but says who asked for it
    settings = {s["name"]: s for s in report["settings"]}
    assert settings["fail_on"] == {"name": "fail_on", "value": "never", "source": f"config {config}"}
    assert settings["ignore"]["value"] == ["LU-SLOT-RTP-MIN"]
    assert settings["params"]["source"] == "option --param"
    rich = cli("check", "examples/lu/machine-rtp-below-85.yaml", "--config", str(config), *PARAMS)
    assert "ignore = LU-SLOT-RTP-MIN" in rich.stdout and f"config {config}" in rich.stdout
    assert "PASSED (--fail-on never)" in rich.stdout


# --- parameters a minister's order fixes --------------------------------------------------------------------

def test_rules_not_applied_are_counted_and_require_params_fails(cli, tmp_path):
    done = cli("check", "examples/lu/machine-compliant.yaml")
    assert done.returncode == 0
    assert "PASSED: nothing at or above 'error'; 2 rule(s) not applied: parameters missing" in done.stdout
    done, report = report_of(cli, "examples/lu/machine-compliant.yaml", "--require-params")
    assert done.returncode == 1
    assert report["not_applied"] == ["LU-SLOT-STAKE-MAX-ORDER", "LU-SLOT-STAKE-MIN-ORDER"]
    assert report["summary"]["rules_not_applied"] == 2
    assert {f["severity"] for f in report["findings"]} == {"error"}
    (tmp_path / "casino-audit.yaml").write_text("require_params: true\n")
    assert cli("check", str(EXAMPLES / "lu/machine-compliant.yaml"), cwd=tmp_path).returncode == 1
    assert cli("check", str(EXAMPLES / "lu/machine-compliant.yaml"), *PARAMS, cwd=tmp_path).returncode == 0


# --- findings capped in display, never in the count ---------------------------------------------------------

def test_repeated_findings_are_capped_with_exact_counts(cli, tmp_path):
    meters = "".join("  - {role: coin_in, technology: electronic, automatic: false, inside_machine: false}\n"
                     for _ in range(30))
    doc = tmp_path / "m.yaml"
    doc.write_text(COMPLIANT.split("meters:")[0] + "meters:\n" + meters + "payouts:" + COMPLIANT.split("\npayouts:", 1)[1])
    done, full = report_of(cli, str(doc), *PARAMS, "--max-per-rule", "0")
    counts = {}
    for finding in full["findings"]:
        counts[finding["rule_id"]] = counts.get(finding["rule_id"], 0) + 1
    many = {rule: n for rule, n in counts.items() if n > 5}
    assert many, counts
    done, capped = report_of(cli, str(doc), *PARAMS, "--max-per-rule", "5")
    assert done.returncode == 1
    assert capped["summary"]["errors"] == full["summary"]["errors"]
    assert {o["rule_id"]: o["total"] for o in capped["omitted"]} == many
    assert capped["summary"]["findings_omitted"] == sum(n - 5 for n in many.values())
    rich = cli("check", str(doc), *PARAMS, "--max-per-rule", "5")
    rule, total = next(iter(many.items()))
    assert f"and {total - 5:,} more {rule} finding(s)" in rich.stdout


# --- one bad file never stops the batch ----------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "kind: [machine]\njurisdiction: LU\n",
    "kind: {a: 1}\njurisdiction: LU\n",
    "kind: table\njurisdiction: LU\ngame: [roulette]\n",
    "kind: table\njurisdiction: LU\ngame: {roulette: 1}\n",
    "kind: machine\njurisdiction: [LU]\n",
    "kind: machine\njurisdiction: {LU: 1}\n",
])
def test_non_scalar_kind_game_or_jurisdiction_is_a_finding_and_the_batch_goes_on(cli, tmp_path, text):
    (tmp_path / "a-bad.yaml").write_text(text)
    (tmp_path / "b-breach.yaml").write_text(COMPLIANT.replace("92.5 %", "80 %"))
    done, report = report_of(cli, str(tmp_path), *PARAMS)
    assert done.returncode == 1
    files = {f["file"].rsplit("/", 1)[-1] for f in report["findings"]}
    assert files == {"a-bad.yaml", "b-breach.yaml"}
    assert "LU-SLOT-RTP-MIN" in ids(report)


def test_a_crash_in_one_file_is_its_finding_the_rest_is_checked_and_the_run_exits_2(monkeypatch, cli, tmp_path):
    from casino_audit.law import checks

    original = checks.CHECK_KINDS["value"]

    def explode_on_80(spec):
        real = original.compile(spec)
        if spec.get("unit") != "percent":  # the one rate rule, LU-SLOT-RTP-MIN
            return real

        def check(data):
            if data.get("redistribution_rate") == "80 %":
                raise ZeroDivisionError("boom")
            return real(data)
        return check

    monkeypatch.setitem(checks.CHECK_KINDS, "value", replace(original, compile=explode_on_80))
    (tmp_path / "a.yaml").write_text(COMPLIANT.replace("92.5 %", "80 %"))
    (tmp_path / "b.yaml").write_text(COMPLIANT.replace("92.5 %", "84 %"))
    target = tmp_path / "out" / "report.json"
    target.parent.mkdir()
    done = cli("check", str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml"), *PARAMS, "--format", "json",
               "-o", str(target))
    assert done.returncode == 2
    report = json.loads(target.read_text())
    assert report["exit_code"] == 2 and report["summary"]["internal_errors"] == 1
    crash = [f for f in report["findings"] if f["rule_id"] == "INTERNAL-ERROR"]
    assert len(crash) == 1 and crash[0]["file"].endswith("a.yaml") and "LU-SLOT-RTP-MIN" in crash[0]["message"]
    assert ("LU-SLOT-RTP-MIN", "b.yaml") in {(f["rule_id"], f["file"].rsplit("/", 1)[-1]) for f in report["findings"]}
    rich = cli("check", str(tmp_path / "a.yaml"), *PARAMS)
    assert rich.returncode == 2 and "ERROR: the check crashed on 1 file(s)" in rich.stdout


# --- walking directories ------------------------------------------------------------------------------------

def test_an_unreadable_subdirectory_is_a_finding(cli, tmp_path, monkeypatch):
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "m.yaml").write_text(COMPLIANT)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "hidden-breach.yaml").write_text(COMPLIANT.replace("92.5 %", "80 %"))
    real_scandir = os.scandir

    def scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    done, report = report_of(cli, str(tmp_path), *PARAMS)
    assert done.returncode == 1
    [finding] = report["findings"]
    assert finding["rule_id"] == "LOAD-UNREADABLE" and finding["file"].endswith("locked")
    assert {f["path"].rsplit("/", 1)[-1]: f["status"] for f in report["files"]}["locked"] == "unreadable"


def test_a_directory_tree_1200_levels_deep_is_walked(cli, tmp_path):
    deep = tmp_path
    for _ in range(1200):  # os.makedirs itself recurses
        deep = deep / "d"
        deep.mkdir()
    (deep / "breach.yaml").write_text(COMPLIANT.replace("92.5 %", "80 %"))
    try:
        done, report = report_of(cli, str(tmp_path), *PARAMS)
        assert done.returncode == 1 and "LU-SLOT-RTP-MIN" in ids(report)
    finally:  # shutil.rmtree (pytest's clean-up) recurses: take the tree down from the bottom
        (deep / "breach.yaml").unlink()
        while deep != tmp_path:
            deep.rmdir()
            deep = deep.parent


def test_links_met_while_walking_are_not_followed_out_of_the_tree(cli, tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("kind: machine\njurisdiction: LU\nsecret: hunter2\n")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "m.yaml").write_text(COMPLIANT)
    (tree / "link.yaml").symlink_to(outside)
    (tree / "inside.yaml").symlink_to(tree / "m.yaml")
    (tree / "loop").symlink_to(tree)  # a linked directory: listed, never followed (it could go round forever)
    done, report = report_of(cli, str(tree), *PARAMS)
    assert "hunter2" not in done.stdout
    statuses = {f["path"].rsplit("/", 1)[-1]: (f["status"], f["reason"]) for f in report["files"]}
    assert {name: status for name, (status, _) in statuses.items()} == {
        "m.yaml": "checked", "inside.yaml": "checked", "link.yaml": "skipped", "loop": "skipped"}
    assert "link to a directory" in statuses["loop"][1] and "outside the directory" in statuses["link.yaml"][1]


def test_a_file_name_that_is_not_utf8_is_escaped_in_every_output(tmp_path):
    directory = os.fsencode(tmp_path)
    with open(os.path.join(directory, b"caf\xe9-\x1b[2J.yaml"), "w") as handle:
        handle.write(COMPLIANT.replace("92.5 %", "80 %"))
    for output in ("rich", "json"):
        done = subprocess.run([sys.executable, "-m", "casino_audit", "check", str(tmp_path), "--format", output,
                               *PARAMS], capture_output=True, cwd=REPO, env={**os.environ, "NO_COLOR": "1"})
        assert done.returncode == 1, done.stderr
        assert b"\x1b" not in done.stdout and b"Traceback" not in done.stderr
        text = done.stdout.decode("utf-8")  # valid UTF-8 whatever the file name held
        if output == "json":
            report = json.loads(text)
            assert any("LU-SLOT-RTP-MIN" == f["rule_id"] for f in report["findings"])
        else:
            assert "caf\\udce9-\\x1b[2J.yaml" in text


# --- what reaches a person's terminal -------------------------------------------------------------------------

def test_control_characters_and_markup_in_a_filing_are_printed_escaped_and_literal(cli, tmp_path):
    doc = tmp_path / "m.yaml"
    doc.write_text(COMPLIANT + '"\\e[2J\\e[1;1HPASSED [bold]x[/bold]\\u202e": 1\n')
    for args in ([], ["--no-color"], ["--color"]):
        done = cli("check", str(doc), *PARAMS, *args)
        assert done.returncode == 1
        assert "\x1b[2J" not in done.stdout and "\u202e" not in done.stdout
        assert "\\x1b[2J\\x1b[1;1HPASSED [bold]x[/bold]\\u202e" in done.stdout


def test_rich_markup_in_ruleset_texts_is_printed_literally(cli, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(
        "ruleset: house\nextends: lu\nrules:\n  - id: HOUSE-MARKUP\n    title: \"[red]not red[/red] '^*$'\"\n"
        "    severity: warning\n    applies_to: {kind: machine}\n"
        "    check: {kind: present, target: /machine}\n"
        "    citation: {article: \"[link=x]Art. 1[/link]\", text: \"[bold]words[/bold]\"}\n"
        "    rationale: \"[blink]why[/blink]\"\n")
    done = cli("rules", "explain", "HOUSE-MARKUP", "--ruleset", str(house))
    assert done.returncode == 0
    for literal in ("[red]not red[/red] '^*$'", "[link=x]Art. 1[/link]", "[bold]words[/bold]", "[blink]why[/blink]"):
        assert literal in done.stdout
    listing = cli("rules", "list", "--ruleset", str(house), "-j", "LU")
    assert "[red]not red[/red]" in listing.stdout


# --- the report file -------------------------------------------------------------------------------------------

def test_output_never_overwrites_a_filing_nor_writes_into_a_walked_tree(cli, tmp_path):
    filing = tmp_path / "f.yaml"
    filing.write_text(COMPLIANT)
    done = cli("check", str(filing), "-o", str(filing))
    assert done.returncode == 2 and "would overwrite" in done.stderr
    assert filing.read_text() == COMPLIANT
    link = tmp_path / "elsewhere.json"
    link.symlink_to(filing)
    assert cli("check", str(filing), "-o", str(link)).returncode == 2
    assert filing.read_text() == COMPLIANT
    done = cli("check", str(tmp_path), "-o", str(tmp_path / "sub" / "report.json"))
    assert done.returncode == 2 and "directory being checked" in done.stderr
    assert not (tmp_path / "sub").exists()


def test_output_is_written_whole_and_a_failed_run_leaves_no_stale_report(cli, tmp_path):
    target = tmp_path / "report.json"
    assert cli("check", "examples/lu/machine-compliant.yaml", *PARAMS, "--format", "json", "-o",
               str(target)).returncode == 0
    assert json.loads(target.read_text())["failed"] is False
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left behind
    done = cli("check", "examples/lu/machine-compliant.yaml", "--param", "no_such=1", "--format", "json",
               "-o", str(target))
    assert done.returncode == 2 and not target.exists()


def test_a_broken_pipe_ends_quietly_with_the_verdict_code():
    command = f"{sys.executable} -m casino_audit check examples --max-per-rule 0 | head -c 10 >/dev/null; " \
              "echo ${PIPESTATUS[0]}"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.stdout.strip() == "1" and done.stderr == "", done.stderr


def test_process_boundary_exit_codes():
    assert run_cli("check", "examples/lu/machine-compliant.yaml", *PARAMS).returncode == 0
    assert run_cli("check", "examples/lu/machine-rtp-below-85.yaml").returncode == 1
    assert run_cli("check", "no/such/file.yaml").returncode == 2


# --- house rulesets: add and tighten, and whatever else they do is in the report --------------------------------

HOUSE_HEAD = "ruleset: house\nextends: lu\ninstruments:\n  policy: {title: House policy HP-7, language: en}\nrules:\n"


def house_rule(rule_id: str, check: str, severity: str = "error", when: str = "") -> str:
    return (f"  - id: {rule_id}\n    title: house\n    severity: {severity}\n    applies_to: {{kind: machine}}\n"
            f"{when}    check: {check}\n"
            "    citation: {instrument: policy, article: HP-7 s. 2, text: house words}\n    rationale: house\n")


@pytest.mark.parametrize("rule, change, exit_code", [
    (house_rule("LU-SLOT-RTP-MIN", '{kind: value, target: /redistribution_rate, unit: percent, min: "88"}'),
     "tightened", 1),
    (house_rule("LU-SLOT-RTP-MIN", '{kind: value, target: /redistribution_rate, unit: percent, min: "80"}'),
     "loosened", 0),
    (house_rule("LU-SLOT-RTP-MIN", '{kind: value, target: /redistribution_rate, unit: percent, min: "85"}',
                severity="info"), "severity lowered", 0),
    (house_rule("LU-SLOT-RTP-MIN", '{kind: present, target: /redistribution_rate}'), "replaced", 0),
    (house_rule("LU-SLOT-RTP-MIN", '{kind: value, target: /redistribution_rate, unit: percent, min: "85"}',
                when="    when: [{target: /machine/type, equals: video}]\n"), "loosened", 1),
], ids=["tightened", "loosened", "severity-lowered", "replaced", "narrowed-by-condition"])
def test_a_house_ruleset_changing_a_law_rule_is_listed_with_both_citations(cli, tmp_path, rule, change, exit_code):
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE_HEAD + rule)
    doc = tmp_path / "m.yaml"
    doc.write_text(RATE_ONLY.replace("92.5 %", "84 %"))
    done, report = report_of(cli, str(doc), *PARAMS, "--ruleset", str(house))
    assert done.returncode == exit_code
    [lu] = [r for r in report["rulesets"] if r["jurisdiction"] == "LU"]
    assert lu["builtin"] is False and [f["name"] for f in lu["files"]] == ["house", "lu"]
    assert all(len(f["sha256"]) == 64 for f in lu["files"])
    [entry] = lu["law_changes"]
    assert entry["rule_id"] == "LU-SLOT-RTP-MIN" and entry["change"] == change
    assert entry["law"]["citation"]["article"] == "Art. 18-7, al. 3"
    assert entry["house"]["citation"]["article"] == "HP-7 s. 2"
    rich = cli("check", str(doc), *PARAMS, "--ruleset", str(house))
    assert f"LU-SLOT-RTP-MIN {change}" in rich.stdout and "Art. 18-7, al. 3" in rich.stdout


def test_a_ruleset_that_does_not_extend_the_law_lists_every_law_rule_it_drops(cli, tmp_path):
    house = tmp_path / "own.yaml"
    house.write_text("ruleset: own\njurisdiction: {code: LU, name: Luxembourg}\n"
                     "instrument: {title: Own rules, language: en}\nrules:\n" + house_rule(
                         "OWN-X", "{kind: present, target: /machine}").replace("instrument: policy, ", ""))
    done, report = report_of(cli, "examples/lu/machine-rtp-below-85.yaml", "--ruleset", str(house))
    [lu] = [r for r in report["rulesets"] if r["jurisdiction"] == "LU"]
    removed = [c for c in lu["law_changes"] if c["change"] == "removed"]
    assert len(removed) > 80 and "LU-SLOT-RTP-MIN" in {c["rule_id"] for c in removed}
    assert {"name": "rulesets", "value": [str(house)], "source": "option --ruleset"} in report["settings"]


def test_builtin_rulesets_are_named_with_file_and_hash(cli):
    _, report = report_of(cli, "examples/lu/machine-compliant.yaml", *PARAMS)
    for ruleset in report["rulesets"]:
        assert ruleset["builtin"] is True and ruleset["law_changes"] == []
        [file] = ruleset["files"]
        # named without the machine's absolute path (provenance.shown_source)
        assert file["path"] == f"{ruleset['name']}.yaml (built-in, casino-audit {__version__})"
        assert len(file["sha256"]) == 64


def test_a_copy_of_the_law_is_the_law_and_a_changed_copy_cannot_take_its_name(cli, tmp_path):
    from casino_audit.law.rulesets import rulesets_dir

    law = (rulesets_dir() / "lu.yaml").read_text("utf-8")
    (tmp_path / "lu.yaml").write_text(law)
    assert cli("rulesets", "validate", str(tmp_path / "lu.yaml")).returncode == 0
    (tmp_path / "lu.yaml").write_text(law.replace('min: "85"', 'min: "80"', 1))
    done = cli("rulesets", "validate", str(tmp_path / "lu.yaml"))
    assert done.returncode == 1 and "name of a built-in ruleset" in done.stderr


def test_output_never_replaces_nor_removes_a_ruleset_or_config_the_run_reads(cli, tmp_path):
    (tmp_path / "m.yaml").write_text(COMPLIANT)
    (tmp_path / "base.yaml").write_text("ruleset: base\nextends: lu\nrules: []\n")
    (tmp_path / "house.yaml").write_text("ruleset: house\nextends: base.yaml\nrules: []\n")
    (tmp_path / "casino-audit.yaml").write_text("rulesets: [house.yaml]\n")
    for target in ("base.yaml", "house.yaml", "casino-audit.yaml"):
        before = (tmp_path / target).read_text()
        done = cli("check", "m.yaml", "-o", target, cwd=tmp_path)
        assert done.returncode == 2 and "files this run reads" in done.stderr, (target, done.stderr)
        assert (tmp_path / target).read_text() == before


@pytest.mark.parametrize("rule_id", ["INTERNAL-ERROR", "SHAPE-HOUSE", "LOAD-X", "JURISDICTION-MISSING"])
def test_a_house_rule_cannot_take_an_id_of_the_tools_own_findings(cli, tmp_path, rule_id):
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE_HEAD + house_rule(rule_id, "{kind: present, target: /machine}"))
    done = cli("rulesets", "validate", str(house))
    assert done.returncode == 1 and "prefix of the tool's own findings" in done.stderr


def test_a_broken_config_or_ruleset_is_a_report_with_its_lines_in_every_format(cli, tmp_path):
    (tmp_path / "casino-audit.yaml").write_text("fail_on: sometimes\n")
    done, report = report_of(cli, str(EXAMPLES / "lu/machine-compliant.yaml"), cwd=tmp_path)
    assert done.returncode == 2 and report["exit_code"] == 2 and report["failed"] is True
    assert [(f["rule_id"], f["file"], f["line"]) for f in report["findings"]] == [
        ("CONFIG-INVALID", "casino-audit.yaml", 1)]
    (tmp_path / "casino-audit.yaml").unlink()
    (tmp_path / "house.yaml").write_text("ruleset: house\nextends: lu\nrules:\n  - id: X-Y\n    title: t\n")
    target = tmp_path / "report.json"
    done = cli("check", str(EXAMPLES / "lu/machine-compliant.yaml"), "--ruleset", "house.yaml", "--format", "json",
               "-o", str(target), cwd=tmp_path)
    assert done.returncode == 2 and "house.yaml:4" in done.stderr
    report = json.loads(target.read_text())
    assert {(f["rule_id"], f["line"]) for f in report["findings"]} == {("RULESET-INVALID", 4)}
    rich = cli("check", str(EXAMPLES / "lu/machine-compliant.yaml"), "--ruleset", "house.yaml", cwd=tmp_path)
    assert "RULESET-INVALID" in rich.stdout and "the run could not start" in rich.stdout


def test_rules_explain_and_list_read_the_same_config_as_check(cli, tmp_path):
    (tmp_path / "house.yaml").write_text(HOUSE_HEAD + house_rule(
        "LU-SLOT-RTP-MIN", '{kind: value, target: /redistribution_rate, unit: percent, min: "88"}'))
    (tmp_path / "casino-audit.yaml").write_text("rulesets: [house.yaml]\n")
    (tmp_path / "m.yaml").write_text(COMPLIANT.replace("92.5 %", "87 %"))
    assert cli("check", "m.yaml", *PARAMS, cwd=tmp_path).returncode == 1  # 87 % fails the house's 88 %
    explained = cli("rules", "explain", "LU-SLOT-RTP-MIN", cwd=tmp_path).stdout
    assert "at least 88 %" in explained and "house.yaml" in explained
    listing = json.loads(cli("rules", "list", "-j", "LU", "--format", "json", cwd=tmp_path).stdout)
    assert {r["id"]: r["ruleset"] for r in listing}["LU-SLOT-RTP-MIN"] == "house"
