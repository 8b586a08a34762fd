"""Validate data against a JSON Schema (Draft 2020-12) and explain what is wrong in plain words.

jsonschema-rs answers "valid?" and, for an invalid document of ordinary size, lists its errors (17x faster than
jsonschema); jsonschema explains only a oneOf/anyOf failure, on that sub-document alone, for its error tree gives
the alternative that came closest instead of every alternative. jsonschema-rs lists errors eagerly, so a large
document (past RS_NODES values) is explained by jsonschema, which finds errors lazily: a document with 900,000
wrong values costs the first MAX_EXPLAINED explained and at most MAX_COUNTED more counted, then one finding
saying how many more there are.
"""

from __future__ import annotations

import itertools
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from casino_audit.core import findings as F
from casino_audit.documents.shape_explain import ShapeError, explain, weight

try:
    import jsonschema_rs
except ImportError:  # pragma: no cover - optional speed-up
    jsonschema_rs = None

MAX_EXPLAINED = 100  # shape errors explained per document
MAX_COUNTED = 10_000  # further errors counted (~16 us each) before saying "more than"
RS_NODES = 5_000  # values in a document up to which jsonschema-rs lists its errors (it lists them all at once)


@lru_cache(maxsize=None)
def packaged_schema(name: str) -> dict:
    return json.loads(resources.files("casino_audit").joinpath("schemas", name).read_text("utf-8"))


class ShapeValidator:
    """The schemas are the package's own (a test holds each valid against the Draft 2020-12 meta-schema), so none
    is checked again at each start; jsonschema, which explains errors, is imported when a document has one."""

    def __init__(self, schema: dict):
        self.schema = schema
        self._explainer = None
        self._fast = None
        self._split = None  # _ByProperty, once an invalid document asks (False: the schema does not fit it)
        if jsonschema_rs is not None:
            try:
                self._fast = jsonschema_rs.Draft202012Validator(schema)
            except Exception:  # a schema jsonschema-rs cannot compile: the slow path is still right
                self._fast = None

    @property
    def _full(self):
        if self._explainer is None:
            import jsonschema  # loads only for a shape error to explain (start-up)

            self._explainer = jsonschema.Draft202012Validator(self.schema)
        return self._explainer

    def is_valid(self, data: Any) -> bool:
        if self._fast is not None:
            try:
                return self._fast.is_valid(data)
            except Exception:  # a Python value jsonschema-rs cannot convert
                pass
        return self._full.is_valid(data)

    def errors(self, data: Any, values: int | None = None) -> list[ShapeError]:
        """The shape errors, explained; past MAX_EXPLAINED, one more error at the document says how many more
        there are (exactly up to MAX_COUNTED). `values`: how many keys and values the document holds, or a bound
        above that, if the reader counted them."""
        if self.is_valid(data):
            return []
        if self._fast is not None and ((values is not None and values <= RS_NODES) or _small(data, RS_NODES)):
            try:
                seen: set = set()
                split = self._by_property() if isinstance(data, dict) else None
                listed = (split or self._fast).iter_errors(data)
                errors = [adapted for error in listed for adapted in self._adapt(error, data, seen)]
            except Exception:  # a value jsonschema-rs cannot convert: jsonschema explains it all
                errors = None
            if errors is not None:
                return self._listed(iter(errors)) or _UNEXPLAINED
        # The two validators may read a pattern differently (Python's `$` matches before a final line break,
        # jsonschema-rs's does not): a document refused is never passed for want of an explanation.
        return self._listed(self._full.iter_errors(data)) or _UNEXPLAINED

    def _by_property(self):
        if self._split is None:
            self._split = _ByProperty(self.schema) if _ByProperty.fits(self.schema) else False
        return self._split or None

    def _adapt(self, error, data: Any, seen: set) -> list:
        """A jsonschema-rs error in the shape `explain` reads (jsonschema's); a oneOf/anyOf failure is validated
        again by jsonschema against that keyword alone, on the sub-document, for its tree of alternatives (once
        for all the errors jsonschema-rs gives there: `seen`)."""
        path, schema_path = tuple(error.instance_path), tuple(error.schema_path)
        instance = _node(data, path)
        # Explained by jsonschema: a choice of alternatives (its tree says which came closest), and a key's name
        # (jsonschema-rs gives the mapping, not the name, and not the schema's own message for it).
        for at in range(len(schema_path) - 1, -1, -1):
            if schema_path[at] in _EXPLAINED_BY_JSONSCHEMA:
                key = (schema_path[:at + 1], path)
                if key in seen:
                    return []
                seen.add(key)
                explained = list(self._branch_validator(schema_path[at], schema_path[:at]).iter_errors(instance))
                for one in explained:
                    one.relative_path.extendleft(reversed(path))  # its alternatives' paths follow
                if explained:
                    return explained
                break
        keyword = schema_path[-1] if schema_path else None
        schema = _node(self.schema, schema_path[:-1])
        kind = type(error.kind).__name__
        message = f"{error.kind.property!r} is a required property" if kind == "Required" else error.message
        return [_Error(keyword, schema.get(keyword) if isinstance(schema, dict) else None, instance, path,
                       schema if isinstance(schema, dict) else {}, message)]

    @lru_cache(maxsize=None)
    def _branch_validator(self, keyword: str, schema_path: tuple):
        import jsonschema  # as in _full (start-up)

        alone = {keyword: _node(self.schema, schema_path)[keyword]}
        if "$defs" in self.schema:
            alone["$defs"] = self.schema["$defs"]
        return jsonschema.Draft202012Validator(alone)

    def _listed(self, errors) -> list[ShapeError]:
        found: list[ShapeError] = []
        more = 0
        for error in errors:
            explained, left = explain(error, MAX_EXPLAINED - len(found))
            found.extend(explained)
            more += left
            if len(found) >= MAX_EXPLAINED:
                break
        counted = 0
        for error in itertools.islice(errors, MAX_COUNTED + 1):
            counted += 1
            more += weight(error)
        found.sort(key=lambda e: e[1])
        if more:
            amount = f"more than {more - 1:,}" if counted > MAX_COUNTED else f"{more:,}"
            # Its own id: not a value of the wrong shape (the document's root is not misshapen).
            found.append((F.SHAPE_UNLISTED, "", f"{amount} further shape error(s) in this document are not listed; "
                                                "correct those above and check again"))
        return found


_UNEXPLAINED = [(F.SHAPE_INVALID, "", "the schema refuses the document, and its explanation names no value (a text "
                                      "ending in a line break, where only digits belong?)")]
_EXPLAINED_BY_JSONSCHEMA = frozenset(("oneOf", "anyOf", "propertyNames"))


class _ByProperty:
    """jsonschema-rs's errors for an object schema whose root says only which properties there are (their
    schemas, which are required, that no other is allowed), listed property by property: `iter_errors` reads
    the whole document into its own values first (0.15 ms for a filing with PAR data), `is_valid` does not, so
    each property is tested and only the wrong ones are listed; the root's own keywords are asked of the keys
    alone."""

    _ROOT = frozenset(("$schema", "$id", "$comment", "title", "description", "type", "additionalProperties",
                       "required", "properties", "$defs"))

    @classmethod
    def fits(cls, schema: dict) -> bool:
        return (schema.get("type") == "object" and set(schema) <= cls._ROOT
                and isinstance(schema.get("properties"), dict)
                and all(ref.startswith("#/$defs/") for ref in _refs(schema)))

    def __init__(self, schema: dict):
        self.schema = schema
        root = {key: value for key, value in schema.items() if key != "properties"}
        root["properties"] = {name: True for name in schema["properties"]}
        self.root = jsonschema_rs.Draft202012Validator(root)
        self._properties: dict[str, Any] = {}

    def _property(self, name: str):
        found = self._properties.get(name)
        if found is None:
            alone = {"$schema": self.schema.get("$schema", "https://json-schema.org/draft/2020-12/schema"),
                     **(self.schema["properties"][name] if isinstance(self.schema["properties"][name], dict)
                        else {"not": {}} if self.schema["properties"][name] is False else {})}
            definitions = self.schema.get("$defs", {})
            wanted, todo = {}, list(_refs(alone))
            while todo:  # only the definitions this property reaches
                name_of = todo.pop().removeprefix("#/$defs/").split("/")[0]
                if name_of in definitions and name_of not in wanted:
                    wanted[name_of] = definitions[name_of]
                    todo.extend(_refs(definitions[name_of]))
            if wanted:
                alone["$defs"] = wanted
            found = self._properties[name] = jsonschema_rs.Draft202012Validator(alone)
        return found

    def iter_errors(self, data: dict):
        yield from self.root.iter_errors(dict.fromkeys(data))
        properties = self.schema["properties"]
        for name, value in data.items():
            if name in properties:
                validator = self._property(name)
                if not validator.is_valid(value):
                    for error in validator.iter_errors(value):
                        yield _Under(error, name)


class _Under:
    """A property's error, its paths from the document's root."""

    __slots__ = ("instance_path", "schema_path", "kind", "message")

    def __init__(self, error, name: str):
        self.instance_path = (name, *error.instance_path)
        self.schema_path = ("properties", name, *error.schema_path)
        self.kind, self.message = error.kind, error.message


def _refs(node) -> list[str]:
    found, todo = [], [node]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str):
                found.append(ref)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return found


class _Error:
    """What `explain` reads of an error, as jsonschema names it."""

    __slots__ = ("validator", "validator_value", "instance", "absolute_path", "schema", "message", "context")

    def __init__(self, validator, validator_value, instance, absolute_path, schema, message):
        self.validator, self.validator_value, self.instance = validator, validator_value, instance
        self.absolute_path, self.schema, self.message, self.context = absolute_path, schema, message, ()


def _node(root: Any, path: tuple) -> Any:
    for step in path:
        root = root[step] if isinstance(root, dict) or (isinstance(root, list) and isinstance(step, int)) else None
        if root is None:
            break
    return root


def _small(data: Any, limit: int) -> bool:
    """Whether the data holds at most `limit` values (counted until the limit is passed)."""
    left, stack = limit, [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            left -= len(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            left -= len(value)
            stack.extend(value)
        if left < 0:
            return False
    return True
