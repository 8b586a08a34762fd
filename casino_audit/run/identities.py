"""A log record's identity, as a waiver or a baseline names it (a game log's table, coup number and time; a
meter log's machine and reading time), and the findings of a log session given the identity of the record
they are about."""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

from casino_audit.core.findings import Finding
from casino_audit.run.suppressions import MAX_IDENTITY_VALUE, identity


IDENTITIES_KEPT = 20_000  # the records of one log whose identity is remembered for a finding about them made later
# What identifies a record of each stream kind: its own fields, and the header's (a game log's table).
_IDENTITY = {"game-log": (("table",), ("coup", "time")), "meter-log": ((), ("machine", "time"))}


def record_identity(header, data) -> tuple | None:
    """A log record's identity, as a waiver or a baseline names it: a game log's table (its header's), coup number
    and time; a meter log's machine and reading time. ((name, value as JSON), ...) sorted by name; None for a
    record of another kind, or one that gives none of them."""
    return _identity(header, _values(header, data))


def _values(header, data) -> tuple | None:
    """The record's values its identity is made of, kept small: a long or nested value is kept as its digest now,
    so that the records remembered never hold a hostile log's megabytes; the rest as they are, turned into an
    identity only if a finding asks (most records have none)."""
    own, fields = _IDENTITY.get(header.get("kind") if isinstance(header, dict) else None, ((), ()))
    if not isinstance(data, dict) or not fields:
        return None
    values = tuple(data.get(name) for name in fields)
    if all(value is None or type(value) is int or (type(value) is str and len(value) <= MAX_IDENTITY_VALUE // 2)
           for value in values):
        return values
    return (identity(dict(zip(fields, values))),)  # already an identity


def _identity(header, values: tuple | None) -> tuple | None:
    if values is None:
        return None
    own, fields = _IDENTITY[header.get("kind")]
    if len(values) == 1 and len(fields) > 1:
        given, made = {name: header.get(name) for name in own}, values[0]
    else:
        given, made = {**{name: header.get(name) for name in own}, **dict(zip(fields, values))}, ()
    if all(value is None for value in given.values()) and not any(text != "null" for _, text in made):
        return None
    return tuple(sorted(identity(given) + made))


def naming(feed, header, identities: dict) -> Callable:
    """`feed`, each finding it makes given the identity of the record it is about (the last IDENTITIES_KEPT
    records are remembered: a finding made later about an older one keeps its place in the file alone)."""
    def named(item):
        identities[item.index] = _values(header.data, item.data)
        if len(identities) > IDENTITIES_KEPT:
            del identities[next(iter(identities))]
        return named_findings(feed(item), identities, header.data)
    return named


def named_findings(findings: Iterable[Finding], identities: dict, header) -> Iterator[Finding]:
    for finding in findings:
        if finding.record is None and finding.document and finding.document in identities:
            finding.record = _identity(header, identities[finding.document])
        yield finding
