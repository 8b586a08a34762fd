"""Every JSON Schema the package validates with is itself valid (the tool does not check them at each start)."""

import jsonschema
import pytest

from casino_audit import cases, checks, kinds
from casino_audit.config import CONFIG_SCHEMA
from casino_audit.shape import packaged_schema

SCHEMAS = {f"kind {name}": kinds.schema(name) for name in kinds.KINDS}
SCHEMAS.update({"ruleset": packaged_schema("ruleset.schema.json"), "report": packaged_schema("report.schema.json"),
                "config": CONFIG_SCHEMA, "conditions": checks.CONDITION_SCHEMA, "rule cases": cases._SCHEMA})
SCHEMAS.update({f"check {name}": kind.parameters for name, kind in checks.CHECK_KINDS.items()})


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schema_is_valid_draft_2020_12(name):
    jsonschema.Draft202012Validator.check_schema(SCHEMAS[name])
