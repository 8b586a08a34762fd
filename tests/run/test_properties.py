"""Property-based tests (Hypothesis) over the compliant examples, mutated as a filer might mutate them.

For every mutation: never a traceback, always a JSON report valid against `schema report`. Deleting a value a rule
that applies requires, or changing a value's type, never passes. Writing the same value another way YAML allows
(quotes, flow or block style, true/True/TRUE, null/~) never changes the findings.
"""

from __future__ import annotations

import functools
import json
import re
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import schema_check
from casino_audit.law import checks
from casino_audit.core import pointers
from casino_audit.law.engine import Checker
from casino_audit.core.findings import Severity
from casino_audit.documents.kinds import KINDS
from casino_audit.read.loader import load_file
from casino_audit.run.pipeline import run
from casino_audit.law.provenance import in_use
from casino_audit.report import ReportContext, json_report
from casino_audit.law.rulesets import builtin_names, load_builtin
from casino_audit.documents.shape import packaged_schema
from helpers.command import EXAMPLES, TEST_PARAMS

RULESETS = {rs.code: rs for rs in (load_builtin(name) for name in builtin_names())}
CHECKER = Checker(RULESETS, {code: {n: rs.params[n].parse(v) for n, v in TEST_PARAMS.items() if n in rs.params}
                             for code, rs in RULESETS.items()})
REPORT_SCHEMA = packaged_schema("report.schema.json")
CONTEXT = ReportContext(Severity.INFO, in_use(RULESETS))
TRIED = {"cases": 0}


def compliant_examples() -> list[Path]:
    names = []
    for line in (EXAMPLES / "README.md").read_text("utf-8").splitlines():
        match = re.match(r"\| `([^`]+\.yaml)` \|[^|]*\| none \|$", line)
        if match:
            names.append(EXAMPLES / match.group(1))
    return names


EXAMPLE_DATA = {path.name: load_file(path).documents[0].data for path in compliant_examples()}
CASES = sorted(EXAMPLE_DATA)


# --- writing a document as YAML, each value in a spelling YAML allows ------------------------------------------

@functools.lru_cache(maxsize=None)
def plain_ok(text: str) -> bool:
    """A plain scalar YAML reads back as this very string (no number, boolean, null, date or syntax)."""
    if not text or text != text.strip() or not text.isprintable() or any(c in text for c in ":#{}[],&*!|>'\"%@`"):
        return False
    try:
        return yaml.load(f"k: {text}\n", Loader=yaml.CSafeLoader) == {"k": text}
    except yaml.YAMLError:
        return False


def spell(value, choose, indent: int = 0, flow: bool = False) -> str:
    """YAML text for a value; `choose` picks one of equivalent spellings. Inside flow style all is flow."""
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        if flow or choose([False, True]):
            return "{" + ", ".join(f"{spell_key(k, choose)}: {spell(v, choose, indent + 1, True)}"
                                   for k, v in value.items()) + "}"
        lines = []
        for key, item in value.items():
            inner = spell(item, choose, indent + 1)
            block = inner.startswith("\n")
            lines.append(f"{pad}{spell_key(key, choose)}:{'' if block else ' '}{inner}")
        return "\n" + "\n".join(lines) if indent else "\n".join(lines)
    if isinstance(value, list):
        if not value:
            return "[]"
        if flow or choose([False, True]):
            return "[" + ", ".join(spell(v, choose, indent + 1, True) for v in value) + "]"
        lines = []
        for item in value:
            inner = spell(item, choose, indent + 1)
            if inner.startswith("\n"):
                inner = inner.lstrip("\n").lstrip() if isinstance(item, dict) else "\n" + inner.lstrip("\n")
            lines.append(f"{pad}- {inner}")
        return "\n" + "\n".join(lines)
    if isinstance(value, bool):
        return choose(["true", "True", "TRUE"] if value else ["false", "False", "FALSE"])
    if value is None:
        return choose(["null", "~", "Null"])
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, int):
        return str(value)
    return spell_string(value, choose)


def spell_string(text: str, choose) -> str:
    options = [json.dumps(text, ensure_ascii=choose([False, True]))]
    if text.isprintable():
        options.append("'" + text.replace("'", "''") + "'")
    if plain_ok(text):
        options.append(text)
    return choose(options)


def spell_key(key: str, choose) -> str:
    return choose([json.dumps(key), key]) if plain_ok(key) else json.dumps(key)


def check_text(text: str, suffix: str = ".yaml", whole_report: bool = True):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / f"filing{suffix}"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        result = run([str(path)], CHECKER)
    TRIED["cases"] += 1
    if not whole_report:
        return result
    report = json_report.build(result, CONTEXT)
    schema_check.validate(json.loads(json.dumps(report)), REPORT_SCHEMA)
    return result


def verdict(result) -> set[tuple[str, str | None]]:
    return {(f.rule_id, f.pointer) for f in result.findings}


# --- mutations --------------------------------------------------------------------------------------------------

def leaves_and_nodes(data, pointer: str = ""):
    yield pointer, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves_and_nodes(value, pointers.child(pointer, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from leaves_and_nodes(value, pointers.child(pointer, index))


def without(data, segments: tuple):
    if len(segments) == 1:
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if k != segments[0]}
        return [v for i, v in enumerate(data) if str(i) != segments[0]]
    head = segments[0]
    if isinstance(data, dict):
        return {k: (without(v, segments[1:]) if k == head else v) for k, v in data.items()}
    return [without(v, segments[1:]) if str(i) == head else v for i, v in enumerate(data)]


def replaced(data, segments: tuple, new):
    if not segments:
        return new
    head = segments[0]
    if isinstance(data, dict):
        return {k: (replaced(v, segments[1:], new) if k == head else v) for k, v in data.items()}
    return [replaced(v, segments[1:], new) if str(i) == head else v for i, v in enumerate(data)]


def required_targets(data) -> set[tuple[str, ...]]:
    """The places a value must be, by the rules that apply to this data (conditions read on it)."""
    kind, jurisdiction = data.get("kind"), data.get("jurisdiction")
    game = KINDS[kind].game_of(data) if kind in KINDS else None
    targets = set()
    for rule in RULESETS[jurisdiction].rules if jurisdiction in RULESETS else ():
        spec = rule.check
        if rule.kind != kind or (rule.games and game not in rule.games) or "missing" in spec:
            continue
        if not all(checks.compile_condition(c)(data) for c in rule.when):
            continue
        places = [] if spec["kind"] == "count" else [spec["target"]] if isinstance(spec["target"], str) \
            else list(spec["target"])
        places += [spec["per"]] if spec["kind"] == "value" and "per" in spec else []
        for place in places:
            if isinstance(place, str) and "*" not in place:
                targets.add(pointers.split(place))
        if spec["kind"] == "schedule":
            targets.update(pointers.split(pointers.child(spec["target"], key))
                           for key in spec.get("equals", spec.get("max", {})))
    return targets


def encloses(outer: tuple, inner: tuple) -> bool:
    return inner[: len(outer)] == outer


def json_type(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, Decimal)):
        return "number"
    return {str: "string", dict: "object", list: "array", type(None): "null"}[type(value)]


OTHER_TYPE = {"boolean": ["yes, outside too", 7, [True], {"value": True}],
              "number": ["ten", True, [10], {"value": 10}],
              "string": [12, False, ["text"], {"text": "x"}],
              "object": ["a mapping", 3, [{}], True],
              "array": ["a list", 3, {"0": 1}, True],
              "null": []}

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module", autouse=True)
def count_cases():
    yield
    print(f"\nproperty cases tried: {TRIED['cases']}")


@pytest.mark.parametrize("name", CASES)
def test_compliant_examples_are_compliant_as_respelled(name):
    assert verdict(check_text(yaml_of(EXAMPLE_DATA[name], None))) == set()


CHOICES = st.lists(st.integers(0, 5), min_size=64, max_size=64)  # 6: as many ways to each of 2 and 3 options


def yaml_of(data, draw) -> str:
    """`draw`: a Hypothesis draw, or None for the first spelling of everything. The choices are drawn 64 at a
    time (a list Hypothesis shrinks like any other): one draw per choice made a filing's ~200 choices cost more
    than checking it."""
    if draw is None:
        choose = lambda options: options[0]  # noqa: E731
    else:
        pending: list[int] = []

        def choose(options):
            if not pending:
                pending.extend(reversed(draw(CHOICES)))
            return options[pending.pop() % len(options)]
    text = spell(data, choose)
    return text.lstrip("\n") + "\n"


@FAST
@given(st.sampled_from(CASES), st.data())
def test_the_same_values_spelt_another_way_give_the_same_verdict(name, data):
    result = check_text(yaml_of(EXAMPLE_DATA[name], data.draw))
    assert verdict(result) == set(), [(f.rule_id, f.message) for f in result.findings]


@FAST
@given(st.sampled_from(CASES), st.data())
def test_deleting_a_value_a_rule_requires_never_passes(name, data):
    original = EXAMPLE_DATA[name]
    places = [p for p, _ in leaves_and_nodes(original) if p not in ("", "/kind", "/jurisdiction")]
    pointer = data.draw(st.sampled_from(places))
    mutated = without(original, pointers.split(pointer))
    result = check_text(yaml_of(mutated, data.draw))
    deleted = pointers.split(pointer)
    must_fail = any(encloses(deleted, target) for target in required_targets(mutated))
    if must_fail:
        assert result.failed(Severity.INFO), f"deleting {pointer} passed"


@FAST
@given(st.sampled_from(CASES), st.data())
def test_changing_a_values_type_never_passes(name, data):
    original = EXAMPLE_DATA[name]
    places = [(p, v) for p, v in leaves_and_nodes(original) if p not in ("", "/kind")
              and OTHER_TYPE[json_type(v)]]
    pointer, value = data.draw(st.sampled_from(places))
    new = data.draw(st.sampled_from(OTHER_TYPE[json_type(value)]))
    result = check_text(yaml_of(replaced(original, pointers.split(pointer), new), data.draw))
    assert result.failed(Severity.INFO), f"{pointer}: {value!r} -> {new!r} passed"


HOSTILE_TEXT = st.sampled_from(["\x1b[2J", "\x00", "\x7f", "\u202e", "\ud800", "\x85", "\u2028", "[bold]", "'", '"',
                                "\\", "&a", "*a", "!!python/object", "%TAG", "<<", ": ", " #", "---", "...", "\t",
                                "\r\n", "\ufeff", "0310", "1:40", "0x_", "1e999999999", "~", "yes", "-.inf"])


@FAST
@given(st.sampled_from(CASES), st.data(), HOSTILE_TEXT)
def test_hostile_text_anywhere_never_breaks_the_run(name, data, hostile):
    original = EXAMPLE_DATA[name]
    text = yaml_of(original, data.draw)
    position = data.draw(st.integers(0, len(text)))
    result = check_text(text[:position] + hostile + text[position:])
    assert result.internal_errors == 0
    respelled_key = data.draw(st.sampled_from([False, True]))
    target_pointer, _ = data.draw(st.sampled_from(list(leaves_and_nodes(original))[1:]))
    segments = pointers.split(target_pointer)
    if respelled_key:  # the same character in a key
        mutated = replaced(original, segments[:-1], {**pointers.get(original, pointers.join(segments[:-1])),
                                                     segments[-1] + hostile: 1}) \
            if isinstance(pointers.get(original, pointers.join(segments[:-1])), dict) else original
    else:
        mutated = replaced(original, segments, f"value {hostile}")
    result = check_text(yaml_of(mutated, data.draw))
    assert result.internal_errors == 0


@FAST
@given(st.sampled_from(CASES), st.data(), st.integers(1, 5))
def test_wrapping_a_value_in_lists_or_mappings_never_passes(name, data, depth):
    original = EXAMPLE_DATA[name]
    pointer, value = data.draw(st.sampled_from([(p, v) for p, v in leaves_and_nodes(original)
                                                if p not in ("", "/kind")]))
    for _ in range(depth):
        value = [value] if data.draw(st.sampled_from([False, True])) else {"wrapped": value}
    result = check_text(yaml_of(replaced(original, pointers.split(pointer), value), data.draw))
    assert result.failed(Severity.INFO), f"{pointer} wrapped {depth} deep passed"


@FAST
@given(st.sampled_from(CASES), st.data())
def test_the_json_spelling_gives_the_same_verdict(name, data):
    document = EXAMPLE_DATA[name]
    text = json.dumps(document, default=_json_decimal, indent=data.draw(st.sampled_from([None, 2])))
    text = re.sub(r'"__decimal__(-?[0-9.]+)"', r"\1", text)
    result = check_text(text, ".json")
    assert verdict(result) == set(), [(f.rule_id, f.message) for f in result.findings]


def _json_decimal(value):
    return f"__decimal__{format(value, 'f')}"


def test_every_single_deletion_of_a_required_value_fails():
    """Exhaustive, not sampled: each value of each compliant example, deleted alone."""
    passed_wrongly = []
    for name, original in EXAMPLE_DATA.items():
        for pointer, _ in leaves_and_nodes(original):
            if pointer in ("", "/kind", "/jurisdiction"):
                continue
            mutated = without(original, pointers.split(pointer))
            if any(encloses(pointers.split(pointer), t) for t in required_targets(mutated)):
                if not check_text(yaml_of(mutated, None), whole_report=False).failed(Severity.INFO):
                    passed_wrongly.append(f"{name}: {pointer}")
    assert not passed_wrongly
