"""Reports validated against their schemas in the tests: by jsonschema-rs (compiled once per schema), and by
jsonschema only to say what is wrong when a report fails. jsonschema.validate checks the schema itself on every
call, and the pure-Python validator took a tenth of the suite's time on the SARIF schema alone."""

from __future__ import annotations

import jsonschema
import jsonschema_rs

_COMPILED: dict[int, tuple] = {}  # id(schema) -> (schema, jsonschema-rs validator, jsonschema class)


def validate(document, schema: dict) -> None:
    """Raise jsonschema's ValidationError (its message says where) if `document` does not fit `schema`."""
    compiled = _COMPILED.get(id(schema))
    if compiled is None or compiled[0] is not schema:  # the schema object kept: its id is never another's
        compiled = _COMPILED[id(schema)] = (schema, jsonschema_rs.validator_for(schema),
                                            jsonschema.validators.validator_for(schema))
    _, fast, slow = compiled
    if not fast.is_valid(document):
        slow(schema).validate(document)  # the error, explained
        raise AssertionError("jsonschema-rs refused a document jsonschema accepts")  # pragma: no cover
