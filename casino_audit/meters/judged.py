"""The realised return judged at the log's close: each machine's gaps at the log's start and end, its last month's
drop-box count, then its realised return against its theory's interval (return_departure, return_minimum) or the
bound a machine paying at its rate keeps to (rate_changed); what could not be judged, or only narrowly, is said.

JudgedReturns is a part of meters.session.MeterSession: its methods use the session's findings, rules and machines."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Iterator

from casino_audit.core import findings as F
from casino_audit.core.display import brief
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.values import show, to_decimal
from casino_audit.law.checks.meters import DEFAULT_CONFIDENCE
from casino_audit.meters import theory as theories
from casino_audit.meters.figures import exact_decimal, hours, left_out_said, percent
from casino_audit.meters.machines import Machine
from casino_audit.meters.stats import bet_squares, log_inverse, normal_quantile, root

SHOWN_MACHINES = 10  # machines named in one "not checked" finding; the rest are counted


# A return judged with every game staking the same passes a games_played meter that barely moves (a few games
# staking every coin make the interval as wide as one likes): where it passed so, it is said, never passed unseen.
EQUAL_STAKES = ("judged only as if every game staked the same, for no maximum stake is known (give the log's "
                "`denomination` and the homologation file's `stakes.maximum_eur`): a return within that interval may "
                "still be outside the worst case's")


# A machine whose PAR data went uncounted because the log's work was spent on the machines read before it (a filer
# decides their order) and whose return is off its rate would pass on the bound: never a pass, for two decoy sheets
# read first would otherwise let a machine paying 75 % of a 92.5 % rate through.
ON_BUDGET = ("below its declared rate, it is within only the widest interval a machine of its rate and top award can "
             "have, for the slot engine's work for this log's PAR data (at most "
             f"{theories.EXACT_SHEETS} distinct sheets counted exactly) was spent on machines read before it: give "
             "its readings in a log of their own, where its PAR data are counted exactly")


# A return judged against the top award's bound passes whatever is within the widest interval a machine of its rate
# could have: said, for the machine's own (from PAR data counted exactly) may be much narrower.
ON_THE_BOUND = ("passed, judged only against the largest standard deviation a machine of its declared rate and top award "
                "can have, for its PAR data were not counted exactly: a return within that interval may still be "
                "outside the machine's own")


class JudgedReturns:
    """A meter session's close: each machine's realised return judged."""

    def close(self) -> Iterator[Finding]:
        if not self.counts.checked:  # a header alone: an export cut short proves nothing about any machine
            yield self._tool(F.LOAD_EMPTY, "", "the meter log holds no reading")
        yield from self.outside_period()
        start = self.period[0] if self.period else self.start_time
        end = self.period[1] if self.period else self.end_time
        unknown: dict[tuple[str, str], list[str]] = {}  # (aspect, why) -> machines
        narrowed: dict[tuple[str, str], list[str]] = {}  # (aspect, how) -> machines whose return passed so
        denied: dict[str, list[str]] = {}  # aspect -> machines on the bound for the work other machines spent
        for machine in {id(m): m for m in self.machines.values()}.values():  # a machine read under two ids once
            if machine.record is None:
                continue  # no reading of it was used: each was reported
            if self.period and self.aware:  # the period's days in the log's own time, at its readings' offset
                start, end = (bound.replace(tzinfo=machine.time.tzinfo) for bound in self.period)
            if self.interval is not None and start is not None and _comparable(start, machine.first_time) and \
                    machine.first_time - start > self.interval:
                yield self._tool(F.LOG_GAP, "/time", f"machine {machine.label} first read at "
                                 f"{machine.first_time.isoformat()}, {hours(machine.first_time - start)} hours after "
                                 f"the log's start ({start.isoformat()}), more than its reading interval of "
                                 f"{self.interval_text} hours", machine.first_record, Severity.WARNING)
            if self.interval is not None and end is not None and _comparable(end, machine.time) and \
                    end - machine.time > self.interval:
                yield self._tool(F.LOG_GAP, "/time", f"machine {machine.label} last read at {machine.time.isoformat()}, "
                                 f"{hours(end - machine.time)} hours before the log's end ({end.isoformat()}), more "
                                 f"than its reading interval of {self.interval_text} hours", machine.record,
                                 Severity.WARNING)
            if "drop_counted" in self.by_aspect and not machine.counted:
                if machine.month_whole and self._to_end(machine.time):
                    yield from self._uncounted(machine, machine.month, machine.record, "its last reading that month")
                elif machine.month_whole:
                    self._part_uncounted(machine, f"up to {machine.time.date()}")
                else:
                    self._part_uncounted(machine, f"from {machine.first_time.date()} to {machine.time.date()}")
            yield from self.unread_in_period(machine)
            yield from self._judge(machine, unknown, narrowed, denied)
        yield from self.entries_never_read()
        yield from self.partly_covered()
        yield from self._unjudged(unknown, narrowed, denied)

    def _judge(self, machine: Machine, unknown: dict, narrowed: dict, denied: dict) -> Iterator[Finding]:
        """One machine's realised return under each return rule, or why it is not judged (gathered in `unknown`,
        `narrowed` and `denied`, said for every machine at once)."""
        judged = [aspect for aspect in ("return_departure", "return_minimum", "rate_changed")
                  if aspect in self.by_aspect] or [None]
        for aspect in ("return_departure", "return_minimum", "rate_changed"):
            if aspect not in self.by_aspect:
                continue
            why = machine.unknown_theory
            sums = machine.sums
            if why is None and sums.staked and not sums.games and machine.max_bet is None:
                why = "coins were staked but its games_played meter did not move"
            if why is None and aspect == "rate_changed" and machine.max_bet is None:
                why = ("no maximum stake is known (give the log's `denomination` and the homologation file's "
                       "`stakes.maximum_eur`): an error is never found on stakes assumed equal")
            if why is None and not sums.staked and sums.left_out:  # played, maybe: nothing says it was not
                why = "no period between its readings in which coins were staked could be counted" + \
                    left_out_said(sums.left_out)
            if why is not None:
                if sums.staked or sums.left_out:  # a machine nobody played has no return to judge
                    unknown.setdefault((aspect, why), []).append(machine.label)
                continue
            if sums.staked:
                found = list(self._return(aspect, machine))
                yield from found
                if not found and machine.max_bet is None and aspect != "rate_changed":  # an assumption: said
                    unknown.setdefault((aspect, EQUAL_STAKES), []).append(machine.label)
                if not found and machine.theory.source == theories.BOUND:
                    if machine.theory.denied and sums.paid < machine.theory.rtp * sums.staked:
                        denied.setdefault(aspect, []).append(machine.label)  # the filer's order: never a pass
                    else:
                        narrowed.setdefault((aspect, ON_THE_BOUND), []).append(machine.label)
                if sums.left_out and aspect == judged[0]:  # set aside, never in silence: said once
                    reasons = "; ".join(f"{why}: {count}" for why, count in sums.left_out.items())
                    yield self._tool(F.LOG_SET_ASIDE, "", f"machine {machine.label}: "
                                     f"{sum(sums.left_out.values())} period(s) between readings set aside from "
                                     f"its realised return ({reasons}); it is judged over the periods that "
                                     "remain", self.header, Severity.INFO)

    def _unjudged(self, unknown: dict, narrowed: dict, denied: dict) -> Iterator[Finding]:
        """The returns not judged, or judged narrowly, each reason said once for the machines it holds for."""
        for (aspect, why), names in unknown.items():
            shown = ", ".join(names[:SHOWN_MACHINES]) + (f" and {len(names) - SHOWN_MACHINES} more"
                                                          if len(names) > SHOWN_MACHINES else "")
            yield from self._not_checked(self.by_aspect[aspect], self.header, "",
                                         f"the realised return of {shown}: {why}")
        for (aspect, how), names in narrowed.items():
            shown = ", ".join(names[:SHOWN_MACHINES]) + (f" and {len(names) - SHOWN_MACHINES} more"
                                                          if len(names) > SHOWN_MACHINES else "")
            yield from self._said(self.by_aspect[aspect], self.header, f"the realised return of {shown}: {how}")
        severity = Severity.ERROR if self.require_params else Severity.WARNING
        for aspect, names in denied.items():
            shown = ", ".join(names[:SHOWN_MACHINES]) + (f" and {len(names) - SHOWN_MACHINES} more"
                                                          if len(names) > SHOWN_MACHINES else "")
            for rule, _ in self.by_aspect[aspect]:
                if self.admit(self.file, rule.id, severity):
                    line, column = self.header.position("") or (None, None)
                    yield Finding(rule.id, severity, f"not judged: the realised return of {shown}: {ON_BUDGET}",
                                  self.file, line, column, "", self.header.index, self.jurisdiction, rule.citation)

    def _return(self, aspect: str, machine: Machine) -> Iterator[Finding]:
        """The realised return against the theory's interval: a departure either way (return_departure), or a
        return significantly under the law's minimum (return_minimum). Squares are compared exactly."""
        sums, theory = machine.sums, machine.theory
        realised = Fraction(sums.paid, sums.staked)
        squares = bet_squares(sums.staked - sums.ungamed, sums.games, machine.max_bet) + \
            (machine.max_bet * sums.ungamed if sums.ungamed else 0)
        variance = theory.variance * squares / sums.staked ** 2
        stakes = (f"stakes of 1 to {machine.max_bet} units a game, the worst case" if machine.max_bet is not None
                  else "every game staking the same (the maximum stake, from the homologation file and the log's "
                       "`denomination`, would bound them)")
        over = (f"{sums.staked:,} units staked and {sums.games:,} games from line {sums.first_line} to line "
                f"{sums.last_line}" + left_out_said(sums.left_out) +
                (f"; games_played not known over {sums.ungamed_periods} period(s) staking {sums.ungamed:,} units, each "
                 f"game taken to stake the maximum" if sums.ungamed_periods else ""))
        theory_said = f"{_theory_said(theory)}; {stakes}"
        for rule, spec in self.by_aspect[aspect]:
            if aspect == "rate_changed":
                yield from self._rate_changed(rule, spec, machine, realised, squares, over, theory_said)
                continue
            confidence = to_decimal(spec.get("confidence", DEFAULT_CONFIDENCE))
            if confidence is None or not 50 < confidence < 100:  # a house parameter of another kind
                yield from self._not_checked([(rule, spec)], machine.record, "", f"the rule's confidence "
                                             f"{brief(show(spec.get('confidence')))} is no percentage over 50 and "
                                             "under 100")
                continue
            confidence = Fraction(confidence) / 100
            if aspect == "return_departure":
                z = normal_quantile((1 + confidence) / 2)
                centre = min(max(realised, theory.rtp), theory.high or theory.rtp)  # the nearest paytable's rate
                gap = realised - centre
                if gap * gap <= z * z * variance:
                    continue
                half = root(z * z * variance)
                side = "above" if gap > 0 else "below"
                message = (f"machine {machine.label}: realised return {percent(realised)} over {over}, {side} the "
                           f"{percent(confidence, 6)} interval {percent(centre)} ± {percent(half)} "
                           f"({percent(centre - Fraction(half))} to {percent(centre + Fraction(half))}) "
                           f"around its theory ({theory_said})")
            else:
                minimum = Fraction(to_decimal(spec["minimum_percent"])) / 100
                z = normal_quantile(confidence)
                short = minimum - realised
                if short <= 0 or short * short <= z * z * variance:
                    continue
                half = root(z * z * variance)
                message = (f"machine {machine.label}: realised return {percent(realised)} over {over}: below "
                           f"{percent(minimum, 6)} with {percent(confidence, 6)} confidence (its one-sided upper "
                           f"bound is {percent(realised + Fraction(half))}, by its theory: {theory_said})")
            yield from self._breach([(rule, spec)], machine.record, "", message)


    def _rate_changed(self, rule, spec, machine: Machine, realised: Fraction, squares: Fraction, over: str,
                      theory_said: str) -> Iterator[Finding]:
        """The realised pay so far short of the theory's that a machine paying at its rate falls as short with a
        probability of `false_alarm` at most, by the bound on the lower tail of non-negative pays (stats.py):
        t^2 > 2 ln(1/alpha) E[X^2] sum b_i^2, exactly (ln rounded up)."""
        sums, theory = machine.sums, machine.theory
        alarm = _probability(spec.get("false_alarm"))
        if alarm is None:
            yield from self._not_checked([(rule, spec)], machine.record, "", f"the rule's false_alarm "
                                         f"{brief(show(spec.get('false_alarm')))} is no probability between 0 and 1")
            return
        short = theory.rtp * sums.staked - sums.paid
        second = theory.variance + theory.rtp ** 2  # E[X^2] of one game's return per unit staked
        limit = 2 * log_inverse(alarm) * second * squares
        if short <= 0 or short * short <= limit:
            return
        sigmas = root(short * short / (second * squares))
        message = (f"machine {machine.label}: realised return {percent(realised)} over {over}: "
                   f"{percent(theory.rtp - realised)} below its theory, {exact_decimal(Fraction(sigmas), 2)} times the "
                   f"root mean square of its pay (a machine paying at that rate falls as far with a probability under "
                   f"{format(to_decimal(spec['false_alarm']), 'f')}, whatever its pay table's shape): another rate than the one "
                   f"filed is applied ({theory_said})")
        yield from self._breach([(rule, spec)], machine.record, "", message)


def _probability(value) -> Fraction | None:
    """A false-alarm probability as the rule gives it (text of a decimal), strictly between 0 and 1."""
    number = to_decimal(value) if isinstance(value, str) else None
    if number is None or not 0 < number < 1:
        return None
    return Fraction(number)


def _theory_said(theory) -> str:
    """Where the theory a return is judged against comes from, as a finding says it."""
    if theory.source == theories.PAR and theory.tables > 1:
        rates = percent(theory.rtp) + (f" to {percent(theory.high)}" if theory.high is not None else "")
        return (f"par return {rates} over its {theory.tables} paytables (a meter does not say which one a game "
                f"is of), standard deviation per game at most {exact_decimal(theory.variance_root)}, computed from its "
                "PAR data")
    if theory.source == theories.PAR:
        return (f"par return {percent(theory.rtp)}, standard deviation per game {exact_decimal(theory.variance_root)}, "
                "computed from its PAR data")
    return (f"declared return {percent(theory.rtp)}, standard deviation per game at most "
            f"{exact_decimal(theory.variance_root)}, the largest a machine of that rate paying at most "
            f"{exact_decimal(theory.top)} per unit staked in one game can have ({theory.why})")


def _comparable(a: datetime, b: datetime) -> bool:
    return (a.tzinfo is None) == (b.tzinfo is None)
