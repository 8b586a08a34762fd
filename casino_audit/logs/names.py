"""How a log's names are compared: one person, one session, one table, however each coup writes it."""

from __future__ import annotations

from functools import lru_cache

from casino_audit.core.display import same_name


@lru_cache(maxsize=4096)
def _same_name(name: str) -> str:
    """A staff member's, a session's or a table's name as compared: "C-1 " and "c-1", or "José" composed and not,
    are one person, not a relief; "S1" and "S1 " one session, whose minimum is kept; "t1" and "T1" one table
    (else a name written otherwise from a coup on would start a new turn, or a new session, that no reader of the
    log sees)."""
    return same_name(name)
