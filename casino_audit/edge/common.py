"""What every edge engine gives and takes: an Edge (one bet's house edge, exact or estimated), the Options the
command line may give, and the errors and notes that say what could not be computed."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping


class EdgeError(Exception):
    """The edge cannot be computed: an engine is missing, or a value the law leaves out."""


@dataclass(frozen=True)
class Edge:
    bet: str
    house_edge: Fraction  # the bank's expected gain per unit staked (an estimate when not exact)
    exact: bool = True
    note: str = ""
    ci95: tuple[Fraction, Fraction] | None = None  # a simulation's 95 % interval, when not exact
    rounds: int | None = None  # the simulation's rounds, when not exact


@dataclass(frozen=True)
class Options:
    """What the command line may give: the shoe's decks, a zero rule where the law says none, a simulation's
    rounds and seed (the games computed by simulation say so, with their interval)."""

    decks: int | None = None
    zero_rule: str | None = None
    rounds: int = 200_000
    seed: int = 1
    params: Mapping[str, Any] = field(default_factory=dict)  # the values the law leaves out, parsed by the ruleset


def schedule_of(ruleset, game: str, payouts: Mapping | None) -> Mapping:
    """The payout schedule a game's edge needs, or the error that says where to give one."""
    if not payouts:
        raise EdgeError(f"neither a table's `payouts:` nor the {ruleset.code} ruleset gives a payout schedule for "
                        f"{game}: give a table configuration that states it with --table")
    return payouts


def with_left_out(found: list[Edge], left_out, why: str) -> list[Edge]:
    """The edges, the first row's note naming the bets of the schedule that were not computed (a table's own bet
    no engine knows, a bet of a kind the wheel lacks): none is dropped in silence."""
    left_out = sorted(set(left_out), key=str)
    if not left_out or not found:
        return found
    first = found[0]
    note = f"{', '.join(map(str, left_out))} left out: {why}"
    return [Edge(first.bet, first.house_edge, first.exact, "; ".join(filter(None, (first.note, note))), first.ci95,
                 first.rounds), *found[1:]]
