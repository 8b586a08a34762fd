"""Waivers (a regulator's dérogation, written in the config) and the baseline (findings accepted earlier, in a
file of their own): which findings they cover.

A covered finding is still reported, marked as waived or baselined, and does not count toward the verdict. The
tool's own findings (a file that cannot be read, a log that is not whole) are never covered. A waiver past its
expiry date covers nothing and is itself a finding; so is a waiver that covered nothing. Baseline entries are
keyed by file, rule id, document and JSON pointer, never by line, so that an edit elsewhere in a file does not break them;
a finding about a log's record by the record's identity instead of its place (a game log's table, coup number and
time; a meter log's machine and reading time: identities.record_identity), so that day 2's log filed under day 1's name
is not taken for day 1's. A waiver may name a record too (`coup: 5`, `machine` and `time`), and covers only that.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Severity, Suppression

BASELINE_FORMAT = "casino-audit-baseline"
BASELINE_VERSION = 3  # 3: a log record's findings keyed by its identity; 2: by its place; 1: no message either
# Versions 1 and 2 are still read as they were written: a log's findings matched by the record's place in its file.
RECORD_FIELDS = ("coup", "machine", "table", "time")  # what names a log record (a waiver's fields, an entry's record)


@dataclass(frozen=True)
class Waiver:
    rule_id: str
    files: str  # a glob over paths relative to the config file's directory: `*` within a directory, `**` across
    pointer: str | None  # covers this JSON pointer and everything under it; None: the whole document
    justification: str
    granted_by: str
    reference: str
    expires: date  # the last day it applies
    config: str  # the config file that grants it
    line: int | None
    column: int | None
    pointer_in_config: str  # /waivers/N
    record: tuple = ()  # ((name, value as JSON), ...): only findings about the log records that have these values

    def suppression(self) -> Suppression:
        return Suppression("waiver", self.justification, self.granted_by, self.reference, self.expires.isoformat(),
                           f"{self.config}:{self.line}" if self.line else self.config)


def glob_pattern(glob: str) -> re.Pattern:
    """`*` and `?` stay within one path segment; `**/` is any number of directories; `**` at the end anything."""
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def relative_to(path: str, root: Path) -> str:
    """A finding's path as written relative to `root`, with forward slashes (how waivers and baselines name it)."""
    return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(root))).as_posix()


def _covers(pattern: re.Pattern, path: str, root: Path) -> bool:
    """Whether a waiver's glob covers this path: only a file under the config's directory (a `*` or `**` of
    `**/*.yaml` would otherwise read `..` as a directory name, and cover another casino's filings beside it)."""
    name = relative_to(path, root)
    return name != ".." and not name.startswith("../") and pattern.match(name) is not None


def _under(pointer: str | None, prefix: str | None) -> bool:
    if prefix is None or prefix == "":
        return True
    pointer = pointer or ""
    # a JSON pointer names one member (RFC 6901): "/" is the member "" of the root, "/bets/" the member "" of
    # bets, never everything under them; a waiver covers what it names and what is under it, nothing more
    return pointer == prefix or pointer.startswith(prefix + "/")


def waivable(finding: Finding) -> bool:
    return finding.file is not None and finding.rule_id not in F.TOOL_FINDINGS


class BaselineError(Exception):
    pass


def record_text(record: tuple) -> str:
    """A record's identity as a person reads it: `coup 5, time "2026-11-02T21:00:05"`."""
    return ", ".join(f"{name} {value}" for name, value in record)


def _names(wanted: tuple, record: tuple | None) -> bool:
    """Whether a record has every value a waiver names (a waiver naming none covers every record, and the rest)."""
    return not wanted or (record is not None and all(pair in record for pair in wanted))


MAX_IDENTITY_VALUE = 200  # characters of a value's JSON kept in an identity; a longer one is kept as its digest


def identity(values: dict) -> tuple:
    """A record's identity from its values (name -> value): ((name, value as JSON), ...) sorted by name, each
    value exactly as a log, a waiver or a baseline writes it (5 is not "5"); a value longer than a name is kept as
    its SHA-256 digest, so that a hostile log's remembered identities stay small."""
    pairs = []
    for name, value in values.items():
        text = json.dumps(value, default=str, ensure_ascii=False)
        if len(text) > MAX_IDENTITY_VALUE:
            text = json.dumps("sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
        pairs.append((name, text))
    return tuple(sorted(pairs))


def _identity(given) -> tuple:
    """An entry's `record` (a mapping of RECORD_FIELDS to values)."""
    if not isinstance(given, dict) or not given or any(name not in RECORD_FIELDS for name in given):
        raise TypeError
    return identity(given)


def read_baseline(path: Path) -> dict[tuple[str, str, int | tuple, str], Counter]:
    """(file, rule id, document or a log record's identity, pointer) -> how many findings the baseline accepts
    there, by message (None: any message, a version-1 entry). A JSON pointer, not a line: an edit elsewhere in the file leaves the entry
    standing; the message, for a breach that grew worse at its place (a return of 84 % now 70 %) is a new one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"cannot read the baseline {path}: {error.strerror or error}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise BaselineError(f"the baseline {path} is not JSON: {error}") from None
    if not (isinstance(data, dict) and data.get("format") == BASELINE_FORMAT and isinstance(data.get("findings"), list)):
        raise BaselineError(f"{path} is not a casino-audit baseline (written by --write-baseline)")
    if data.get("version") not in (1, 2, BASELINE_VERSION):
        raise BaselineError(f"the baseline {path} is of version {data.get('version')!r}; this casino-audit reads "
                            f"version {BASELINE_VERSION}: write it again with --write-baseline")
    entries: dict[tuple, Counter] = {}
    for n, entry in enumerate(data["findings"]):
        try:
            record = entry.get("record") if data["version"] >= 3 else None
            key = (entry["file"], entry["rule_id"], entry["document"] if record is None else _identity(record),
                   entry["pointer"] or "")
            count = entry.get("count", 1)
            message = entry["message"] if data["version"] >= 2 else None
            if not (isinstance(key[0], str) and isinstance(key[1], str) and isinstance(key[3], str)
                    and (record is not None or _count(key[2])) and _count(count) and count >= 1 and (message is None) == (data["version"] < 2)
                    and (message is None or isinstance(message, str))):
                raise TypeError
        except (KeyError, TypeError, AttributeError):
            raise BaselineError(f"the baseline {path} has an entry that is not a file, rule_id, pointer, message and "
                                f"count: findings[{n}]") from None
        entries.setdefault(key, Counter())[message] += count
    return entries


def baseline_version(path: Path) -> int | None:
    """The version of a baseline file that read_baseline has read."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError, UnicodeDecodeError, AttributeError):
        return None


def is_legacy(entries: dict) -> bool:
    """Whether a baseline read holds entries of version 1, matching any message at their place."""
    return any(None in messages for messages in entries.values())


def is_baseline(path: Path) -> bool:
    """A file --write-baseline wrote (of any version): the only kind it replaces."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    return isinstance(data, dict) and data.get("format") == BASELINE_FORMAT


def baseline_document(entries: Counter) -> dict:
    """`entries`: (file, rule id, document or a log record's identity, pointer, message) -> count."""
    def entry(file, rule_id, where, pointer, message, count) -> dict:
        placed = {"document": where} if isinstance(where, int) else \
            {"document": None, "record": {name: json.loads(value) for name, value in where}}
        return {"file": file, "rule_id": rule_id, **placed, "pointer": pointer, "message": message, "count": count}

    def order(item):
        (file, rule_id, where, pointer, message), _ = item
        return file, rule_id, (0, where, ()) if isinstance(where, int) else (1, 0, where), pointer, message
    return {"format": BASELINE_FORMAT, "version": BASELINE_VERSION,
            "findings": [entry(*key, count) for key, count in sorted(entries.items(), key=order)]}


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _key(finding: Finding, root: Path, by_record: bool = True) -> tuple[str, str, int | tuple, str]:
    """A finding's place: a log record's identity where it has one (`by_record`), else its document."""
    where = finding.record if by_record and finding.record is not None else finding.document or 0
    return (relative_to(finding.file, root), finding.rule_id, where, finding.pointer or "")


class Suppressor:
    """Decides, finding by finding, whether a waiver or the baseline covers it; records what a new baseline
    would hold; and says, at the end, which waivers expired or covered nothing."""

    def __init__(self, waivers: list[Waiver] = (), today: date | None = None, *, baseline: dict | None = None,
                 baseline_root: Path | None = None, baseline_source: str | None = None, record: bool = False,
                 record_root: Path | None = None, baseline_file: Path | None = None,
                 record_file: Path | None = None, baseline_version: int = BASELINE_VERSION):
        today = today or date.today()
        self.expired = [w for w in waivers if w.expires < today]
        self.waivers = [(w, glob_pattern(w.files), Path(w.config).parent) for w in waivers if w.expires >= today]
        self.used: Counter = Counter()
        self.baseline = {key: Counter(left) for key, left in (baseline or {}).items()}  # what is left of it to match
        self.baseline_root = baseline_root
        self.baseline_source = baseline_source
        self.baseline_rules = {key[1] for key in self.baseline}
        self.baseline_version = baseline_version
        self.record = record
        self.record_root = record_root
        self.recorded: Counter = Counter()
        self.baseline_file = baseline_file
        self.record_file = record_file
        self._may: dict[tuple[str, str], bool] = {}

    def files(self) -> dict[str, str]:
        """The run's own files among the paths checked: not filings."""
        return {os.path.realpath(path): why for path, why in (
            (self.baseline_file, "the baseline file (--baseline), not a filing"),
            (self.record_file, "the baseline being written (--write-baseline), not a filing")) if path is not None}

    def may_match(self, file: str, rule_id: str) -> bool:
        """Whether a finding of this rule in this file might be covered (or is to be recorded): such findings are
        made even past --max-per-rule, to be told apart; the others are only counted."""
        key = (file, rule_id)
        known = self._may.get(key)
        if known is None:
            if rule_id in F.TOOL_FINDINGS:
                known = False
            else:
                known = self.record or any(
                    waiver.rule_id == rule_id and _covers(pattern, file, root)
                    for waiver, pattern, root in self.waivers)
                if not known and rule_id in self.baseline_rules:
                    name = relative_to(file, self.baseline_root)
                    known = any(key[0] == name and key[1] == rule_id for key in self.baseline)
            self._may[key] = known
        return known

    def match(self, finding: Finding) -> Suppression | None:
        if not waivable(finding):
            return None
        if self.record:
            self.recorded[(*_key(finding, self.record_root), finding.message)] += 1
        for waiver, pattern, root in self.waivers:
            if (waiver.rule_id == finding.rule_id and _under(finding.pointer, waiver.pointer)
                    and _names(waiver.record, finding.record) and _covers(pattern, finding.file, root)):
                self.used[waiver] += 1
                return waiver.suppression()
        if self.baseline:
            # a log record's finding by its identity; in a baseline of version 1 or 2, by its place, as written
            accepted = self.baseline.get(_key(finding, self.baseline_root, by_record=self.baseline_version >= 3))
            if accepted:  # this very breach, else (a version-1 entry) any at its place
                message = finding.message if accepted[finding.message] > 0 else None
                if accepted[message] > 0:
                    accepted[message] -= 1
                    return Suppression("baseline", "accepted in the baseline", source=self.baseline_source)
        return None

    def findings(self) -> list[Finding]:
        """Waivers past their expiry date, and waivers that covered nothing: findings on the config's lines."""
        found = []
        for waiver in self.expired:
            found.append(Finding(F.WAIVER_EXPIRED, Severity.ERROR,
                                 f"the waiver of {waiver.rule_id} for {waiver.files} ({waiver.reference}, granted by "
                                 f"{waiver.granted_by}) expired on {waiver.expires.isoformat()}: it covers nothing, and "
                                 "the findings it covered count again", waiver.config, waiver.line, waiver.column,
                                 waiver.pointer_in_config))
        for waiver, _, _ in self.waivers:
            if not self.used[waiver]:
                found.append(Finding(F.WAIVER_UNUSED, Severity.WARNING,
                                     f"the waiver of {waiver.rule_id} for {waiver.files}"
                                     + (f" at {waiver.pointer}" if waiver.pointer else "")
                                     + (f" ({record_text(waiver.record)})" if waiver.record else "")
                                     + f" ({waiver.reference}) covered no finding: the breach it was granted for is "
                                     "gone, or the waiver names the wrong rule, file or place", waiver.config,
                                     waiver.line, waiver.column, waiver.pointer_in_config))
        return found
