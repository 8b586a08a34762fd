"""The ruleset model: a ruleset, its rules, parameters and rules of play, as the loader
(casino_audit.law.rulesets) builds them and every check reads them; and a ruleset's problems. It stands on the
check kinds and the citations only: the engines, the log sessions and the loader stand on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any, Callable, Sequence
from zoneinfo import ZoneInfo

from casino_audit.core.findings import RULESET_INVALID, Citation, Finding, Severity
from casino_audit.core.values import to_decimal
from casino_audit.law import checks
from casino_audit.law.citations import provision_citation, provisions_in
from casino_audit.law.scopes import DOCUMENT


def problem(file: str | None, line: int | None, column: int | None, message: str) -> Finding:
    """A ruleset problem is a finding like any other (printed as 'file:line:col: message')."""
    return Finding(RULESET_INVALID, Severity.ERROR, message, file, line, column)


class RulesetError(Exception):
    """A ruleset that cannot be used; `problems` are findings (RULESET-INVALID) at their file:line:column."""

    def __init__(self, problems: list):
        self.problems = [p if isinstance(p, Finding) else problem(None, None, None, str(p)) for p in problems]
        super().__init__("\n".join(map(str, self.problems)))


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    description: str
    citation: Citation
    one_of: tuple[str, ...] | None = None  # a string parameter's only values (a mistyped one is refused)
    unit: str | None = None  # what a number is counted in (EUR, minutes): an amount in euros binds no other currency

    def parse(self, raw: Any) -> Any:
        if self.type == "string":
            value = str(raw)
            if self.one_of is not None and value not in self.one_of:
                raise ValueError(f"parameter {self.name} takes {' or '.join(self.one_of)}, not {raw!r}")
            return value
        number = to_decimal(raw if not isinstance(raw, str) else raw.strip())
        if number is None or (self.type == "integer" and number != number.to_integral_value()):
            raise ValueError(f"parameter {self.name} takes {'a whole number' if self.type == 'integer' else 'a number'}, "
                             f"not {raw!r}")
        return int(number) if self.type == "integer" else number


@dataclass
class Rule:
    id: str
    title: str
    severity: Severity
    kind: str
    games: tuple[str, ...]
    check: dict
    when: tuple[dict, ...]
    citation: Citation
    rationale: str
    jurisdiction: str
    source: str  # file:line where the rule is defined
    params: tuple[str, ...] = ()
    scope: str = DOCUMENT  # document | record | dossier (casino_audit.law.scopes)

    def compile(self, values: dict[str, Any]) -> Callable[[Any], Any]:
        spec = checks.bind_params(self.check, values)
        return checks.CHECK_KINDS[spec["kind"]].compile(spec)

    def describe(self) -> str:
        text = checks.CHECK_KINDS[self.check["kind"]].describe(self.check)
        if self.when:
            text += " — when " + " and ".join(checks.describe_condition(c) for c in self.when)
        return text


@dataclass
class Ruleset:
    name: str
    code: str
    jurisdiction_name: str
    instrument: dict
    params: dict[str, Param]
    rules: list[Rule]
    source: str
    instruments: dict = field(default_factory=dict)  # every instrument a citation may name, by key
    not_encoded: list = field(default_factory=list)  # provisions left out on purpose: {article, subject, reason}
    chain: tuple[str, ...] = field(default_factory=tuple)  # names from this one up to the root
    path: str = ""  # the file this ruleset was read from, as it was named
    digest: str = ""  # sha256 (hex) of that file's bytes; "" when it could not be read again
    parent: "Ruleset | None" = None  # the ruleset it extends
    # Each rule of the parent chain that this file replaced by id: (the rule it replaced, the new rule).
    replaced: list[tuple[Rule, Rule]] = field(default_factory=list)
    play: dict[str, "Play"] = field(default_factory=dict)  # the rules of play by game, for the game engines
    # The IANA time zones the jurisdiction's tables keep, the first the default: a game log's naive local times
    # are read in its table's zone (its header's `timezone`, one of these).
    time_zones: tuple[str, ...] = ()


@dataclass(frozen=True)
class Play:
    """A game's rules of play as the law states them (a drawing table, what a zero does), for the engines of
    casino_audit/games/, with the citation they rest on."""

    game: str
    citation: Citation
    data: dict
    # the instruments of the ruleset that gave this play: what its provisions (the citations in `data`) name
    instruments: dict = field(default_factory=dict, compare=False)

    def provisions(self) -> list[tuple[str, Citation]]:
        """(where in the play data, its Citation) of every provision the rules of play quote, in order."""
        return [(pointer, provision_citation(raw, self.instruments)) for pointer, raw in provisions_in(self.data)]


def zone_read_as(name: object, zones: Sequence[str]) -> str | None:
    """The one of `zones` whose clock the IANA zone `name` keeps, where it is another name for it (`Portugal`
    for Europe/Lisbon, a link of the zone database): the same offset from UTC at every hour since 1970, each
    clock change on the same day. None where `name` is no zone, or keeps none of their clocks."""
    if not known_zone(name):
        return None
    for zone in zones:
        if zone == name or _same_clock(name, zone):
            return zone
    return None


@lru_cache(maxsize=64)  # a tenth of a second a pair: a run of logs naming the same zone compares it once
def _same_clock(first_name: str, second_name: str) -> bool:
    first, second = ZoneInfo(first_name), ZoneInfo(second_name)
    # noon UTC each day to 2100; the hours of a day whose offset moved in either zone, one by one
    day, hour, end = datetime(1970, 1, 1, 12, tzinfo=timezone.utc), timedelta(hours=1), datetime(2100, 1, 1,
                                                                                                  tzinfo=timezone.utc)
    before = None
    while day < end:
        offsets = (day.astimezone(first).utcoffset(), day.astimezone(second).utcoffset())
        if offsets[0] != offsets[1]:
            return False
        if before is not None and offsets != before:
            moment = day - 24 * hour
            while moment < day:
                if moment.astimezone(first).utcoffset() != moment.astimezone(second).utcoffset():
                    return False
                moment += hour
        before, day = offsets, day + 24 * hour
    return True


def known_zone(name: object) -> bool:
    """Whether `name` is an IANA time zone the zone database holds (Europe/Luxembourg), never a path."""
    if not isinstance(name, str) or not name or name != name.strip():
        return False
    try:
        ZoneInfo(name)
    except (ValueError, OSError, LookupError):  # ZoneInfoNotFoundError is a KeyError
        return False
    return True

