"""The parts of a ruleset document, each read into the model (casino_audit.law.model) with its problems
located at file:line:column: its parameters, a rule, a citation, the rules of play and their data. The loader
(casino_audit.law.rulesets) joins them into a Ruleset.
"""

from __future__ import annotations

from casino_audit.core.findings import TOOL_PREFIXES, Citation, Finding, Severity
from casino_audit.core.pointers import child
from casino_audit.documents.kinds import KINDS
from casino_audit.law import checks
from casino_audit.law.checks import replay as replay_check
from casino_audit.law.citations import params_named, provision_citation, provisions_in
from casino_audit.law.model import Param, Play, Rule, Ruleset, problem
from casino_audit.law.scopes import DOCUMENT
from casino_audit.read.loader import Document


def at(document: Document, pointer: str, message: str) -> Finding:
    line, column = document.position(pointer) or (1, 1)
    return problem(document.file, line, column, message)


# The rules of play's mappings keyed by a number (a banker's total, a point): YAML keys are read as written, as
# text, and the engines look them up by number; each is made a mapping of ints here, in one place, so that no
# engine meets "5" where it asks for 5 (PT n.º 20 b)'s half-on-five deduction was never applied that way). The
# meta-schema holds these keys to digits. (A burn's `values` are keyed by rank, "2" to "9" among A T J Q K: text.)
NUMBER_KEYED = frozenset({"deduction_by_banker_total", "by_point"})
NUMBER_KEYED_UNDER = {"drawing": frozenset({"banker"})}  # keyed by number where they are under this key


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


def read_citation(raw: dict, instruments: dict, document: Document, pointer: str,
                  problems: list[Finding]) -> Citation:
    key = raw.get("instrument", "")
    if key not in instruments:
        problems.append(at(document, pointer + "/instrument", f"citation names instrument {key!r}, which "
                                                              "neither `instrument` nor `instruments` defines"))
        return Citation(key, raw["article"], raw["text"], "")
    return provision_citation(raw, instruments)


def read_rule(raw: dict, pointer: str, document: Document, code: str, instruments: dict,
              params: dict[str, Param], problems: list[Finding]) -> Rule | None:
    before = len(problems)
    kind = raw["applies_to"]["kind"]
    if kind not in KINDS:
        problems.append(at(document, pointer + "/applies_to/kind",
                           f"unknown document kind {kind!r}; known: {', '.join(KINDS)}"))
    games = raw["applies_to"].get("game", ())
    games = (games,) if isinstance(games, str) else tuple(games)
    if kind in KINDS:
        known_games = KINDS[kind].games()
        for game in games:
            if game not in known_games:
                problems.append(at(document, pointer + "/applies_to/game",
                                   f"unknown game {game!r} for kind {kind}; known: {', '.join(known_games) or 'none'}"))
    check = raw["check"]
    scope = raw.get("scope", DOCUMENT)
    if check["kind"] in checks.CHECK_KINDS and scope not in checks.CHECK_KINDS[check["kind"]].scopes:
        can = " or ".join(checks.CHECK_KINDS[check["kind"]].scopes)
        problems.append(at(document, pointer + "/scope", f"`{check['kind']}` checks at the {can} scope, not the "
                                                         f"{scope} scope (say `scope: {can}`)"))
    if scope != DOCUMENT and raw.get("when"):
        problems.append(at(document, pointer + "/when", f"`when:` reads one document; a {scope} rule applies to "
                                                        "every record of its games (narrow it with `applies_to`)"))
    if check["kind"] == "replay":
        why = replay_check.problem(check, games) if kind in KINDS and KINDS[kind].stream else \
            f"`replay` rules read game logs: `applies_to: {{kind: {', '.join(k for k in KINDS if KINDS[k].stream)}}}`"
        if why:
            problems.append(at(document, pointer + "/check/verify", why))
    if check["kind"] == "meters" and kind != "meter-log":
        problems.append(at(document, pointer + "/applies_to/kind", "`meters` rules read meter logs: "
                                                                   "`applies_to: {kind: meter-log}`"))
    needed = tuple(dict.fromkeys(checks.param_names(check)))
    for name in needed:
        if name not in params:
            problems.append(at(document, pointer + "/check", f"the check uses parameter {name!r}, which `params` "
                                                             "does not declare"))
    citation = read_citation(raw["citation"], instruments, document, pointer + "/citation", problems)
    if len(problems) > before:
        return None
    line, _ = document.position(pointer) or (1, 1)
    return Rule(raw["id"], raw["title"], Severity.parse(raw["severity"]), kind, games, check,
                tuple(raw.get("when", ())), citation, raw["rationale"].strip(), code,
                f"{document.file}:{line}", needed, scope)


def read_params(document: Document, data: dict, parent: Ruleset | None, instruments: dict,
                problems: list[Finding]) -> dict[str, Param]:
    """The parameters the ruleset declares over those of the ruleset it extends."""
    params = dict(parent.params) if parent else {}
    for param_name, spec in data.get("params", {}).items():
        law = parent.params.get(param_name) if parent else None
        if law is not None and (spec["type"] != law.type or (law.one_of is not None and not (
                "one_of" in spec and set(map(str, spec["one_of"])) <= set(map(str, law.one_of))))):
            # a house narrows a parameter of the law, never widens it: a value the law's engines cannot read
            # would turn its rules off as "not checked"
            problems.append(at(document, child("/params", param_name),
                              f"parameter {param_name} is declared by {parent.name} ({law.type}"
                              f"{', one of ' + ', '.join(law.one_of) if law.one_of else ''}): a ruleset that "
                              "extends it may narrow it (the same type, some of its values), never widen it"))
            continue
        params[param_name] = Param(param_name, spec["type"], spec["description"],
                                   read_citation(spec["citation"], instruments, document, child("/params", param_name),
                                                 problems), tuple(spec["one_of"]) if "one_of" in spec else None,
                                   spec.get("unit"))
    return params


def read_rules(document: Document, data: dict, parent: Ruleset | None, code: str, instruments: dict,
               params: dict[str, Param], problems: list[Finding]):
    """(every rule, the parent's rules this file replaced, (pointer, rule) of this file's own): a rule of the
    ruleset extended keeps its place when replaced by id."""
    rules = list(parent.rules) if parent else []
    inherited, replaced = len(rules), []
    index = {rule.id: position for position, rule in enumerate(rules)}
    seen_here: set[str] = set()
    mine: list[tuple[str, Rule]] = []
    for position, raw in enumerate(data["rules"]):
        pointer = f"/rules/{position}"
        rule = read_rule(raw, pointer, document, code, instruments, params, problems)
        if rule is None:
            continue
        if rule.id.split("-", 1)[0] in TOOL_PREFIXES:  # --select/--ignore and the verdict treat those apart
            problems.append(at(document, pointer + "/id", f"rule id {rule.id} takes a prefix of the tool's own "
                                                        f"findings ({', '.join(sorted(TOOL_PREFIXES))})"))
        if rule.id in seen_here:
            problems.append(at(document, pointer + "/id", f"rule id {rule.id} is defined twice in this ruleset"))
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
        if (unreported := checks.reporter_problem(rule.check, by_id)) is not None:
            problems.append(at(document, pointer + "/check/missing", unreported))
    return rules, replaced, mine


def read_play(document: Document, data: dict, parent: Ruleset | None, instruments: dict, params: dict[str, Param],
              problems: list[Finding]) -> dict[str, Play]:
    """The rules of play by game: each game this file gives replaces the whole entry of the ruleset extended."""
    play = dict(parent.play) if parent else {}
    for game, raw in data.get("play", {}).items():
        here = child("/play", game)
        if game not in KINDS["table"].games():
            problems.append(at(document, here, f"unknown game {game!r}; known: {', '.join(KINDS['table'].games())}"))
            continue
        play[game] = Play(game, read_citation(raw["citation"], instruments, document, here + "/citation", problems),
                          _play_data(raw), dict(instruments))
        provided = {key: value for key, value in raw.items() if key != "citation"}  # that one is read above
        for pointer, named in params_named(provided, here):  # a value no run could give
            if named not in params:
                problems.append(at(document, pointer, f"the rules of play wait for parameter {named!r}, which "
                                                     "`params` does not declare: no run can give it"))
        for pointer, provision in provisions_in(provided, here):  # each names an instrument it has
            read_citation(provision, instruments, document, pointer, problems)
        drawing = play[game].data.get("drawing")
        # The engines read a missing row as an error; the log replay would skip the banker's draw on that total
        # in silence: a table must say what the banker does on every total that is not a natural.
        missing = [total for total in range(10) if drawing and total not in drawing["naturals"]
                   and total not in drawing["banker"]]
        if missing:
            problems.append(at(document, here + "/drawing/banker",
                              f"the drawing table gives no row for a banker total of "
                              f"{', '.join(map(str, missing))}: every total that is not a natural needs one"))
    return play
