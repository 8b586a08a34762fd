"""Findings: what every stage of the pipeline produces and every reporter reads."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(enum.IntEnum):
    """Ordered so that `finding.severity >= threshold` is the fail test."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Severity":
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (error, warning, info)") from None


@dataclass(frozen=True)
class Citation:
    instrument: str
    article: str
    text: str = ""
    language: str = ""

    def short(self) -> str:
        return f"{self.article}, {self.instrument}" if self.instrument else self.article


@dataclass(frozen=True)
class Location:
    """A place in the input: a file, a line and column (1-based), a JSON pointer inside the document or record,
    and which document of a multi-document file (or which record of a stream) it is, 0-based."""

    file: str | None = None
    line: int | None = None
    column: int | None = None
    pointer: str | None = None
    document: int | None = None


@dataclass(frozen=True)
class Related:
    """Another place a finding involves (the first of two duplicate keys, the document a dossier rule compared
    with), and what it is."""

    message: str
    location: Location


@dataclass(frozen=True)
class Suppression:
    """Why a finding does not count toward the verdict: a regulator's waiver (dérogation) or the baseline of
    findings accepted earlier. A suppressed finding is still reported, as such, never dropped."""

    kind: str  # "waiver" | "baseline"
    justification: str
    granted_by: str | None = None
    reference: str | None = None
    expires: str | None = None  # ISO date, waivers only
    source: str | None = None  # where the waiver or baseline entry is written: "file:line"


@dataclass
class Finding:
    rule_id: str
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based
    pointer: str | None = None  # JSON pointer inside the document
    document: int | None = None  # 0-based index of the document in a multi-document file
    jurisdiction: str | None = None
    citation: Citation | None = None
    related: tuple[Related, ...] = ()
    suppression: Suppression | None = None  # waived or baselined: reported, not counted toward the verdict
    # A log record's identity, ((name, value as JSON), ...) sorted by name: a game log's table, coup and time, a meter
    # log's machine and time (identities.record_identity). Waivers and baselines name a record by it, not by its place.
    record: tuple | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        """'file:line:column: message', as a problem is printed on a terminal."""
        where = ":".join(str(part) for part in (self.file, self.line, self.column) if part is not None)
        return f"{where}: {self.message}" if where else self.message

    @property
    def location(self) -> Location:
        return Location(self.file, self.line, self.column, self.pointer, self.document)

    def sort_key(self):
        return (self.file or "", self.document or 0, self.line or 0, self.column or 0, self.rule_id)


# Identifiers of the findings the tool itself raises (not from a ruleset).
LOAD_UNREADABLE = "LOAD-UNREADABLE"
LOAD_ENCODING = "LOAD-ENCODING"
LOAD_BINARY = "LOAD-BINARY"
LOAD_EMPTY = "LOAD-EMPTY"
LOAD_TOO_LARGE = "LOAD-TOO-LARGE"
LOAD_SYNTAX = "LOAD-SYNTAX"
LOAD_DUPLICATE_KEY = "LOAD-DUPLICATE-KEY"
LOAD_UNSUPPORTED = "LOAD-UNSUPPORTED"
LOAD_AMBIGUOUS = "LOAD-AMBIGUOUS"
LOAD_TRUNCATED = "LOAD-TRUNCATED"
KIND_MISSING = "KIND-MISSING"
KIND_UNKNOWN = "KIND-UNKNOWN"
JURISDICTION_MISSING = "JURISDICTION-MISSING"
JURISDICTION_UNSUPPORTED = "JURISDICTION-UNSUPPORTED"
JURISDICTION_NO_RULES = "JURISDICTION-NO-RULES"
RULESET_INVALID = "RULESET-INVALID"
SHAPE_UNKNOWN_FIELD = "SHAPE-UNKNOWN-FIELD"
SHAPE_INVALID = "SHAPE-INVALID"
SHAPE_UNLISTED = "SHAPE-UNLISTED"
INTERNAL_ERROR = "INTERNAL-ERROR"
LOG_NUMBERING = "LOG-NUMBERING"
LOG_TIME = "LOG-TIME"
LOG_GAP = "LOG-GAP"
LOG_SESSION = "LOG-SESSION"
LOG_UNTRACKED = "LOG-UNTRACKED"
LOG_UNFILED = "LOG-UNFILED"
LOG_SET_ASIDE = "LOG-SET-ASIDE"
LOG_CURRENCY = "LOG-CURRENCY"
CONFIG_INVALID = "CONFIG-INVALID"
WAIVER_EXPIRED = "WAIVER-EXPIRED"
WAIVER_UNUSED = "WAIVER-UNUSED"

TOOL_FINDINGS = {
    LOAD_UNREADABLE: "The file could not be read (permissions, missing, not a regular file).",
    LOAD_ENCODING: "The file is not valid UTF-8 text.",
    LOAD_BINARY: "The file holds binary data (NUL bytes), not text.",
    LOAD_EMPTY: "The file, or a document in it, is empty, or a log holds no coup or reading after its header.",
    LOAD_TOO_LARGE: "The file is larger than the size limit (--max-file-size), or expands past the node limit.",
    LOAD_SYNTAX: "The file is not well-formed YAML or JSON.",
    LOAD_DUPLICATE_KEY: "A mapping names the same key twice; which value was meant is unknowable.",
    LOAD_UNSUPPORTED: "The document uses a YAML feature a filing may not use (custom tags, complex keys, deep nesting), "
                      "or a log is written in a format its game has no layout for, or its header as a YAML or JSON "
                      "document.",
    LOAD_AMBIGUOUS: "A value the reader would read differently from how a person reads it (0310 as octal 200, 5:10 as "
                    "310, a !!bool tag on a sentence, two merge keys, an invisible character); kept as the text written.",
    LOAD_TRUNCATED: "A record stream's last line has no newline: the log may have been cut short.",
    KIND_MISSING: "The document does not say which kind it is (`kind:`).",
    KIND_UNKNOWN: "The document's `kind:` is not one casino-audit knows.",
    JURISDICTION_MISSING: "The document does not name its jurisdiction and none was given with --jurisdiction.",
    JURISDICTION_UNSUPPORTED: "No ruleset is loaded for the document's jurisdiction.",
    JURISDICTION_NO_RULES: "The jurisdiction's ruleset has no rule for this kind of document or game.",
    RULESET_INVALID: "A ruleset met among the files checked is not valid (it is validated, not checked as a filing).",
    SHAPE_UNKNOWN_FIELD: "The document has a field its kind's schema does not define.",
    SHAPE_INVALID: "A value does not have the shape the kind's schema requires.",
    SHAPE_UNLISTED: "The document has more shape errors than are listed (100); this says how many more.",
    CONFIG_INVALID: "The config file cannot be used; nothing was checked (the run exits 2).",
    LOG_NUMBERING: ("A game log's coup numbers have a gap, a repeat or a step back, or start past its first coup (1, or "
                    "the header's `first_coup`): coups may be missing."),
    LOG_TIME: "A log's record has no readable ISO 8601 time, or a time before the previous coup's, or one with a time "
              "zone where the previous had none or the reverse (a game log), or not after the same machine's previous "
              "reading (a meter log).",
    LOG_SESSION: "A game log's session comes back after another began: a session's coups are logged together, and "
                 "the rules kept through a session (its minimum) would start again.",
    LOG_UNTRACKED: "A game log holds more sessions or shoes than are remembered (100,000) to find one that comes "
                   "back: from there on, a return is not looked for (a warning; memory stays flat).",
    LOG_UNFILED: ("A meter log reads a machine that no homologation file is filed for: none is named for it, or the "
                  "one named gives another location number and serial number."),
    LOG_CURRENCY: ("A game log whose amounts are in another currency than the euros the law's are in: an error (a "
                   "declaration that would loosen the law is never a pass); the amounts in euros (a table "
                   "configuration's limits, parameters) are not applied to it, and what they bound is said not "
                   "checked."),
    LOG_SET_ASIDE: ("A meter log's periods set aside from a machine's realised return (a meter set back or "
                    "unreadable, coin-in meters that disagree), counted; the return is judged over the rest (info)."),
    LOG_GAP: "A meter log reads a machine less often than its stated reading interval (between two readings, or "
             "from the log's start or to its end); a warning.",
    WAIVER_EXPIRED: "A waiver in the config is past its expiry date: it covers nothing, and the findings it covered "
                    "count again.",
    WAIVER_UNUSED: "A waiver in the config covered no finding: the breach is gone, or the waiver names the wrong rule, "
                   "file or place.",
    INTERNAL_ERROR: "casino-audit itself failed on this file; its verdict is unknown and the run exits 2.",
}

TOOL_PREFIXES = frozenset(rule_id.split("-", 1)[0] for rule_id in TOOL_FINDINGS)  # a rule id may take none of them
