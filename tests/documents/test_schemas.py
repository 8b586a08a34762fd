"""Every JSON Schema the package validates with is itself valid (the tool does not check them at each start)."""

import jsonschema
import pytest

from casino_audit.law import cases, checks
from casino_audit.documents import kinds
from casino_audit.run.config import CONFIG_SCHEMA
from casino_audit.documents.shape import packaged_schema

SCHEMAS = {f"kind {name}": kinds.schema(name) for name in kinds.KINDS}
SCHEMAS.update({"ruleset": packaged_schema("ruleset.schema.json"), "report": packaged_schema("report.schema.json"),
                "config": CONFIG_SCHEMA, "conditions": checks.CONDITION_SCHEMA, "rule cases": cases._SCHEMA})
SCHEMAS.update({f"check {name}": kind.parameters for name, kind in checks.CHECK_KINDS.items()})


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schema_is_valid_draft_2020_12(name):
    jsonschema.Draft202012Validator.check_schema(SCHEMAS[name])


def test_errors_listed_property_by_property_are_those_of_the_whole_document():
    """shape._ByProperty lists jsonschema-rs's errors one property at a time (iter_errors reads the whole document
    first); for any document, of any kind it fits, the explained errors are the same as from the whole."""
    from hypothesis import given, settings, strategies as st

    from casino_audit.read.loader import load_file
    from helpers.command import EXAMPLES

    documents = [document.data for path in sorted(EXAMPLES.rglob("*.yaml"))
                 for document in load_file(path).documents if isinstance(document.data, dict)]
    values = st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3) | st.lists(st.integers(), max_size=2)

    @settings(max_examples=200, deadline=None)
    @given(st.sampled_from(documents), st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 10 ** 6),
                                                          values), max_size=4))
    def alike(document, changes):
        import copy

        changed = copy.deepcopy(document)
        for first, second, value in changes:  # a value somewhere, one or two levels down, replaced or added
            keys = list(changed)
            key = keys[first % len(keys)] if keys and first % 3 else f"extra{first % 5}"
            inner = changed.get(key)
            if isinstance(inner, dict) and inner and second % 2:
                inner_keys = list(inner)
                inner[inner_keys[second % len(inner_keys)]] = value
            else:
                changed[key] = value
        kind = changed.get("kind")
        if not isinstance(kind, str) or kind not in kinds.KINDS:
            return
        by_property = kinds.validator(kind)
        whole = kinds.validator(kind)
        whole._split = False
        assert by_property.errors(changed) == whole.errors(changed)

    alike()
