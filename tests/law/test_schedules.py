"""The schedule check kind (casino_audit.law.checks): ceilings, divisors, closure, what a
schedule missing or listing nothing means. Written where mutation testing (tools/mutate.py) showed the suite did
not bite: each names the fact a mutant broke without any test failing."""

from decimal import Decimal

import pytest


def _schedule(spec, data):
    from casino_audit.law.checks import CHECK_KINDS
    return list(CHECK_KINDS["schedule"].compile({"kind": "schedule", **spec})(data))


@pytest.mark.parametrize("value, ok", [(10, True), (9, True), (0, True), (Decimal("10.0"), True), ("10", True),
                                       (11, False), (Decimal("10.000000000000000000000000000001"), False),
                                       ("lots", False), (True, False)])
def test_a_ceiling_without_a_divisor_lets_every_value_up_to_it_through(value, ok):
    # «até N vezes»: at most, so anything below the ceiling is legal, the ceiling itself included.
    found = _schedule({"target": "/m", "max": {"plein": 10}}, {"m": {"plein": value}})
    assert (found == []) is ok
    if not ok:
        assert found[0][1].endswith("must be at most 10")


def test_a_missing_divisor_is_reported_once_not_once_per_entry():
    spec = {"target": "/max", "per": "/min", "equals": {"simple": 360, "plein": 20, "cheval": 10}}
    assert _schedule(spec, {"max": {"simple": 1800, "plein": 100, "cheval": 50}}) == [
        ("/min", "`min` is missing or not a number, so `max` cannot be checked")]


def test_an_entry_that_is_no_number_is_a_finding_against_a_divisor_not_a_crash():
    spec = {"target": "/max", "per": "/min", "equals": {"simple": 360, "plein": 20}}
    assert _schedule(spec, {"min": 5, "max": {"simple": "lots", "plein": 100}}) == [
        ("/max/simple", "`max/simple` is 'lots', not a number")]


def test_missing_allowed_lets_an_absent_schedule_pass_and_only_then():
    spec = {"target": "/p", "equals": {"plein": 35}}
    assert _schedule(spec, {}) == [("/p", "`p` is not declared (must give plein)")]
    assert _schedule({**spec, "missing": "allowed"}, {}) == []
    assert _schedule({**spec, "missing": {"reported_by": "LU-X"}}, {}) == []


def test_a_schedule_listing_no_entry_is_no_rule():
    # An empty `equals:` or `max:` would check nothing, in silence: the ruleset's schema refuses it.
    from casino_audit.law.checks import CHECK_KINDS
    from casino_audit.documents.shape import ShapeValidator
    validator = ShapeValidator(CHECK_KINDS["schedule"].parameters)
    assert validator.errors({"kind": "schedule", "target": "/p", "equals": {}})
    assert validator.errors({"kind": "schedule", "target": "/p", "max": {}})
    assert not validator.errors({"kind": "schedule", "target": "/p", "max": {"plein": 35}})


def test_a_schedule_describes_its_values_bounds_divisor_and_closure():
    from casino_audit.law.checks import CHECK_KINDS
    describe = CHECK_KINDS["schedule"].describe
    assert describe({"kind": "schedule", "target": "/p", "equals": {"plein": 35, "cheval": "17"}, "closed": True}) \
        == "`p` must give plein 35, cheval '17'; no other entry is allowed"
    assert describe({"kind": "schedule", "target": "/max", "per": ["/minima", "/min"], "max": {"plein": "40.0"},
                     "missing": "allowed"}) == "`max` must give plein at most 40.0 times `minima` (where given)"
    assert describe({"kind": "schedule", "target": "/max", "max": {"plein": "40.0"}}) \
        == "`max` must give plein at most '40.0'"
    assert _schedule({"target": "/max", "max": {"plein": "40.0"}, "per": "/min"}, {"max": {}, "min": 5}) == [
        ("/max/plein", "`max/plein` is not declared (must be at most 40.0 times `min`)")]
    assert _schedule({"target": "/max", "max": {"plein": "40"}}, {"max": {}}) == [
        ("/max/plein", "`max/plein` is not declared (must be at most '40')")]
    assert _schedule({"target": "/max", "equals": {"plein": "40"}}, {"max": {}}) == [
        ("/max/plein", "`max/plein` is not declared (must be '40')")]


@pytest.mark.parametrize("minimum", [0, "0", Decimal("0.00")])
def test_a_divisor_of_zero_is_a_finding_not_a_division_by_zero(minimum):
    spec = {"target": "/max", "per": ["/minima", "/min"], "max": {"plein": 40}}
    expected = [("/min", "`min` is missing or not a number, so `max` cannot be checked")]
    assert _schedule(spec, {"min": minimum, "max": {"plein": 200}}) == expected
    assert _schedule(spec, {"minima": {"plein": minimum}, "max": {"plein": 200}}) == [
        ("/minima/plein", "`minima/plein` is missing or not a number, so `max` cannot be checked")]
    assert _schedule(spec, {"max": {"plein": 200}}) == expected  # none given: the last, the general one, is named


def test_a_ceiling_that_is_no_number_holds_every_value_as_a_finding_not_a_crash():
    assert _schedule({"target": "/m", "max": {"plein": "many"}}, {"m": {"plein": 1}}) == [
        ("/m/plein", "`m/plein` is 1, must be at most 'many'")]


def test_a_non_number_law_value_against_a_divisor_is_a_finding_not_a_crash():
    found = _schedule({"target": "/m", "per": "/min", "max": {"plein": "many"}}, {"min": 5, "m": {"plein": 5}})
    assert [(pointer, message.startswith("`m/plein` is 5 (1 times `min`)")) for pointer, message in found] == [
        ("/m/plein", True)]
