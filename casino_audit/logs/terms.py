"""What a log is replayed under (`Terms`): the table configuration its header names, the header's own
limits, and what the law holds them to (the decks, the commission, the least minimum, the payouts it fixes).
"""

from __future__ import annotations

import os
from decimal import Decimal
from typing import Callable, Mapping

from casino_audit.core import findings as F
from casino_audit.core.display import brief
from casino_audit.core.findings import Severity
from casino_audit.core.values import show, to_decimal
from casino_audit.documents.kinds import misshapen
from casino_audit.games.dice import payout_value
from casino_audit.law.checks import CHECK_KINDS, compile_condition, param_names
from casino_audit.law.checks.common import NotChecked
from casino_audit.law.model import Rule, Ruleset
from casino_audit.law.schedules import law_schedule
from casino_audit.read.loader import NotOneDocument, load_single_document, named_file
from casino_audit.replay import Terms, cents, families, money
from casino_audit.logs.names import _same_name


def terms_for(header: Mapping, ruleset: Ruleset, game: str, params: Mapping, log_path: str,
              problems: list[tuple], currency: str | None = None) -> Terms:
    """What the coups are replayed under. A table configuration the header names gives the payouts, decks and
    limits; what it cannot give comes from the header, then from the law's schedule. Problems with the named
    configuration are (pointer, message) in `problems`, never a silent fallback. A log whose amounts are in
    another `currency` than the euros a configuration's limits are in is held to its own limits alone."""
    table: Mapping = {}
    named = header.get("table_config")
    if isinstance(named, str):
        table = _table_config(log_path, named, header, game, problems)
    if currency is not None and isinstance(table.get("stakes"), Mapping) and table["stakes"]:
        problems.append(("/currency", f"the log's amounts are in {currency}, the limits of the table configuration "
                                      "it names in euros (`stakes`): its coups are held to the log's own `limits` "
                                      "alone", F.LOG_CURRENCY, None, Severity.WARNING))
        table = {key: value for key, value in table.items() if key != "stakes"}
    stakes = table.get("stakes") if isinstance(table.get("stakes"), Mapping) else {}
    own = header.get("limits") if isinstance(header.get("limits"), Mapping) else {}
    # the table's limits, each the header's where the table gives none (a table without its maximum held the
    # coups to none, the header's maximum set aside)
    limits = {key: stakes.get(f"{key}_eur") if stakes.get(f"{key}_eur") not in (None, {}) else own.get(key)
              for key in ("minimum", "maximum", "maxima", "minima")}
    limits["maxima"], limits["minima"] = limits["maxima"] or {}, limits["minima"] or {}
    floor = law_minimum(ruleset, game, params)
    if floor is not None:  # the least minimum the law allows the table: a stake under it is under any minimum
        limits["law_minimum"] = floor
    for key in ("minimum", "maximum"):  # two limits for one: the configuration's is taken, and that is said
        theirs, ours = money(stakes.get(f"{key}_eur")), money(own.get(key))
        if theirs is not None and ours is not None and theirs != ours:
            problems.append((f"/limits/{key}", f"the header's {key} {cents(ours)} is not the table configuration's "
                                               f"{cents(theirs)}: the coups are held to the configuration's",
                             F.LOAD_AMBIGUOUS))
    decks = _held_decks(ruleset, game, table, header, problems)
    table = _held_commission(ruleset, game, table, problems)
    play = ruleset.play.get(game)
    law = law_schedule(ruleset, game, "/payouts")
    payouts = table.get("payouts") or law
    if table.get("payouts") and law and isinstance(payouts, Mapping):
        # every family: a payout the law fixes is the law's, whatever the table says (LU stud's deux paires 1:1)
        payouts = _law_fixed(payouts, law, getattr(families.for_game(game), "payout_aliases", None), problems,
                             _law_closed(ruleset, game))
    return Terms(play=play.data if play else None,
                 payouts=payouts,
                 decks=decks,
                 # a parameter another jurisdiction declares is not this ruleset's (LU's roulette_zero_rule
                 # given in a run never settles a PT roulette's zero)
                 limits=limits, params={k: v for k, v in params.items() if k in ruleset.params},
                 declared=frozenset(ruleset.params), table=table,
                 continues=_continues(header, problems),
                 table_path=os.path.join(os.path.dirname(log_path), named) if table and isinstance(named, str)
                 else None)


def _held_commission(ruleset: Ruleset, game: str, table: Mapping, problems: list) -> Mapping:
    """The table configuration with its `commission` as the law allows it: a commission the game's table rules on
    `/commission` refuse (PT bacará n.º 20: an option «comunicada antecipadamente à Inspecção-Geral de Jogos», not
    communicated) is its own breach, and the coups are settled without it, said."""
    if not isinstance(table.get("commission"), Mapping):
        return table
    for rule in ruleset.rules:
        check = rule.check
        if rule.kind != "table" or game not in rule.games or not str(check.get("target", "")).startswith(
                "/commission") or check.get("kind") not in CHECK_KINDS or any(param_names(check)):
            continue
        try:
            if not all(compile_condition(condition)(table) for condition in rule.when):
                continue
            broken = [v for v in CHECK_KINDS[check["kind"]].compile(check)(table) if type(v) is not NotChecked]
        except Exception:  # a configuration this rule cannot read: its own check says so
            continue
        if broken:
            problems.append(("/table_config", f"the commission of the table configuration it names is not one the "
                                              f"law allows ({rule.id}, {rule.citation.article}: {broken[0][1]}): the "
                                              "coups are settled without it", F.LOAD_AMBIGUOUS, None,
                             Severity.WARNING))
            return {**table, "commission": {"mode": "none"}}
    return table


def _continues(header: Mapping, problems: list) -> bool:
    """Whether the log's first coup continues a shoe another log began (`shoe_continues: true`): only a log that
    continues another (`first_coup` over 1) can; a log of coup 1 saying so is held to its shoe's start burn, said."""
    if header.get("shoe_continues") is not True:
        return False
    first = header.get("first_coup")
    if type(first) is int and first > 1:
        return True
    problems.append(("/shoe_continues", "`shoe_continues: true` says the log's first coup continues a shoe another "
                                        "log began, but the log starts at coup 1 (no `first_coup` over 1): its "
                                        "first shoe starts here, and is held to its burn", F.LOAD_AMBIGUOUS))
    return False


def law_minimum(ruleset: Ruleset, game: str, params: Mapping) -> Decimal | None:
    """The least minimum stake the law allows the game's tables, where it fixes one (a table rule holding
    `/stakes/minimum_eur` to a `min`, a number or a parameter given: LU roulette's ministerial order, punto
    banco's floor ...): the highest of them. None where the law fixes none, or its parameter is not given."""
    found = None
    for rule in ruleset.rules:
        check = rule.check
        if rule.kind != "table" or game not in rule.games or rule.when or check.get("kind") != "value" \
                or check.get("target") != "/stakes/minimum_eur" or "min" not in check:
            continue
        bound = check["min"]
        if isinstance(bound, Mapping):
            if set(bound) != {"param"} or bound["param"] not in params:
                continue
            bound = params[bound["param"]]
        value = to_decimal(str(bound) if isinstance(bound, float) else bound)
        if value is not None and value > 0 and (found is None or value > found):
            found = value
    return found


def _is_count(value) -> bool:
    return type(value) is int and value > 0


def law_decks(ruleset: Ruleset, game: str, table: Mapping | None = None) -> tuple[frozenset, list[Rule]]:
    """The deck counts the law allows a game's shoe, and the table rules that say so (LU Art. 37-4: six; PT
    blackjack n.º 3: four or six; PT bacará n.º 1: six, or eight at a double table ...): each table rule on
    `/cards/decks` (a value's `equals`/`one_of`, a `/cards` schedule's `decks`) whose `when:` holds for the table
    configuration (or, with none, for a table that says nothing: every reading the law allows). Empty where the
    law fixes no count (LU blackjack)."""
    document = table if isinstance(table, Mapping) and table else {"kind": "table", "game": game}
    counts: set = set()
    rules: list[Rule] = []
    for rule in ruleset.rules:
        check = rule.check
        if rule.kind != "table" or game not in rule.games:
            continue
        if check.get("target") == "/cards/decks" and check.get("kind") == "value":
            given = [check["equals"]] if "equals" in check else list(check.get("one_of") or ())
        elif check.get("target") == "/cards" and check.get("kind") == "schedule" and \
                isinstance(check.get("equals"), Mapping) and "decks" in check["equals"]:
            given = [check["equals"]["decks"]]
        else:
            continue
        given = [value for value in given if _is_count(value)]
        try:
            holds = all(compile_condition(condition)(document) for condition in rule.when)
        except Exception:  # a condition this document cannot be read by: the rule's count is taken all the same
            holds = True
        if given and holds:
            counts.update(given)
            rules.append(rule)
    return frozenset(counts), rules


def _held_decks(ruleset: Ruleset, game: str, table: Mapping, header: Mapping, problems: list) -> int | None:
    """The decks the shoe's cards are counted against: the table configuration's `cards/decks`, else the header's
    `decks`, held to the law first (`law_decks`). A count the law does not allow is an error of its deck rule at
    the place declaring it, and the cards are counted against the most the law allows (no legal shoe is then
    flagged), said; none declared, against the law's one count, or the most of several, said."""
    cards = table.get("cards") if isinstance(table.get("cards"), Mapping) else {}
    declared, where = (cards.get("decks"), "/table_config") if cards.get("decks") is not None else \
        (header.get("decks"), "/decks")
    if where == "/table_config" and header.get("decks") is not None and header.get("decks") != declared:
        problems.append(("/decks", f"the header's decks {brief(show(header.get('decks')))} are not the table "
                                   f"configuration's {brief(show(declared))}: the shoe's cards are counted against "
                                   "the configuration's", F.LOAD_AMBIGUOUS))
    legal, rules = law_decks(ruleset, game, table)
    if not legal:
        return declared if _is_count(declared) else None
    allowed = " or ".join(str(n) for n in sorted(legal))
    most = max(legal)
    if declared is None:
        if len(legal) > 1:
            problems.append(("/decks" if not cards else "/table_config",
                             f"no number of decks is declared (the table configuration's `cards/decks` or the "
                             f"header's `decks`); the law allows {allowed}: the shoe's cards are counted against "
                             f"{most}, and a card seen more often than a smaller shoe holds it passes",
                             F.LOAD_AMBIGUOUS, None, Severity.INFO))
        return most
    if _is_count(declared) and declared in legal:
        return declared
    said = "the table configuration it names declares" if where == "/table_config" else "the header declares"
    for rule in rules[:1] if len(rules) == 1 else [r for r in rules if declared not in _rule_counts(r)][:1]:
        problems.append((where, f"{said} {brief(show(declared))} deck(s); the law allows {allowed}: the shoe's "
                                f"cards are counted against {most}", rule.id, rule))
    return most


def _rule_counts(rule: Rule) -> frozenset:
    check = rule.check
    if check.get("kind") == "schedule":
        return frozenset([check["equals"]["decks"]])
    return frozenset([check["equals"]] if "equals" in check else check.get("one_of") or ())


def _law_closed(ruleset: Ruleset, game: str) -> frozenset[str] | None:
    """The only payout names the law allows at the game, where a `closed` schedule lists them (LU Art. 37-7 «Les
    joueurs ne peuvent faire usage que des combinaisons suivantes»): its entries and `also_allowed`; else None."""
    found: set[str] | None = None
    for rule in ruleset.rules:
        check = rule.check
        if game in rule.games and check.get("kind") == "schedule" and check.get("target") == "/payouts" \
                and check.get("closed") and not check.get("per"):
            found = (found or set()) | set(check.get("equals") or check.get("max") or ()) \
                | set(check.get("also_allowed") or ())
    return frozenset(found) if found is not None else None


def _law_fixed(table: Mapping, law: Mapping, aliases: Callable[[str], tuple] | None = None,
               problems: list | None = None, closed: frozenset[str] | None = None) -> dict:
    """The table's schedule with every payout the law fixes (a closed `equals` schedule: LU Art. 37-2, 37-4, 37-7;
    PT n.º 27, 13 ...) at the law's value, and any it leaves out added: a coup is settled as the law pays, whatever
    the configuration says (the configuration's own breach is its rule's, LU-STUD-PAYOUTS and the like: the
    configuration is checked with the log). A payout the law does not fix (a side bet the concessionaire's
    schedule sets, a place bet the source leaves out) is the table's, unless the law's schedule is `closed` and
    does not list it: then it is left out (a bet on it is no chance of the game). Each payout set aside is said in
    `problems`."""
    def exact(value):
        try:
            return payout_value(str(value) if isinstance(value, float) else value)
        except (TypeError, ValueError, ArithmeticError):
            return value

    merged = dict(table)
    differ = []
    if closed is not None:
        allowed = {name for key in closed for name in (key, *((aliases(key) or ()) if aliases is not None else ()))}
        dropped = [key for key in merged if key not in allowed]
        for key in dropped:
            del merged[key]
        if dropped and problems is not None:
            problems.append(("/table_config", f"the table configuration it names pays {', '.join(map(str, dropped))}, "
                                              "which the law's closed schedule does not list: left out of the "
                                              "schedule the coups are settled by (the configuration's own breach "
                                              "is reported with it)", F.LOAD_AMBIGUOUS, None, Severity.WARNING))
    for key, value in law.items():
        names = [name for name in (aliases(key) if aliases is not None else ()) or (key,) if name in merged]
        for name in names:  # a schedule may name it otherwise
            if exact(merged[name]) != exact(value):
                differ.append(f"{brief(show(name))} {show(merged[name])} (the law: {show(value)})")
                merged[name] = value
        if not names:
            merged[key] = value
    if differ and problems is not None:
        problems.append(("/table_config", f"the table configuration it names pays {', '.join(differ[:8])}"
                                          f"{f' and {len(differ) - 8} more' if len(differ) > 8 else ''}: the coups "
                                          "are settled as the law pays (the configuration's own breach is reported "
                                          "with it)", F.LOAD_AMBIGUOUS, None, Severity.WARNING))
    return merged


def _table_config(log_path: str, named: str, header: Mapping, game: str, problems: list[tuple[str, str]]) -> Mapping:
    path, outside = named_file(log_path, named, "the table configuration")
    if outside is not None:  # never opened: nothing of it is quoted
        problems.append(("/table_config", f"{outside}; the coups are replayed under the header's limits and the law's "
                                          "schedule"))
        return {}
    try:
        document = load_single_document(path, "a table configuration")
        data = document.data
    except NotOneDocument as error:
        problems.append(("/table_config", f"the table configuration it names cannot be read ({brief(error.problems[0], 200)}); "
                                          "the coups are replayed under the header's limits and the law's schedule"))
        return {}
    if not isinstance(data, dict) or data.get("kind") != "table" or data.get("game") != game:
        problems.append(("/table_config", f"the file it names is not a {game} table configuration; the coups are "
                                          "replayed under the header's limits and the law's schedule"))
        return {}
    wrong = misshapen(document, "table")
    if wrong:  # its payouts and limits are not what the table says, or not at all: never replayed under them
        more = f" and {len(wrong) - 1} more" if len(wrong) > 1 else ""
        problems.append(("/table_config", f"the table configuration it names is not well-formed ({brief(wrong[0], 300)}"
                                          f"{more}); the coups are replayed under the header's limits and the law's "
                                          "schedule"))
        return {}
    if header.get("jurisdiction") and data.get("jurisdiction") not in (None, header.get("jurisdiction")):
        problems.append(("/table_config", f"the table configuration it names is filed under "
                                          f"{show(data.get('jurisdiction'))}, the log under {show(header.get('jurisdiction'))}"))
    # another table's or casino's configuration (a legal one, say) is not this table's: said, never taken in silence
    table, filing = data.get("table"), data.get("filing")
    for what, theirs, ours in (("table", table.get("number") if isinstance(table, Mapping) else None, header.get("table")),
                               ("casino", filing.get("casino") if isinstance(filing, Mapping) else None,
                                header.get("casino"))):
        if theirs is not None and ours is not None and _same_name(str(theirs)) != _same_name(str(ours)):
            problems.append(("/table_config", f"the table configuration it names is of {what} {brief(show(theirs))}, "
                                              f"the log of {what} {brief(show(ours))}: the coups are replayed under "
                                              "another table's configuration"))
    return data
