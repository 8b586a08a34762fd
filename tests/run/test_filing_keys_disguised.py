"""Held closed (a find of the fourth hostile pass, issue 22); the regression note:

A machine filing whose keys are written in small capitals (`ᴋɪɴᴅ: machine`, `ᴊᴜʀɪꜱᴅɪᴄᴛɪᴏɴ: LU`,
`ʀᴇᴅɪꜱᴛʀɪʙᴜᴛɪᴏɴ_ʀᴀᴛᴇ: 60 %`) is skipped as "plainly not a filing", and a batch holding it passes (exit 0).

docs/how-to/ci-gate.md: "a file that is plainly not a filing (no `kind:` and no field a filing has ...) is skipped
and listed with why, never a failure; one that looks like a filing but does not say its kind (a `jurisdiction:` or
`machine:` at its top, in any case or spelling a reader takes for it) fails as `KIND-MISSING`."

Small capitals are read as the letters they are (a reader reads `ᴋɪɴᴅ` as "kind"), but kinds._key / same_name maps
only some of them to ASCII (ɪ→l, ᴄ→c, ᴏ→o, ʀ→r, ꜱ→s, ᴜ→u ...), not ᴋ, ᴅ, ɴ, ᴊ, ᴛ, ᴇ, ʙ, ᴀ: no key of the document
matches a filing's field, so plainly_not_a_filing says True. The file is listed `skipped`, its 60 % return (Art.
18-7: « taux de redistribution ... d'au moins 85 % ») never reaches the law, and the run's exit code is 0 beside a
compliant filing (2 alone, "no filing found" — which --allow-empty, the pre-commit hook's entry, turns into 0).

Consequence: a filing a reader takes for a machine filing is passed in silence, not KIND-MISSING.
"""

from __future__ import annotations

import json

from helpers.command import EXAMPLES, run_in_process


def _beside_a_compliant_filing(tmp_path, name: str, text: str) -> tuple:
    """The directory of `name` (holding `text`) and a compliant filing, checked: the exit code, `name`'s record
    and the findings."""
    (tmp_path / name).write_text(text, "utf-8")
    (tmp_path / "machine-compliant.yaml").write_text((EXAMPLES / "lu" / "machine-compliant.yaml").read_text("utf-8"),
                                                      "utf-8")
    done = run_in_process("check", ".", "--format", "json", cwd=tmp_path)
    report = json.loads(done.stdout)
    [record] = [r for r in report["files"] if r["path"] == name]
    return done.returncode, record, report["findings"]


def test_small_capital_keys_are_a_filing_that_does_not_say_its_kind(tmp_path):
    code, record, findings = _beside_a_compliant_filing(
        tmp_path, "machine-small-caps.yaml", "ᴋɪɴᴅ: machine\nᴊᴜʀɪꜱᴅɪᴄᴛɪᴏɴ: LU\nʀᴇᴅɪꜱᴛʀɪʙᴜᴛɪᴏɴ_ʀᴀᴛᴇ: 60 %\n")
    assert record["status"] != "skipped" and code == 1
    assert any(f["rule_id"] == "KIND-MISSING" and f["file"] == "machine-small-caps.yaml" for f in findings)


def test_a_filing_wrapped_in_a_list_under_a_key_is_not_skipped(tmp_path):
    # a filing wrapped under a key of another tool's file was skipped as no filing (exit 0 on a 60 % return)
    code, record, _ = _beside_a_compliant_filing(
        tmp_path, "dossier.yaml", "filings:\n  - kind: machine\n    jurisdiction: LU\n    redistribution_rate: 60 %\n")
    assert record["status"] != "skipped" and code == 1
