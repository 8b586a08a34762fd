"""The values the law's closed schedules fix for a game (its payouts, its cards), read from the ruleset's
`schedule` rules: what a table, a log or an edge is held to wherever the law fixes it."""

from __future__ import annotations


def law_schedule(ruleset, game: str, target: str) -> dict | None:
    """The values the law's schedules give at `target` for a game (e.g. its payouts), or None: every schedule
    rule there contributes its entries (PT póquer sem descarte states the high cards' prize in a rule of its own,
    PT-PSD-HIGH-CARD, beside PT-PSD-PAYOUTS); the first rule to give an entry gives its value."""
    found: dict | None = None
    for rule in ruleset.rules:
        check = rule.check
        if game in rule.games and check.get("kind") == "schedule" and check.get("target") == target \
                and "equals" in check and not check.get("per"):
            found = found if found is not None else {}
            for key, value in check["equals"].items():
                found.setdefault(key, value)
    return found
