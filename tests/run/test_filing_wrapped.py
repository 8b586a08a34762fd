"""Held closed (a find of the fourth hostile pass, issue 22); the regression note:

A machine filing wrapped in a list under one key (`filings: [{kind: machine, jurisdiction: LU, ...}]`) is
skipped as "plainly not a filing", though it says `kind: machine` in so many words: a batch holding it passes.

kinds.plainly_not_a_filing's contract: "A document with no `kind` and no field a filing has, at its top level or
in any mapping of a list at its top (a pre-commit config's `repos`, a hook list, an action's `runs`)"; docs/how-to/
ci-gate.md: "a file that is plainly not a filing ... is skipped and listed with why, never a failure; one that
looks like a filing but does not say its kind ... fails as `KIND-MISSING`."

A pre-commit config's `repos` is a list under a top-level key, and its mappings are what the contract says are
looked at; the code looks only at the top-level keys (or the items of a top-level list). So `filings:` (no
filing field) hides the mappings beneath it, one of which is a whole filing by its own `kind:`. The file is listed
`skipped`, its 60 % return (Art. 18-7: « au moins 85 % ») reaches no rule and not even KIND-MISSING is said; exit
0 beside a compliant filing. A document holding a `kind: machine` mapping is not plainly something else.

Consequence: a filing with a breach is passed by wrapping it in one key.
"""

from __future__ import annotations

import json

import pytest

from helpers.command import EXAMPLES, run_in_process


def test_a_filing_wrapped_in_a_list_under_a_key_is_not_skipped(tmp_path):
    (tmp_path / "dossier.yaml").write_text(
        "filings:\n  - kind: machine\n    jurisdiction: LU\n    redistribution_rate: 60 %\n", "utf-8")
    (tmp_path / "machine-compliant.yaml").write_text((EXAMPLES / "lu" / "machine-compliant.yaml").read_text("utf-8"),
                                                      "utf-8")
    done = run_in_process("check", ".", "--format", "json", cwd=tmp_path)
    report = json.loads(done.stdout)
    [record] = [r for r in report["files"] if r["path"] == "dossier.yaml"]
    assert record["status"] != "skipped"
    assert done.returncode == 1
