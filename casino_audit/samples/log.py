"""`casino-audit sample-log`: a header and the family's coups, written as JSON Lines or CSV."""

from __future__ import annotations

import csv
import importlib
import itertools
import json
import random
from decimal import Decimal
from typing import Iterable, TextIO

from casino_audit.replay import families
from casino_audit.logs.reader import COMMON_COLUMNS, STAFF_PREFIX
from casino_audit.replay.families import FAMILY_OF


class SampleError(Exception):
    pass


def family_module(game: str):
    family = FAMILY_OF.get(game)
    try:
        return importlib.import_module(f"casino_audit.samples.{family}") if family else None
    except ModuleNotFoundError:
        return None


def header(ruleset, game: str, module) -> dict:
    found = {"kind": "game-log", "jurisdiction": ruleset.code, "game": game, "casino": "Casino Sample",
             "table": "T1"}
    limits = getattr(module, "header_limits", None)
    if limits is not None:
        found["limits"] = limits()
    from casino_audit.logs.session import law_decks
    legal, _ = law_decks(ruleset, game)
    if len(legal) > 1:  # the law allows several: the sample's shoe says which (the most)
        found["decks"] = max(legal)
    return found


def write(ruleset, game: str, count: int, seed: int, inject: Iterable[str], out: TextIO,
          output_format: str = "jsonl", params: dict | None = None) -> None:
    """`params`: the values the law leaves out, parsed by the ruleset (the coups are dealt and settled by them)."""
    from casino_audit.logs.session import terms_for

    module = family_module(game)
    if module is None or game not in module.GAMES:
        raise SampleError(f"no sample generator for {game} yet")
    if game not in ruleset.play and not any(rule.kind == "game-log" and game in rule.games for rule in ruleset.rules):
        raise SampleError(f"the {ruleset.code} ruleset states nothing of {game} (no rules of play, no log rule): a "
                          f"sample is dealt under a law that has the game")
    unknown = sorted(set(inject) - set(module.BREACHES))
    if unknown:
        raise SampleError(f"unknown breach {', '.join(unknown)} for {game}; known: {', '.join(module.BREACHES)}")
    head = header(ruleset, game, module)
    problems: list = []
    terms = terms_for(head, ruleset, game, params or {}, "", problems)
    coups = _guarded(module.coups(game, terms, random.Random(seed), count, set(inject)))
    first = list(itertools.islice(coups, 1))  # whether the coups can be dealt is known before a line is written
    coups = itertools.chain(first, coups)
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


def _guarded(coups):
    """The family's coups; what the law leaves out and no --param gives stops the sample with its reason."""
    from casino_audit.replay import Unavailable

    try:
        yield from coups
    except Unavailable as unavailable:
        raise SampleError(f"cannot deal this game's coups: {unavailable.why}") from None


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
