"""The table's limits through a log: kept through a period as the law asks, their coefficient, and held
to the law's table rules on stakes at the header and at each change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import MAX_PREC, Context, Decimal
from fractions import Fraction
from typing import Iterator, Mapping

from casino_audit.core import findings as F
from casino_audit.core import pointers
from casino_audit.core.display import brief
from casino_audit.core.findings import Finding
from casino_audit.core.values import show, to_decimal
from casino_audit.law.checks.common import NotChecked
from casino_audit.replay import cents, money


_EXACT = Context(prec=MAX_PREC)  # a product of two amounts, exact (the default 28 digits would round one)

# A table's stakes -> where a log's header gives them
_HEADER_PLACES = {"/stakes/minimum_eur": "/limits/minimum", "/stakes/maximum_eur": "/limits/maximum",
                  "/stakes/maxima_eur": "/limits/maxima", "/stakes/minima_eur": "/limits/minima"}


@dataclass
class _Limits:
    minimum: Decimal | None
    maximum: Decimal | None
    since: dict = field(default_factory=dict)  # "minimum"/"maximum" -> (period key by `per`, coup) when set


class LimitAspects:
    """The limits of the core's aspects (a part of `CoreAspects`, whose state it reads)."""

    def _limits(self, record, data, when) -> Iterator[Finding]:
        given = data.get("limits")
        current = self.limits
        first, self.started = not self.started, True
        changes = {}
        if isinstance(given, dict):
            for key in ("minimum", "maximum"):
                if key in given:
                    value = money(given[key])
                    if value is not None and value != getattr(current, key):
                        changes[key] = value
            yield from self._loosened(record, changes)
        for key in ("minimum", "maximum"):
            for rule, spec in self.wanted.get(f"{key}_unchanged", ()):
                period = self._period(spec["per"], when)
                was = current.since.get((key, spec["per"]))
                if key in changes and was is not None and was[0] == period and period is not None:
                    yield from self.session._breach(f"{key}_unchanged", record, f"/limits/{key}",
                                          f"the table's {key} changes from {cents(getattr(current, key))} to "
                                          f"{cents(changes[key])} {self._within(spec['per'], period)} "
                                          f"(set at coup {was[1]})")
                if period is None and was is not None:  # this coup's time unread: its day is not a new one
                    if key in changes:
                        self._unplaced(rule, record, data, f"the {key}", spec["per"])
                        current.since[(key, spec["per"])] = (was[0], data.get("coup"))
                elif key in changes or was is None or was[0] != period:
                    current.since[(key, spec["per"])] = (period, data.get("coup"))
        if "coefficient_unchanged" in self.wanted:
            yield from self._coefficient_kept(record, data, when, changes)
        for key, value in changes.items():
            setattr(current, key, value)
        if changes:
            self.bounds.clear()
            self.ceilings.clear()
            if self.law_limits:
                yield from self.held_to_law(record)
        if (changes or first) and "maximum_coefficient" in self.wanted:
            ratio = _ratio(current.minimum, current.maximum)
            if ratio:
                yield from self._coefficient(record, "/limits" if changes else "/coup", "the maximum",
                                             current.maximum, current.minimum, ratio)
            elif not current.minimum and not self.coefficient_unknown_said:  # never dropped in silence
                # (a minimum alone leaves the law's coefficient in force over the stakes: checked there)
                self.coefficient_unknown_said = True
                for rule, _ in self.wanted["maximum_coefficient"]:
                    self.session._not_applied(rule, "no minimum of the table over 0 is known (the table "
                                                    "configuration's `stakes`, or the header's `limits`): the "
                                                    "maximum's times the minimum cannot be told where no coup "
                                                    "gives it")
            yield from self._chance_coefficients(record, bool(changes))

    def _loosened(self, record, changes: dict) -> Iterator[Finding]:
        """A coup's limits only tighten the table configuration's, the limits approved for the table: a
        maximum over it or a minimum under it is said at the coup's limits and set aside, its stakes held to the
        approved bounds (PT blackjack n.º 14: «até atingir o máximo» fixed for the table). Read as they were, a
        configuration of 10 to 300 turned into 20 to 600 by a coup let a stake of 500 through in silence."""
        for key, value in list(changes.items()):
            approved = self.approved.get(key)
            if approved is None or (value <= approved if key == "maximum" else value >= approved):
                continue
            del changes[key]
            yield self.session._tool(
                F.LOAD_AMBIGUOUS, f"/limits/{key}",
                f"this coup's {key} {cents(value)} is {'over' if key == 'maximum' else 'under'} the {key} "
                f"{cents(approved)} of the table configuration the header names: a coup's limits may only "
                f"narrow the table's; its stakes are held to the {key} {cents(getattr(self.limits, key))} in "
                "force", record)

    def _coefficient(self, record, pointer, what, maximum, minimum, ratio) -> Iterator[Finding]:
        for rule, spec in self.wanted["maximum_coefficient"]:
            allowed = [Fraction(money(v) or 0) for v in spec["one_of"]]
            if ratio not in allowed:
                shown = ", ".join(str(money(v)) for v in spec["one_of"])
                yield from self.session._breach("maximum_coefficient", record, pointer,
                                                f"{what} {cents(maximum)} is {_times(ratio)} times the "
                                                f"minimum {cents(minimum)}; the law allows {shown} times",
                                                [(rule, spec)])

    def _chance_coefficients(self, record, changed: bool) -> Iterator[Finding]:
        """Each maximum given per chance held to the coefficient as the table's is (LU Art. 37-5, al. 4: «Le
        maximum des mises est, pour chaque table, fixé ... à 50, 100 ou 200 fois le minimum des mises»): over its
        own minimum where the limits give one, else the table's. A limits' maximum written per chance alone would
        otherwise escape the law. The table's maximum (the one given, else the highest per chance) must be one of
        the coefficients; a chance's cap under it, at most the largest. Said where it is declared (the header's `limits/maxima`, or the table
        configuration it names) when the log starts, at the coup's `limits` when a coup changes the minimum."""
        session = self.session
        table = session.terms.table
        stakes = table.get("stakes") if isinstance(table, Mapping) else None
        from_table = isinstance(stakes, Mapping) and stakes.get("maxima_eur") not in (None, {})
        given = {name: value for name, value in self.maxima.items() if value is not None}
        table_maximum = self.limits.maximum
        # where a table maximum is given it is the one the coefficient reads: a chance's narrower cap under it
        # is the table's own (an égalité held lower), and only a cap over it is the table's maximum again
        highest = max(given.values(), default=None) if table_maximum is None else table_maximum
        most = max((Fraction(money(v) or 0) for _, spec in self.wanted["maximum_coefficient"]
                    for v in spec["one_of"]), default=None)
        for name, maximum in given.items():
            minimum = self.minima.get(name) or self.limits.minimum
            ratio = _ratio(minimum, maximum)
            if not ratio or (name, minimum, maximum) in self.chance_said:
                continue
            if maximum < highest and (most is None or ratio <= most):
                continue  # a cap under the table's maximum, within the most the law allows
            self.chance_said.add((name, minimum, maximum))
            if changed:
                place, where = record, "/limits"
            elif from_table:
                place, where = session.header, "/table_config"
            else:
                place, where = session.header, pointers.child("/limits/maxima", name)
            yield from self._coefficient(place, where, f"the maximum on {name}", maximum, minimum, ratio)

    def held_to_law(self, record) -> Iterator[Finding]:
        """The limits in force, as a table configuration's `stakes`, through the law's table rules on them; each
        breach at the place that declares it (the header's `limits`, the named table configuration, or the coup
        whose `limits` changed them)."""
        session = self.session
        maxima = {name: value for name, value in self.maxima.items() if value is not None}
        minima = {name: value for name, value in self.minima.items() if value is not None}
        stakes = {key: value for key, value in (("minimum_eur", self.limits.minimum), ("maximum_eur", self.limits.maximum),
                                                ("maxima_eur", maxima), ("minima_eur", minima)) if value}
        if not stakes:
            return
        document = {"kind": "table", "jurisdiction": session.jurisdiction, "game": session.game, "stakes": stakes}
        table = session.terms.table
        from_table = record is session.header and isinstance(table, Mapping) and bool(table.get("stakes"))
        lowest = self._lowest_minima(maxima, minima, self._chance_names())
        for bound in self.law_limits:
            found = []  # (pointer, message, where a header's limits give it)
            for violation in bound.run(document):
                pointer, message = violation
                # a limit left out is the table's business, not the log's: the coups' stakes are held to what is
                if type(violation) is NotChecked or pointers.get(document, pointer) is pointers.MISSING:
                    continue
                segments = pointers.split(pointer)  # stakes, maxima_eur, a chance -> limits, maxima, the chance
                head = _HEADER_PLACES.get(pointers.join(segments[:2]))
                found.append((pointer, message, pointers.join((*pointers.split(head), *segments[2:])) if head
                              else "/limits"))
            if lowest:  # each maximum again, over the lowest minimum of a stake it limits
                said = {pointer for pointer, *_ in found}
                again = {**document, "stakes": {**stakes, "minima_eur": {
                    **minima, **{key: value for key, (value, _) in lowest.items()}}}}
                for pointer, message in bound.run(again):
                    segments = pointers.split(pointer)
                    key = segments[2] if segments[:2] == ("stakes", "maxima_eur") and len(segments) == 3 else None
                    if pointer in said or key not in lowest:
                        continue
                    value, where = lowest[key]
                    found.append((pointer, f"it limits the stakes on {', '.join(where)}, held to a minimum of "
                                           f"{cents(value)}: {message}", pointers.child("/limits/maxima", key)))
            for pointer, message, given in found:
                key = (bound.rule.id, pointer, message)
                if key in self.law_said:
                    continue
                self.law_said.add(key)
                if record is not session.header:
                    place, said = "/limits", "the limits from this coup on"
                elif from_table and pointers.get({"stakes": table["stakes"]}, pointer) is not pointers.MISSING:
                    if session.terms.table_path is not None:
                        continue  # the configuration is checked with the log: its own breach, at its line, once
                    place = "/table_config"
                    said = f"the table configuration it names ({brief(show(session.header.data.get('table_config')))})"
                else:
                    place, said = given, "the log's `limits`, read as a table's `stakes`"
                yield from session._breach("", record, place, f"{said}: {message}", [(bound.rule, None)])

    def _chance_names(self) -> list[tuple[str, ...]]:
        """The names a stake on each of the game's chances is limited under (`_bounds`): a roulette chance's in
        every language and its group's, another game's chance by its own name."""
        module = self.session.module
        if getattr(module, "stake_names", None) is not None:
            return module.stake_names(self.session.terms)
        names = getattr(module, "limit_names", None)
        return [(name,) for name in names(self.session.terms)] if names is not None else []

    def _lowest_minima(self, maxima: dict, minima: dict, chances: list[tuple[str, ...]]) -> dict:
        """Each per-chance maximum whose stakes are held to a lower minimum than the one the law's ratio is read
        from (its own entry in the minima, else the table's) -> (that lowest minimum, the chances staked at it). A
        chance is limited by the first of its names the limits give (`_bounds`): over minima {chances_simples:
        200, encarnado: 5} a maximum of 100,000 on chances_simples is 500 times its own minimum, and 20,000 times
        the 5 a stake on encarnado is held to."""
        lowest: dict = {}
        for names in chances if maxima else ():
            high = next((name for name in names if name in maxima), None)
            low = next((name for name in names if name in minima), None)
            value = minima[low] if low is not None else self.limits.minimum
            if high is None or value is None:
                continue
            if high not in lowest or value < lowest[high][0]:
                lowest[high] = (value, [names[0]])
            elif value == lowest[high][0] and names[0] not in lowest[high][1]:
                lowest[high][1].append(names[0])
        read = {key: minima.get(key) or self.limits.minimum for key in lowest}  # the divisor the ratio reads
        return {key: found for key, found in lowest.items() if read[key] is None or found[0] < read[key]}

    def _coefficient_kept(self, record, data, when, changes) -> Iterator[Finding]:
        """The maximum in times the minimum kept within a period (LU Art. 37-5, al. 4: «Le coefficient choisi ne peut
        pas être changé»): a maximum and a minimum changed in proportion keep it, a maximum changed alone does not."""
        current = self.limits
        before = after = None
        if changes:  # the ratios only where a limit changes: most coups change none
            before = _ratio(current.minimum, current.maximum)
            after = _ratio(changes.get("minimum", current.minimum), changes.get("maximum", current.maximum))
        changed = after != before and before is not None and after is not None
        for rule, spec in self.wanted["coefficient_unchanged"]:
            period = self._period(spec["per"], when)
            was = current.since.get(("coefficient", spec["per"]))
            if changed and was is not None and was[0] == period and period is not None:
                yield from self.session._breach(
                    "coefficient_unchanged", record, "/limits/maximum" if "maximum" in changes else "/limits/minimum",
                    f"the table's maximum changes from {_times(before)} to {_times(after)} times its minimum within "
                    f"{spec['per']} {period} (set at coup {was[1]})")
            if period is None and was is not None:  # this coup's time unread: its day is not a new one
                if changed:
                    self._unplaced(rule, record, data, "the coefficient", spec["per"])
                    current.since[("coefficient", spec["per"])] = (was[0], data.get("coup"))
            elif changed or was is None or was[0] != period:
                current.since[("coefficient", spec["per"])] = (period, data.get("coup"))

    def _unplaced(self, rule, record, data, what: str, per: str) -> None:
        """A limit changed at a coup whose time cannot be read (its own LOG-TIME finding): whether it changed
        within the period cannot be told; said once per rule, and the change is kept in the period before it, so
        a change again later in that period is still found."""
        if rule.id not in self.unplaced_said:
            self.unplaced_said.add(rule.id)
            self.session._not_applied(rule, f"{what} changes at coup {brief(show(data.get('coup')))} (line "
                                            f"{record.line}), whose time cannot be read: whether within the same "
                                            f"{per} as it was set cannot be told")

    def ceilings_from(self, bounds) -> None:
        """The law's maxima in times the minimum, chance by chance (a table rule's schedule of `/stakes/maxima_eur`
        per the minimum): a stake on a chance the limits give no maximum of its own is held to the table's
        maximum by the log's rules, and to the law's ceiling by these (a plein of 1,000 under a table maximum of
        1,000 at a minimum of 5 is 200 times it, PT n.º 32, a) allows 30)."""
        for bound in bounds:
            spec = bound.rule.check
            if spec.get("kind") == "value" and spec.get("target") == "/stakes/maximum_eur" \
                    and spec.get("per") == "/stakes/minimum_eur":
                # the table's maximum at most so many times its minimum (PT blackjack n.º 37: 30; LU Art. 33: 50,
                # 100 or 200): with no maximum of its own a stake is held to the most the law allows ("*")
                most = [to_decimal(value) for value in ([spec["max"]] if "max" in spec else spec.get("one_of") or [])]
                most = max((value for value in most if value is not None and value > 0), default=None)
                if most is not None:
                    self.law_ceilings.append((bound.rule, {"*": most}))
                continue
            if spec.get("kind") != "schedule" or spec.get("target") != "/stakes/maxima_eur" or not spec.get("per"):
                continue
            entries = {**spec.get("where_given", {}), **(spec.get("max") or spec.get("equals") or {})}
            ratios = {name: to_decimal(times) for name, times in entries.items()}
            ratios = {name: times for name, times in ratios.items() if times is not None and times > 0}
            if ratios:
                self.law_ceilings.append((bound.rule, ratios))


def _ratio(minimum: Decimal | None, maximum: Decimal | None) -> Fraction | None:
    """The maximum in times the minimum, exactly, where both are known."""
    return Fraction(maximum) / Fraction(minimum) if minimum and maximum is not None else None


def _times(ratio: Fraction) -> str:
    return str(ratio.numerator) if ratio.denominator == 1 else f"{float(ratio):.4g}"
