"""PAR data in a filing: read into the slot engine with every problem at its line, `casino-audit rtp`, and the
`par` check kind (evaluable, minimum, declared) as `check` runs it."""

from __future__ import annotations

import copy
import json
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino_audit.slots import par_read, par_returns
from casino_audit.law.checks import CHECK_KINDS
from casino_audit.law.checks import par as par_check
from casino_audit import slots
from casino_audit.read.loader import load_single_document
from helpers.command import EXAMPLES
from helpers.slots_brute import paytable_figures
from helpers.command import report

THREE_REEL = EXAMPLES / "lu/machine-par-three-reel.yaml"
WAYS = EXAMPLES / "lu/machine-par-ways.yaml"
COMPLIANT = EXAMPLES / "lu/machine-compliant.yaml"
SMALL = {"symbols": ["A", "B", "X"], "rows": 1,
         "reels": [{"strip": ["A", "B", "X"]}, {"strip": ["A", "X"], "weights": [1, 3]}],
         "lines": [[0, 0]], "groups": {"ab": ["A", "B"]},
         "paytables": [{"name": "t", "credits_per_line": 1,
                        "pays": [{"combination": ["A", "A"], "pays": 5},
                                 {"combination": ["ab", "any"], "pays": "0.5"}]}]}


def data_of(path):
    return load_single_document(path, "a test").data


# --- reading ---------------------------------------------------------------------------------------------------

def test_a_small_sheet_reads_into_the_model_and_counts_by_hand():
    reading = par_read.read(SMALL)
    assert reading.problems == []
    [table] = reading.paytables
    game = table.paytable.game
    assert game.reels[1].weights == (1, 3) and game.lines == ((0, 0),)
    assert game.pays[1].pattern == (frozenset({"A", "B"}),) and game.pays[1].pays == F(1, 2)
    result = slots.evaluate(table.paytable)
    # A-A: 1 x 1 of 3 x 4 pays 5; A or B then anything else pays 0.5: (2 x 4 - 1) combinations.
    assert result.rtp == F(5 * 1 + F(1, 2) * 7, 12)


@pytest.mark.parametrize("change, pointer, words", [
    (lambda p: p["reels"][1]["strip"].__setitem__(1, "Y"), "/par/reels/1/strip/1", "not a symbol listed"),
    (lambda p: p["lines"].append([0, 1]), "/par/lines/1/1", "outside the window"),
    (lambda p: p["reels"][1].__setitem__("weights", [0, 0]), "/par/reels/1/weights", "never stop"),
    (lambda p: p["groups"].__setitem__("ab", ["A", "Z"]), "/par/groups/ab/1", "not a symbol"),
    (lambda p: p["paytables"][0]["pays"][0].__setitem__("combination", ["A", "Q"]),
     "/par/paytables/0/pays/0/combination/1", "neither a symbol"),
    (lambda p: p.__setitem__("wild", [{"symbol": "A"}]), "/par/wild", "misspelt key"),
    (lambda p: p.pop("symbols"), "/par/symbols", "missing"),
    (lambda p: p["reels"][0].__setitem__("weights", [1, 2]), "/par/reels/0/weights", "one weight per stop"),
    (lambda p: p["paytables"][0].pop("credits_per_line"), "/par/paytables/0", "credits_per_line"),
    (lambda p: p["paytables"][0].__setitem__("credits_per_spin", 20), "/par/paytables/0/credits_per_spin",
     "not `credits_per_spin`"),
    (lambda p: p["paytables"][0]["pays"][1].__setitem__("pays", 0.5), "/par/paytables/0/pays/1/pays",
     "decimal written as text"),
    (lambda p: p["paytables"][0]["pays"][1].__setitem__("pays", True), "/par/paytables/0/pays/1/pays", "not a whole"),
    (lambda p: p["paytables"][0]["pays"].append({"combination": ["any", "any"], "pays": 1}),
     "/par/paytables/0/pays/2/combination", "every line"),
    (lambda p: p["paytables"][0]["pays"].append({"combination": ["A", "A", "A"], "pays": 1}),
     "/par/paytables/0/pays/2/combination", "line of 2 reels"),
    (lambda p: p.__setitem__("ways", True), "/par/ways", "not both"),
    (lambda p: p.__setitem__("rows", 2), "/par/lines/0/0", None),  # accepted: rows 0 of 2 (see below)
    (lambda p: p["reels"].__setitem__(0, {"symbol_weights": {"A": 1}}) or p.__setitem__("rows", 2),
     "/par/reels/0/symbol_weights", "no order"),
    (lambda p: p["paytables"].append(copy.deepcopy(p["paytables"][0])), "/par/paytables/1/name", "named twice"),
])
def test_each_problem_is_found_at_its_value(change, pointer, words):
    sheet = copy.deepcopy(SMALL)
    change(sheet)
    problems = par_read.read(sheet).problems
    if words is None:
        assert problems == []
        return
    assert any(p == pointer and words in message for p, message in problems), problems


def test_free_spins_that_never_end_are_a_problem_of_the_sheet():
    sheet = copy.deepcopy(SMALL)
    sheet["paytables"][0]["scatters"] = [{"symbol": "A", "count": 1, "free_spins": 5, "retrigger": 3}]
    [(pointer, message)] = par_read.read(sheet).problems
    assert pointer == "/par/paytables/0/scatters" and "without end" in message


def test_a_ways_game_refuses_line_combinations_and_a_longer_run_paying_less():
    sheet = {"symbols": ["A", "X"], "rows": 2, "ways": True, "reels": [{"strip": ["A", "X"]}] * 3,
             "paytables": [{"name": "w", "credits_per_spin": 10,
                            "pays": [{"symbol": "A", "count": 2, "pays": 5}, {"symbol": "A", "count": 3, "pays": 4},
                                     {"combination": ["A", "A"], "pays": 1}]}]}
    problems = dict(par_read.read(sheet).problems)
    assert "pays less" in problems["/par/paytables/0/pays/1/pays"]
    assert "ways game" in problems["/par/paytables/0/pays/2/combination"]


def test_wilds_limits_and_a_per_paytable_rate_and_own_reels():
    sheet = copy.deepcopy(SMALL)
    sheet["symbols"].append("W")
    sheet["reels"][1]["strip"] = ["A", "W"]
    sheet["wilds"] = [{"symbol": "W", "multiplier": "1.5", "except": ["B"]}]
    sheet["paytables"][0]["redistribution_rate"] = "90 %"
    sheet["paytables"].append({**copy.deepcopy(sheet["paytables"][0]), "name": "other reels",
                               "reels": [{"strip": ["A"]}, {"strip": ["W"]}]})
    reading = par_read.read(sheet)
    assert reading.problems == []
    one, two = reading.paytables
    [wild] = one.paytable.game.wilds
    assert wild.substitutes == frozenset({"A", "X"}) and wild.multiplier == F(3, 2)
    assert one.declared == ("/par/paytables/0/redistribution_rate", "90 %")
    assert two.paytable.game.reels[0].strip == ("A",)
    assert slots.evaluate(two.paytable).rtp == 5 * F(3, 2)  # A then W (for A, x1.5): the A-A entry, highest


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_no_value_anywhere_makes_the_reader_or_the_checks_raise(data):
    """Law rules run on a misshapen filing too: whatever a value becomes, it is a problem, never a traceback."""
    sheet = copy.deepcopy(data_of(THREE_REEL)["par"])
    places = list(_places(sheet))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(places))
        junk = data.draw(st.sampled_from([None, True, -1, 0, 10 ** 12, "", "any", "R7", "0.5", [], {}, [1], {"a": 1},
                                          "1e999", 3.5, ["R7", "R7"]]))
        _put(sheet, path, junk)
    reading = par_read.read(sheet)
    assert reading.problems or reading.paytables
    for spec in (SPEC_MIN, SPEC_DECLARED, SPEC_EVALUABLE):
        list(CHECK_KINDS["par"].compile(spec)({"par": sheet, "redistribution_rate": "94 %"}))


def _places(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _places(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _places(value, path + (index,))


def _put(node, path, value):
    if not path:
        return
    for key in path[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return
    try:
        node[path[-1]] = value
    except (KeyError, IndexError, TypeError):
        pass


# --- the examples, counted by brute force -----------------------------------------------------------------------

def test_the_three_reel_example_is_what_brute_force_gives():
    reading = par_read.read(data_of(THREE_REEL)["par"])
    for table, rtp in zip(reading.paytables, (F(61635, 65536), F(62135, 65536))):
        result = slots.evaluate(table.paytable)
        brute = paytable_figures(table.paytable)
        assert result.rtp == brute["rtp"] == rtp
        assert result.hit_frequency == brute["hit"] and result.variance == brute["variance"]
        assert [int(e.hits) for e in result.entries] == brute["entry_hits"]


# --- casino-audit rtp -------------------------------------------------------------------------------------------

def test_rtp_json_gives_exact_fractions_and_every_figure(cli):
    done = cli("rtp", str(THREE_REEL), "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    one, two = report["paytables"]
    assert one["name"] == "1 coin" and one["rtp"] == "61635/65536" and one["exact"] is True
    assert one["rtp_decimal"].startswith("0.94047546386718")
    assert F(one["hit_frequency"]) < 1 and one["sd_exact"] is True and F(one["variance"]) > 0
    assert two["declared_rate"] == "94.81 %" and report["redistribution_rate"] == "94.05 %"
    top = one["top_award"]
    assert top["name"] == "three red sevens" and top["pays"] == "1000"
    assert F(top["one_in"]) == 1 / F(top["probability"])
    entries = {e["name"]: e for e in one["entries"]}
    assert sum(F(e["share"]) for e in one["entries"]) == 1
    assert entries["one cherry"]["hits"] == F(entries["one cherry"]["probability"]) * one["cycle"]
    assert "ci95" not in one
    ways = json.loads(cli("rtp", str(WAYS), "--format", "json").stdout)["paytables"][0]
    assert ways["free_spins"]["multiplier"] == "2" and F(ways["free_spins"]["spins_per_trigger"]) > 8
    assert [e for e in ways["entries"] if e["kind"] == "free spins"]


def test_rtp_rich_and_one_paytable(cli):
    done = cli("rtp", str(THREE_REEL), "--paytable", "2 coins")
    assert done.returncode == 0
    assert "94.8105 %" in done.stdout and "62135/65536" in done.stdout and "1 coin'" not in done.stdout
    assert "three red sevens" in done.stdout
    done = cli("rtp", str(THREE_REEL), "--paytable", "3 coins")
    assert done.returncode == 2 and "'1 coin', '2 coins'" in done.stderr


def test_rtp_refuses_what_it_cannot_compute_with_exit_2(cli, tmp_path):
    assert cli("rtp", str(EXAMPLES / "lu/table-roulette.yaml")).returncode == 2
    done = cli("rtp", str(EXAMPLES / "lu/machine-meters.yaml"))
    assert done.returncode == 2 and "gives no PAR data" in done.stderr
    done = cli("rtp", str(EXAMPLES / "lu/machine-par-unevaluable.yaml"))
    assert done.returncode == 2
    lines = [line.strip() for line in done.stderr.splitlines()[1:]]
    assert lines[0].endswith("machine-par-unevaluable.yaml:79:41: 'CHERY' on the reel is not a symbol listed under "
                             "`symbols`")
    assert [int(line.split(":")[1]) for line in lines] == sorted(int(line.split(":")[1]) for line in lines)
    assert cli("rtp", "no/such/file.yaml").returncode == 2
    assert cli("rtp", str(THREE_REEL), "--format", "xml").returncode == 2
    assert "Traceback" not in done.stdout + done.stderr


def test_a_count_past_its_budget_is_labelled_an_estimate_in_json(monkeypatch, cli):
    monkeypatch.setattr(slots.count, "JOINT_BUDGET", 10)
    report = json.loads(cli("rtp", str(COMPLIANT), "--format", "json", "--rounds", "2000").stdout)
    [table] = report["paytables"]
    assert table["exact"] is True and table["sd_exact"] is False and table["sd_rounds"] == 2000
    assert table["hit_frequency_exact"] is False and table["notes"]


# --- the check kind ---------------------------------------------------------------------------------------------

SPEC_MIN = {"kind": "par", "target": "/par", "verify": "minimum", "min": "85"}
SPEC_DECLARED = {"kind": "par", "target": "/par", "verify": "declared", "declared": "/redistribution_rate",
                 "tolerance": "0.01"}
SPEC_EVALUABLE = {"kind": "par", "target": "/par", "verify": "evaluable"}


def run(spec, data):
    return list(CHECK_KINDS["par"].compile(spec)(data))


def test_no_par_data_is_said_not_checked_as_info_unless_another_rule_reports_it():
    [found] = run(SPEC_EVALUABLE, {"redistribution_rate": "92 %"})
    assert isinstance(found, par_check.NotChecked) and found[0] == "/par"
    assert run({**SPEC_MIN, "missing": {"reported_by": "LU-SLOT-PAR-EVALUABLE"}}, {}) == []
    assert run({**SPEC_MIN, "missing": {"reported_by": "LU-SLOT-PAR-EVALUABLE"}},
               {"par": {"symbols": []}}) == []  # unevaluable: reported by the other rule
    [(pointer, message)] = run(SPEC_MIN, {"par": {"symbols": []}})
    assert pointer == "/par" and message.startswith("not checked: the PAR data cannot be evaluated")


def test_minimum_and_declared_on_the_below_85_example():
    data = data_of(EXAMPLES / "lu/machine-par-below-85.yaml")
    [(pointer, message)] = run(SPEC_MIN, data)
    assert pointer == "/par/paytables/0" and "65.4419 %" in message and "5361/8192" in message
    [(pointer, message)] = run(SPEC_DECLARED, data)
    assert pointer == "/redistribution_rate" and "declares 92 %" in message
    assert run({**SPEC_MIN, "min": "65.44"}, data) == []
    assert run({**SPEC_MIN, "min": "65.442"}, data)  # 65.44189...: compared exactly, never rounded up


def test_declared_is_read_per_paytable_and_within_the_tolerance():
    data = data_of(THREE_REEL)
    assert run(SPEC_DECLARED, data) == []
    data["par"]["paytables"][1]["redistribution_rate"] = "94.80 %"  # 94.8105: 0.0105 apart
    [(pointer, _)] = run(SPEC_DECLARED, data)
    assert pointer == "/par/paytables/1/redistribution_rate"
    del data["par"]["paytables"][1]["redistribution_rate"]  # the machine's 94.05 % now stands for both
    [(pointer, message)] = run(SPEC_DECLARED, data)
    assert pointer == "/redistribution_rate" and "'2 coins'" in message
    data["redistribution_rate"] = "0.94"
    found = run(SPEC_DECLARED, data)
    assert found and all(m.startswith("not checked") for _, m in found)
    del data["redistribution_rate"]
    assert run(SPEC_DECLARED, data) == []  # LU-SLOT-RTP-DECLARED reports a missing rate


def estimate(low, rtp, high):
    result = slots.Result("t", F(1), 1, F(rtp), exact=False, ci95=(F(low), F(high)), rounds=1000)
    table = par_read.ParPaytable(slots.Paytable("t", F(1), None), "/par/paytables/0")
    return [par_returns.Computed(table, result)]


def test_an_estimate_is_judged_on_its_interval_and_cannot_tell_across_the_bound():
    assert list(par_check._minimum(estimate("0.86", "0.87", "0.88"), F(85))) == []
    [(_, below)] = par_check._minimum(estimate("0.80", "0.82", "0.84"), F(85))
    assert "below the minimum" in below and "1,000 simulated spins" in below
    [(_, across)] = par_check._minimum(estimate("0.84", "0.86", "0.88"), F(85))
    assert across.startswith("cannot tell")
    data = {"redistribution_rate": "86 %"}
    assert list(par_check._declared(data, estimate("0.8599", "0.86", "0.8601"), "/redistribution_rate",
                                    F(1, 100))) == []
    [(_, across)] = par_check._declared(data, estimate("0.85", "0.86", "0.87"), "/redistribution_rate", F(1, 100))
    assert across.startswith("cannot tell")
    [(_, apart)] = par_check._declared(data, estimate("0.90", "0.91", "0.92"), "/redistribution_rate", F(1, 100))
    assert "declares 86 %" in apart


def test_the_rules_through_the_command_at_their_lines(cli):
    done = cli("check", "examples/lu/machine-par-unevaluable.yaml", "--format", "json")
    findings = json.loads(done.stdout)["findings"]
    assert {(f["rule_id"], f["line"]) for f in findings if f["file"]} == {
        ("LU-SLOT-PAR-EVALUABLE", 79), ("LU-SLOT-PAR-EVALUABLE", 81), ("LU-SLOT-PAR-EVALUABLE", 85),
        ("LU-SLOT-PAR-EVALUABLE", 87)}
    done = cli("check", "examples/lu/machine-par-three-reel.yaml", "examples/lu/machine-par-ways.yaml",
               "examples/lu/machine-compliant.yaml", "--format", "json")
    assert done.returncode == 0 and not [f for f in json.loads(done.stdout)["findings"] if f["file"]]


def test_an_estimated_return_is_given_with_its_interval_in_json(monkeypatch, cli):
    monkeypatch.setattr(slots.count, "LINE_BUDGET", 10)
    report = json.loads(cli("rtp", str(COMPLIANT), "--format", "json", "--rounds", "3000", "--seed", "5").stdout)
    [table] = report["paytables"]
    assert table["exact"] is False and table["rounds"] == 3000
    low, high = (F(x) for x in table["ci95"])
    assert low < F(table["rtp"]) < high and table["entries"] == []
    assert any("simulation" in note for note in table["notes"])


def test_a_huge_sheet_is_said_cannot_tell_quickly_never_passed():
    """PAR data at the schema's bounds (9 reels of 2,000 weighted stops, 10 rows, 500 lines, 2,000 pays over
    groups and a wild): the check stops at its work budget and says it cannot tell, in well under a second."""
    import random
    import time

    rng = random.Random(1)
    symbols = [f"S{i}" for i in range(60)] + ["W"]
    groups = {f"G{i}": rng.sample(symbols[:-1], 5) for i in range(50)}
    names = symbols[:-1] + list(groups) + ["any"]
    pays = [{"combination": [rng.choice(names) for _ in range(rng.randint(2, 9))], "pays": rng.randint(1, 1000)}
            for _ in range(2000)]
    sheet = {"symbols": symbols, "rows": 10, "lines": [[rng.randrange(10) for _ in range(9)] for _ in range(500)],
             "reels": [{"strip": [rng.choice(symbols) for _ in range(2000)],
                        "weights": [rng.randint(0, 9) for _ in range(2000)]} for _ in range(9)],
             "groups": groups, "wilds": [{"symbol": "W", "multiplier": 2}],
             "paytables": [{"name": "t", "credits_per_line": 1,
                            "pays": [p for p in pays if set(p["combination"]) != {"any"}]}]}
    start = time.process_time()
    [(pointer, message)] = run(SPEC_MIN, {"par": sheet})
    assert time.process_time() - start < 5  # measured about 0.3 s; generous for shared CI machines
    assert pointer == "/par/paytables/0" and message.startswith("cannot tell") and "work limits" in message


@pytest.mark.parametrize("spelling", ["pars:", "Par:", "par_data:"])
def test_par_data_under_another_key_is_a_shape_finding_and_said_not_checked(cli, tmp_path, spelling):
    text = (EXAMPLES / "lu/machine-par-below-85.yaml").read_text("utf-8").replace("\npar:\n", f"\n{spelling}\n")
    path = tmp_path / "m.yaml"
    path.write_text(text, "utf-8")
    done, data = report(cli, str(path))
    found = {f["rule_id"] for f in data["findings"] if f["file"]}
    assert done.returncode == 1 and {"SHAPE-UNKNOWN-FIELD", "LU-SLOT-PAR-EVALUABLE"} <= found
