"""Rulesets: find, load, validate against the meta-schema (built from the check kinds' parameter schemas), extend.

A ruleset problem is reported with file:line:column before any document is checked. `extends` reaches only a
built-in ruleset or a file in the extending ruleset's own directory, at most MAX_EXTENDS deep; what is wrong
in a file reached that way is located, never quoted (it may be a key file, not a ruleset). Rulesets are
cached by resolved path and the sha256 of their bytes: twenty house rulesets extending one large ruleset
read it once. A cached Ruleset is shared: treat it as read-only. The model is casino_audit.law.model; the
parts of a document are read by casino_audit.law.ruleset_parts.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from casino_audit.core.findings import Finding
from casino_audit.core.values import show
from casino_audit.documents.shape import ShapeValidator
from casino_audit.law.checks.metaschema import ruleset_schema
from casino_audit.law.checks.renamed import old_words
from casino_audit.law.model import Ruleset, RulesetError, known_zone, problem
from casino_audit.law.ruleset_parts import at, read_params, read_play, read_rules
from casino_audit.read.loader import Document, load_bytes, read_file

MAX_EXTENDS = 20  # rulesets in one `extends` chain, the first included
_CACHED = 64  # rulesets (and parsed files) kept


def rulesets_dir() -> Path:
    packaged = resources.files("casino_audit").joinpath("rulesets")
    if packaged.is_dir():  # installed: hatch puts the top-level rulesets/ here
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "rulesets"  # running from a source checkout


def builtin_names() -> list[str]:
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


@lru_cache(maxsize=None)
def _meta_validator() -> ShapeValidator:
    return ShapeValidator(ruleset_schema())


def load_builtin(name: str) -> Ruleset:
    return load_ruleset(rulesets_dir() / f"{name}.yaml")


class _ChainError(RulesetError):
    """A circle or a chain too deep: said as it is by every ruleset of the chain."""


_parsed: OrderedDict = OrderedDict()  # (resolved path, sha256) -> Document
_built: OrderedDict = OrderedDict()  # (resolved path, sha256, id(parent)) -> Ruleset


def _remember(cache: OrderedDict, key, value) -> None:
    cache[key] = value
    while len(cache) > _CACHED:
        cache.popitem(last=False)


def _recall(cache: OrderedDict, key):
    """A cached value, kept as the most recently used: a ruleset in use (the law a house ruleset extends) is
    never the one dropped while its extensions are read, so both name the same object."""
    value = cache.get(key)
    if value is not None:
        cache.move_to_end(key)
    return value


def load_ruleset(path: str | Path, _seen: tuple[str, ...] = ()) -> Ruleset:
    path = Path(path)
    try:
        resolved = str(path.resolve())
    except (OSError, ValueError, RuntimeError):  # a NUL byte in the name, a loop of links: no file by that name
        raise RulesetError([problem(str(path), 1, 1, "no such file (the name cannot name one)")]) from None
    if resolved in _seen:
        raise _ChainError([problem(str(path), 1, 1, f"`extends` goes round in a circle ({' -> '.join(_seen + (resolved,))})")])
    raw, failed = read_file(path)
    if raw is None:
        raise RulesetError([problem(f.file, f.line or 1, f.column or 1, f.message) for f in failed.findings])
    digest = hashlib.sha256(raw).hexdigest()
    document = _recall(_parsed, (resolved, digest))
    if document is None:
        document = _parse(raw, path)
        _remember(_parsed, (resolved, digest), document)
    return _from_document(document, path, digest, _seen, cache=True)


def _parse(raw: bytes, path: Path) -> Document:
    loaded = load_bytes(raw, str(path))
    documents = loaded.documents
    ruleset_like = len(documents) == 1 and isinstance(documents[0].data, dict) and "ruleset" in documents[0].data
    # A file that does not even read as a ruleset is never quoted: --ruleset or a config may point anywhere.
    problems = [_located(f, ruleset_like) for f in loaded.findings]
    for document in documents:
        problems += [_located(f, ruleset_like) for f in document.findings]
    if not problems and len(documents) != 1:
        problems.append(problem(str(path), 1, 1, "a ruleset file holds exactly one YAML document"))
    if problems:
        raise RulesetError(problems)
    return documents[0]




def _located(finding, quote: bool) -> Finding:
    message = finding.message if quote else f"{finding.rule_id} (not quoted: the file is not a ruleset)"
    return problem(finding.file, finding.line or 1, finding.column or 1, message)


def looks_like_ruleset(data: Any) -> bool:
    return isinstance(data, dict) and "kind" not in data and "ruleset" in data and "rules" in data


def ruleset_from_document(document: Document, path: Path, _seen: tuple[str, ...] = ()) -> Ruleset:
    """A ruleset from a document already loaded (a ruleset met among filings is validated this way)."""
    raw, _ = read_file(path)
    digest = hashlib.sha256(raw).hexdigest() if raw is not None else ""
    return _from_document(document, Path(path), digest, _seen, cache=False)


def _from_document(document: Document, path: Path, digest: str, seen: tuple[str, ...], cache: bool) -> Ruleset:
    resolved = str(path.resolve())
    seen = seen + (resolved,)
    data = document.data
    if not isinstance(data, dict) or "ruleset" not in data:  # say nothing of what it holds: it may be a key
        raise RulesetError([at(document, "", "not a ruleset: a ruleset is a mapping with `ruleset:` and "
                                             "`rules:` (casino-audit schema ruleset)")])
    # A word of the earlier vocabulary is named with its replacement, not as an unknown field.
    problems = [at(document, pointer, message) for pointer, message in old_words(data)]
    problems = problems or [at(document, pointer, message) for _, pointer, message in _meta_validator().errors(data)]
    if problems:
        raise RulesetError(problems)
    parent = None
    if "extends" in data:
        if len(seen) >= MAX_EXTENDS:
            raise _ChainError([at(document, "/extends", f"`extends` chains more than {MAX_EXTENDS} rulesets; "
                                                        "extend a ruleset nearer the law")])
        parent = _parent(document, path, data["extends"], seen)
    key = (resolved, digest, id(parent))
    found = _recall(_built, key) if cache else None
    if found is not None:
        return found
    ruleset = _build(document, data, parent, path, digest)
    if cache:
        _remember(_built, key, ruleset)
    return ruleset


def _parent(document: Document, path: Path, target: str, seen: tuple[str, ...]) -> Ruleset:
    """The ruleset `extends` names: a built-in one by name, or a file in this ruleset's own directory."""
    names = builtin_names()
    if "/" not in target and "\\" not in target and not target.endswith((".yaml", ".yml", ".json")):
        if target not in names:
            raise RulesetError([at(document, "/extends", f"`extends: {show(target)[1:-1]}` names no built-in "
                                                        f"ruleset ({', '.join(names)}) and no file")])
        candidate = rulesets_dir() / f"{target}.yaml"
    else:
        base = path.parent.resolve()
        candidate = path.parent / target
        try:
            inside = candidate.resolve().is_relative_to(base)
        except (OSError, RuntimeError, ValueError):  # a link loop, a name the system refuses
            inside = False
        if not inside:
            raise RulesetError([at(document, "/extends", f"`extends: {show(target)[1:-1]}` is outside this "
                                                        "ruleset's directory: extend a built-in ruleset "
                                                        f"({', '.join(names)}) or a file beside this one")])
        if not candidate.is_file():
            raise RulesetError([at(document, "/extends", f"`extends: {show(target)[1:-1]}` names no built-in "
                                                        f"ruleset ({', '.join(names)}) and no file")])
    try:
        return load_ruleset(candidate, seen)
    except _ChainError:
        raise
    except RulesetError as error:  # located, not quoted: the file may be anything
        first = error.problems[0] if error.problems else None
        where = f" (first problem at {first.file}:{first.line}:{first.column})" if first and first.line else ""
        raise RulesetError([at(document, "/extends", f"`extends: {show(target)[1:-1]}` is not a valid ruleset: "
                                                    f"{len(error.problems)} problem(s){where}; see them with "
                                                    f"`casino-audit rulesets validate {candidate}`")]) from None


def is_builtin_file(path: str | Path, name: str, digest: str = "") -> bool:
    """The built-in ruleset's own file, or a byte-for-byte copy of it (a checkout's rulesets/lu.yaml validated
    beside an installed casino-audit is the law, not a house ruleset hiding behind its name)."""
    builtin = rulesets_dir() / f"{name}.yaml"
    try:
        return Path(path).resolve() == builtin.resolve() or (bool(digest) and _builtin_digest(name) == digest)
    except OSError:
        return False


@lru_cache(maxsize=None)
def _builtin_digest(name: str) -> str:
    return hashlib.sha256((rulesets_dir() / f"{name}.yaml").read_bytes()).hexdigest()


def _build(document: Document, data: dict, parent: Ruleset | None, path: Path, digest: str) -> Ruleset:
    problems: list[Finding] = []
    code, name, instrument, zones = _jurisdiction(document, data, parent, path, digest, problems)
    instruments = dict(parent.instruments) if parent else {}
    if parent is not None:
        instruments[parent.name] = parent.instrument  # a house rule may cite the law it tightens
    instruments.update(data.get("instruments", {}))
    if instrument:
        instruments[""] = instrument
    params = read_params(document, data, parent, instruments, problems)
    rules, replaced, mine = read_rules(document, data, parent, code, instruments, params, problems)
    if problems:
        raise RulesetError(problems)
    play = read_play(document, data, parent, instruments, params, problems)
    if problems:
        raise RulesetError(problems)
    chain = (data["ruleset"],) + (parent.chain if parent else ())
    not_encoded = (parent.not_encoded if parent else []) + list(data.get("not_encoded", []))
    ruleset = Ruleset(data["ruleset"], code, name, instrument, params, rules, document.file, instruments,
                      not_encoded, chain, str(path), digest, parent, replaced, play, zones)
    if parent is not None:  # a shipped ruleset's gaps are the law's silence, said in every log it replays
        # the log session (and its replay) loads only for a house ruleset: a check under the law alone skips it
        from casino_audit.law.house_play import unrunnable

        own = {rule.id: pointer for pointer, rule in mine}
        problems.extend(at(document, pointer, message)
                        for pointer, message in unrunnable(ruleset, own, set(data.get("play", {}))))
        if problems:
            raise RulesetError(problems)
    return ruleset


def _jurisdiction(document: Document, data: dict, parent: Ruleset | None, path: Path, digest: str,
                  problems: list[Finding]) -> tuple[str, str, dict | None, tuple[str, ...]]:
    """(code, name, instrument, time zones): the ruleset's own, else those of the ruleset it extends."""
    if data["ruleset"] in builtin_names() and not is_builtin_file(path, data["ruleset"], digest):
        problems.append(at(document, "/ruleset", f"{data['ruleset']} is the name of a built-in ruleset; a "
                                                 "ruleset of your own takes a name of its own"))
    jurisdiction = data.get("jurisdiction")
    if jurisdiction is None and parent is None:
        problems.append(at(document, "", "a ruleset that extends none must name its `jurisdiction`"))
    if jurisdiction is not None and parent is not None and jurisdiction["code"] != parent.code:
        problems.append(at(document, "/jurisdiction/code", f"extends a {parent.code} ruleset but says {jurisdiction['code']}"))
    instrument = data.get("instrument") or (parent.instrument if parent else None)
    if instrument is None:
        problems.append(at(document, "", "a ruleset that extends none must name its `instrument`"))
    code = jurisdiction["code"] if jurisdiction else (parent.code if parent else "??")
    zones = tuple((jurisdiction or {}).get("time_zones") or (parent.time_zones if parent else ()))
    for position, zone in enumerate(zones):
        if not known_zone(zone):
            problems.append(at(document, f"/jurisdiction/time_zones/{position}", f"{zone!r} is no IANA time zone "
                                                                              "this machine's zone database holds"))
        elif parent is not None and parent.time_zones and zone not in parent.time_zones:
            # a zone moves a log's days and clock changes: a house may say which of the law's tables it has, and
            # never read a log in a zone the law has no table in
            problems.append(at(document, f"/jurisdiction/time_zones/{position}",
                               f"{zone!r} is not the zone of a table in {parent.code} ({', '.join(parent.time_zones)}): "
                               f"a ruleset that extends {parent.name} may narrow its zones, never add one"))
    name = jurisdiction["name"] if jurisdiction else (parent.jurisdiction_name if parent else "")
    return code, name, instrument, zones
