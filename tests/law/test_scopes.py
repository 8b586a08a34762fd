"""The record and dossier scopes: streams read one record at a time with a session's state, dossier rules over
the documents of a run; the parsers by file type."""

import json
import tracemalloc

import pytest

from casino_audit.law.engine import Checker
from casino_audit.core.findings import Location, Severity
from casino_audit.read.parsers import parser_for, read_csv, read_json_lines
from casino_audit.run.pipeline import run
from casino_audit.law.rulesets import builtin_names, load_builtin
from casino_audit.law.scopes import DOSSIER, RECORD, ScopedCheck
from helpers.command import EXAMPLES

RULESETS = {rs.code: rs for rs in (load_builtin(name) for name in builtin_names())}


def never_decreasing(field: str) -> ScopedCheck:
    """A record rule with state: a meter that goes down between two readings of one stream."""
    def feed(state, record):
        value = record.data.get(field)
        if state["last"] is not None and value < state["last"]:
            yield f"/{field}", f"`{field}` went down from {state['last']} to {value}"
        state["last"] = value
    return ScopedCheck("LU-TEST-METER", Severity.ERROR, ("machine",), lambda: {"last": None}, feed)


def test_a_dossier_rule_sees_every_document_and_reports_with_related_locations(tmp_path):
    def feed(state, document):
        state.append(document)
        return ()

    def finish(state):
        if len(state) > 1:
            yield Location(state[-1].file, 1, 1, "", state[-1].index), f"{len(state)} machines in one dossier"

    check = ScopedCheck("LU-TEST-DOSSIER", Severity.WARNING, ("machine",), list, feed, finish)
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text((EXAMPLES / "lu/machine-compliant.yaml").read_text())
    result = run([str(tmp_path)], Checker(RULESETS, scoped=[("LU", DOSSIER, check)], select=["LU-SLOT-RTP-MIN"]))
    [finding] = [f for f in result.findings if f.rule_id == "LU-TEST-DOSSIER"]
    assert finding.message == "2 machines in one dossier" and finding.file.endswith("b.yaml")


def test_a_stream_is_read_in_flat_memory(tmp_path):
    log = tmp_path / "big.jsonl"
    line = json.dumps({"kind": "machine", "jurisdiction": "LU", "coin_in": 1, "note": "x" * 200}) + "\n"
    log.write_text(line * 5_000)
    stream = read_json_lines(str(log))
    tracemalloc.start()
    count = sum(1 for _ in stream)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count == 5_000 and peak < 1_000_000  # a few records at a time: all of them would hold > 3 MB


def test_broken_lines_are_findings_at_their_line_and_the_stream_goes_on(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_bytes(b'{"a": 1}\n{"a": \n\xff\xfe\n\n{"a": 3}\n')
    stream = read_json_lines(str(log))
    records = list(stream)
    assert [r.data for r in records] == [{"a": 1}, {"a": 3}]
    assert [(f.rule_id, f.line) for f in stream.findings] == [("LOAD-SYNTAX", 2), ("LOAD-ENCODING", 3)]
    assert records[1].position("/a") == (5, 2)  # a member is where its key is written


def test_parsers_by_file_type():
    assert parser_for("a.YAML").name == "yaml" and parser_for("b.json").name == "json"
    assert parser_for("c.jsonl").records is not None and parser_for("d.csv").records is not None
    assert parser_for("e.txt").name == "yaml"  # named explicitly, read as YAML (JSON is YAML's flow style)


def test_a_run_reads_only_the_rulesets_its_documents_need():
    from casino_audit.run.settings import Rulesets, load_rulesets, resolve

    rulesets = load_rulesets(resolve())
    assert isinstance(rulesets, Rulesets) and rulesets.loaded() == {}
    result = run([str(EXAMPLES / "lu/machine-compliant.yaml")], Checker(rulesets))
    assert result.files[0].status == "checked" and list(rulesets.loaded()) == ["LU"]
    assert sorted(rulesets) == sorted(name.upper() for name in builtin_names())  # named without being read
    for code in rulesets:  # a built-in file is named by its code
        assert rulesets[code].code == code


def test_a_rule_declares_its_scope_and_no_document_check_kind_claims_another(tmp_path):
    from casino_audit.law.model import RulesetError
    from casino_audit.law.rulesets import load_ruleset

    head = "ruleset: house\nextends: lu\nrules:\n  - id: HOUSE-X\n    title: t\n    severity: error\n"
    tail = ("    applies_to: {kind: machine}\n    check: {kind: present, target: /machine}\n"
            "    citation: {article: HP-1, text: words}\n    rationale: r\n")
    (tmp_path / "ok.yaml").write_text(head + "    scope: document\n" + tail)
    assert next(r for r in load_ruleset(tmp_path / "ok.yaml").rules if r.id == "HOUSE-X").scope == "document"
    assert all(rule.scope == "document" for rule in RULESETS["LU"].rules if rule.kind not in ("game-log", "meter-log"))
    for scope, words in (("record", "checks at the document scope, not the record scope"), ("session", "session")):
        (tmp_path / "bad.yaml").write_text(head + f"    scope: {scope}\n" + tail)
        with pytest.raises(RulesetError) as raised:
            load_ruleset(tmp_path / "bad.yaml")
        assert ":7:" in str(raised.value) and words in str(raised.value)
