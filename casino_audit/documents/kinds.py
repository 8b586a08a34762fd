"""Document kinds: how a document says what it is, and the schema of its shape.

A new kind is one entry here plus its schema file in `schemas/` (a stream kind, also its session class in
`law/engine.py`'s SESSIONS); nothing else in the core changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from casino_audit.core import findings as F
from casino_audit.core.display import brief
from casino_audit.core.values import show


@dataclass(frozen=True)
class Kind:
    name: str
    schema_file: str
    game_field: str | None = None  # top-level field naming the game, for rules that apply to some games only
    stream: bool = False  # the header of a stream of records (a game log): its records follow it in the file

    def game_of(self, data: dict):
        """The game a document of this kind is for, or None where the kind has no games."""
        return data.get(self.game_field) if self.game_field else None

    def games(self) -> tuple[str, ...]:
        if self.game_field is None:
            return ()
        return tuple(schema(self.name)["properties"][self.game_field].get("enum", ()))


KINDS: dict[str, Kind] = {kind.name: kind for kind in (
    Kind("machine", "machine.schema.json"),  # a slot-machine homologation (type-approval) file
    Kind("table", "table.schema.json", game_field="game"),  # a gaming-table configuration
    Kind("game-log", "game-log.schema.json", game_field="game", stream=True),  # a table's coups, replayed
    Kind("meter-log", "meter-log.schema.json", stream=True),  # slot machines' meter readings over time
)}


KIND_NAMES = tuple(KINDS)


def schema(kind: str) -> dict:
    from casino_audit.documents.shape import packaged_schema  # schemas and validators load when a document needs them

    return packaged_schema(KINDS[kind].schema_file)


@lru_cache(maxsize=None)
def validator(kind: str):
    from casino_audit.documents.shape import ShapeValidator  # as above: --help imports the kinds alone

    return ShapeValidator(schema(kind))


def identify(data: Any) -> tuple[str | None, tuple[str, str] | None]:
    """The document's kind, or (None, (finding id, message)) saying why it has none we know."""
    if not isinstance(data, dict):
        return None, (F.KIND_MISSING, "the document is not a mapping with `kind:` and `jurisdiction:`")
    kind = data.get("kind")
    if kind is None:
        return None, (F.KIND_MISSING, f"the document does not say its kind (add `kind:`, one of {', '.join(KINDS)})")
    if not isinstance(kind, str):  # a list or mapping: never hashed, never guessed at
        return None, (F.KIND_UNKNOWN, f"`kind` is {brief(show(kind))}, not a name; known kinds: {', '.join(KINDS)}")
    if kind not in KINDS:
        return None, (F.KIND_UNKNOWN, f"unknown kind {brief(repr(kind))}; known kinds: {', '.join(KINDS)}")
    return kind, None


# What a filing's top level may hold besides its kind, read as a person reads a key (case, spacing, look-alike
# letters and separators aside): a document holding none of them, and no `kind`, is plainly something else.
_NOT_FILING_FIELDS = frozenset({"$schema", "note"})


@lru_cache(maxsize=1)
def _filing_fields() -> frozenset[str]:
    return frozenset(_key(name) for kind in KINDS for name in schema(kind)["properties"]
                     if name not in _NOT_FILING_FIELDS)


def _key(name: Any) -> str:
    from casino_audit.core.display import same_name  # the confusables load only when a document has no kind

    return "".join(char for char in same_name(str(name)) if char.isalnum())


def plainly_not_a_filing(data: Any) -> bool:
    """A document with no `kind` and no field a filing has, at its top level or in any mapping of a list at its
    top (a pre-commit config's `repos`, a hook list, an action's `runs`): another tool's file, skipped and listed,
    never a failure. A key spelt as a filing's in another case or with look-alike letters (`Kind`, `Jurisdiction`)
    is a filing's: KIND-MISSING, as a filing that does not say its kind is."""
    if isinstance(data, dict) and "kind" in data:
        return False  # every filing that says its kind: no key folded, no schema read (the usual document)
    items = data if isinstance(data, list) else [data]
    if not items or not all(isinstance(item, dict) and item for item in items):
        return False
    fields = _filing_fields()
    if any(not str(name).isascii() or _key(name) in fields for item in items for name in item):
        return False  # a key in letters beyond ASCII (small capitals, another script) may be a filing's, disguised
    return not _holds_a_filing(items)


_LOOKED_AT = 10_000  # keys looked at for a filing nested in another tool's file (`filings: [{kind: machine}]`)


def _holds_a_filing(items: list) -> bool:
    """Whether a filing stands anywhere inside (wrapped in another key or list): a `kind` naming one of the kinds,
    or a `jurisdiction` given as text (an action's `inputs: {jurisdiction: {...}}` is no filing)."""
    wrapped = (_key("kind"), _key("jurisdiction"))  # as `_key` reads them ("klnd": i and l are one letter to it)
    kinds = {_key(name) for name in KINDS}
    stack, seen = list(items), 0
    while stack and seen < _LOOKED_AT:
        node = stack.pop()
        if isinstance(node, dict):
            for name, value in node.items():
                seen += 1
                if _key(name) in wrapped and isinstance(value, str) and (
                        _key(name) == wrapped[1] or _key(value) in kinds):
                    return True
                if isinstance(value, (dict, list)):
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(item for item in node if isinstance(item, (dict, list)))
            seen += len(node)
    return seen >= _LOOKED_AT  # too large to look through: not plainly anything


def misshapen(document, kind: str) -> list[str]:
    """What `check` would say of the shape of a document read for its values alone (a table whose payouts and
    limits the edge or a log's replay use), each at its `file:line:column`: a value of the wrong shape (a payout
    that is text or negative, a minimum of 0, stakes that are a list) or a field the schema does not know (a
    misspelt `payout:`, whose schedule the law's would silently replace). A field left out is no problem here:
    what the reader needs and does not find, it takes from elsewhere and says so."""
    from casino_audit.core.pointers import MISSING, get  # --help imports the kinds, never the pointers

    placed = []
    for rule_id, pointer, message in validator(kind).errors(document.data, getattr(document, "values", None)):
        if rule_id == F.SHAPE_INVALID and get(document.data, pointer) is MISSING:
            continue  # a required field left out
        placed.append(((document.position(pointer) or (0, 0)), message))
    return [f"{document.file}:{line}:{column}: {message}" if line else f"{document.file}: {message}"
            for (line, column), message in sorted(placed)]
