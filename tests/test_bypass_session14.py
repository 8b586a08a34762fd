"""A filer cannot switch this session's checks off by a misspelt key, another kind's name, a YAML 1.1 value or an
option: each attempt is a finding or a refusal, never a silent pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import EXAMPLES


def report(cli, *args, cwd=None):
    done = cli("check", *args, "--format", "json", **({"cwd": cwd} if cwd else {}))
    return done, (json.loads(done.stdout) if done.stdout.strip().startswith("{") else None)


@pytest.mark.parametrize("spelling", ["pars:", "Par:", "par_data:"])
def test_par_data_under_another_key_is_a_shape_finding_and_said_not_checked(cli, tmp_path, spelling):
    text = (EXAMPLES / "lu/machine-par-below-85.yaml").read_text("utf-8").replace("\npar:\n", f"\n{spelling}\n")
    path = tmp_path / "m.yaml"
    path.write_text(text, "utf-8")
    done, data = report(cli, str(path))
    found = {f["rule_id"] for f in data["findings"] if f["file"]}
    assert done.returncode == 1 and {"SHAPE-UNKNOWN-FIELD", "LU-SLOT-PAR-EVALUABLE"} <= found


def _meter_log(tmp_path: Path, change) -> Path:
    lines = (EXAMPLES / "lu/meters-breaches.jsonl").read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    change(header)
    path = tmp_path / "meters.jsonl"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", "utf-8")
    (tmp_path / header.get("machine", "none")).parent.mkdir(parents=True, exist_ok=True)
    if header.get("machine"):
        source = EXAMPLES / "lu" / header["machine"]
        if source.is_file():
            (tmp_path / header["machine"]).write_text(source.read_text("utf-8"), "utf-8")
    return path


def test_a_meter_log_under_another_kind_name_is_refused_not_passed(cli, tmp_path):
    done, data = report(cli, str(_meter_log(tmp_path, lambda h: h.update(kind="meter_log"))))
    assert done.returncode == 1 and "KIND-UNKNOWN" in {f["rule_id"] for f in data["findings"]}


def test_a_misspelt_meter_header_key_is_said_and_the_meters_still_judged(cli, tmp_path):
    def misspell(header):
        header["readng_interval_hours"] = header.pop("reading_interval_hours", 24)

    done, data = report(cli, str(_meter_log(tmp_path, misspell)))
    found = {f["rule_id"] for f in data["findings"]}
    assert done.returncode == 1 and "SHAPE-UNKNOWN-FIELD" in found and "LU-SLOT-LOG-COIN-IN-AGREE" in found


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
