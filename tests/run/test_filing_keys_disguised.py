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

import pytest

from helpers.command import EXAMPLES, run_in_process


def test_small_capital_keys_are_a_filing_that_does_not_say_its_kind(tmp_path):
    (tmp_path / "machine-small-caps.yaml").write_text(
        "ᴋɪɴᴅ: machine\nᴊᴜʀɪꜱᴅɪᴄᴛɪᴏɴ: LU\nʀᴇᴅɪꜱᴛʀɪʙᴜᴛɪᴏɴ_ʀᴀᴛᴇ: 60 %\n", "utf-8")
    (tmp_path / "machine-compliant.yaml").write_text((EXAMPLES / "lu" / "machine-compliant.yaml").read_text("utf-8"),
                                                      "utf-8")
    done = run_in_process("check", ".", "--format", "json", cwd=tmp_path)
    report = json.loads(done.stdout)
    [record] = [r for r in report["files"] if r["path"] == "machine-small-caps.yaml"]
    assert record["status"] != "skipped"
    assert any(f["rule_id"] == "KIND-MISSING" and f["file"] == "machine-small-caps.yaml" for f in report["findings"])
    assert done.returncode == 1
