"""What a run found, as every reporter reads it: the files, the findings shown, and exact counts.

Kept apart from the pipeline so reporters never import the orchestrator.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from casino_audit.core.findings import Finding, Severity

DEFAULT_MAX_PER_RULE = 20  # findings shown per rule and file; the rest are counted, never dropped from the verdict


@dataclass
class FileRecord:
    path: str
    status: str  # checked | partial | unreadable | skipped
    documents: int = 0
    reason: str | None = None
    # A record stream's accounting: records read, coups checked, coups with a finding, lines unreadable.
    records: dict[str, int] | None = None
    # Who filed each document, as it says (a filing's `filing.applicant`, a game log's `casino`): index -> text.
    filed_by: dict[int, str] | None = None
    # The filings its documents name and were judged under (a game log's table configuration, a meter log's
    # homologation files), by path: each checked with it as a filing of its own.
    named_filings: list[str] | None = None
    # The real paths of the files its documents name and the check read (a log's table configuration, a meter
    # log's homologation file): never a report's place.
    reads: list[str] | None = None


@dataclass(frozen=True, order=True)
class Omitted:
    """Findings of one rule in one file beyond --max-per-rule: counted exactly, not shown."""

    file: str
    rule_id: str
    shown: int
    total: int
    suppression: str | None = None  # "waiver" | "baseline": findings covered, capped apart from those that count


@dataclass
class RunResult:
    files: list[FileRecord] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # the findings shown, sorted
    omitted: list[Omitted] = field(default_factory=list)
    totals: Counter = field(default_factory=Counter)  # Severity -> every finding counted toward the verdict
    suppressed: Counter = field(default_factory=Counter)  # "waiver" | "baseline" -> findings reported as such
    not_applied: list[str] = field(default_factory=list)  # rule ids not applied for want of a parameter value
    applied: list[str] = field(default_factory=list)  # rule ids checked against at least one document or log
    internal_errors: int = 0  # files whose check crashed: the run exits 2 after reporting them

    def count(self, severity: Severity) -> int:
        return self.totals[severity]

    def failed(self, threshold: Severity | None) -> bool:
        return threshold is not None and any(n for severity, n in self.totals.items() if severity >= threshold)

    def exit_code(self, threshold: Severity | None) -> int:
        """2 when a file's check crashed (its verdict is unknown), else 1 on findings at or above the threshold."""
        if self.internal_errors:
            return 2
        return 1 if self.failed(threshold) else 0

    def files_to_check(self) -> int:
        return sum(1 for record in self.files if record.status != "skipped")

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
            **{f"records_{key}": sum((record.records or {}).get(key, 0) for record in self.files)
               for key in ("read", "checked", "with_findings", "unreadable")},
            "errors": self.count(Severity.ERROR),
            "warnings": self.count(Severity.WARNING),
            "infos": self.count(Severity.INFO),
            "findings_omitted": sum(o.total - o.shown for o in self.omitted),
            "waived": self.suppressed["waiver"],
            "baselined": self.suppressed["baseline"],
            "rules_not_applied": len(self.not_applied),
            "internal_errors": self.internal_errors,
        }


@dataclass
class SinkPart:
    """A sink's content in transit between processes; the files it covers are no other part's."""

    kept: list[Finding]
    run_level: list[Finding]
    totals: Counter
    suppressed: Counter
    per_rule: Counter


class FindingSink:
    """Collects findings as a run makes them: exact counts for all, the first `max_per_rule` of each rule in each
    file kept (0 keeps all), run-level findings (no file) once each. Memory stays bounded by what is shown.

    A `suppressor` (waivers, the baseline) marks the findings it covers: they are counted and capped apart, and do
    not count toward the verdict. Findings it might cover are made even past the cap, to be told apart."""

    def __init__(self, max_per_rule: int = DEFAULT_MAX_PER_RULE, suppressor=None):
        self.max_per_rule = max_per_rule
        self.suppressor = suppressor
        self.kept: list[Finding] = []
        self.totals: Counter = Counter()
        self.suppressed: Counter = Counter()
        self._per_rule: Counter = Counter()
        self._run_level: set[tuple[str, str]] = set()
        self._run_level_totals: Counter = Counter()  # counted in `totals` too

    def add(self, finding: Finding) -> None:
        if finding.file is None:
            key = (finding.rule_id, finding.message)
            if key in self._run_level:
                return
            self._run_level.add(key)
            self.totals[finding.severity] += 1
            self._run_level_totals[finding.severity] += 1
            self.kept.append(finding)
            return
        suppression = self.suppressor.match(finding) if self.suppressor is not None else None
        if suppression is not None:
            finding.suppression = suppression
            self.suppressed[suppression.kind] += 1
            if self._shown(finding.file, finding.rule_id, suppression.kind):
                self.kept.append(finding)
        elif self.admit_now(finding.file, finding.rule_id, finding.severity):
            self.kept.append(finding)

    def admit(self, file: str, rule_id: str, severity: Severity) -> bool:
        """Count a finding of this rule in this file, before it is made; True if it is to be made and given to
        `keep`. A finding a waiver or the baseline might cover is counted in `keep`, once it can be told apart."""
        if self.suppressor is not None and self.suppressor.may_match(file, rule_id):
            return True
        return self.admit_now(file, rule_id, severity)

    def admit_now(self, file: str, rule_id: str, severity: Severity) -> bool:
        self.totals[severity] += 1
        return self._shown(file, rule_id, None)

    def _shown(self, file: str, rule_id: str, suppression: str | None) -> bool:
        key = (file, rule_id, suppression)
        count = self._per_rule[key] = self._per_rule[key] + 1
        return not self.max_per_rule or count <= self.max_per_rule

    def keep(self, finding: Finding) -> None:
        """A finding `admit` let through."""
        if self.suppressor is not None and self.suppressor.may_match(finding.file, finding.rule_id):
            self.add(finding)
        else:
            self.kept.append(finding)

    def extend(self, findings) -> None:
        for finding in findings:
            self.add(finding)

    def take(self) -> "SinkPart":
        """What this sink holds, handed over (to a parent process's sink), and emptied."""
        part = SinkPart([f for f in self.kept if f.file is not None], [f for f in self.kept if f.file is None],
                        self.totals - self._run_level_totals, self.suppressed, self._per_rule)
        self.kept, self.totals, self.suppressed, self._per_rule = [], Counter(), Counter(), Counter()
        self._run_level_totals = Counter()
        return part

    def absorb(self, part: "SinkPart") -> None:
        """Another sink's findings of other files (a worker's): counts added, run-level findings said once."""
        self.kept.extend(part.kept)
        self.totals.update(part.totals)
        self.suppressed.update(part.suppressed)
        self._per_rule.update(part.per_rule)
        for finding in part.run_level:
            self.add(finding)

    def omitted(self) -> list[Omitted]:
        limit = self.max_per_rule
        return sorted((Omitted(file, rule_id, limit, total, suppression)
                       for (file, rule_id, suppression), total in self._per_rule.items() if limit and total > limit),
                      key=lambda o: (o.file, o.rule_id, o.suppression or ""))
