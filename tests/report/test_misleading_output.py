"""What a report quotes cannot leak or forge: a ruleset error quotes nothing of a JSON file that is no ruleset, a
newline in a path forges no verdict line on the terminal; and the holes verified closed (a duplicate JSON key
spelt with an escape, a capitalised flag) stay closed."""

from __future__ import annotations

import json

from helpers.filer import run, report_of, ids, example


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
