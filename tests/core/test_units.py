"""Small parts with exact expectations, written against the mutants that survived the rest of the suite
(mutmut over results, display, provenance, json_report, values and scopes): counts, escapes, truncations,
the classification of a house rule, and where scoped findings point."""

import dataclasses
import io
import json
from decimal import Decimal

import pytest

from casino_audit.core.display import brief, printable
from casino_audit.core.findings import Finding, Location, Severity
from casino_audit.law.provenance import LOOSENED, REPLACED, SEVERITY_LOWERED, TIGHTENED, classify, in_use
from casino_audit.report import ReportContext
from casino_audit.report import json_report
from casino_audit.core.results import FileRecord, FindingSink, RunResult
from casino_audit.law.rulesets import load_builtin
from casino_audit.law.scopes import Dossier, ScopedCheck
from casino_audit.core.values import show

LU = load_builtin("lu")
RTP = next(rule for rule in LU.rules if rule.id == "LU-SLOT-RTP-MIN")
STAKE_MAX = next(rule for rule in LU.rules if rule.id == "LU-SLOT-STAKE-MAX-ORDER")


def finding(rule_id="LU-X", severity=Severity.ERROR, file="f.yaml", message="m") -> Finding:
    return Finding(rule_id, severity, message, file)


# --- results: counts are exact, whatever is shown -------------------------------------------------------------

def test_the_sink_counts_every_finding_and_keeps_the_first_n_of_each_rule_and_file():
    sink = FindingSink(2)
    for _ in range(3):
        sink.add(finding())
    sink.add(finding(file="g.yaml"))
    sink.add(finding(rule_id="LU-Y", severity=Severity.WARNING))
    sink.add(finding(file=None, severity=Severity.INFO, message="a"))
    sink.add(finding(file=None, severity=Severity.INFO, message="a"))  # the same run-level finding: once
    sink.add(finding(file=None, severity=Severity.INFO, message="b"))
    assert len(sink.kept) == 2 + 1 + 1 + 2
    assert (sink.totals[Severity.ERROR], sink.totals[Severity.WARNING], sink.totals[Severity.INFO]) == (4, 1, 2)
    [omitted] = sink.omitted()
    assert (omitted.file, omitted.rule_id, omitted.shown, omitted.total) == ("f.yaml", "LU-X", 2, 3)
    everything = FindingSink(0)
    for _ in range(30):
        everything.add(finding())
    assert len(everything.kept) == 30 and everything.omitted() == []


def test_a_run_summary_and_exit_code():
    sink = FindingSink(1)
    for severity in (Severity.ERROR, Severity.ERROR, Severity.WARNING, Severity.INFO):
        sink.add(finding(severity=severity))
    result = RunResult(files=[FileRecord("a", "checked", 2), FileRecord("b", "partial", 1),
                              FileRecord("c", "unreadable"), FileRecord("d", "skipped")],
                       findings=sink.kept, totals=sink.totals, omitted=sink.omitted(), not_applied=["LU-P"])
    assert result.summary() == {
        "files": 4, "files_checked": 2, "files_with_findings": 1, "files_unreadable": 2, "files_skipped": 1,
        "documents": 3, "records_read": 0, "records_checked": 0, "records_with_findings": 0, "records_unreadable": 0,
        "errors": 2, "warnings": 1, "infos": 1, "findings_omitted": 3, "rules_not_applied": 1, "internal_errors": 0,
        "waived": 0, "baselined": 0}
    assert result.files_to_check() == 3
    assert [result.exit_code(t) for t in (Severity.ERROR, Severity.INFO, None)] == [1, 1, 0]
    assert RunResult(totals=FindingSink().totals).exit_code(Severity.INFO) == 0
    result.internal_errors = 1
    assert result.exit_code(None) == 2


def test_the_json_report_says_its_threshold_verdict_and_escapes_what_utf8_cannot_hold():
    result = RunResult(files=[FileRecord("caf\udce9.yaml", "checked", 1)])
    stream = io.StringIO()
    json_report.report(result, ReportContext(Severity.WARNING), stream)
    text = stream.getvalue()
    assert text.startswith('{\n  "format_version": "') and text.endswith("}\n")
    text.encode("utf-8")
    report = json.loads(text)
    assert (report["fail_on"], report["failed"], report["exit_code"]) == ("warning", False, 0)
    assert report["files"][0]["path"] == "caf\udce9.yaml"
    assert json_report.build(result, ReportContext(None))["fail_on"] == "never"


# --- display: what reaches a terminal -------------------------------------------------------------------------

@pytest.mark.parametrize("text, shown", [
    ("plain ascii", "plain ascii"),
    ("café", "café"),
    ("\x1b[2J", "\\x1b[2J"),
    ("a\x9bb", "a\\x9bb"),  # C1 control
    ("\u202eevil", "\\u202eevil"),  # right-to-left override
    ("\u200b", "\\u200b"),  # zero-width space
    ("\ue000", "\\ue000"),  # private use
    ("\U000e0041", "\\U000e0041"),  # a tag character, beyond the basic plane
    ("\ud800", "\\ud800"),  # a lone surrogate
    ("a\u2028b", "a\\u2028b"),
    ("x\ny", "x\\x0ay"),
    ("x\ty", "x\\x09y"),
])
def test_printable_escapes_exactly_the_unsafe_characters(text, shown):
    assert printable(text) == shown


def test_printable_keeps_our_own_line_breaks_only_when_asked():
    assert printable("a\nb\x1b", keep_newlines=True) == "a\nb\\x1b"
    assert printable("a\nb", keep_newlines=False) == "a\\x0ab"
    assert printable(12) == "12"


def test_brief_cuts_at_the_limit_and_says_how_much_it_left_out():
    assert brief("x" * 80) == "x" * 80
    assert brief("x" * 81) == "x" * 80 + "... (1 more characters)"
    assert brief("abcdef", 3) == "abc... (3 more characters)"


# --- values: a container is never printed whole ----------------------------------------------------------------

@pytest.mark.parametrize("value, shown", [
    ([], "[]"), ({}, "{}"),
    ([1, 2], "[1, 2]"),
    ([1, [2], {"a": 1}, 4, 5], "[1, [...], {...}, ... (2 more)]"),
    ([[], {}], "[[], {}]"),
    ({"a": 1, "b": [1], "c": {}, "d": 4}, "{'a': 1, 'b': [...], 'c': {}, ... (1 more)}"),
    (Decimal("0.50"), "0.50"), (True, "true"), (None, "null"), ("x", "'x'"),
])
def test_show_quotes_values_shortly(value, shown):
    assert show(value) == shown


# --- provenance: what a house rule does to the law's ---------------------------------------------------------

def house(rule, **changes):
    return dataclasses.replace(rule, source="house.yaml:5", **changes)


@pytest.mark.parametrize("changes, change, reasons", [
    ({"check": {**RTP.check, "min": "88"}}, TIGHTENED, ("minimum 85 -> 88",)),
    ({"check": {**RTP.check, "min": "80"}}, LOOSENED, ("minimum 85 -> 80",)),
    ({"check": {key: value for key, value in RTP.check.items() if key != "min"} | {"max": "99"}}, LOOSENED,
     ("minimum 85 -> none",)),
    ({"severity": Severity.WARNING}, SEVERITY_LOWERED, ("severity error -> warning",)),
    ({"severity": Severity.WARNING, "check": {**RTP.check, "min": "80"}}, LOOSENED,
     ("severity error -> warning", "minimum 85 -> 80")),
    ({"kind": "table"}, LOOSENED, ("applies to table documents, the law's rule to machine",)),
    ({"when": ({"target": "/machine/type", "equals": "video"},)}, LOOSENED,
     ("applies only under further conditions (`when:`)",)),
    ({"check": {**RTP.check, "unit": "number"}}, REPLACED, ("the check differs; compare the two",)),
    ({"check": {"kind": "present", "target": "/redistribution_rate"}}, REPLACED,
     ("the check differs; compare the two",)),
    ({"check": {**RTP.check, "target": "/other"}}, REPLACED, ("the check differs; compare the two",)),
    ({"check": {**RTP.check, "min": "88"}, "severity": Severity.ERROR}, TIGHTENED, ("minimum 85 -> 88",)),
])
def test_a_house_rule_is_classified_with_its_reasons(changes, change, reasons):
    result = classify(RTP, house(RTP, **changes))
    assert (result.change, result.reasons) == (change, reasons)


def test_fewer_games_more_conditions_and_missing_values_loosen():
    roulette = next(rule for rule in LU.rules if len(rule.games) > 1)
    narrowed = classify(roulette, house(roulette, games=roulette.games[:1]))
    assert narrowed.change == LOOSENED and narrowed.reasons == (f"applies to fewer games ({roulette.games[0]})",)
    conditional = next(rule for rule in LU.rules if rule.when)
    widened = classify(conditional, house(conditional, when=()))
    assert widened.change in (TIGHTENED, REPLACED) and widened.reasons[0].startswith("applies in more cases")
    plain = next(rule for rule in LU.rules if rule.check.get("kind") == "value" and "missing" not in rule.check
                 and not rule.when)
    allowed = classify(plain, house(plain, check={**plain.check, "missing": "allowed"}))
    assert allowed.change == LOOSENED and "no longer a breach" in allowed.reasons[0]


def test_a_bound_given_by_a_parameter_is_compared_with_the_runs_value():
    constant = house(STAKE_MAX, check={**STAKE_MAX.check, "max": "1000000"})
    assert classify(STAKE_MAX, constant).change == REPLACED  # no value for the parameter in this run
    loosened = classify(STAKE_MAX, constant, {"slot_stake_maximum_eur": Decimal("10")})
    assert loosened.change == LOOSENED
    assert loosened.reasons == ("maximum slot_stake_maximum_eur (10 in this run) -> 1000000",)
    tightened = classify(STAKE_MAX, house(STAKE_MAX, check={**STAKE_MAX.check, "max": "5"}),
                         {"slot_stake_maximum_eur": Decimal("10")})
    assert tightened.change == TIGHTENED


def test_in_use_marks_the_builtin_and_passes_the_runs_parameters():
    custom = dataclasses.replace(LU, name="house", path="house.yaml", digest="0" * 64, parent=LU,
                                 rules=[house(STAKE_MAX, check={**STAKE_MAX.check, "max": "1000000"})
                                        if rule.id == STAKE_MAX.id else rule for rule in LU.rules])
    [used] = in_use({"LU": custom}, {"LU": {"slot_stake_maximum_eur": Decimal("10")}})
    assert not used.builtin and [c.change for c in used.changes] == [LOOSENED] and used.weakens_law
    assert [f.name for f in used.files] == ["house", "lu"] and used.files[0].sha256 == "0" * 64
    [law] = in_use({"LU": LU})
    assert law.builtin and law.changes == [] and not law.weakens_law


# --- scopes: findings of a session or a dossier point where the item is -------------------------------------------

class Item:
    def __init__(self, index, data):
        self.file, self.index, self.data = "log.jsonl", index, data

    def position(self, pointer):
        return (self.index + 1, 7) if pointer else (self.index + 1, 1)


def test_a_dossier_feeds_only_its_kinds_and_findings_point_at_the_item():
    seen = []
    check = ScopedCheck("LU-T", Severity.WARNING, ("machine",), list,
                        lambda state, item: (seen.append(item.index), [("/n", "bad")])[1],
                        lambda state: [(Location("log.jsonl", 9, 2, "/x", 4), "whole")])
    session = Dossier([check])
    assert list(session.feed("table", Item(0, {}))) == []
    [found] = list(session.feed("machine", Item(3, {})))
    assert (found.rule_id, found.severity, found.file, found.line, found.column, found.pointer, found.document) == (
        "LU-T", Severity.WARNING, "log.jsonl", 4, 7, "/n", 3)
    [closing] = list(session.close())
    assert (closing.file, closing.line, closing.column, closing.pointer, closing.document, closing.message) == (
        "log.jsonl", 9, 2, "/x", 4, "whole")
    assert seen == [3]
    dossier = Dossier([check])
    assert dossier.wants("machine") and not dossier.wants("table")


WARNING_RULE = dataclasses.replace(RTP, severity=Severity.WARNING)  # the shipped law has errors only


@pytest.mark.parametrize("changes, change", [
    ({"severity": Severity.ERROR}, TIGHTENED),
    ({"severity": Severity.ERROR, "check": {"kind": "present", "target": "/somewhere"}}, REPLACED),
    ({"severity": Severity.ERROR, "check": {**WARNING_RULE.check, "target": "/elsewhere"}}, REPLACED),
    ({"severity": Severity.ERROR, "check": {**WARNING_RULE.check, "multiple_of": "5"}}, REPLACED),
])
def test_a_raised_severity_is_a_tightening_only_when_nothing_else_changed_unprovably(changes, change):
    result = classify(WARNING_RULE, house(WARNING_RULE, **changes))
    assert result.change == change
    assert result.reasons[0] == "severity warning -> error" or change == REPLACED


@pytest.mark.parametrize("changes, change, reasons", [
    ({"check": {**RTP.check, "min": "85.0"}}, REPLACED, ("the check differs; compare the two",)),
    ({"check": {**RTP.check, "min": "88", "multiple_of": "1"}}, REPLACED, ("the check differs; compare the two",)),
    ({"check": {**RTP.check, "max": "99"}}, TIGHTENED, ("maximum none -> 99",)),
])
def test_bounds_written_otherwise_or_beside_new_parameters_prove_nothing(changes, change, reasons):
    result = classify(RTP, house(RTP, **changes))
    assert (result.change, result.reasons) == (change, reasons)


def test_games_narrowed_widened_or_kept():
    roulette = next(rule for rule in LU.rules if len(rule.games) > 1)
    assert classify(roulette, house(roulette, games=roulette.games, severity=Severity.INFO)).change == \
        SEVERITY_LOWERED
    widened = house(roulette, games=roulette.games + ("blackjack",), severity=Severity.ERROR)
    assert classify(roulette, widened).change != LOOSENED
    everywhere = dataclasses.replace(roulette, games=())
    assert classify(everywhere, house(everywhere, games=("roulette",))).change == LOOSENED


def test_a_param_bound_against_a_decimal_written_with_an_exponent():
    result = classify(STAKE_MAX, house(STAKE_MAX, check={**STAKE_MAX.check, "max": "20"}),
                      {"slot_stake_maximum_eur": Decimal("1E+1")})
    assert result.reasons == ("maximum slot_stake_maximum_eur (10 in this run) -> 20",)


def test_a_copy_of_the_builtin_elsewhere_is_builtin_and_only_the_rulesets_read_are_in_use():
    from casino_audit.run.settings import Rulesets

    copy = dataclasses.replace(LU, path="/elsewhere/lu.yaml")
    [used] = in_use({"LU": copy})
    assert used.builtin and used.changes == []
    lazy = Rulesets({})
    lazy["LU"]
    assert [used.ruleset.code for used in in_use(lazy)] == ["LU"]


def test_the_json_report_keeps_text_as_written_and_its_exit_code_follows_the_threshold():
    sink = FindingSink()
    sink.add(finding(severity=Severity.WARNING, message="café"))
    result = RunResult(files=[FileRecord("f.yaml", "checked", 1)], findings=sink.kept, totals=sink.totals)
    stream = io.StringIO()
    json_report.report(result, ReportContext(Severity.WARNING), stream)
    assert '"message": "café"' in stream.getvalue() and json.loads(stream.getvalue())["exit_code"] == 1
    assert json_report.build(result, ReportContext(Severity.ERROR))["exit_code"] == 0


def test_show_lists_three_items_without_saying_more():
    assert show([1, 2, 3]) == "[1, 2, 3]" and show({"a": 1, "b": 2, "c": 3}) == "{'a': 1, 'b': 2, 'c': 3}"
