"""The one-way pipeline: discover files -> load -> identify kind -> validate shape -> check rules -> result.

Loader and checker are passed in, so each stage can be tested alone; reporters read the RunResult.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from casino_audit import findings as F
from casino_audit import kinds
from casino_audit.engine import Checker, selected
from casino_audit.findings import Finding, Severity
from casino_audit.config import is_config_name
from casino_audit.loader import FileLoad, load_file
from casino_audit.rulesets import RulesetError, looks_like_ruleset, ruleset_from_document

EXTENSIONS = (".yaml", ".yml", ".json")


@dataclass
class FileRecord:
    path: str
    status: str  # checked | partial | unreadable | skipped
    documents: int = 0
    reason: str | None = None


@dataclass
class RunResult:
    files: list[FileRecord] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def failed(self, threshold: Severity | None) -> bool:
        return threshold is not None and any(f.severity >= threshold for f in self.findings)

    def summary(self) -> dict:
        files_with_findings = {f.file for f in self.findings if f.file}
        statuses = [record.status for record in self.files]
        return {
            "files": len(self.files),
            "files_checked": statuses.count("checked") + statuses.count("partial"),
            "files_with_findings": len(files_with_findings),
            "files_unreadable": statuses.count("unreadable") + statuses.count("partial"),
            "files_skipped": statuses.count("skipped"),
            "documents": sum(record.documents for record in self.files),
            "errors": self.count(Severity.ERROR),
            "warnings": self.count(Severity.WARNING),
            "infos": self.count(Severity.INFO),
        }


class UsageError(Exception):
    pass


def discover(paths: Iterable[str]) -> tuple[list[str], list[FileRecord]]:
    """Files to check, and the files met in walked directories that are not filings (reported as skipped).

    A file named on the command line is read whatever its extension, unless it is a casino-audit config file.
    """
    to_check: list[str] = []
    skipped: list[FileRecord] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                for name in dirs:
                    if os.path.islink(os.path.join(root, name)):  # os.walk does not follow them: say so
                        skipped.append(FileRecord(os.path.join(root, name), "skipped",
                                                  reason="a link to a directory, not followed (name it to check it)"))
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not os.path.islink(os.path.join(root, d)))
                for name in sorted(files):
                    if name.startswith("."):
                        continue
                    full = os.path.join(root, name)
                    if is_config_name(name):
                        skipped.append(FileRecord(full, "skipped", reason="a casino-audit config file, not a filing"))
                    elif name.lower().endswith(EXTENSIONS):
                        to_check.append(full)
                    else:
                        skipped.append(FileRecord(full, "skipped", reason="not a YAML or JSON file"))
        elif is_config_name(path.name):  # pre-commit and shell globs pass config files along with filings
            skipped.append(FileRecord(raw, "skipped", reason="a casino-audit config file, not a filing"))
        elif path.exists() or path.is_symlink():
            to_check.append(raw)
        else:
            raise UsageError(f"no such file or directory: {raw}")
    return to_check, skipped


def run(paths: Iterable[str], checker: Checker, loader: Callable[[str], FileLoad] = load_file,
        jurisdiction: str | None = None) -> RunResult:
    files, skipped = discover(paths)
    result = RunResult()
    for path in files:
        loaded = loader(path)
        status = "checked" if not loaded.findings else ("partial" if loaded.documents else "unreadable")
        reason = loaded.findings[0].message if loaded.findings else None
        result.files.append(FileRecord(path, status, len(loaded.documents), reason))
        result.findings.extend(loaded.findings)
        for document in loaded.documents:
            result.findings.extend(check_document(document, checker, jurisdiction))
    result.files.extend(skipped)
    result.findings = [f for f in result.findings if selected(f.rule_id, checker.select, checker.ignore)]
    result.findings.sort(key=Finding.sort_key)
    return result


def ruleset_findings(document) -> list[Finding]:
    try:
        ruleset_from_document(document, Path(document.file))
    except RulesetError as error:
        return [Finding(F.RULESET_INVALID, Severity.ERROR, getattr(p, "message", p), getattr(p, "file", document.file),
                        getattr(p, "line", None), getattr(p, "column", None), document=document.index)
                for p in error.problems]
    return []


def check_document(document, checker: Checker, jurisdiction_override: str | None = None) -> list[Finding]:
    found = list(document.findings)
    data = document.data

    def tool_finding(rule_id: str, message: str, pointer: str = "", jurisdiction: str | None = None) -> Finding:
        line, column = document.position(pointer) or (None, None)
        return Finding(rule_id, Severity.ERROR, message, document.file, line, column, pointer, document.index,
                       jurisdiction)

    if looks_like_ruleset(data):  # a house ruleset kept beside the filings: validate it, do not misread it
        return found + ruleset_findings(document)
    kind, problem = kinds.identify(data)
    if kind is None:
        found.append(tool_finding(*problem, pointer="/kind" if isinstance(data, dict) else ""))
        return found
    jurisdiction = jurisdiction_override or data.get("jurisdiction")
    shape_errors = kinds.validator(kind).errors(data)
    for rule_id, pointer, message in shape_errors:
        found.append(tool_finding(rule_id, message, pointer, jurisdiction if isinstance(jurisdiction, str) else None))
    if not jurisdiction:
        found.append(tool_finding(F.JURISDICTION_MISSING, "the document does not name its jurisdiction "
                                  "(add `jurisdiction: LU`, or pass --jurisdiction)"))
        return found
    misshapen = {pointer for _, pointer, _ in shape_errors}
    if "/jurisdiction" in misshapen and not jurisdiction_override:
        return found  # already reported as a shape error; no ruleset can be chosen for it
    if not isinstance(jurisdiction, str) or jurisdiction not in checker.rulesets:
        loaded = ", ".join(sorted(checker.rulesets)) or "none"
        found.append(tool_finding(F.JURISDICTION_UNSUPPORTED, f"no ruleset is loaded for jurisdiction "
                                  f"{jurisdiction!r} (loaded: {loaded}); the document was not checked against law",
                                  "/jurisdiction"))
        return found
    game_field = kinds.KINDS[kind].game_field
    game = kinds.KINDS[kind].game_of(data)
    if not checker.covers(jurisdiction, kind, game):
        what = f"{kind} documents" + (f" for the game {game!r}" if game_field else "")
        found.append(tool_finding(F.JURISDICTION_NO_RULES, f"the {jurisdiction} ruleset has no rules for {what}; "
                                  "the document was not checked against law", f"/{game_field}" if game_field else "",
                                  jurisdiction))
        return found
    # A value of the wrong shape is reported once, by its shape finding, not again by every rule reading it.
    found.extend(f for f in checker.check(document, kind, jurisdiction) if f.pointer not in misshapen)
    return found
