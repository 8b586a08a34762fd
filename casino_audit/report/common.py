"""What every report format says the same way: the verdict in words, a setting's value, the counts line.

One place for them, so that no two formats can disagree on whether a run passed.
"""

from __future__ import annotations

# Kinds of verdict, for a format to style: the run's verdict is unknown (a crash, or it could not start), it
# failed the gate, it passed with rules left unapplied, it passed.
UNKNOWN, FAILED, PASSED_WITH_GAPS, PASSED = "unknown", "failed", "passed-with-gaps", "passed"


def verdict(result, context) -> tuple[str, str]:
    """The verdict line (`FAILED: findings at or above 'error'`) and its kind (UNKNOWN, FAILED, ...)."""
    threshold = context.fail_on
    not_applied = len(result.not_applied)
    unapplied = ""
    if not_applied:
        unapplied = (f"{not_applied} rule(s) not applied: parameters missing"
                     + ("" if context.require_params else " (--require-params makes that a failure)"))
    if result.internal_errors and not result.files:
        return "ERROR: the run could not start (the findings above say why); nothing was checked", UNKNOWN
    if result.internal_errors:
        return (f"ERROR: the check crashed on {result.internal_errors} file(s) (INTERNAL-ERROR above); their verdict "
                "is unknown", UNKNOWN)
    if result.failed(threshold):
        return f"FAILED: findings at or above '{threshold.label}'" + (f"; {unapplied}" if unapplied else ""), FAILED
    text = "PASSED" + (f": nothing at or above '{threshold.label}'" if threshold else " (--fail-on never)")
    return text + (f"; {unapplied}" if unapplied else ""), PASSED_WITH_GAPS if unapplied else PASSED


def value_text(value) -> str:
    """A setting's value as one line: a list comma-separated, a mapping as NAME=VALUE pairs."""
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "(none)"
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def counts_text(summary: dict) -> str:
    """The counts every format gives, in the same words: findings by severity, then those set apart."""
    text = f"{summary['errors']} error(s), {summary['warnings']} warning(s), {summary['infos']} info"
    apart = [f"{summary[key]} {word}" for key, word in (("waived", "waived"), ("baselined", "baselined"))
             if summary[key]]
    if summary["findings_omitted"]:
        apart.append(f"{summary['findings_omitted']:,} not listed (--max-per-rule)")
    return text + (f" ({'; '.join(apart)})" if apart else "")


def more_text(entry) -> str:
    """`3 more RULE finding(s)`, or `3 more waived RULE finding(s)` for those a waiver or the baseline covers
    (capped apart from those that count): the words every format gives for findings not listed."""
    covered = {"waiver": " waived", "baseline": " baselined"}.get(entry.suppression, "")
    return f"{entry.total - entry.shown:,} more{covered} {entry.rule_id} finding(s)"


def files_parts(summary: dict) -> list[str]:
    """What was read, in the words every format uses: files, documents, log records."""
    parts = [f"{summary['files_checked']} file(s) checked ({summary['documents']} document(s))",
             f"{summary['files_with_findings']} with findings", f"{summary['files_unreadable']} unreadable"]
    if summary["files_skipped"]:
        parts.append(f"{summary['files_skipped']} skipped")
    if summary["records_read"]:
        parts.append(f"{summary['records_checked']} log record(s) checked, {summary['records_with_findings']} with "
                     f"findings, {summary['records_unreadable']} unreadable line(s)")
    return parts


def files_text(summary: dict) -> str:
    return ", ".join(files_parts(summary))


def suppression_text(suppression) -> str:
    """`waived (justification; granted by X, ref Y, until D; file:line)` or `baselined (...)`."""
    word = "waived" if suppression.kind == "waiver" else "baselined"
    details = [part for part in (suppression.granted_by and f"granted by {suppression.granted_by}",
                                 suppression.reference and f"ref {suppression.reference}",
                                 suppression.expires and f"until {suppression.expires}",
                                 suppression.source) if part]
    return f"{word} ({suppression.justification}" + (f"; {', '.join(details)}" if details else "") + ")"
