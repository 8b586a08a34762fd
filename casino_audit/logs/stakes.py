"""Each stake of a coup against the limits in force, the law's ceilings and the multiples the law asks.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Iterator, Mapping

from casino_audit.core import findings as F
from casino_audit.core import pointers
from casino_audit.core.display import brief
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.values import show
from casino_audit.replay import cents, is_multiple, money
from casino_audit.logs.limits import _EXACT


class StakeAspects:
    """The stakes of the core's aspects (a part of `CoreAspects`, whose state it reads)."""

    def _stakes(self, record, data) -> Iterator[Finding]:
        """Each stake against every limits and multiples rule whose `chances` take it. A family names a stake's
        chance, or several names from the most specific (`rouge`, then `chances_simples`): a limit filed under
        any of them applies."""
        if self.limit_rules and not self.limits_said and self.limits.minimum is None:
            self._no_limits_known()
        totals: dict = {}  # one player's bet, written as several records -> its stakes so far in this coup
        bets_by_side: dict = {}  # a bet (without its seat) -> whether it was staked with no seat, by a seat
        for pointer, chance, raw, *placed in self.stakes(data):
            amount = raw if type(raw) is int else money(raw)  # an int is exact as it is: no Decimal made
            names = chance if type(chance) is tuple else (chance,)
            # A family may name the bet a stake is part of (a seat's chance on its numbers): a stake split over
            # several records of one bet is one stake against the maximum (PT roulette n.º 32, d): «para cada
            # jogador»), each record still against the minimum and the multiple.
            group = placed[0] if placed else None
            total = None
            if group is not None and amount is not None:
                if not self.seatless_said and type(group) is tuple and len(group) > 1:
                    # a bet staked with no seat and by a seat (looked up by the bet, not over every stake: a
                    # line of 17,000 bets stays linear)
                    seatless = group[0] is None
                    sides = bets_by_side.setdefault(group[1:], set())
                    if (not seatless) in sides:
                        yield from self._seatless(record, pointer)
                    sides.add(seatless)
                total = totals[group] = totals.get(group, 0) + amount
                total = total if total != amount else None  # the first record alone: judged as it is
            if amount is None:  # the shape check bounds amounts; one past what `money` reads is said, not skipped
                yield from self._unjudged(record, pointer, names, raw)
                continue
            if self.limit_rules:
                yield from self._within_limits(record, pointer, names, amount, total)
            if self.law_ceilings:
                yield from self._within_law_ceilings(record, pointer, names, amount, total)
            if self.multiple_rules:
                yield from self._multiples(record, pointer, names, amount)

    def _no_limits_known(self) -> None:
        """Said once, at the first stake: no minimum is known, so the limit rules cannot hold the stakes (to any
        limit at all, or to the law's maxima in times the minimum)."""
        self.limits_said = True
        unknown = self.limits.maximum is None and not self.maxima
        for rule, spec, _ in self.limit_rules:
            if unknown or id(spec) in self.law_maxima:  # the law's maxima are times the minimum
                floor = f" (each stake is held to the least minimum the law allows, {cents(self.law_minimum)})" \
                    if self.law_minimum is not None and id(spec) not in self.law_maxima else ""
                self.session._not_applied(rule, f"no stake limits are known{floor}: name the table configuration "
                                                "in the header (`table_config`) or give `limits` there"
                                          if unknown else "no minimum stake is known, of which the law's "
                                          "maxima are multiples: give `limits/minimum` in the header")

    def _unjudged(self, record, pointer: str, names: tuple, raw) -> Iterator[Finding]:
        """A stake past what `money` reads: no amount to judge, said by the limit rules that take its chance."""
        if self._bounds(names) != (None, None):  # (with no limits known, the rule says it is not checked)
            yield from self.session._breach("stake_limits", record, pointer, f"a stake of {brief(show(raw))} on "
                                            f"{names[0]} is no amount that can be judged against the limits",
                                            [(rule, spec) for rule, spec, chances in self.limit_rules
                                             if chances is None or not chances.isdisjoint(names)])

    def _within_limits(self, record, pointer: str, names: tuple, amount, total) -> Iterator[Finding]:
        """A stake (and the same player's `total` on its bet, where it is one of several records) against each
        limit rule taking its chance: the limits in force, or the maximum the law fixes in times the minimum."""
        breach = self.session._breach
        for rule, spec, chances in self.limit_rules:
            if chances is not None and chances.isdisjoint(names):
                continue
            law = self.law_maxima.get(id(spec))
            low, high = self._bounds(names) if law is None else self._law_bounds(names, law)
            floor = spec.get("bound") != "maximum"  # a rule of the maximum alone: another holds the floor
            if high is None and (law is None or self.limits.minimum is None) and not (
                    self.law_ceilings and self._law_ceilings(names)):
                # held to no maximum, neither the limits' nor one the law fixes (for want of the minimum its
                # times are of; a chance the law gives none is no chance of the game, its rule's): named at the end
                held = self.unheld.setdefault(rule.id, (rule, {}))[1]
                held[names[0]] = held.get(names[0], 0) + 1
            if high is None and law is not None:
                continue  # a chance the law gives no maximum; no minimum known at all is said at the first stake
            if law is None and low is not None and high is None:
                pass  # the stakes held to no maximum are named at the log's end (`_held_to_no_maximum`)
            elif law is None and (low is None) != (high is None) and (floor or high is None) \
                    and (rule.id, low is None) not in self.unbounded:
                self._one_bound_unknown(rule, names, low is None, floor)
            if floor and low is not None and amount < low:
                yield from breach("stake_limits", record, pointer, f"a stake of {cents(amount)} on {names[0]}, "
                                  f"under the minimum of {cents(low)}", [(rule, spec)])
            elif floor and low is None and self.law_minimum is not None and amount < self.law_minimum \
                    and law is None:
                yield from breach("stake_limits", record, pointer, f"a stake of {cents(amount)} on {names[0]}, "
                                  f"under {cents(self.law_minimum)}: the limits give no minimum, and the law "
                                  "allows none lower", [(rule, spec)])
            elif high is not None and amount > high:
                fixed = "" if law is None else f" the law fixes ({self._law_times(names, law)} times the minimum)"
                yield from breach("stake_limits", record, pointer, f"a stake of {cents(amount)} on {names[0]}, "
                                  f"over the maximum of {cents(high)}{fixed}", [(rule, spec)])
            elif high is not None and total is not None and total > high and total - amount <= high:
                yield from breach("stake_limits", record, pointer, f"a stake of {cents(amount)} on {names[0]} "
                                  f"brings the same player's stakes on that bet in this coup to {cents(total)}, "
                                  f"over the maximum of {cents(high)}", [(rule, spec)])

    def _one_bound_unknown(self, rule, names: tuple, no_minimum: bool, floor: bool) -> None:
        """One bound unknown for a stake: said once, never passed as if held to it (a table configuration or
        header limits giving the minimum alone let a stake of any size through in silence); with no limits known
        at all, the rule said so at the first stake."""
        self.unbounded.add((rule.id, no_minimum))
        which, other = ("minimum", "maximum") if no_minimum else ("maximum", "minimum")
        self.session._not_applied(rule, f"no {which} stake is known for {names[0]} (the table "
                                        f"configuration's `stakes/{which}_eur` or the header's "
                                        f"`limits/{which}`): "
                                        + (f"its stakes are held to the {other} only" if floor else
                                           "its stakes are held to no maximum"))

    def _within_law_ceilings(self, record, pointer: str, names: tuple, amount, total) -> Iterator[Finding]:
        """A stake (or the same player's total on its bet) against the largest maximum the law allows its chance,
        in times its minimum, whatever maximum the limits give."""
        for rule, ceiling, times, low in self._law_ceilings(names):
            if amount > ceiling or total is not None and total > ceiling >= total - amount:
                # one player's stakes on one bet are one stake (PT n.º 32, d): «para cada jogador»)
                over = f" brings the same player's stakes on that bet to {cents(total)}," if amount <= ceiling \
                    else ","
                yield from self.session._breach(
                    "", record, pointer, f"a stake of {cents(amount)} on {names[0]}{over} over {cents(ceiling)}: "
                    + ("whatever maximum the limits give it, " if self._bounds(names)[1] is not None else
                       "the limits give it no maximum of its own, and ")
                    + f"the law's is at most {show(times)} times its minimum of {cents(low)}", [(rule, None)])

    def _multiples(self, record, pointer: str, names: tuple, amount) -> Iterator[Finding]:
        """A stake against each multiple rule taking its chance: a whole multiple of the table's minimum, or of
        so many euros."""
        for rule, spec, chances, unit in self.multiple_rules:
            if chances is not None and chances.isdisjoint(names):
                continue
            by = self.limits.minimum if unit == "minimum" else unit
            if by is None and (rule.id, "minimum") not in self.unbounded:
                # no minimum known (no table configuration, no header limits): said, never passed in silence
                self.unbounded.add((rule.id, "minimum"))
                self.session._not_applied(rule, "no minimum of the table is known (neither the table "
                                                "configuration's `stakes/minimum_eur` nor the header's "
                                                "`limits/minimum`): whether each stake is a multiple of it "
                                                "cannot be told")
            if by and not is_multiple(amount, by):
                what = f"the table's minimum ({cents(by)})" if unit == "minimum" else cents(by)
                yield from self.session._breach("stake_multiple", record, pointer, f"a stake of {cents(amount)} on "
                                                f"{names[0]} is not a whole multiple of {what}", [(rule, spec)])

    def _law_ceilings(self, names: tuple) -> list:
        """(rule, ceiling, times, minimum) for a stake of these names on a chance with no maximum of its own."""
        found = self.ceilings.get(names)
        if found is None:
            found = []
            own = any(name in self.maxima for name in names)
            if self.law_ceilings:
                low, high = self._bounds(names)
                limited = any(chances is None or not chances.isdisjoint(names) for _, _, chances in self.limit_rules)
                for rule, ratios in self.law_ceilings if low else ():
                    # a ceiling on the table's maximum ("*") holds the stakes the log's limit rules hold to it, a
                    # chance's own maximum or minimum never lifting it (LU Art. 37-5, al. 4: «le maximum des
                    # mises est, pour chaque table, fixé ... à 50, 100 ou 200 fois le minimum des mises», the
                    # table's); a chance's own ratio (a schedule of maxima) holds a chance with no maximum of its
                    # own (its own maximum is held to the schedule at the limits, `held_to_law`)
                    named = [ratios[name] for name in names if name in ratios]
                    if own and named:
                        continue
                    times = min(named, default=ratios.get("*") if limited else None)
                    if not named and self.limits.minimum is not None:
                        low = min(low, self.limits.minimum)
                    ceiling = _EXACT.multiply(times, low) if times is not None else None
                    if ceiling is not None and (high is None or high > ceiling):  # else the table's maximum holds
                        found.append((rule, ceiling, times, low))
            self.ceilings[names] = found
        return found

    @staticmethod
    def _law_times(names: tuple, law: dict):
        """What the law fixes a stake of these names' maximum at, in times the minimum (its first name it names)."""
        return next((law[n] for n in names if n in law), None)

    def _law_bounds(self, names: tuple, law: dict) -> tuple:
        """(None, maximum) for a stake of these names where the law fixes its chance's maximum in times the table's
        minimum in force, whatever maximum the table or the log states (theirs is the table's own rule)."""
        times = self._law_times(names, law)
        minimum = self.limits.minimum
        if times is None or minimum is None:
            return None, None
        return None, _EXACT.multiply(times, minimum)  # two finite decimals: their product, never rounded

    def _bounds(self, names: tuple) -> tuple:
        """(minimum, maximum) for a stake of these names: a chance's own, else the table's; kept until the
        limits change."""
        found = self.bounds.get(names)
        if found is None:
            low = next((n for n in names if n in self.minima), None)
            high = next((n for n in names if n in self.maxima), None)
            self.held.update(name for name in (low, high) if name is not None)
            found = self.bounds[names] = (self.minima[low] if low is not None else self.limits.minimum,
                                          self.maxima[high] if high is not None else self.limits.maximum)
        return found

    def _held_to_no_maximum(self) -> None:
        """Each limit rule's stakes that no maximum held (the limits give none, and no maximum the law fixes could
        be worked out, for want of a minimum): named by chance, a note (an error under --require-params), never
        passed in silence as if within a maximum."""
        for rule, held in self.unheld.values():
            shown = ", ".join(f"{brief(show(name))} ({count:,} stake{'s' if count > 1 else ''})"
                              for name, count in list(held.items())[:12])
            more = f" and {len(held) - 12} more chances" if len(held) > 12 else ""
            self.session._not_applied(rule, f"these stakes were held to no maximum: {shown}{more}; neither the table "
                                            "configuration (`stakes/maximum_eur`) nor the header (`limits/maximum`) "
                                            "gives one, and no maximum the law fixes in times the minimum could be "
                                            "worked out without the minimum")

    def _limits_under_no_chance(self) -> Iterator[Finding]:
        """A per-chance limit filed under a name that is no chance of the game is said: a chance spelt otherwise
        (`Preto`, `preto `) limits nothing, and the table's limit held its stakes in silence."""
        session = self.session
        names = getattr(session.module, "limit_names", None)
        known = names(session.terms) if self.limit_rules and names is not None else None
        if not known:
            return
        table = session.terms.table
        stakes = table.get("stakes") if isinstance(table, Mapping) else None
        for kind, limits in (("minima", self.minima), ("maxima", self.maxima)):
            from_table = isinstance(stakes, Mapping) and bool(stakes.get(f"{kind}_eur"))  # else the header's
            for name in limits:
                if name in self.held or name in known:
                    continue
                where = f"the table configuration's `stakes/{kind}_eur`" if from_table else f"`limits/{kind}`"
                yield session._tool(
                    F.LOAD_AMBIGUOUS, "/table_config" if from_table else pointers.child(f"/limits/{kind}", name),
                    f"{where} names {brief(show(name))}, no chance of {session.game}: a chance spelt otherwise is "
                    f"not limited by it (the table's {kind[:-1]}um held its stakes instead)")

    def _seatless(self, record, pointer) -> Iterator[Finding]:
        """A stake written with no seat beside a seat's stake on the same bet may be that seat's (PT roulette
        n.º 32, d): «para cada jogador»): the seatless stakes are held as one player apart from the seats, never
        added to a seat's total by guess; said once per log."""
        self.seatless_said = True
        yield self.session._tool(F.LOAD_AMBIGUOUS, pointer, "a stake with no seat on a bet a seat also stakes: "
                                 "the stakes with no seat are held to the maximum as one player apart from the "
                                 "seats, and a seat's total with them is not judged (said once for the log)",
                                 record, Severity.INFO)


def _chances(spec: dict) -> frozenset | None:
    return frozenset(spec["chances"]) if spec.get("chances") else None


def _whole(amount: Decimal | None):
    """An integral amount as an int (stakes are mostly ints: % on ints is the fast path), else as it is."""
    return int(amount) if amount is not None and amount == amount.to_integral_value() else amount
