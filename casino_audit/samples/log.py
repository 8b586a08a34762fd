"""`casino-audit sample-log`: a header and the family's coups, written as JSON Lines or CSV."""

from __future__ import annotations

import csv
import itertools
import json
import random
import re
from decimal import Decimal
from typing import Iterable, TextIO

from casino_audit.games import registry
from casino_audit.replay import families
from casino_audit.logs.csv_reader import COMMON_COLUMNS, STAFF_PREFIX


class SampleError(Exception):
    pass


def family_module(game: str):
    """The sample generator of the game's family (casino_audit/samples/), or None."""
    # start-up: a family's sampler is imported when a sample of one of its games is asked for
    family = registry.family_of(game)
    if family == "baccarat":
        from casino_audit.samples import baccarat as found
    elif family == "roulette":
        from casino_audit.samples import roulette as found
    elif family == "stud":
        from casino_audit.samples import stud as found
    elif family == "blackjack":
        from casino_audit.samples import blackjack as found
    elif family == "dice":
        from casino_audit.samples import dice as found
    else:
        return None
    return found


def breach_aspect(description: str) -> str:
    """The aspect a family's breach breaks: the last word in parentheses of its description ("(deal)", a replay
    rule's `verify:`), or a tool rule's id ("(LOG-NUMBERING)")."""
    found = re.findall(r"\(([A-Za-z_-]+)\)", description)
    return found[-1] if found else ""


def _judged(ruleset, game: str, aspect: str) -> bool:
    """Whether a log of `game` is judged on `aspect` under `ruleset`: a tool rule (upper case) always is, a replay
    aspect where one of the ruleset's game-log rules for the game verifies it."""
    if not aspect or aspect.isupper() or "-" in aspect:
        return True
    return any(rule.kind == "game-log" and (not rule.games or game in rule.games) and rule.check.get("verify") == aspect
               for rule in ruleset.rules)


def header(ruleset, game: str, module, params: dict | None = None) -> dict:
    """A family's `header_limits(legal)` is given `legal(minimum, ratios)`: the first maximum, minimum times one of
    the ratios in the family's order, that the law's rules on a table's stake limits accept (`legal_maximum`)."""
    found = {"kind": "game-log", "jurisdiction": ruleset.code, "game": game, "casino": "Casino Sample",
             "table": "T1"}
    limits = getattr(module, "header_limits", None)
    if limits is not None:
        found["limits"] = limits(lambda minimum, ratios: legal_maximum(ruleset, game, params or {}, minimum, ratios))
    from casino_audit.logs.terms import law_decks
    legal, _ = law_decks(ruleset, game)
    if len(legal) > 1:  # the law allows several: the sample's shoe says which (the most)
        found["decks"] = max(legal)
    elif not legal and getattr(module, "DECKS", None):  # the law fixes none (LU blackjack): the sample's own shoe
        found["decks"] = module.DECKS
    return found


def legal_maximum(ruleset, game: str, params: dict, minimum: Decimal, ratios: Iterable) -> Decimal:
    """minimum x the first of `ratios` that the ruleset's rules on a table's stakes (its table rules on
    `/stakes`, and its game-log rules holding the maximum to a coefficient) accept for `game`: a sample's
    limits are the law's (PT blackjack at most 30 times, n.º 37; LU 50, 100 or 200 times, Art. 33(3)), never a
    number the generator guessed. The first ratio if none is accepted (the sample's check then says so)."""
    from fractions import Fraction

    from casino_audit.law.checks.common import NotChecked
    from casino_audit.law.engine import Checker

    ratios = list(ratios)
    checker = Checker({ruleset.code: ruleset}, {ruleset.code: params})
    checker._bind(ruleset.code)
    bounds = [bound for bound in checker._bound.get((ruleset.code, "table"), ())
              if bound.run is not None and (not bound.rule.games or game in bound.rule.games) and not bound.conditions
              and bound.targets and all(segments[:1] == ("stakes",) for segments, _ in bound.targets)]
    coefficients = [[Fraction(str(v)) for v in rule.check.get("one_of") or ()] for rule in ruleset.rules
                    if rule.kind == "game-log" and game in (rule.games or (game,))
                    and rule.check.get("verify") == "maximum_coefficient"]
    for ratio in ratios:
        maximum = minimum * Decimal(ratio)
        table = {"kind": "table", "jurisdiction": ruleset.code, "game": game,
                 "stakes": {"minimum_eur": minimum, "maximum_eur": maximum}}
        if any(type(found) is not NotChecked for bound in bounds for found in bound.run(table)):
            continue
        if all(not allowed or Fraction(str(ratio)) in allowed for allowed in coefficients):
            return maximum
    return minimum * Decimal(ratios[0])


def write(ruleset, game: str, count: int, seed: int, inject: Iterable[str], out: TextIO,
          output_format: str = "jsonl", params: dict | None = None, progress=None) -> None:
    """`params`: the values the law leaves out, parsed by the ruleset (the coups are dealt and settled by them).
    `progress(coups written)` is told every PROGRESS_EVERY coups, if given (a display: the log is the same)."""
    from casino_audit.logs.terms import terms_for

    module = family_module(game)
    if module is None or game not in module.GAMES:
        raise SampleError(f"no sample generator for {game} yet")
    if game not in ruleset.play and not any(rule.kind == "game-log" and game in rule.games for rule in ruleset.rules):
        raise SampleError(f"the {ruleset.code} ruleset states nothing of {game} (no rules of play, no log rule): a "
                          f"sample is dealt under a law that has the game")
    unknown = sorted(set(inject) - set(module.BREACHES))
    if unknown:
        raise SampleError(f"unknown breach {', '.join(unknown)} for {game}; known: {', '.join(module.BREACHES)}")
    for breach in sorted(inject):
        aspect = breach_aspect(module.BREACHES[breach])
        if not _judged(ruleset, game, aspect):
            raise SampleError(f"{breach}: the {ruleset.code} ruleset has no {game} log rule on {aspect}: a log with "
                              "it would be lawful there, not a breach")
    head = header(ruleset, game, module, params)
    problems: list = []
    terms = terms_for(head, ruleset, game, params or {}, "", problems)
    coups = _guarded(module.coups(game, terms, random.Random(seed), count, set(inject)))
    first = list(itertools.islice(coups, 1))  # whether the coups can be dealt is known before a line is written
    coups = itertools.chain(first, coups)
    if progress is not None:
        coups = _told(coups, progress)
    if output_format == "jsonl":
        out.write(_json(head))
        for coup in coups:
            out.write(_json(coup))
        return
    layout = getattr(families.for_game(game), "CSV_COLUMNS", None)
    if not layout:
        raise SampleError(f"{game} logs are written as JSON Lines only")
    for key, value in head.items():
        if isinstance(value, dict):  # limits: {minimum: 20} is written `# limits.minimum: 20`
            for inner, amount in value.items():
                out.write(f"# {key}.{inner}: {amount}\n")
        else:
            out.write(f"# {key}: {value}\n")
    writer = csv.writer(out, lineterminator="\n")
    columns = None
    for coup in coups:
        if columns is None:  # the staff roles are the first coup's: every coup of a family names the same ones
            columns = [*COMMON_COLUMNS, *(f"{STAFF_PREFIX}{role}" for role in coup.get("staff") or {}), *layout]
            writer.writerow(columns)
        for row in _rows(coup, layout, columns):
            writer.writerow([row.get(column, "") for column in columns])


PROGRESS_EVERY = 1000  # coups between two progress reports


def _told(coups, progress):
    for done, coup in enumerate(coups, 1):
        yield coup
        if done % PROGRESS_EVERY == 0:
            progress(done)


def _guarded(coups):
    """The family's coups; what the law leaves out and no --param gives stops the sample with its reason."""
    from casino_audit.replay import Unavailable

    try:
        yield from coups
    except Unavailable as unavailable:
        raise SampleError(f"cannot deal this game's coups: {unavailable.why}") from None
    except ValueError as refused:  # a family's refusal: a breach it cannot deal here, too few coups for it
        raise SampleError(str(refused)) from None


def _rows(coup: dict, layout: dict, columns: list[str]) -> Iterable[dict]:
    """A coup's rows, one per bet. What the CSV layout has no column for (a coup's change of limits, a staff
    role the first coup did not name) stops the sample: a CSV log never drops a field in silence."""
    base = {"coup": coup["coup"], "time": coup["time"], "session": coup["session"],
            **{f"{STAFF_PREFIX}{role}": who for role, who in (coup.get("staff") or {}).items()},
            **{f"limits_{key}": amount for key, amount in (coup.get("limits") or {}).items()}}
    fields = {field for field, _ in layout.values()}
    lost = sorted({key for key in coup if key not in fields and key not in ("coup", "time", "session", "staff",
                                                                             "bets", "limits")} |
                  {name for name in base if name.startswith("limits_") and name not in columns} |
                  {name for name in base if name.startswith(STAFF_PREFIX) and name not in columns})
    if lost:
        raise SampleError(f"coup {coup['coup']} has {', '.join(lost)}, which a CSV log of this game has no column "
                          "for: write it as JSON Lines")
    for column, (field, _) in layout.items():
        if not field.startswith("bets/") and field in coup:
            base[column] = _cell(coup[field])
    bets = coup.get("bets") or [{}]
    for bet in bets:
        row = dict(base)
        for column, (field, _) in layout.items():
            if field.startswith("bets/") and field[5:] in bet:
                row[column] = _cell(bet[field[5:]])
        yield row


def _cell(value) -> str:
    """A field as a CSV cell: a list space-separated, null (craps' point before one is set) an empty cell."""
    if value is None:
        return ""
    return " ".join(map(str, value)) if isinstance(value, list) else str(value)


def _json(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, default=lambda v: str(v) if isinstance(v, Decimal) else v) + "\n"
