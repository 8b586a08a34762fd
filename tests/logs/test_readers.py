"""The log readers: how a log's records reach the checks (JSON Lines and CSV, plain and gzip,
the header, the rows of a coup). Each test is an input that lost a record or a breach, or flagged a legal log,
found by running it."""

from __future__ import annotations

import yaml

from casino_audit.law.engine import Checker
from casino_audit.core.findings import Severity
from casino_audit.run.pipeline import run
from casino_audit.law.rulesets import builtin_names, load_builtin
from helpers.command import EXAMPLES
from helpers.command import run_in_process
import json
import pytest

RULESETS = {rs.code: rs for rs in (load_builtin(name) for name in builtin_names())}
PARAMS = {key: str(value) for key, value in
          yaml.safe_load((EXAMPLES / "example.casino-audit.yaml").read_text("utf-8"))["params"].items()}
PB_CSV = (EXAMPLES / "lu/log-punto-banco.csv").read_text("utf-8")
PB_JSONL = (EXAMPLES / "lu/log-punto-banco.jsonl").read_text("utf-8")


def check(path):
    return run([str(path)], Checker(RULESETS, {code: PARAMS for code in RULESETS}))


def errors(result) -> list[tuple[str, int | None]]:
    return sorted((f.rule_id, f.line) for f in result.findings if f.severity is Severity.ERROR)


def over_the_maximum(text: str) -> str:
    """The example's punto banco log with its first stake of 100 (coup 1) raised to 2,020, over the maximum of
    2,000 its header gives."""
    assert ",egalite,100,-100\n" in text
    return text.replace(",egalite,100,-100\n", ",egalite,2020,-2020\n", 1)


# --- a record stream that yields no record -------------------------------------------------------------------

def test_a_stream_with_no_record_is_empty_even_when_its_last_line_lacks_a_newline(tmp_path):
    # The warning that the last line has no newline stood for the only finding: a CSV log of `#` lines alone, or
    # one whose line ends are CR alone (its every line one `#` line), read no record and exited 0.
    path = tmp_path / "header.csv"
    path.write_text("# kind: game-log\n# jurisdiction: LU\n# game: punto_banco", "utf-8")
    result = check(path)
    assert ("LOAD-EMPTY", 1) in errors(result)
    assert result.exit_code(Severity.ERROR) == 1


def test_a_log_whose_line_ends_are_cr_alone_is_read_line_by_line(tmp_path):
    # Old Mac line ends: a CSV log was one `#` line (no record, exit 0), a JSON Lines log one unreadable line.
    # A CR alone ends a line as it does in any editor: every record is read and the stake over the maximum found
    # at its line.
    csv_path, jsonl_path = tmp_path / "cr.csv", tmp_path / "cr.jsonl"
    csv_path.write_bytes(over_the_maximum(PB_CSV).replace("\n", "\r").encode())
    lines = PB_JSONL.splitlines()
    lines[1] = lines[1].replace('"stake": 100, "net": -100', '"stake": 2020, "net": -2020', 1)
    jsonl_path.write_bytes("\r".join(lines).encode() + b"\r")
    for path, line, coups in ((csv_path, 9, 20), (jsonl_path, 2, 4)):
        result = check(path)
        assert errors(result) == [("LU-PB-LOG-LIMITS", line)], path
        [record] = result.files
        assert record.records == {"read": coups + 1, "checked": coups, "with_findings": 1, "unreadable": 0}
    # CRLF is unchanged, and a CR alone in a line ending CRLF ends a line there
    crlf = tmp_path / "crlf.csv"
    crlf.write_bytes(over_the_maximum(PB_CSV).replace("\n", "\r\n").encode())
    assert errors(check(crlf)) == [("LU-PB-LOG-LIMITS", 9)]
    mixed = tmp_path / "mixed.csv"
    text = over_the_maximum(PB_CSV).split("\n")
    mixed.write_bytes(("\r\n".join(text[:8]) + "\r" + "\r\n".join(text[8:])).encode())
    assert errors(check(mixed)) == [("LU-PB-LOG-LIMITS", 9)]


def test_a_game_log_of_a_header_alone_is_empty(tmp_path):
    # A meter log with no reading was LOAD-EMPTY; a game log with no coup (an export cut after its header) passed
    # clean, in JSON Lines and in CSV alike.
    jsonl, csv = tmp_path / "header.jsonl", tmp_path / "header.csv"
    jsonl.write_text(PB_JSONL.splitlines(keepends=True)[0], "utf-8")
    csv.write_text("".join(PB_CSV.splitlines(keepends=True)[:8]), "utf-8")
    for path in (jsonl, csv):
        result = check(path)
        assert errors(result) == [("LOAD-EMPTY", 1)], path
        assert result.files[0].records == {"read": 1, "checked": 0, "with_findings": 0, "unreadable": 0}


# --- staff names -------------------------------------------------------------------------------------------

def test_a_spinner_named_in_two_unicode_forms_is_one_person(tmp_path):
    # "C-1 " and "c-1" were one person, but "José" composed (NFC) and decomposed (NFD), with a zero-width space or a
    # NUL, were two: a log naming its spinner each way in turn showed a relief at every coup, and a turn of over an
    # hour (PT n.º 18 and the like) passed, exit 0.
    import json
    import unicodedata

    lines = (EXAMPLES / "pt/log-french-roulette.jsonl").read_text("utf-8").splitlines(keepends=True)
    lines[4] = lines[4].replace("22:00:40", "22:05:40").replace('"spinner": "C-9"', '"spinner": "C-7"')
    composed, decomposed = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")
    for other in (decomposed, "Jo\u200bsé", "Ｊｏｓé", "José\x00", "Jos\x7fé"):
        names = [composed, other, composed, other]
        path = tmp_path / "spinner.jsonl"
        path.write_text(lines[0] + "".join(line.replace('"spinner": "C-7"', f'"spinner": {json.dumps(name)}')
                                           for line, name in zip(lines[1:], names)), "utf-8")
        assert ("PT-ROUL-LOG-SPINNER", 5) in errors(check(path)), ascii(other)


def test_a_machine_renamed_by_an_invisible_character_is_a_finding(tmp_path):
    # "M-1 ", "m-1" and "Ｍ-1" were LOAD-AMBIGUOUS, but "M\u200b-1" (a zero-width space, shown as M-1) was a new
    # machine: its meters set back to 0 were two LOG-GAP warnings, exit 0.
    from helpers.meters import PER_DAY, header, reading, write
    from helpers.meters import check as check_meters

    back = {meter: -30 * PER_DAY[meter] for meter in PER_DAY}  # 0 on day 30
    for other in ("M\u200b-1", "M-1\u2060", "\u200dM-1"):
        records = [header(), *(reading(day) for day in range(30)),
                   *(reading(day, other, start=back) for day in range(30, 32))]
        found = [(f.rule_id, f.line) for f in check_meters(write(tmp_path, records)).findings
                 if f.severity is Severity.ERROR]
        # read under the name its file is filed for (M-1) as one sees it: that machine, its reset an error
        assert found and {line for _, line in found} == {32} and ("LU-SLOT-LOG-COIN-IN-RESET", 32) in found, \
            ascii(other)


# --- what heads a record stream --------------------------------------------------------------------------------

def test_a_log_headed_by_a_valid_house_ruleset_is_not_passed_unchecked(tmp_path):
    # A first line that reads as a ruleset (`ruleset`, `rules`, no `kind`) was validated as one and, valid, said
    # nothing: the coups after it were read and never checked, the stake over the maximum passed, exit 0.
    lines = PB_JSONL.splitlines(keepends=True)
    lines[1] = lines[1].replace('"stake": 100, "net": -100', '"stake": 2020, "net": -2020', 1)
    path = tmp_path / "log.jsonl"
    path.write_text('{"ruleset": "house", "extends": "lu", "rules": []}\n' + "".join(lines[1:]), "utf-8")
    result = check(path)
    assert errors(result) == [("KIND-UNKNOWN", 1)]
    assert "4 records after it are not checked" in result.findings[0].message
    assert result.files[0].records == {"read": 5, "checked": 0, "with_findings": 0, "unreadable": 0}


@pytest.mark.parametrize("header", ['{"kind": "game-log", "jurisdiction": "LU", broken', '{"jurisdiction": "LU"}',
                                    '{"kind": "game-log", "jurisdiction": "XX", "game": "punto_banco"}'])
def test_the_records_under_a_header_that_reaches_no_law_are_said_not_checked(tmp_path, header):
    # A header line that cannot be read makes the first coup the header: KIND-MISSING there, and the coups after
    # it were read and never checked, in silence. A header without a kind or a known jurisdiction likewise.
    path = tmp_path / "log.jsonl"
    path.write_text(header + "\n" + "".join(PB_JSONL.splitlines(keepends=True)[1:]), "utf-8")
    result = check(path)
    said = [f for f in result.findings if "after it are not checked" in f.message]
    assert len(said) == 1 and said[0].severity is Severity.ERROR, [(f.rule_id, f.message) for f in result.findings]
    readable = 4 if "broken" in header else 5
    after = readable - 1
    assert f"the {after} records after it are not checked" in said[0].message
    assert result.files[0].records["checked"] == 0 and result.files[0].records["read"] == readable


@pytest.mark.parametrize("blank", ["\u00a0", "\x0c", "\u2003", "\u00a0\t"])
def test_a_line_blank_to_python_but_not_to_json_is_a_finding(tmp_path, blank):
    # str.strip() takes U+00A0, a form feed, an em space for blank: JSON takes only space, tab, CR and LF
    lines = PB_JSONL.splitlines(keepends=True)
    path = tmp_path / "log.jsonl"
    path.write_text("".join(lines[:2]) + blank + "\n" + "".join(lines[2:]), "utf-8")
    assert ("LOAD-SYNTAX", 3) in errors(check(path))


# --- CSV cells holding a line break ----------------------------------------------------------------------------

def _meter_csv(note_first: bool) -> tuple[str, int]:
    """The example meter log written by Python's csv module with a note column, one note on two lines; and the
    number of readings."""
    import csv
    import io

    text = (EXAMPLES / "lu/meters-compliant.csv").read_text("utf-8")
    header = "".join(line for line in text.splitlines(keepends=True) if line.startswith("#"))
    rows = list(csv.reader(line for line in text.splitlines(keepends=True) if not line.startswith("#")))
    rows = [(["note"] if note_first else []) + row + ([] if note_first else ["note"]) if i == 0 else
            ([""] if note_first else []) + row + ([] if note_first else [""]) for i, row in enumerate(rows)]
    rows[5][0 if note_first else -1] = "door opened by the technician,\nsee report 12"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return header + out.getvalue(), len(rows) - 1


def test_a_meter_note_on_two_lines_is_one_reading(tmp_path):
    # A note with a line break, quoted as every CSV writer quotes it, was two broken rows: LOAD-SYNTAX on a legal
    # log (and the reading lost where the note was not the last column).
    for number in range(1, 5):  # each machine's homologation file, beside the log as beside the example
        name = f"machine-m-{number:03d}.yaml"
        (tmp_path / name).write_text((EXAMPLES / "lu" / name).read_text("utf-8"), "utf-8")
    for note_first in (False, True):
        text, readings = _meter_csv(note_first)
        path = tmp_path / "meters.csv"
        path.write_text(text, "utf-8")
        result = check(path)
        assert errors(result) == [], note_first
        assert result.files[0].records == {"read": readings + 1, "checked": readings, "with_findings": 0,
                                           "unreadable": 0}


def test_a_line_break_in_a_game_log_cell_hides_no_row(tmp_path):
    # No game-log column holds free text: a quoted cell running over lines would hide the rows inside it (a stake
    # over the maximum inside a croupier's name). Each line stays a row, read or reported.
    lines = over_the_maximum(PB_CSV).splitlines(keepends=True)
    assert lines[8].startswith("1,") and lines[9].startswith("1,") and lines[8].count(",C-1,") == 1
    start, rest = lines[8].split(",C-1,", 1)
    path = tmp_path / "hidden.csv"
    path.write_text("".join(lines[:8]) + start + ',"C-1\n' + lines[8] + 'X",' + rest + "".join(lines[9:]), "utf-8")
    found = errors(check(path))
    assert ("LU-PB-LOG-LIMITS", 10) in found and ("LOAD-SYNTAX", 9) in found and ("LOAD-SYNTAX", 11) in found


# --- a line longer than a record ----------------------------------------------------------------------------------

def test_a_line_longer_than_a_record_is_never_held_whole(tmp_path):
    # A line was read whole before its size was judged: 64 KiB of gzip expanding to 64 MiB on one line (or a log
    # of CR-only line ends, one line to a reader that splits on LF) took its full size in memory.
    import gzip
    import tracemalloc

    from casino_audit.logs.reader import read_json_lines

    lines = PB_JSONL.splitlines(keepends=True)
    path = tmp_path / "long.jsonl.gz"
    with gzip.open(path, "wb") as out:
        out.write(lines[0].encode())
        for _ in range(64):
            out.write(b" " * (1 << 20))
        out.write(b"\n" + "".join(lines[1:]).encode())
    tracemalloc.start()
    try:
        stream = read_json_lines(str(path))
        records = [record.line for record in stream]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert records == [1, 3, 4, 5, 6]
    assert [(f.rule_id, f.line) for f in stream.findings] == [("LOAD-TOO-LARGE", 2)]
    assert "67,108,865 bytes" in stream.findings[0].message
    assert peak < 16 * (1 << 20), peak


def test_lines_ended_by_a_cr_alone_are_split_past_the_size_of_a_record(tmp_path):
    # 3 MiB of CR-only lines, one of them over the limit: each line read, the long one said at its line.
    from casino_audit.logs.reader import MAX_RECORD_BYTES, read_json_lines

    lines = PB_JSONL.splitlines()
    body = [lines[0], *([lines[1]] * 3000), " " * (MAX_RECORD_BYTES + 10), lines[2]]
    path = tmp_path / "cr.jsonl"
    path.write_bytes("\r".join(body).encode() + b"\r\n")
    stream = read_json_lines(str(path))
    assert [record.line for record in stream][-3:] == [3000, 3001, 3003]
    assert [(f.rule_id, f.line) for f in stream.findings] == [("LOAD-TOO-LARGE", 3002)]
    assert stream.read == 3002 and stream.unreadable == 1


def test_a_staff_role_spelt_otherwise_than_the_rule_reads_it_is_said(tmp_path):
    # `staff_Spinner` (or {"Spinner": ...}, or "spinner " with a space): no coup named the spinner, so the turn rule
    # was only "not checked" (an info), exit 0, whatever the turns were. A role that differs from a turn rule's only
    # in case, spaces or Unicode form is LOAD-AMBIGUOUS at the first coup naming it.
    lines = (EXAMPLES / "pt/log-french-roulette.jsonl").read_text("utf-8").splitlines(keepends=True)
    lines[4] = lines[4].replace("22:00:40", "22:05:40").replace('"spinner": "C-9"', '"spinner": "C-7"')
    for other in ("Spinner", "spinner ", "ｓpinner"):
        path = tmp_path / "spinner.jsonl"
        path.write_text("".join(line.replace('"spinner":', f'"{other}":') for line in lines), "utf-8")
        result = check(path)
        assert errors(result) == [("LOAD-AMBIGUOUS", 2)], ascii(other)
        [said] = [f for f in result.findings if f.rule_id == "LOAD-AMBIGUOUS"]
        assert said.pointer == f"/staff/{other}" and "differs from 'spinner' only in case" in said.message
    path.write_text("".join(lines), "utf-8")
    assert errors(check(path)) == [("PT-ROUL-LOG-SPINNER", 5)]


# --- the summary's counts ----------------------------------------------------------------------------------------

def test_a_rule_not_applied_to_a_log_marks_no_coup_as_having_a_finding(tmp_path):
    # "not checked in this log: no stake limits are known" is said of the header (line 1) when the first stake is
    # met; it counted that coup among the records with findings (1 where no coup has one).
    path = tmp_path / "no-limits.csv"
    path.write_text("".join(line for line in PB_CSV.splitlines(keepends=True) if not line.startswith("# limits")),
                    "utf-8")
    result = check(path)
    # (the second names the stakes held to no maximum; the coefficient, no minimum known, is not checked)
    assert sorted((f.rule_id, f.line, f.severity.name) for f in result.findings) == \
        [("LU-PB-LOG-COEFFICIENT", 1, "INFO")] + [("LU-PB-LOG-LIMITS", 1, "INFO")] * 2
    assert result.files[0].records == {"read": 21, "checked": 20, "with_findings": 0, "unreadable": 0}


# --- a log's header read as a document -----------------------------------------------------------------------

def test_a_log_header_written_as_a_yaml_or_json_document_is_not_a_clean_log(tmp_path):
    # A game or meter log's header saved as log.json or log.yaml was checked as a document: no coup, no finding,
    # exit 0. A log's records are read from JSON Lines or CSV only: said, at the header.
    header = PB_JSONL.splitlines()[0]
    meters = (EXAMPLES / "lu/meters-compliant.jsonl").read_text("utf-8").splitlines()[0]
    for name, text in (("log.json", header), ("log.yaml", header), ("meters.json", meters)):
        path = tmp_path / name
        path.write_text(text + "\n", "utf-8")
        result = check(path)
        assert [f.rule_id for f in result.findings if f.severity is Severity.ERROR] == ["LOAD-UNSUPPORTED"], name
        assert "JSON Lines or CSV" in result.findings[0].message


def test_a_session_renamed_by_a_lookalike_keeps_its_minimum(tmp_path):
    # The minimum raised within a session (LU Art. 37-5, al. 3) passed when the coups from the change on named the
    # session with a trailing space, a fullwidth digit or with a zero-width space: a new session to the
    # tool, the same one to anyone reading the log.
    import json

    lines = PB_JSONL.splitlines(keepends=True)
    session = json.loads(lines[1])["session"]
    for other in (session + " ", "\uff12" + session[1:], session[:4] + "\u200b" + session[4:]):
        changed = [lines[0], lines[1], lines[2]]
        for line in lines[3:]:
            record = json.loads(line)
            record["session"] = other
            record["limits"] = {"minimum": 40, "maximum": 4000}
            changed.append(json.dumps(record) + "\n")
        path = tmp_path / "session.jsonl"
        path.write_text("".join(changed), "utf-8")
        assert ("LU-PB-LOG-MINIMUM-UNCHANGED", 4) in errors(check(path)), ascii(other)


def test_a_header_machine_entry_spelt_otherwise_than_the_readings_is_said(tmp_path):
    # The header's `machines` entry for "M-001 " (a trailing space; "m-001", "M\u200b-001") gave that machine its
    # own capacities and homologation file, but the readings name "M-001": the entry was dropped in silence and the
    # machine judged by the header's defaults.
    import json

    for number in range(1, 4):
        name = f"machine-m-{number:03d}.yaml"
        (tmp_path / name).write_text((EXAMPLES / "lu" / name).read_text("utf-8"), "utf-8")
    lines = (EXAMPLES / "lu/meters-compliant.jsonl").read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    filed = header.pop("machines")
    header["machine"] = filed.pop("M-001")["machine"]  # M-001's file the header's, its entry the misspelt one
    for other in ("M-001 ", "m-001", "M\u200b-001"):
        header["machines"] = {**filed, other: {"capacity_digits": {"drop": 6}}}
        path = tmp_path / "meters.jsonl"
        path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), "utf-8")
        found = [(f.rule_id, f.line, f.pointer) for f in check(path).findings if f.severity is Severity.ERROR]
        assert found == [("LOAD-AMBIGUOUS", 1, f"/machines/{other}")], ascii(other)


def _report(tmp_path, *args):
    done = run_in_process("check", *args, "--format", "json", cwd=tmp_path)
    return done, json.loads(done.stdout)


def test_csv_duplicate_header_is_not_silently_collapsed(tmp_path):
    """A CSV header naming a column twice: read_csv builds each row with dict(zip(header, row)), so the last cell
    silently wins. A machine whose rate is given as 80 % then 92.5 % loses the 80 % breach without a trace,
    exactly what LOAD-DUPLICATE-KEY exists to prevent in YAML/JSON (README: "a filing with two
    `redistribution_rate:` must not pass"). Cause: casino_audit/read/parsers.py read_csv."""
    (tmp_path / "machines.csv").write_text(
        "kind,jurisdiction,redistribution_rate,redistribution_rate\nmachine,LU,80 %,92.5 %\n", encoding="utf-8")
    done, report = _report(tmp_path, "machines.csv")
    ids = {f["rule_id"] for f in report["findings"]}
    assert "LOAD-DUPLICATE-KEY" in ids or "LU-SLOT-RTP-MIN" in ids, sorted(ids)


@pytest.mark.parametrize("name, text", [
    ("empty.jsonl", ""),
    ("blank.jsonl", "\n\n  \n"),
    ("empty.csv", ""),
    ("header-only.csv", "kind,jurisdiction,redistribution_rate\n"),
])
def test_record_stream_with_no_record_does_not_pass(tmp_path, name, text):
    """An empty (or blank, or header-only) JSON Lines/CSV file named on the command line is reported as
    'checked', 0 documents, no finding, and the run exits 0. An empty YAML file is LOAD-EMPTY (exit 1), and a run
    that finds no filing at all exits 2 (README). A CI gate fed a truncated export passes it as compliant.
    Cause: parsers._lines/read_json_lines/read_csv yield nothing and add no finding; pipeline._check_stream
    counts the file as checked."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    done = run_in_process("check", name, cwd=tmp_path)
    assert done.returncode != 0, done.stdout
