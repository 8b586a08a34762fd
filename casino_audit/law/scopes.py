"""The three scopes a rule can have, and the state each keeps (outside the checker, which holds none).

- document: one filing at a time (a homologation file, a table configuration): `Checker.check`.
- record: one record of a stream at a time, with the state of its session (a game log: the hands of a shoe, "the
  minimum is not changed during a session"): casino_audit/logs/session.py replays them, one LogSession a stream.
- dossier: the documents of one run together (parameters that come from documents, LU 37-5: "fixé par
  l'arrêté d'autorisation"; a machine against its floor plan). A `Dossier` collects what its rules ask for and
  runs them when the run has read everything.

A dossier rule is a `ScopedCheck`: `start()` makes its state, `feed(state, item)` reports on one document,
`finish(state)` on the whole. The rulesets have no such rules yet; their issues bring them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from casino_audit.core.findings import Finding, Location, Severity

DOCUMENT, RECORD, DOSSIER = "document", "record", "dossier"
SCOPES = (DOCUMENT, RECORD, DOSSIER)

Violation = tuple[str, str]  # (JSON pointer, message)


@dataclass(frozen=True)
class ScopedCheck:
    """A rule over a stream of records or over a dossier, as its check kind compiles it."""

    rule_id: str
    severity: Severity
    kinds: tuple[str, ...]  # the document or record kinds it reads
    start: Callable[[], Any]
    feed: Callable[[Any, Any], Iterable[Violation]]  # (state, document or record) -> violations at that item
    finish: Callable[[Any], Iterable[tuple[Location, str]]] = lambda state: ()  # about the whole


@dataclass
class _Scoped:
    """Scoped checks with their states: each item (a record, a document) fed to the checks of its kind."""

    checks: list[ScopedCheck]
    states: list[Any] = field(init=False)

    def __post_init__(self):
        self.states = [check.start() for check in self.checks]
        self.applied: set[str] = set()  # ids of the checks fed an item of their kind

    def feed(self, kind: str, item) -> Iterator[Finding]:
        for check, state in zip(self.checks, self.states):
            if kind in check.kinds:
                self.applied.add(check.rule_id)
                for pointer, message in check.feed(state, item):
                    line, column = item.position(pointer) or (None, None)
                    yield Finding(check.rule_id, check.severity, message, item.file, line, column, pointer,
                                  item.index)

    def close(self) -> Iterator[Finding]:
        """What the checks say of the whole, once every item has been fed."""
        for check, state in zip(self.checks, self.states):
            for location, message in check.finish(state):
                yield Finding(check.rule_id, check.severity, message, location.file, location.line,
                              location.column, location.pointer, location.document)


class Dossier(_Scoped):
    """The documents of a run that dossier rules read (only those of the kinds they ask for are kept)."""

    def wants(self, kind: str) -> bool:
        return any(kind in check.kinds for check in self.checks)

