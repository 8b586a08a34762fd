"""A SARIF file kept within GitHub code scanning's hard limits: past them the whole upload is refused, so results
are left out (errors kept first) and what is left out is counted in a notification.
"""

from __future__ import annotations

import gzip
import io

from casino_audit.report.json_report import write_json
from casino_audit.report.sarif_notifications import notification

# GitHub code scanning refuses a whole upload past these (docs: "SARIF results exceed hard limit"); the file is
# kept within them, what is left out counted in a notification and on standard error.
RESULT_LIMIT = 25_000
LOCATION_LIMIT = 1_000  # a result's locations and related locations
GZIP_LIMIT = 10 * 1024 * 1024


def within_result_limit(run: dict) -> None:
    """The run's results cut to RESULT_LIMIT (errors kept first)."""
    if len(run["results"]) > RESULT_LIMIT:
        leave_out(run, len(run["results"]) - RESULT_LIMIT)


def within_upload_size(document: dict) -> str:
    """The document as written, its results cut (errors kept first) until it is at most 10 MB gzipped."""
    while True:
        buffer = io.StringIO()
        write_json(document, buffer)
        text = buffer.getvalue().rstrip("\n")
        if len(text) <= GZIP_LIMIT // 4:  # characters of at most four bytes: under the limit before gzip
            return text
        size = len(gzip.compress(text.encode("utf-8"), compresslevel=6))
        run = document["runs"][0]
        if size <= GZIP_LIMIT or not run["results"]:
            return text
        keep = max(0, min(len(run["results"]) - 1, int(len(run["results"]) * GZIP_LIMIT / size * 0.9)))
        leave_out(run, len(run["results"]) - keep)


def leave_out(run: dict, count: int) -> None:
    """`count` results left out of the run, the suppressed (waived, baselined) first, then the least severe, then
    the last: the live errors that fail the run are the last to go; said in a notification."""
    results = run["results"]
    rank = {"error": 0, "warning": 1, "note": 2}
    order = sorted(range(len(results)),
                   key=lambda i: ("suppressions" in results[i], rank.get(results[i]["level"], 3), i))
    kept = set(order[:len(results) - count])
    dropped: dict[str, int] = {}
    for i in order[len(results) - count:]:
        dropped[results[i]["level"]] = dropped.get(results[i]["level"], 0) + 1
    run["results"] = [result for i, result in enumerate(results) if i in kept]
    invocation = run["invocations"][0]
    properties = invocation["properties"]
    properties["resultsLeftOut"] = properties.get("resultsLeftOut", 0) + count
    said = ", ".join(f"{n:,} {level}" for level, n in sorted(dropped.items(), key=lambda item: rank[item[0]]))
    invocation["toolExecutionNotifications"].append(notification(
        "results-left-out", "warning", f"{count:,} results left out of this file to stay within GitHub code "
        f"scanning's limits ({said}); the json format lists every finding",
        properties={"leftOut": dropped}))
