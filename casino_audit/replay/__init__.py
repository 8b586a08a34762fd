"""Replaying a game log: each game family's coups checked against the rules of play, one coup at a time.

A game log (kind `game-log`, see docs/game-logs.md) is a header record, then one record per coup. The core
(casino_audit/logs/) reads the stream, validates each coup's shape against the family's COUP_SCHEMA, and runs
the core's own aspects (coup numbering, time order, limits, multiples, the minimum unchanged during a
session); each family module here replays the game itself. A ruleset rule `check: {kind: replay, verify:
ASPECT}` (scope record, kind game-log) gives the aspect its rule id, severity and the law's words; an aspect
no rule names is not reported.

A family module (one per game family: baccarat, roulette, stud, blackjack, dice) holds:

    GAMES: tuple[str, ...]           the table games it replays (the `game` names of table configurations)
    ASPECTS: dict[str, str]          aspect name -> what it verifies, in words (for `rules explain`)
    COUP_SCHEMA: dict                JSON Schema of its coup record, the common fields (COMMON_COUP) included
    CSV_COLUMNS: dict | None         column -> (field path, reader) for its CSV layout, or None (JSON Lines only)

    prepare(game, terms: Terms) -> prepared
        Once per log: reads the rules of play (terms.play, a ruleset's `play:` data for the game) and the
        schedule (terms.payouts). Raises Unavailable(aspects, why) for what the law leaves out (the PT bacará
        drawing table): those aspects are reported "not checked: why" once per log, never passed in silence.
    start(prepared) -> state         a fresh mutable state for one log (the cards seen in the current shoe ...)
    replay(prepared, state, coup) -> Iterator[(aspect, pointer, message)]
    cited(prepared, state, coup) -> Iterator[(aspect, pointer, message[, provision])]
        The breaches of one coup: `pointer` is a JSON pointer into the coup ("/cards/4", "/bets/2/net"),
        `message` says what was found and what the rules require, with the amounts (Decimal, to the cent);
        `provision` (optional) is the citation the rules of play give for the very provision the coup breaks
        (a mapping {article, text[, instrument]} from the ruleset's `play:` data, see `provision()`), which the
        finding cites instead of its rule's own citation (None, or left out: the rule's). A message names no
        article but its provision's.
    provisions(play, aspect) -> list[mapping]   (optional)
        The provisions a finding of that aspect may cite, for `rules explain`.
    stakes(coup) -> Iterator[(pointer, chance, amount[, bet])]
        Every stake of the coup (a bet, an ante, a raise, a double), for the core's limit and multiple checks;
        `bet` (optional, hashable or None) names the one player's bet the stake is part of (seat, chance, its
        numbers): the records of one bet are added up against the maximum. Stakes with no seat are one
        player's (seat None), added up as such: a stake split over seatless records is never dropped.

Amounts in coups are Decimal (JSON numbers are read as Decimal, CSV cells and strings parsed by `money`),
never float. Cards are written rank then suit: rank one of A 2 3 4 5 6 7 8 9 T J Q K, suit one of c d h s
("Td", "As", "9h"); `card()` reads one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Context, Decimal, Inexact, InvalidOperation
from fractions import Fraction
from typing import Any, Iterable, Iterator, Mapping

from casino_audit.core.values import bounded_decimal, show, to_decimal

RANKS = "A23456789TJQK"
SUITS = "cdhs"
CARD_PATTERN = "^[A2-9TJQK][cdhs]$"
# At most 18 digits before the point and 30 after: every amount the schema takes is one `money` reads (a bet the
# replay could not read would otherwise be skipped, and its breach with it).
MONEY_PATTERN = r"^-?[0-9]{1,18}(\.[0-9]{1,30})?$"
POSITIVE_MONEY_PATTERN = r"^(?=[0-9.]*[1-9])[0-9]{1,18}(\.[0-9]{1,30})?$"  # and not zero, nor negative
# Far past any amount and within `money`'s own bound (10**30); a whole number, which jsonschema-rs compares a
# number with at a third of a float bound's cost.
_MAGNITUDE = 10**18

# Every coup record carries these (docs/game-logs.md); a family's COUP_SCHEMA adds its own fields.
AMOUNT_SCHEMA = {"anyOf": [{"type": "number", "exclusiveMinimum": -_MAGNITUDE, "exclusiveMaximum": _MAGNITUDE,
                            "$comment": "an amount is less than 10^18 either way"},
                           {"type": "string", "pattern": MONEY_PATTERN,
                            "$comment": "an amount written as text is digits (at most 18 before the point and 30 "
                                         "after), maybe a minus sign first: -12.50"}],
                 "description": "An amount in the log's currency: a JSON number (read exactly, as written) or a "
                                "string such as \"12.50\"."}
STAKE_SCHEMA = {"anyOf": [{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": _MAGNITUDE,
                           "$comment": "an amount staked is more than 0 and less than 10^18"},
                          {"type": "string", "pattern": POSITIVE_MONEY_PATTERN,
                           "$comment": "an amount staked, written as text, is more than 0 in digits (at most 18 "
                                        "before the point and 30 after): 12.50"}],
                "description": "An amount staked: more than zero, a JSON number or a string such as \"12.50\"."}
CARD_SCHEMA = {"type": "string", "pattern": CARD_PATTERN,
               "description": "A card: rank (A 2-9 T J Q K) then suit (c d h s), e.g. \"Td\", \"As\"."}
COMMON_COUP = {
    "coup": {"type": "integer", "minimum": 1, "maximum": 10**15,
             "description": "The coup's number in the log: 1, 2, 3 ... without gaps."},
    "time": {"type": "string", "description": "When the coup was played, ISO 8601 (2026-11-02T21:14:05): without "
                                              "an offset, the table's local time (the header's `timezone`); with "
                                              "one, the offset the table's clock shows then, or UTC (Z). Every "
                                              "coup's time gives an offset, or none does."},
    "session": {"type": "string", "minLength": 1,
                "description": "The séance (or gaming day) the coup belongs to, a label: a coup under another "
                               "label opens a new séance, unless the table was closed for less than "
                               "`session_break_minutes` (a parameter) between them, when it is the séance going "
                               "on; what the law keeps through a séance (its minimum) is held so."},
    "staff": {"type": "object", "additionalProperties": {"type": "string"},
              "description": "Who is on duty, by role: {\"croupier\": \"C-12\", \"spinner\": \"C-7\"}."},
    "limits": {"type": "object", "additionalProperties": False,
               "properties": {"minimum": STAKE_SCHEMA, "maximum": STAKE_SCHEMA},
               "description": "The table's minimum and maximum stakes when they are set or changed at this coup."},
    "note": {"type": "string", "description": "A floor remark, kept and not read."},
}
COMMON_REQUIRED = ["coup", "time", "session"]
# The CSV columns of a bet laid on a chance (casino_audit/logs/csv_reader.py's layout: `bets/` fields, named readers).
BET_COLUMNS = {"seat": ("bets/seat", "int"), "chance": ("bets/chance", "text"), "stake": ("bets/stake", "money"),
               "net": ("bets/net", "money")}


def bet_schema(chance: str, net: str, **fields) -> dict:
    """A bet laid on a chance: its seat, the chance (described as the game names them), its own `fields`, the
    stake, and what it came to for the player (`net`, described as the game settles it)."""
    return {"type": "object", "additionalProperties": False, "required": ["chance", "stake", "net"],
            "properties": {
                "seat": {"type": "integer", "minimum": 0, "description": "The seat (or box) the bet is on."},
                "chance": {"type": "string", "description": chance}, **fields,
                "stake": {**STAKE_SCHEMA, "description": "The amount staked."},
                "net": {**AMOUNT_SCHEMA, "description": net}}}


def provision(citations: Any, part: str, covers: str | None = None) -> Mapping | None:
    """The provision of the rules of play a breach cites: among the citations given for `part` (one mapping or
    a list of them, from a `citations:` mapping of the play data), the one whose `covers` names `covers`, else
    the part's first; None where the play data quotes none for the part (the rule's own citation stands)."""
    entries = citations.get(part) if isinstance(citations, Mapping) else None
    if isinstance(entries, Mapping):
        entries = [entries]
    if not isinstance(entries, list):
        return None
    entries = [entry for entry in entries if isinstance(entry, Mapping) and "article" in entry]
    if covers is not None:
        for entry in entries:
            if covers in (entry.get("covers") or ()):
                return entry
    return entries[0] if entries else None


def without_provisions(found: Iterable[tuple]) -> Iterator[tuple[str, str, str]]:
    """A family's cited breaches as `replay` gives them: (aspect, pointer, message)."""
    for aspect, pointer, message, *_ in found:
        yield aspect, pointer, message


def provisions_of(citations: Any, parts: Iterable[str] | None = None) -> list[Mapping]:
    """Every provision quoted for `parts` (None: all) of a `citations:` mapping, in order, once each."""
    found: list[Mapping] = []
    if not isinstance(citations, Mapping):
        return found
    for part, entries in citations.items():
        if parts is not None and part not in parts:
            continue
        for entry in [entries] if isinstance(entries, Mapping) else entries if isinstance(entries, list) else ():
            if isinstance(entry, Mapping) and "article" in entry and entry not in found:
                found.append(entry)
    return found


class Unavailable(Exception):
    """Some aspects cannot be checked for this log: the law leaves something out, or a value is not given."""

    def __init__(self, aspects: Iterable[str], why: str, prepared: Any = None,
                 reasons: Mapping[str, str] | None = None, partial: Mapping[str, str] | None = None,
                 unreadable: bool | Iterable[str] = False):
        """`prepared`: what the other aspects are replayed with, if they still can be (None: none can);
        `reasons`: each aspect's own reason, where they differ (`why` says them all); `partial`: aspects still
        replayed (with `prepared`) of which a part is not checked, and why (said once, the aspect kept);
        `unreadable`: what was given (a parameter's value, the rules of play) cannot be read, which is an error
        of the run, never a note: a value mistyped must not turn the checks off (True: every aspect; or the
        aspects it concerns, the others' reasons staying notes)."""
        super().__init__(why)
        self.aspects = tuple(aspects)
        self.why = why
        self.prepared = prepared
        self.reasons = dict(reasons or {})
        self.partial = dict(partial or {})
        self.unreadable = unreadable if isinstance(unreadable, bool) else frozenset(unreadable)

    def reason(self, aspect: str) -> str:
        return self.reasons.get(aspect, self.why)

    def unreadable_for(self, aspect: str) -> bool:
        return self.unreadable is True or (not isinstance(self.unreadable, bool) and aspect in self.unreadable)


@dataclass(frozen=True)
class Terms:
    """What a log is replayed under: the ruleset's rules of play for the game, the payout schedule (the table
    configuration's, else the law's), the number of decks, the stake limits, and the run's parameter values."""

    play: Mapping[str, Any] | None  # the ruleset's `play:` data for the game, or None
    payouts: Mapping[str, Any] | None
    decks: int | None = None
    limits: Mapping[str, Any] = field(default_factory=dict)  # minimum, maximum, maxima (per chance), minima
    params: Mapping[str, Any] = field(default_factory=dict)
    # the parameters the ruleset declares (None: not known): one it does not declare can never be given
    declared: frozenset[str] | None = None
    table: Mapping[str, Any] = field(default_factory=dict)  # the table configuration the header names, if any
    # the aspects some rule of the run verifies (None: all, as for edge and sample-log): an engine may skip the
    # work of the others
    aspects: frozenset[str] | None = None
    # the log continues a shoe another log began (its header's `shoe_continues`, with `first_coup` > 1): the burn
    # at that shoe's start is in the other log, and its first coup is not held to it
    continues: bool = False
    table_path: str | None = None  # the file of the table configuration the header names, where it was read


_DIGITS = 30
_BOUND = Decimal(10) ** _DIGITS


_TEXT_READ: dict[str, Decimal | None] = {}  # amounts written as text ("25", "-12.50"), each read once
_TEXT_KEPT = 4096  # a log's amounts repeat (stakes, wins); a log of all-different ones reads past this anew


def money(value: Any) -> Decimal | None:
    """An amount as written (a Decimal from JSON, an int, or text), exactly; None if it is no amount."""
    kind = type(value)
    if kind is int:  # the common case, read once per stake: no text round trip
        return Decimal(value) if -_BOUND < value < _BOUND else None
    if kind is float:  # never reached from our readers; a float amount is already inexact
        return None
    if kind is str and len(value) <= 30:  # "12.50": short text cannot hold an unreasonable number of digits
        read = _TEXT_READ.get(value, _TEXT_READ)  # the dict itself: not read yet (None is "no amount")
        if read is not _TEXT_READ:
            return read
        number = bounded_decimal(value)
        if len(_TEXT_READ) < _TEXT_KEPT:
            _TEXT_READ[value] = number  # a Decimal is immutable: one object serves every amount so written
        return number
    return to_decimal(value)


_WIDE = Context(prec=70, traps=[InvalidOperation, Inexact])


def is_multiple(amount: Decimal | int, unit: Decimal | int) -> bool:
    """Whether `amount` is a whole multiple of `unit`, exactly: integers by %, else Decimal's remainder with room
    for 70 digits, else (a quotient longer than that) as fractions."""
    if type(amount) is int and type(unit) is int:
        return not amount % unit
    try:
        return not _WIDE.remainder(Decimal(amount), Decimal(unit))
    except (InvalidOperation, Inexact):
        return not Fraction(amount) % Fraction(unit)


def card(text: Any) -> tuple[str, str] | None:
    """(rank, suit) of a card as logs write it, or None if it is not one."""
    if isinstance(text, str) and len(text) == 2 and text[0] in RANKS and text[1] in SUITS:
        return text[0], text[1]
    return None


def cents(amount: Decimal) -> str:
    """An amount as a message shows it: 9.5 -> "9.50". Quantized with room for any amount `money` reads (Decimal's
    default 28 digits would raise on one of 27 digits and cents)."""
    amount = Decimal(amount)
    try:
        whole_cents = amount == _SHOWN.quantize(amount, _CENT)
    except InvalidOperation:  # past even that room (an amount no reader gives): shown as it is
        whole_cents = False
    return f"{amount:.2f}" if whole_cents else str(amount)


def unsettled(stake, net, bet: Mapping) -> tuple[str, str] | None:
    """(field, why) if a bet cannot be settled: its stake is no positive amount, or its net no amount (as `money`
    read them). The shape check refuses both; a value it takes and `money` does not (a magnitude past what money
    reads) is said under the settlement, never skipped."""
    if stake is None or stake <= 0:
        return "stake", f"the stake {show(bet.get('stake'))} is no positive amount: the bet cannot be settled"
    if net is None:
        return "net", f"the net {show(bet.get('net'))} is no amount: the bet cannot be settled"
    return None


CONTINUED = object()  # the shoe a log's first coup is dealt from, when the log continues it (Terms.continues)


def burn_counts(burn: Mapping, coup: Mapping, starts: bool) -> Iterator[tuple[str, str, str]]:
    """A shoe's burns as the rules of play count them (`play.<game>.burn`): `shoe_start` cards burnt at a shoe's
    first coup (aspect "burn"; PT bacará n.º 6: «as 8 primeiras», PT blackjack n.º 10: one), `each_coup` before
    every other coup (aspect "burn_each"; PT bacará n.º 13), exactly, or at least where `at_least` (a blackjack
    coup's `burned` holds the cards burnt during it too). `starts`: the coup is its shoe's first."""
    burned = coup.get("burned") or []
    if starts and burn.get("shoe_start") is not None:
        aspect, due, when = "burn", burn["shoe_start"], f"shoe {show(coup.get('shoe'))} starts"
    elif not starts and burn.get("each_coup") is not None:
        aspect, due, when = "burn_each", burn["each_coup"], f"coup {show(coup.get('coup'))} of shoe {show(coup.get('shoe'))} comes"
    else:
        return
    short = len(burned) < due if burn.get("at_least") else len(burned) != due
    if short:
        said = f"{len(burned)} card(s) burnt" if burned else "no burn recorded"
        yield aspect, "/burned" if "burned" in coup else "/shoe", (
            f"{when} with {said} (`burned`); the law burns {'at least ' if burn.get('at_least') else ''}{due}"
            + (" at a shoe's start" if aspect == "burn" else " before every coup of a shoe but its first"
               if not burn.get("shuffled") else " before every coup but a session's first (an automatic shuffling "
               "shoe: its `shoe` numbers start no shoe)"))


SHOES_KEPT = 100_000  # the shoes of one log remembered, to find one that comes back
UNTRACKED = "untracked"  # an engine's aspect the session reports as LOG-UNTRACKED, a warning of the tool's own


class Returns:
    """Labels a log meets in turn (its shoes, its sessions): whether one comes back after another began, which
    would start anew what is kept for it (a shoe's cards counted, a session's minimum). At most `kept` ended
    labels are remembered, so that memory stays flat; past them, returns are no longer looked for (said once)."""

    __slots__ = ("current", "ended")

    def __init__(self):
        self.current: Any = None
        self.ended: set | None = set()  # None past the labels kept

    def turn_to(self, label: Any, kept: int) -> tuple[bool, bool]:
        """The log turns to `label` (another than the current one): (whether it comes back, whether the labels
        kept ran out at this turn)."""
        back = full = False
        if self.ended is not None:
            back = label in self.ended
            if self.current is not None:
                self.ended.add(self.current)
            if len(self.ended) > kept:
                self.ended, full = None, True
        self.current = label
        return back, full


class Shoes(Returns):
    """The shoes a log has opened: a shoe that comes back has its cards counted anew, a breach of the deal."""

    __slots__ = ()

    def open(self, shoe: Any) -> Iterator[tuple[str, str, str]]:
        """The coup's shoe, when it is not the current one: a breach of the deal if it comes back, and (once,
        UNTRACKED) when too many were opened to look for that any more."""
        before = self.current
        back, full = self.turn_to(shoe, SHOES_KEPT)
        if back:
            yield "deal", "/shoe", (f"shoe {show(shoe)} comes back after shoe {show(before)} was opened: its cards "
                                    "are counted anew from here, and a card dealt too often from it would pass")
        if full:
            yield UNTRACKED, "/shoe", (f"more than {SHOES_KEPT:,} shoes in one log: from this coup on, a shoe that "
                                       "comes back is not looked for")


_SHOWN = Context(prec=100)
_CENT = Decimal("0.01")
