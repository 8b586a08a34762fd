"""A SARIF run's notifications (its driver's descriptors, and each notification as written) and the plain text of
its messages: shared by the report and by the limits it keeps within (sarif_limits.py).
"""

from __future__ import annotations

# What the run's notifications are, as the driver's notification descriptors (by index).
NOTIFICATIONS = [
    ("run-finding", "A finding of the whole run, in no file: a rule not applied for want of a parameter value."),
    ("findings-not-listed", "Findings of one rule in one file past --max-per-rule: counted, not listed."),
    ("setting", "A setting not at its default, and where it came from (an option, the config file)."),
    ("law-change", "A rule of the law that a house ruleset replaces, loosens, tightens or drops."),
    ("results-left-out", "Results left out of this file to stay within GitHub code scanning's limits (25,000 "
                         "results a run, 1,000 locations a result, 10 MB gzipped): counted, errors kept first."),
]
_NOTIFICATION_INDEX = {name: index for index, (name, _) in enumerate(NOTIFICATIONS)}


def message_text(text: str) -> str:
    """Plain message text: a literal `[text](n)` would be read as a link to related location n, so brackets
    are escaped as SARIF says (a backslash before `[`, `]` and a backslash itself)."""
    if "[" not in text and "]" not in text:
        return text
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def notification(kind: str, level: str, text: str, rule_id: str | None = None,
                 index: dict[str, int] | None = None, **extra) -> dict:
    entry = {"descriptor": {"id": kind, "index": _NOTIFICATION_INDEX[kind]}, "level": level,
             "message": {"text": message_text(text)}}
    if rule_id is not None:
        entry["associatedRule"] = {"id": rule_id, "index": index[rule_id]}
    entry.update(extra)
    return entry
