"""Held closed (a find of the fourth hostile pass, issue 22); the regression note:

A file named `-`, given as `./-` as the docs say to, is not read: since shown_path strips the leading `./`,
discovery takes the path for `-`, standard input, and checks what standard input holds in the file's place.

docs/reference/commands.md: "`-` given twice is a usage error, and a file named `-` is checked as `./-`."

shown_path("./-") is "-", and discover() then compares `raw == "-"`: `check ./-` reads standard input (a
compliant filing piped in passes: exit 0, the file's 60 % return — Art. 18-7, « au moins 85 % » — never read),
`check ./- -` is refused as "- (standard input) can be read only once" (exit 2), and with nothing on standard
input the file is reported `unreadable` though it is a readable filing; named by its absolute path (`$PWD/-`)
it is a usage error, "- names standard input, which this run does not read" (exit 2). The name shown in reports may drop the
`./`; the decision of what to read must not.

Consequence: a filing with a breach is never checked; another file's verdict is given under its name.
"""

from __future__ import annotations

import json

import pytest

from helpers.command import EXAMPLES, run_in_process


def test_a_file_named_dash_is_checked_as_dot_slash_dash(tmp_path):
    (tmp_path / "-").write_text((EXAMPLES / "lu" / "machine-rtp-below-85.yaml").read_text("utf-8"), "utf-8")
    compliant = (EXAMPLES / "lu" / "machine-compliant.yaml").read_text("utf-8")
    done = run_in_process("check", "./-", "--format", "json", cwd=tmp_path, stdin=compliant)
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert any(f["rule_id"] == "LU-SLOT-RTP-MIN" for f in report["findings"])
