"""Red-team reproductions: each was a way through (a breach passed, a file lost, a terminal forged) found by
attacking the tool as a filer or a hostile dossier would; each test holds it closed.

Every test runs the command in a temporary working directory (so no casino-audit.yaml is picked up by accident),
on files written to tmp_path. Ordered by severity: breaching filings that exited 0 first, then lost or stale
files, then misleading output.
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers.command import EXAMPLES, run_in_process


def run(*args: str, cwd: Path):
    return run_in_process(*args, cwd=cwd)


def report_of(*args: str, cwd: Path):
    done = run("check", *args, "--format", "json", cwd=cwd)
    return done, json.loads(done.stdout)


def ids(report: dict) -> set[str]:
    return {finding["rule_id"] for finding in report["findings"]}


def example(relative: str) -> str:
    return (EXAMPLES / relative).read_text("utf-8")


# --- 1. Breaching filings that exit 0 ------------------------------------------------------------------------


def test_mc_stud_shuffler_not_used_but_deals_skips_hand_shuffle_and_cut(tmp_path):
    """BYPASS (exit 0). MC-STUD-SHUFFLE and MC-STUD-CUT-CARD are switched off by `when: /shuffler/deals differs
    true`, i.e. by `deals: true` alone, even when the same filing says the shuffler is NOT used (`used: false`).
    The AM 2003-281 waives the hand shuffle and the cuts only "s'il est fait usage d'un mélangeur distributeur";
    a table whose shuffler-dealer is not used is shuffled and cut by hand. The README says a feature counts as
    used "unless it says `used: false`" - here it does say so, yet the waiver still applies. A Monaco stud table
    that declares no shuffles, no cuts and no cut card passes."""
    text = example("mc/table-stud-poker-shuffler.yaml").replace(
        "shuffler: {used: true, deals: true}", "shuffler: {used: false, deals: true}")
    assert "used: false, deals: true" in text
    (tmp_path / "stud.yaml").write_text(text, "utf-8")
    done, report = report_of("stud.yaml", cwd=tmp_path)
    assert done.returncode == 1, (done.returncode, report["summary"], sorted(ids(report)))
    assert {"MC-STUD-SHUFFLE", "MC-STUD-CUT-CARD"} <= ids(report)


def test_pt_blackjack_shuffling_shoe_not_used_skips_shoe_cards(tmp_path):
    """BYPASS (exit 0). Same hole in Portugal: PT-BJ-SHOE (two special cards) and PT-BJ-WARNING-CARD (50th card
    from the end) apply `when /shuffler/deals differs true`; n.º 52 waives them only where the automatic
    shuffling shoe is used. `shuffler: {used: false, deals: true}` - the shoe is declared not used - and a table
    with no special cards and no warning card passes (with `shuffler: {used: false}` alone it fails, 2 errors)."""
    (tmp_path / "bj.yaml").write_text("""\
kind: table
jurisdiction: PT
game: blackjack
filing: {casino: Casino Estoril, date: "2026-11-02", reference: IGJ-BJ-015}
table: {number: BJ5, seats: 7, shape: semicircular}
cards: {decks: 6, cards_per_deck: 52, player_cut: false}
shuffler: {used: false, deals: true}
shoe: {used: true}
chips: {media: [chips]}
stakes: {minimum_eur: 10, maximum_eur: 300}
payouts: {blackjack: 1.5, jogada_ganha: 1, seguro: 2, premio_especial: 3}
insurance: {maximum_fraction_of_bet: 0.5}
""", "utf-8")
    done, report = report_of("bj.yaml", cwd=tmp_path)
    assert done.returncode == 1, (done.returncode, report["summary"], sorted(ids(report)))
    assert {"PT-BJ-SHOE", "PT-BJ-WARNING-CARD"} <= ids(report)


def test_pt_bacara_double_six_decks_with_unused_shuffling_shoe(tmp_path):
    """BYPASS (exit 0). PT-BAC-DECKS-DOUBLE (a double table uses eight decks) applies `when /shuffler/deals differs
    true`, and PT-BAC-DECKS-SHOE (six decks) `when deals equals true`, neither looking at `used`. A double Macau
    table that says its shuffling shoe is not used (`used: false, deals: true`) may play with six decks and
    passes; the law's six-deck exception (n.º 5, b) is for tables that use the shuffling shoe."""
    text = example("pt/table-bacara-macau-double.yaml").replace(
        "shuffler: {used: true, deals: true}", "shuffler: {used: false, deals: true}")
    assert "used: false, deals: true" in text and "decks: 6" in text
    (tmp_path / "macau.yaml").write_text(text, "utf-8")
    done, report = report_of("macau.yaml", cwd=tmp_path)
    assert done.returncode == 1, (done.returncode, report["summary"], sorted(ids(report)))
    assert "PT-BAC-DECKS-DOUBLE" in ids(report)


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


# --- 2. House rulesets: a loosening reported as a tightening ---------------------------------------------------


def test_house_rule_replacing_a_parameter_bound_with_a_huge_constant_is_called_tightened(tmp_path):
    """MISREPORTED LOOSENING (exit 0). LU-SLOT-STAKE-MAX-ORDER reads `max: {param: slot_stake_maximum_eur}`.
    A house ruleset replaces it with `max: "1000000"`: with --param slot_stake_maximum_eur=10 the law fails a
    500 EUR maximum stake, the house rule passes it - and the report lists the change as `tightened: maximum
    none -> 1000000` (provenance._compare_checks: a {param} bound reads as None, "no bound", so any constant
    looks tighter). An inspector reads "tightened" and the run exits 0. It must be `loosened` or `replaced`."""
    (tmp_path / "m500.yaml").write_text(
        example("lu/machine-compliant.yaml").replace("maximum_eur: 10.00", "maximum_eur: 500"), "utf-8")
    (tmp_path / "house.yaml").write_text("""\
ruleset: casino-house
extends: lu
rules:
  - id: LU-SLOT-STAKE-MAX-ORDER
    title: The maximum stake respects the order
    severity: error
    applies_to: {kind: machine}
    check: {kind: value, target: /stakes/maximum_eur, max: "1000000", missing: {reported_by: LU-SLOT-STAKES-DECLARED}}
    citation: {instrument: lu, article: Art. 18-4, text: "x"}
    rationale: house
""", "utf-8")
    params = ["--param", "slot_stake_maximum_eur=10", "--param", "slot_stake_minimum_eur=0.50"]
    law, _ = report_of("m500.yaml", *params, cwd=tmp_path)
    assert law.returncode == 1  # the law fails it
    done, report = report_of("m500.yaml", "--ruleset", "house.yaml", *params, cwd=tmp_path)
    changes = {c["rule_id"]: c["change"] for r in report["rulesets"] for c in r["law_changes"]}
    assert changes["LU-SLOT-STAKE-MAX-ORDER"] in ("loosened", "replaced"), changes


# --- 3. Lost and stale files ----------------------------------------------------------------------------------


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


# --- 4. Leaks and misleading output ---------------------------------------------------------------------------


def test_ruleset_error_quotes_a_json_file_that_is_not_a_ruleset(tmp_path):
    """LEAK. "No error quotes a file that is not a ruleset": LOAD-DUPLICATE-KEY and LOAD-AMBIGUOUS are withheld
    (rulesets._QUOTING), but a JSON syntax error is not: `--ruleset creds.json` prints
    `broken JSON: expected a value, found 'AKIAIOSFODNN7EXAMPLE'` - 20 characters of a credentials file that a
    hostile config (`rulesets: [../creds.json]`) or a mistyped path points at. The JSON reader's `found ...`
    (json_reader.JsonReader._unexpected) must not be quoted for a file that is not a ruleset."""
    (tmp_path / "m.yaml").write_text(example("lu/machine-compliant.yaml"), "utf-8")
    (tmp_path / "creds.json").write_text('{"aws_secret": AKIAIOSFODNN7EXAMPLESECRET}\n', "utf-8")
    done = run("check", "m.yaml", "--ruleset", "creds.json", cwd=tmp_path)
    assert done.returncode == 2
    assert "AKIAIOSF" not in done.stdout + done.stderr, done.stderr


def test_newline_in_a_path_forges_a_verdict_line_on_the_terminal(tmp_path):
    """RAW CONTROL CHARACTER. Errors are printed with printable(..., keep_newlines=True) (cli._exits), so a path
    holding a newline reaches the terminal raw: `check $'x\\nPASSED: nothing at or above error'` prints a line
    `PASSED: nothing at or above error` under the error. Text quoted from the user (paths) must be escaped;
    only the message's own line breaks may stay."""
    done = run("check", "x\nPASSED: nothing at or above 'error'", cwd=tmp_path)
    assert done.returncode == 2
    assert not any(line.startswith("PASSED") for line in done.stderr.splitlines()), done.stderr


# --- Verified closed (kept so the holes stay closed) ----------------------------------------------------------


def test_verified_closed_json_duplicate_key_spelt_with_an_escape(tmp_path):
    """VERIFIED CLOSED. A JSON filing that gives `redistribution_rate` twice, the second time spelt
    `redistribution\\u005frate` so a text search sees one key, is LOAD-DUPLICATE-KEY (exit 1)."""
    text = json.dumps({"kind": "machine", "jurisdiction": "LU", "redistribution_rate": "50 %"})
    text = text[:-1] + ', "redistribution\\u005frate": "92.5 %"}'
    (tmp_path / "m.json").write_text(text, "utf-8")
    done, report = report_of("m.json", cwd=tmp_path)
    assert done.returncode == 1 and "LOAD-DUPLICATE-KEY" in ids(report)


def test_verified_closed_capitalised_flag_does_not_switch_a_rule_off(tmp_path):
    """VERIFIED CLOSED. `Linked: false` (capital L) on a progressive jackpot advertised outside: the key is an
    unknown field (with a did-you-mean) and the jackpot still counts as linked, so the advertising rule fires."""
    text = example("lu/machine-compliant.yaml").replace("  linked: true", "  Linked: false").replace(
        "advertised_outside: false", "advertised_outside: true")
    (tmp_path / "m.yaml").write_text(text, "utf-8")
    done, report = report_of("m.yaml", cwd=tmp_path)
    assert done.returncode == 1
    assert {"SHAPE-UNKNOWN-FIELD", "LU-SLOT-PROGRESSIVE-ADVERTISING"} <= ids(report)
