"""The JSON Schemas `casino-audit schema` gives load in ajv's default strict mode (issue 24): no keyword but JSON
Schema 2020-12's (a schema's own message for a value that fails it is its `$comment`; `x-message` was refused).
The vocabulary is checked here always; ajv itself where Node.js and ajv are installed (CI installs them: NODE_PATH
names where)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from helpers.command import run_in_process

NAMES = ["machine", "table", "game-log", "meter-log", "ruleset", "report"]
KEYWORDS = set("""$schema $id $ref $defs $comment $anchor $dynamicRef $dynamicAnchor $vocabulary title description
default examples deprecated readOnly writeOnly type enum const multipleOf maximum exclusiveMaximum minimum
exclusiveMinimum maxLength minLength pattern maxItems minItems uniqueItems maxContains minContains maxProperties
minProperties required dependentRequired properties patternProperties additionalProperties propertyNames items
prefixItems contains unevaluatedItems unevaluatedProperties allOf anyOf oneOf not if then else format
contentEncoding contentMediaType contentSchema dependentSchemas""".split())
NAMED = ("properties", "patternProperties", "$defs", "dependentSchemas")  # their keys are names, not keywords


def _schema(name: str) -> dict:
    done = run_in_process("schema", name)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _unknown(node, where="#") -> list[str]:
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in KEYWORDS:
                found.append(f"{where}/{key}")
            if key in NAMED and isinstance(value, dict):
                for name, child in value.items():
                    found += _unknown(child, f"{where}/{key}/{name}")
            elif key not in ("enum", "const", "default", "examples", "required"):
                found += _unknown(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            found += _unknown(item, f"{where}/{index}")
    return found


@pytest.mark.parametrize("name", NAMES)
def test_every_keyword_of_a_given_schema_is_json_schemas(name):
    schema = _schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert _unknown(schema) == []


def test_a_schemas_own_message_is_still_what_a_shape_error_says(tmp_path):
    path = tmp_path / "table.yaml"
    path.write_text("kind: table\njurisdiction: LU\ngame: punto_banco\nstakes: {minimum_eur: -5}\n", "utf-8")
    done = run_in_process("check", str(path), "--format", "json")
    messages = [f["message"] for f in json.loads(done.stdout)["findings"] if f["pointer"] == "/stakes/minimum_eur"]
    assert messages and all("$comment" not in message for message in messages), messages


def _ajv() -> str | None:
    node = shutil.which("node")
    if node is None:
        return None
    found = subprocess.run([node, "-e", "require.resolve('ajv/dist/2020')"], capture_output=True,
                           env={**os.environ}, timeout=60)
    return node if found.returncode == 0 else None


STRICT = """
const Ajv2020 = require("ajv/dist/2020");
const schema = JSON.parse(require("fs").readFileSync(0, "utf8"));
new Ajv2020().compile(schema);  // the default options: strict mode
"""


@pytest.mark.parametrize("name", NAMES)
def test_ajv_compiles_a_given_schema_in_its_default_strict_mode(name):
    node = _ajv()
    if node is None:
        pytest.skip("Node.js with ajv is not installed (CI installs it)")
    done = subprocess.run([node, "-e", STRICT], input=json.dumps(_schema(name)), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
