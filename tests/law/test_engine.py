"""The engine never passes a rule in silence because a value it reads is of another type than it can read."""

from decimal import Decimal

import pytest

from casino_audit.law.checks import blocked, undecidable
from casino_audit.core.pointers import split


@pytest.mark.parametrize("data, condition, expected", [
    ({"a": {"offered": "yes"}}, {"target": "/a/offered", "differs": False}, ("/a/offered", "is text")),
    ({"a": {"offered": 1}}, {"target": "/a/offered", "equals": True}, ("/a/offered", "is a number")),
    ({"a": {"offered": False}}, {"target": "/a/offered", "differs": False}, None),
    ({"a": {}}, {"target": "/a/offered", "differs": False}, None),  # missing: the rule says what that means
    ({"a": {"offered": None}}, {"target": "/a/offered", "differs": False}, None),
    ({"a": "yes"}, {"target": "/a/offered", "differs": False}, ("/a", "is text, not a mapping")),
    ({"a": "yes"}, {"target": "/a/offered", "present": True}, ("/a", "is text, not a mapping")),
    ({"a": {"offered": "x"}}, {"target": "/a/offered", "present": True}, None),
    ({"t": {"seats": "eight"}}, {"target": "/t/seats", "min": 8}, ("/t/seats", "is text")),
    ({"t": {"seats": True}}, {"target": "/t/seats", "max": 7}, ("/t/seats", "is true or false")),
    ({"t": {"seats": Decimal("7.0")}}, {"target": "/t/seats", "max": 7}, None),
    ({"c": {"accepts": "coins"}}, {"target": "/c/accepts", "contains": "coins"}, ("/c/accepts", "is text")),
    ({"m": {"type": "video"}}, {"target": "/m/type", "equals": "video"}, None),
    ({"m": {"type": ["video"]}}, {"target": "/m/type", "equals": "video"}, ("/m/type", "is a list")),
])
def test_a_condition_on_a_value_of_another_type_is_undecidable(data, condition, expected):
    found = undecidable(condition, data)
    if expected is None:
        assert found is None
    else:
        assert found[0] == expected[0] and found[1].startswith(expected[1]), found


@pytest.mark.parametrize("data, target, container, expected", [
    ({"meters": "none"}, "/meters/*/role", None, "/meters"),
    ({"meters": [{"role": "x"}, "broken"]}, "/meters/*/role", None, "/meters/1"),
    ({"meters": [{"role": "x"}]}, "/meters/*/role", None, None),
    ({"meters": None}, "/meters/*/role", None, None),
    ({"payouts": [35]}, "/payouts", dict, "/payouts"),
    ({"payouts": {"plein": 35}}, "/payouts", dict, None),
    ({"meters": {"a": 1}}, "/meters", list, "/meters"),
    ({"a": {"b": 3}}, "/a/b/c", None, "/a/b"),
    ({}, "/a/b/c", None, None),
])
def test_a_path_blocked_by_a_value_of_the_wrong_type_is_named(data, target, container, expected):
    found = blocked(data, split(target), container)
    assert (found[0] if found else None) == expected
