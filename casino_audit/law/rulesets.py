"""Rulesets: load, validate against the meta-schema (built from the check kinds' parameter schemas), extend.

A ruleset problem is reported with file:line:column before any document is checked. `extends` reaches only a
built-in ruleset or a file in the extending ruleset's own directory, at most MAX_EXTENDS deep; what is wrong
in a file reached that way is located, never quoted (it may be a key file, not a ruleset). Rulesets are
cached by resolved path and the sha256 of their bytes: twenty house rulesets extending one large ruleset
read it once. A cached Ruleset is shared: treat it as read-only.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from casino_audit.law import checks
from casino_audit.law.checks import replay as replay_check
from casino_audit.law.checks.metaschema import ruleset_schema
from casino_audit.law.checks.renamed import old_words
from casino_audit.core.findings import RULESET_INVALID, TOOL_PREFIXES, Citation, Finding, Severity
from casino_audit.documents.kinds import KINDS
from casino_audit.read.loader import Document, load_bytes, read_file
from casino_audit.core.pointers import child
from casino_audit.documents.shape import ShapeValidator
from casino_audit.core.values import show, to_decimal
from casino_audit.law.scopes import DOCUMENT

MAX_EXTENDS = 20  # rulesets in one `extends` chain, the first included
_CACHED = 64  # rulesets (and parsed files) kept


def problem(file: str | None, line: int | None, column: int | None, message: str) -> Finding:
    """A ruleset problem is a finding like any other (printed as 'file:line:col: message')."""
    return Finding(RULESET_INVALID, Severity.ERROR, message, file, line, column)


class RulesetError(Exception):
    """A ruleset that cannot be used; `problems` are findings (RULESET-INVALID) at their file:line:column."""

    def __init__(self, problems: list):
        self.problems = [p if isinstance(p, Finding) else problem(None, None, None, str(p)) for p in problems]
        super().__init__("\n".join(map(str, self.problems)))


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    description: str
    citation: Citation
    one_of: tuple[str, ...] | None = None  # a string parameter's only values (a mistyped one is refused)

    def parse(self, raw: Any) -> Any:
        if self.type == "string":
            value = str(raw)
            if self.one_of is not None and value not in self.one_of:
                raise ValueError(f"parameter {self.name} takes {' or '.join(self.one_of)}, not {raw!r}")
            return value
        number = to_decimal(raw if not isinstance(raw, str) else raw.strip())
        if number is None or (self.type == "integer" and number != number.to_integral_value()):
            raise ValueError(f"parameter {self.name} takes {'a whole number' if self.type == 'integer' else 'a number'}, "
                             f"not {raw!r}")
        return int(number) if self.type == "integer" else number


@dataclass
class Rule:
    id: str
    title: str
    severity: Severity
    kind: str
    games: tuple[str, ...]
    check: dict
    when: tuple[dict, ...]
    citation: Citation
    rationale: str
    jurisdiction: str
    source: str  # file:line where the rule is defined
    params: tuple[str, ...] = ()
    scope: str = DOCUMENT  # document | record | dossier (casino_audit.law.scopes)

    def compile(self, values: dict[str, Any]) -> Callable[[Any], Any]:
        spec = checks.bind_params(self.check, values)
        return checks.CHECK_KINDS[spec["kind"]].compile(spec)

    def describe(self) -> str:
        text = checks.CHECK_KINDS[self.check["kind"]].describe(self.check)
        if self.when:
            text += " — when " + " and ".join(checks.describe_condition(c) for c in self.when)
        return text


@dataclass
class Ruleset:
    name: str
    code: str
    jurisdiction_name: str
    instrument: dict
    params: dict[str, Param]
    rules: list[Rule]
    source: str
    instruments: dict = field(default_factory=dict)  # every instrument a citation may name, by key
    not_encoded: list = field(default_factory=list)  # provisions left out on purpose: {article, subject, reason}
    chain: tuple[str, ...] = field(default_factory=tuple)  # names from this one up to the root
    path: str = ""  # the file this ruleset was read from, as it was named
    digest: str = ""  # sha256 (hex) of that file's bytes; "" when it could not be read again
    parent: "Ruleset | None" = None  # the ruleset it extends
    # Each rule of the parent chain that this file replaced by id: (the rule it replaced, the new rule).
    replaced: list[tuple[Rule, Rule]] = field(default_factory=list)
    play: dict[str, "Play"] = field(default_factory=dict)  # the rules of play by game, for the game engines
    # The IANA time zones the jurisdiction's tables keep, the first the default: a game log's naive local times
    # are read in its table's zone (its header's `timezone`, one of these).
    time_zones: tuple[str, ...] = ()


@dataclass(frozen=True)
class Play:
    """A game's rules of play as the law states them (a drawing table, what a zero does), for the engines of
    casino_audit/games/, with the citation they rest on."""

    game: str
    citation: Citation
    data: dict
    # the instruments of the ruleset that gave this play: what its provisions (the citations in `data`) name
    instruments: dict = field(default_factory=dict, compare=False)

    def provisions(self) -> list[tuple[str, Citation]]:
        """(where in the play data, its Citation) of every provision the rules of play quote, in order."""
        return [(pointer, provision_citation(raw, self.instruments)) for pointer, raw in provisions_in(self.data)]


def provisions_in(data: Any, pointer: str = "") -> list[tuple[str, dict]]:
    """(JSON pointer, mapping) of every citation in a game's play data: a mapping with `article` and `text` (the
    stud rules' words-only citations, a bare string, are no provision a finding can cite)."""
    found = []
    if isinstance(data, dict):
        if "article" in data and "text" in data:
            return [(pointer, data)]
        for key, value in data.items():
            found += provisions_in(value, child(pointer, str(key)))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += provisions_in(value, f"{pointer}/{index}")
    return found


def params_named(data: Any, pointer: str = "") -> list[tuple[str, str]]:
    """(JSON pointer, name) of each parameter a game's play data leave a value to: `{param: NAME}`, and the names
    a `payout_params:` mapping gives."""
    found = []
    if isinstance(data, dict):
        if set(data) == {"param"} and isinstance(data["param"], str):
            return [(pointer + "/param", data["param"])]
        for key, value in data.items():
            if key == "payout_params" and isinstance(value, dict):
                found += [(child(child(pointer, key), str(k)), v) for k, v in value.items() if isinstance(v, str)]
                continue
            found += params_named(value, child(pointer, str(key)))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += params_named(value, f"{pointer}/{index}")
    return found


def provision_citation(raw: Any, instruments: dict) -> Citation | None:
    """A provision of the rules of play ({article, text[, instrument]}) as a finding cites it; None if it is none
    (the ruleset's loading refused a provision naming an instrument it does not have)."""
    if not isinstance(raw, dict) or "article" not in raw or "text" not in raw:
        return None
    instrument = instruments.get(raw.get("instrument", ""))
    if instrument is None:
        return None
    return Citation(instrument.get("short") or instrument["title"], raw["article"], raw["text"],
                    instrument.get("language", ""))


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
        raise RulesetError([_at(document, "", "not a ruleset: a ruleset is a mapping with `ruleset:` and "
                                              "`rules:` (casino-audit schema ruleset)")])
    # A word of the earlier vocabulary is named with its replacement, not as an unknown field.
    problems = [_at(document, pointer, message) for pointer, message in old_words(data)]
    problems = problems or [_at(document, pointer, message) for _, pointer, message in _meta_validator().errors(data)]
    if problems:
        raise RulesetError(problems)
    parent = None
    if "extends" in data:
        if len(seen) >= MAX_EXTENDS:
            raise _ChainError([_at(document, "/extends", f"`extends` chains more than {MAX_EXTENDS} rulesets; "
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
            raise RulesetError([_at(document, "/extends", f"`extends: {show(target)[1:-1]}` names no built-in "
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
            raise RulesetError([_at(document, "/extends", f"`extends: {show(target)[1:-1]}` is outside this "
                                                         "ruleset's directory: extend a built-in ruleset "
                                                         f"({', '.join(names)}) or a file beside this one")])
        if not candidate.is_file():
            raise RulesetError([_at(document, "/extends", f"`extends: {show(target)[1:-1]}` names no built-in "
                                                         f"ruleset ({', '.join(names)}) and no file")])
    try:
        return load_ruleset(candidate, seen)
    except _ChainError:
        raise
    except RulesetError as error:  # located, not quoted: the file may be anything
        first = error.problems[0] if error.problems else None
        where = f" (first problem at {first.file}:{first.line}:{first.column})" if first and first.line else ""
        raise RulesetError([_at(document, "/extends", f"`extends: {show(target)[1:-1]}` is not a valid ruleset: "
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


def _at(document: Document, pointer: str, message: str) -> Finding:
    line, column = document.position(pointer) or (1, 1)
    return problem(document.file, line, column, message)


def _build(document: Document, data: dict, parent: Ruleset | None, path: Path, digest: str) -> Ruleset:
    problems: list[str] = []
    if data["ruleset"] in builtin_names() and not is_builtin_file(path, data["ruleset"], digest):
        problems.append(_at(document, "/ruleset", f"{data['ruleset']} is the name of a built-in ruleset; a "
                                                  "ruleset of your own takes a name of its own"))
    jurisdiction = data.get("jurisdiction")
    if jurisdiction is None and parent is None:
        problems.append(_at(document, "", "a ruleset that extends none must name its `jurisdiction`"))
    if jurisdiction is not None and parent is not None and jurisdiction["code"] != parent.code:
        problems.append(_at(document, "/jurisdiction/code", f"extends a {parent.code} ruleset but says {jurisdiction['code']}"))
    instrument = data.get("instrument") or (parent.instrument if parent else None)
    if instrument is None:
        problems.append(_at(document, "", "a ruleset that extends none must name its `instrument`"))
    code = jurisdiction["code"] if jurisdiction else (parent.code if parent else "??")
    zones = tuple((jurisdiction or {}).get("time_zones") or (parent.time_zones if parent else ()))
    for position, zone in enumerate(zones):
        if not known_zone(zone):
            problems.append(_at(document, f"/jurisdiction/time_zones/{position}", f"{zone!r} is no IANA time zone "
                                                                               "this machine's zone database holds"))
        elif parent is not None and parent.time_zones and zone not in parent.time_zones:
            # a zone moves a log's days and clock changes: a house may say which of the law's tables it has, and
            # never read a log in a zone the law has no table in
            problems.append(_at(document, f"/jurisdiction/time_zones/{position}",
                                f"{zone!r} is not the zone of a table in {parent.code} ({', '.join(parent.time_zones)}): "
                                f"a ruleset that extends {parent.name} may narrow its zones, never add one"))
    name = jurisdiction["name"] if jurisdiction else (parent.jurisdiction_name if parent else "")
    instruments = dict(parent.instruments) if parent else {}
    if parent is not None:
        instruments[parent.name] = parent.instrument  # a house rule may cite the law it tightens
    instruments.update(data.get("instruments", {}))
    if instrument:
        instruments[""] = instrument

    params = dict(parent.params) if parent else {}
    for param_name, spec in data.get("params", {}).items():
        law = parent.params.get(param_name) if parent else None
        if law is not None and (spec["type"] != law.type or (law.one_of is not None and not (
                "one_of" in spec and set(map(str, spec["one_of"])) <= set(map(str, law.one_of))))):
            # a house narrows a parameter of the law, never widens it: a value the law's engines cannot read
            # would turn its rules off as "not checked"
            problems.append(_at(document, child("/params", param_name),
                                f"parameter {param_name} is declared by {parent.name} ({law.type}"
                                f"{', one of ' + ', '.join(law.one_of) if law.one_of else ''}): a ruleset that "
                                "extends it may narrow it (the same type, some of its values), never widen it"))
            continue
        params[param_name] = Param(param_name, spec["type"], spec["description"],
                                   _citation(spec["citation"], instruments, document, child("/params", param_name),
                                             problems), tuple(spec["one_of"]) if "one_of" in spec else None)

    rules = list(parent.rules) if parent else []
    inherited, replaced = len(rules), []
    index = {rule.id: position for position, rule in enumerate(rules)}
    seen_here: set[str] = set()
    mine: list[tuple[str, Rule]] = []
    for position, raw in enumerate(data["rules"]):
        pointer = f"/rules/{position}"
        rule = _rule(raw, pointer, document, code, instruments, params, problems)
        if rule is None:
            continue
        if rule.id.split("-", 1)[0] in TOOL_PREFIXES:  # --select/--ignore and the verdict treat those apart
            problems.append(_at(document, pointer + "/id", f"rule id {rule.id} takes a prefix of the tool's own "
                                                          f"findings ({', '.join(sorted(TOOL_PREFIXES))})"))
        if rule.id in seen_here:
            problems.append(_at(document, pointer + "/id", f"rule id {rule.id} is defined twice in this ruleset"))
        seen_here.add(rule.id)
        mine.append((pointer, rule))
        if rule.id in index:  # a ruleset that extends another may replace one of its rules (to tighten it)
            if index[rule.id] < inherited:
                replaced.append((rules[index[rule.id]], rule))
            rules[index[rule.id]] = rule
        else:
            index[rule.id] = len(rules)
            rules.append(rule)
    by_id = {rule.id: rule for rule in rules}
    for pointer, rule in mine:
        if (problem := checks.reporter_problem(rule.check, by_id)) is not None:
            problems.append(_at(document, pointer + "/check/missing", problem))
    if problems:
        raise RulesetError(problems)
    play = dict(parent.play) if parent else {}
    for game, raw in data.get("play", {}).items():
        if game not in KINDS["table"].games():
            problems.append(_at(document, child("/play", game), f"unknown game {game!r}; known: "
                                                               f"{', '.join(KINDS['table'].games())}"))
            continue
        play[game] = Play(game, _citation(raw["citation"], instruments, document, child("/play", game) + "/citation",
                                          problems), _play_data(raw), dict(instruments))
        provided = {key: value for key, value in raw.items() if key != "citation"}  # that one is read above
        for pointer, named in params_named(provided, child("/play", game)):  # a value no run could give
            if named not in params:
                problems.append(_at(document, pointer, f"the rules of play wait for parameter {named!r}, which "
                                                       "`params` does not declare: no run can give it"))
        for pointer, provision in provisions_in(provided, child("/play", game)):  # each names an instrument it has
            _citation(provision, instruments, document, pointer, problems)
        drawing = play[game].data.get("drawing")
        # The engines read a missing row as an error; the log replay would skip the banker's draw on that total
        # in silence: a table must say what the banker does on every total that is not a natural.
        missing = [total for total in range(10) if drawing and total not in drawing["naturals"]
                   and total not in drawing["banker"]]
        if missing:
            problems.append(_at(document, child("/play", game) + "/drawing/banker",
                                f"the drawing table gives no row for a banker total of "
                                f"{', '.join(map(str, missing))}: every total that is not a natural needs one"))
    if problems:
        raise RulesetError(problems)
    chain = (data["ruleset"],) + (parent.chain if parent else ())
    not_encoded = (parent.not_encoded if parent else []) + list(data.get("not_encoded", []))
    ruleset = Ruleset(data["ruleset"], code, name, instrument, params, rules, document.file, instruments,
                      not_encoded, chain, str(path), digest, parent, replaced, play, zones)
    if parent is not None:  # a shipped ruleset's gaps are the law's silence, said in every log it replays
        own = {rule.id: pointer for pointer, rule in mine}
        problems.extend(_unrunnable(ruleset, own, set(data.get("play", {})), document))
        if problems:
            raise RulesetError(problems)
    return ruleset


def known_zone(name: object) -> bool:
    """Whether `name` is an IANA time zone the zone database holds (Europe/Luxembourg), never a path."""
    from zoneinfo import ZoneInfo

    if not isinstance(name, str) or not name or name != name.strip():
        return False
    try:
        ZoneInfo(name)
    except (ValueError, OSError, LookupError):  # ZoneInfoNotFoundError is a KeyError
        return False
    return True


# The rules of play's mappings keyed by a number (a banker's total, a point): YAML keys are read as written, as
# text, and the engines look them up by number; each is made a mapping of ints here, in one place, so that no
# engine meets "5" where it asks for 5 (PT n.º 20 b)'s half-on-five deduction was never applied that way). The
# meta-schema holds these keys to digits. (A burn's `values` are keyed by rank, "2" to "9" among A T J Q K: text.)
NUMBER_KEYED = frozenset({"deduction_by_banker_total", "by_point"})
NUMBER_KEYED_UNDER = {"drawing": frozenset({"banker"})}  # keyed by number where they are under this key


# What a log or its table configuration can still bring to a replay: an aspect that waits for one of these is
# runnable; one that stays unavailable with all of them given can never run on the ruleset's play data. Each is
# the families' own wording, with spaces or backticks no name in the play data can spell (a parameter or chance
# is one lower-case word: a house parameter named `ruleset` or `punto_banco` once made "the ruleset states no
# chances for punto_banco" read as waiting for the run).
_SUPPLIED_LATER = ("table configuration", "`table_config`", "`limits`", "`decks`", "minimum is not known",
                   "number of decks")
# Where a reason names the parameter it waits for: "--param NAME", "(parameter NAME)", "the parameter NAME",
# "no value for NAME, NAME", "give NAME, NAME". It waits for the run only if NAME is a parameter the ruleset
# declares (one it does not can never be given: PT declares no roulette_zero_rule) and the probe could not value.
_PARAM_NAMED = re.compile(r"(?:--param |\bparameter |\bno value for |\bgive )((?:[a-z][a-z0-9_]*(?:, | and )?)+)")


def _waits_for_run(reason: str, unvalued: set[str]) -> bool:
    if any(phrase in reason for phrase in _SUPPLIED_LATER):
        return True
    named = {name for found in _PARAM_NAMED.findall(reason) for name in re.split(r", | and ", found) if name}
    return bool(named & unvalued)


def _unrunnable(ruleset: Ruleset, own: dict[str, str], own_play: set[str], document: Document) -> list[Finding]:
    """A house ruleset's replay rules whose aspect its rules of play can never run: its own rules, and every
    rule of a game whose `play:` it gives (its play data replace the game's whole entry, so a `drawing` given
    without the `bets` leaves the drawing, and every other aspect, not checked in any log: a breach passed as
    "not checked"). Which aspects need which play data is the families' own `prepare`: it is run on the most a
    log and the run can bring (the law's decks or six, limits, every parameter the ruleset lists values for),
    and an aspect it still leaves unavailable, for a reason no log or parameter can remove, is refused."""
    found = []
    probed: dict[str, dict[str, str]] = {}
    for rule in ruleset.rules:
        if rule.kind != "game-log" or rule.check.get("kind") != "replay":
            continue
        aspect = rule.check.get("verify")
        for game in rule.games or ():
            if rule.id not in own and game not in own_play:
                continue
            if game not in probed:
                probed[game] = _never_runs(ruleset, game)
            why = probed[game].get(aspect)
            if why is None:
                continue
            pointer = own.get(rule.id) or child("/play", game)
            found.append(_at(document, pointer, f"{rule.id} replays the {aspect} of {game} logs, which this "
                                                f"ruleset's rules of play can never run: {why}; give the play data "
                                                f"it needs under `play: {game}:` (a game's entry replaces the whole "
                                                "of the ruleset it extends)"))
    return found


def _never_runs(ruleset: Ruleset, game: str) -> dict[str, str]:
    """aspect -> why, for the aspects of `game`'s replay that stay unavailable on the ruleset's play data with
    everything a log and the run could give; {} where it cannot be told (the probe's values unreadable)."""
    from casino_audit.law.schedules import law_schedule
    from casino_audit.logs.terms import terms_for
    from casino_audit.replay import Unavailable, families

    module = families.for_game(game)
    if module is None:
        return {}
    values = {}
    for name, param in ruleset.params.items():
        try:
            if param.one_of:
                values[name] = param.parse(param.one_of[0])
            elif param.type in ("number", "integer"):
                values[name] = param.parse("1")
        except ValueError:
            continue
    unvalued = set(ruleset.params) - set(values)
    decks = (law_schedule(ruleset, game, "/cards") or {}).get("decks")
    header = {"limits": {"minimum": 10, "maximum": 100}, "decks": decks if isinstance(decks, int) else 6}
    try:
        module.prepare(game, terms_for(header, ruleset, game, values, "", []))
    except Unavailable as unavailable:
        if unavailable.unreadable:
            # the play data themselves unreadable (a stud `raise_times_ante: zzz`) can never run, and every log
            # would say so; where the reason names a parameter, the probe's own value may be what failed: untold
            unreadable = [aspect for aspect in unavailable.aspects if unavailable.unreadable_for(aspect)]
            if any(unavailable.reason(aspect) and any(name in unavailable.reason(aspect) for name in ruleset.params)
                   for aspect in unreadable):
                return {}
            return {aspect: unavailable.reason(aspect) for aspect in unreadable}
        return {aspect: unavailable.reason(aspect) for aspect in unavailable.aspects
                if not _waits_for_run(unavailable.reason(aspect), unvalued)}
    except Exception:  # noqa: BLE001 - the probe's own values: what cannot be told is never refused
        return {}
    return {}


def _play_data(raw: dict) -> dict:
    """The engines' data, every mapping keyed by a number (NUMBER_KEYED) keyed by ints."""
    return {key: _numbers_keyed(value, key in NUMBER_KEYED, NUMBER_KEYED_UNDER.get(key, frozenset()))
            for key, value in raw.items() if key != "citation"}


def _numbers_keyed(value, keyed: bool, under: frozenset = frozenset()):
    if isinstance(value, dict):
        if keyed:
            return {int(key) if isinstance(key, str) and key.strip().isdigit() and key.isascii() else key: item
                    for key, item in value.items()}
        return {key: _numbers_keyed(item, key in NUMBER_KEYED or key in under, NUMBER_KEYED_UNDER.get(key, frozenset()))
                for key, item in value.items()}
    if isinstance(value, list):
        return [_numbers_keyed(item, False) for item in value]
    return value


def _citation(raw: dict, instruments: dict, document: Document, pointer: str, problems: list[str]) -> Citation:
    key = raw.get("instrument", "")
    if key not in instruments:
        problems.append(_at(document, pointer + "/instrument", f"citation names instrument {key!r}, which "
                                                               "neither `instrument` nor `instruments` defines"))
        return Citation(key, raw["article"], raw["text"], "")
    return provision_citation(raw, instruments)


def _rule(raw: dict, pointer: str, document: Document, code: str, instruments: dict,
          params: dict[str, Param], problems: list[str]) -> Rule | None:
    before = len(problems)
    kind = raw["applies_to"]["kind"]
    if kind not in KINDS:
        problems.append(_at(document, pointer + "/applies_to/kind",
                            f"unknown document kind {kind!r}; known: {', '.join(KINDS)}"))
    games = raw["applies_to"].get("game", ())
    games = (games,) if isinstance(games, str) else tuple(games)
    if kind in KINDS:
        known_games = KINDS[kind].games()
        for game in games:
            if game not in known_games:
                problems.append(_at(document, pointer + "/applies_to/game",
                                    f"unknown game {game!r} for kind {kind}; known: {', '.join(known_games) or 'none'}"))
    check = raw["check"]
    scope = raw.get("scope", DOCUMENT)
    if check["kind"] in checks.CHECK_KINDS and scope not in checks.CHECK_KINDS[check["kind"]].scopes:
        can = " or ".join(checks.CHECK_KINDS[check["kind"]].scopes)
        problems.append(_at(document, pointer + "/scope", f"`{check['kind']}` checks at the {can} scope, not the "
                                                          f"{scope} scope (say `scope: {can}`)"))
    if scope != DOCUMENT and raw.get("when"):
        problems.append(_at(document, pointer + "/when", f"`when:` reads one document; a {scope} rule applies to "
                                                         "every record of its games (narrow it with `applies_to`)"))
    if check["kind"] == "replay":
        why = replay_check.problem(check, games) if kind in KINDS and KINDS[kind].stream else \
            f"`replay` rules read game logs: `applies_to: {{kind: {', '.join(k for k in KINDS if KINDS[k].stream)}}}`"
        if why:
            problems.append(_at(document, pointer + "/check/verify", why))
    if check["kind"] == "meters" and kind != "meter-log":
        problems.append(_at(document, pointer + "/applies_to/kind", "`meters` rules read meter logs: "
                                                                    "`applies_to: {kind: meter-log}`"))
    needed = tuple(dict.fromkeys(checks.param_names(check)))
    for name in needed:
        if name not in params:
            problems.append(_at(document, pointer + "/check", f"the check uses parameter {name!r}, which `params` "
                                                              "does not declare"))
    citation = _citation(raw["citation"], instruments, document, pointer + "/citation", problems)
    if len(problems) > before:
        return None
    line, _ = document.position(pointer) or (1, 1)
    return Rule(raw["id"], raw["title"], Severity.parse(raw["severity"]), kind, games, check,
                tuple(raw.get("when", ())), citation, raw["rationale"].strip(), code,
                f"{document.file}:{line}", needed, scope)

