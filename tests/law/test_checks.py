"""Each check kind on its own: exact Decimal comparisons, missing values, wildcards, conditions."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino_audit.law.checks import CHECK_KINDS, compile_condition
from casino_audit.law.model import RulesetError
from casino_audit.law.rulesets import load_ruleset
from casino_audit.documents.shape import ShapeValidator


def run(spec, data):
    return list(CHECK_KINDS[spec["kind"]].compile(spec)(data))


@pytest.mark.parametrize("value, ok", [("85 %", True), ("85%", True), ("85.000 %", True), ("84.999 %", False),
                                       ("84.9999999999 %", False), ("100 %", True), (Decimal("85"), False),
                                       ("0.85", False), (True, False)])
def test_range_percent_is_exact_and_needs_the_sign(value, ok):
    assert (run({"kind": "value", "target": "/r", "unit": "percent", "min": "85"}, {"r": value}) == []) is ok


@pytest.mark.parametrize("value, ok", [(Decimal("0.50"), True), (Decimal("0.5"), True), (1, True),
                                       (Decimal("0.4999"), False), ("0.50", True), ("x", False)])
def test_range_number(value, ok):
    assert (run({"kind": "value", "target": "/v", "min": "0.50"}, {"v": value}) == []) is ok


def test_a_missing_value_is_a_breach_unless_the_rule_says_otherwise():
    spec = {"kind": "value", "target": "/a/b", "min": 1}
    assert run(spec, {}) == [("/a", "`a` is missing (`b` must be at least 1)")]
    assert run({**spec, "missing": "allowed"}, {}) == []
    assert run({**spec, "missing": {"reported_by": "LU-X-Y"}}, {}) == []


def test_wildcard_checks_every_item_and_points_at_it():
    spec = {"kind": "value", "target": "/coins/*", "min": "0.5"}
    assert [p for p, _ in run(spec, {"coins": [Decimal("1"), Decimal("0.2"), Decimal("0.1")]})] == ["/coins/1", "/coins/2"]
    assert run(spec, {"coins": []}) == []


def test_equals_reports_a_missing_container_once():
    spec = {"kind": "value", "target": ["/d/a", "/d/b"], "equals": True}
    [(pointer, message)] = run(spec, {})
    assert pointer == "/d" and "`d` is missing (`a`, `b` must be true)" == message


def test_equals_does_not_confuse_booleans_and_numbers():
    assert run({"kind": "value", "target": "/x", "equals": True}, {"x": 1}) != []
    assert run({"kind": "value", "target": "/x", "equals": 2}, {"x": Decimal("2.0")}) == []
    assert run({"kind": "value", "target": "/x", "equals": 2}, {"x": "2"}) != []


def test_present_rejects_empty_values():
    for empty in ("", "  ", [], {}, None):
        assert run({"kind": "present", "target": "/x"}, {"x": empty}) != []
    assert run({"kind": "present", "target": "/x"}, {"x": 0}) == []


def test_one_of():
    spec = {"kind": "value", "target": "/t", "one_of": ["reel", "video"]}
    assert run(spec, {"t": "video"}) == [] and run(spec, {"t": "Video"}) != []


@pytest.mark.parametrize("value, ok", [(40, True), (Decimal("60"), True), (30, False), (Decimal("20.5"), False)])
def test_multiple_of(value, ok):
    assert (run({"kind": "value", "target": "/m", "multiple_of": 20}, {"m": value}) == []) is ok


@pytest.mark.parametrize("maximum, ok", [(500, True), (1000, True), (2000, True), (750, False), (2001, False)])
def test_ratio_closed_set_is_membership_not_range(maximum, ok):
    spec = {"kind": "value", "target": "/max", "per": "/min", "one_of": [50, 100, 200]}
    assert (run(spec, {"min": 10, "max": maximum}) == []) is ok


def test_ratio_range_and_zero_denominator():
    spec = {"kind": "value", "target": "/max", "per": "/min", "max": 30}
    assert run(spec, {"min": 1, "max": 30}) == [] and run(spec, {"min": 1, "max": 31}) != []
    assert run(spec, {"min": 0, "max": 3}) != []


def test_items_count_and_required_properties():
    spec = {"kind": "count", "target": "/m", "where": {"role": "in"}, "min": 2, "each": {"locked": True}}
    good = {"m": [{"role": "in", "locked": True}, {"role": "in", "locked": True}, {"role": "out"}]}
    assert run(spec, good) == []
    bad = {"m": [{"role": "in", "locked": False}, {"role": "out"}]}
    assert sorted(p for p, _ in run(spec, bad)) == ["/m", "/m/0/locked"]
    assert [p for p, _ in run(spec, {})] == ["/m"]


def test_conditions():
    assert compile_condition({"target": "/a", "equals": False})({"a": False})
    assert not compile_condition({"target": "/a", "equals": False})({})
    assert compile_condition({"target": "/l", "contains": "tokens"})({"l": ["coins", "tokens"]})
    assert not compile_condition({"target": "/l", "contains": "tokens"})({"l": "tokens"})
    assert compile_condition({"target": "/a", "present": False})({})


@pytest.mark.parametrize("name", sorted(CHECK_KINDS))
def test_each_check_kind_declares_a_valid_parameter_schema(name):
    kind = CHECK_KINDS[name]
    ShapeValidator(kind.parameters)  # raises if the schema itself is malformed
    assert ShapeValidator(kind.parameters).errors({"kind": name, "no_such_parameter": 1})


def test_values_schedule_exact_closed_and_per():
    spec = {"kind": "schedule", "target": "/p", "equals": {"plein": 35, "cheval": 17}, "closed": True}
    assert run(spec, {"p": {"plein": 35, "cheval": Decimal("17.0")}}) == []
    found = dict(run(spec, {"p": {"plein": 36, "zero_spiel": 11}}))
    assert set(found) == {"/p/plein", "/p/cheval", "/p/zero_spiel"}
    assert "must be 35" in found["/p/plein"] and "not declared" in found["/p/cheval"]
    assert run(spec, {}) == [("/p", "`p` is not declared (must give plein, cheval)")]
    per = {"kind": "schedule", "target": "/max", "per": "/min", "equals": {"simple": 360, "plein": 20}}
    assert run(per, {"min": 5, "max": {"simple": 1800, "plein": 100}}) == []
    assert [p for p, _ in run(per, {"min": 5, "max": {"simple": 1800, "plein": 101}})] == ["/max/plein"]
    assert sorted(p for p, _ in run(per, {"max": {"simple": 1}})) == ["/max/plein", "/min"]


def test_sequence_accepts_any_listed_order_and_points_at_the_first_difference():
    spec = {"kind": "sequence", "target": "/s", "one_of": [[0, 32, 15, 19], [0, 28, 9, 26]]}
    assert run(spec, {"s": [0, 28, 9, 26]}) == []
    [(pointer, message)] = run(spec, {"s": [0, 32, 19, 15]})
    assert pointer == "/s/2" and "position 3" in message and "15" in message
    [(pointer, message)] = run(spec, {"s": [0, 32, 15]})
    assert pointer == "/s" and "3 entries" in message


def test_numeric_and_negative_conditions():
    at_most = compile_condition({"target": "/seats", "max": 7})
    assert at_most({"seats": 7}) and not at_most({"seats": 8}) and not at_most({}) and not at_most({"seats": "7"})
    assert compile_condition({"target": "/seats", "min": 8})({"seats": 16})
    differs = compile_condition({"target": "/used", "differs": True})
    assert differs({}) and differs({"used": False}) and not differs({"used": True})


def test_values_compares_text_and_numbers_without_a_divisor():
    spec = {"kind": "schedule", "target": "/c", "equals": {"colour": "red", "behind": 10}}
    assert run(spec, {"c": {"colour": "red", "behind": 10}}) == []
    assert sorted(p for p, _ in run(spec, {"c": {"colour": "blue", "behind": 11}})) == ["/c/behind", "/c/colour"]


def test_values_ceilings_per_chance_minima_and_also_allowed():
    spec = {"kind": "schedule", "target": "/max", "per": ["/minima", "/min"],
            "max": {"pleno": 30, "simples": 540}, "closed": True, "also_allowed": ["serie"]}
    ok = {"min": 1, "minima": {"pleno": 2}, "max": {"pleno": 60, "simples": 540, "serie": 9}}
    assert run(spec, ok) == []
    bad = {"min": 1, "minima": {"pleno": 2}, "max": {"pleno": 61, "simples": 541, "other": 1}}
    assert sorted(p for p, _ in run(spec, bad)) == ["/max/other", "/max/pleno", "/max/simples"]


def test_keys_allowed_and_required():
    spec = {"kind": "entries", "target": "/p", "allowed": ["ponto", "banca", "empate", "par"], "required": ["ponto"]}
    assert run(spec, {"p": {"ponto": 1, "par": 11}}) == []
    assert sorted(p for p, _ in run(spec, {"p": {"banca": 1, "dragon": 30}})) == ["/p/dragon", "/p/ponto"]


def test_ratio_checks_every_numerator_a_wildcard_reaches_against_one_denominator():
    spec = {"kind": "value", "target": "/max/*", "per": "/min", "max": 30}
    assert [p for p, _ in run(spec, {"min": 1, "max": {"a": 30, "b": 31, "c": 40}})] == ["/max/b", "/max/c"]
    from casino_audit.documents.shape import ShapeValidator
    assert ShapeValidator(CHECK_KINDS["value"].parameters).errors(
        {"kind": "value", "target": "/a", "per": "/b/*", "max": 1})


# --- exact numbers: no 28-digit rounding, no DivisionImpossible ----------------------------------------------

def test_ratio_is_exact_past_28_digits():
    spec = {"kind": "value", "target": "/max", "per": "/min", "max": "200"}
    [(pointer, message)] = run(spec, {"max": Decimal("1000.0000000000000000000000001"), "min": 5})
    assert pointer == "/max" and "above the maximum of 200" in message and "about 200" in message
    assert run(spec, {"max": Decimal("1000.0000000000000000000000000"), "min": 5}) == []
    closed = {"kind": "value", "target": "/max", "per": "/min", "one_of": [10, 20, 30]}
    assert run(closed, {"max": Decimal("100.00000000000000000000000001"), "min": 10}) != []


THIRTY = 123456789012345678901234567890  # Decimal arithmetic would round it: the test builds values from ints


def test_thirty_digit_amounts_reach_remainders_and_quotients_without_crashing():
    assert run({"kind": "value", "target": "/a", "multiple_of": "0.5"}, {"a": Decimal(THIRTY)}) == []
    assert run({"kind": "value", "target": "/a", "multiple_of": "0.5"}, {"a": Decimal(f"{THIRTY}.1")}) != []
    assert run({"kind": "value", "target": "/a", "multiple_of": "0.3"}, {"a": Decimal("1E+30")}) != []
    assert run({"kind": "value", "target": "/a", "per": "/b", "max": "1"},
               {"a": Decimal(THIRTY), "b": Decimal("0.000000000000000000000000000001")}) != []
    per = {"kind": "schedule", "target": "/m", "per": "/min", "equals": {"plein": 35}}
    assert run(per, {"m": {"plein": Decimal(THIRTY * 35)}, "min": Decimal(THIRTY)}) == []
    assert run(per, {"m": {"plein": Decimal(THIRTY * 35 + 1)}, "min": Decimal(THIRTY)}) != []
    ceiling = {"kind": "schedule", "target": "/m", "per": "/min", "max": {"plein": 35}}
    assert run(ceiling, {"m": {"plein": Decimal(THIRTY * 35 + 1)}, "min": Decimal(THIRTY)}) != []
    assert run(ceiling, {"m": {"plein": Decimal(THIRTY * 35 - 1)}, "min": Decimal(THIRTY)}) == []


def test_multiple_of_zero_is_only_zero():
    assert run({"kind": "value", "target": "/a", "multiple_of": "0"}, {"a": 0}) == []
    assert run({"kind": "value", "target": "/a", "multiple_of": "0"}, {"a": 3}) != []


def test_conditions_compare_exactly():
    at_least = compile_condition({"target": "/n", "min": "1000"})
    assert at_least({"n": Decimal("999.99999999999999999999999999")}) is False
    assert at_least({"n": Decimal("1000.0000000000000000000000000")}) is True


decimals = st.decimals(allow_nan=False, allow_infinity=False, min_value=Decimal("-1E+12"),
                       max_value=Decimal("1E+12"), places=None).filter(
    lambda d: d.adjusted() >= -12 and len(format(d, "f").partition(".")[2]) <= 30)  # what a rule's bound may be


@settings(max_examples=400, deadline=None)
@given(decimals, decimals, decimals, st.sampled_from(["min", "max"]))
def test_ratio_and_range_verdicts_equal_the_fraction_truth(a, b, limit, side):
    bound = format(limit, "f")
    ratio = {"kind": "value", "target": "/a", "per": "/b", side: bound}
    if b != 0:
        quotient = Fraction(a) / Fraction(b)
        truth = quotient >= Fraction(limit) if side == "min" else quotient <= Fraction(limit)
        assert (run(ratio, {"a": a, "b": b}) == []) is truth
    in_range = {"kind": "value", "target": "/a", side: bound}
    truth = Fraction(a) >= Fraction(limit) if side == "min" else Fraction(a) <= Fraction(limit)
    assert (run(in_range, {"a": a}) == []) is truth
    assert (run({"kind": "value", "target": "/a", "per": "/b", "one_of": [bound]}, {"a": a, "b": b}) == []) \
        is (b != 0 and Fraction(a) / Fraction(b) == Fraction(limit))


# --- shape: a document with errors by the thousand is explained up to 100, and the rest counted ---------------

LIST_OF_MAPPINGS = {"type": "object", "additionalProperties": False,
                    "properties": {"m": {"type": "array", "items": {"type": "object"}}}}


@pytest.mark.parametrize("data, unlisted", [
    ({"m": ["x"] * 900}, "800 further"),
    ({"m": ["x"] * 20_000}, "more than 10,000 further"),
    ({f"k{n}": 1 for n in range(500)}, "400 further"),
    ({"m": ["x"] * 60, **{f"k{n}": 1 for n in range(60)}}, "20 further"),
])
def test_shape_errors_past_a_hundred_are_counted_not_explained(data, unlisted):
    errors = ShapeValidator(LIST_OF_MAPPINGS).errors(data)
    assert len(errors) == 101
    [(rule_id, pointer, message)] = [e for e in errors if e[0] == "SHAPE-UNLISTED"]
    assert pointer == "" and unlisted in message


def test_shape_messages_quote_values_briefly():
    errors = ShapeValidator({"type": "object", "properties": {"a": {"maxLength": 3}, "b": {"type": "number"}}}) \
        .errors({"a": "x" * 1_000_000, "b": "y" * 1_000_000})
    assert len(errors) == 2 and all(len(message) < 500 for _, _, message in errors)


def test_a_bound_too_long_to_read_is_refused_never_read_as_no_bound(tmp_path):
    """Found by the property test under another seed: a 61-digit `max` read as no maximum, passing everything."""
    from casino_audit.law.checks.predicates import limit

    long_bound = "-0.0000004004427280608819513784426080786122886029726555991509612807819"
    with pytest.raises(ValueError):
        limit(long_bound)
    house = tmp_path / "house.yaml"
    house.write_text("ruleset: house\nextends: lu\nrules:\n  - id: HOUSE-X\n    title: t\n    severity: error\n"
                     "    applies_to: {kind: machine}\n"
                     f"    check: {{kind: value, target: /a, max: \"{long_bound}\"}}\n"
                     "    citation: {article: HP-1, text: words}\n    rationale: r\n")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(house)
    assert ":8:" in str(raised.value)
