"""The house edge of blackjack under a jurisdiction's rules of play, exactly, for an infinite deck: the player
follows basic strategy, the best play by his hand's total (on two cards by the cards themselves: pairs, and the
Portuguese special prize of n.º 35), against each dealer up-card with the dealer's finals of
casino_audit.games.blackjack_dealer_odds.dealer_table. The hole card is not peeked at (PT n.º 17 deals it face down
and no number has the dealer look at it; n.º 34 speaks of a time «antes de se saber qual é a segunda carta da
banca»), so the dealer's blackjack is one of the finals the player's doubles and splits play against.

The side bets: LU's super-jack exactly, for the shoe's decks when known (the dealer's first two cards, and the
bust chance from the composition-dependent dealer table); PT's jackpot has the concessionaire's schedule
(n.º 43), which no ruleset holds: not computed.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from casino_audit.games import blackjack as bj
from casino_audit.games.blackjack_dealer_odds import INFINITE, dealer_table, full_shoe
from casino_audit.edge.common import Edge, EdgeError

P = INFINITE  # P[v - 1]: the chance of a card of value v (1 ace to 10)
SUITED = Fraction(1, 4)  # two given cards of an infinite deck share a suit


def _stand(total: int, dealer: dict, mult: int, takes_all: bool) -> Fraction:
    """EV per unit of the hand's original stake of standing on `total` (a non-blackjack), `mult` units at risk."""
    ev = Fraction(0)
    for final, chance in dealer.items():
        if final == bj.BLACKJACK:
            ev -= chance * (mult if takes_all else 1)
        elif final == bj.BUST or total > final:
            ev += chance * mult
        elif total < final:
            ev -= chance * mult
    return ev


class _Player:
    """Expected values of every play against one up-card, for the rules given."""

    def __init__(self, up: int, rules: bj.Rules):
        self.up, self.rules = up, rules
        self.dealer = dealer_table(up, rules.dealer_rule)
        self.takes_all = rules.dealer_blackjack_takes_all
        self.stand_from = (rules.stand_above or 0) + 1
        self.many = lru_cache(maxsize=None)(self._many)
        self.stand = lru_cache(maxsize=None)(lambda total: _stand(total, self.dealer, 1, self.takes_all))

    def _many(self, hard: int, ace: bool) -> Fraction:
        """Best EV of a hand of three cards or more (or one that may only hit or stand)."""
        total = hard + 10 if ace and hard + 10 <= 21 else hard
        if total > 21:
            return Fraction(-1)
        stand = self.stand(total) if total >= self.stand_from else None
        if total == 21:
            return stand  # PT n.º 18: no card after 21
        hit = sum(P[v - 1] * self.many(hard + v, ace or v == 1) for v in range(1, 11))
        return hit if stand is None else max(stand, hit)

    def _prize_on_hit(self, ranks: tuple[int, int], suited: bool) -> Fraction:
        """The special prize the next card brings to a two-card hand, in expectation (PT n.º 35)."""
        if self.rules.special_prize_pays is None:
            return Fraction(0)
        pays = Fraction(self.rules.special_prize_pays)
        combinations = self.rules.special_prize_combinations
        if ranks == (7, 7) and bj.THREE_SEVENS in combinations:
            return pays * P[6]
        three = {6, 7, 8}
        if suited and len(set(ranks)) == 2 and set(ranks) <= three and bj.SIX_SEVEN_EIGHT_SUITED in combinations:
            return pays * P[(three - set(ranks)).pop() - 1] * SUITED
        return Fraction(0)

    def two(self, a: int, b: int, suited: bool, split_of: int | None, splits_left: bool) -> Fraction:
        """Best EV (per unit of the hand's stake) of a two-card hand of values a and b; `split_of` the value of the
        pair it was split from (None for the box's first hand)."""
        rules = self.rules
        hard, ace = a + b, 1 in (a, b)
        total = hard + 10 if ace and hard + 10 <= 21 else hard
        if split_of is None and total == 21 and ace:  # a blackjack
            return Fraction(rules.blackjack_pays) * (1 - self.dealer.get(bj.BLACKJACK, 0))
        if split_of == 1 and rules.split_aces_one_card:
            options = [self.stand(total)]
            if a == b == 1 and splits_left:
                options.append(2 * self.split(1))
            return max(options)
        options = []
        if total >= self.stand_from:
            options.append(self.stand(total))
        if total < 21:
            hit = sum(P[v - 1] * self.many(hard + v, ace or v == 1) for v in range(1, 11))
            options.append(hit + self._prize_on_hit(tuple(sorted((a, b))), suited))
        cards = (str(a) if a < 10 else "T", str(b) if b < 10 else "T")
        cards = tuple("A" if c == "1" else c for c in cards)
        if bj.may_double(cards, rules, split_of is not None, False) is None:
            ace_one = bj.doubled_ace_counts_one(cards, rules)
            double = Fraction(0)
            for v in range(1, 11):
                final = hard + v if ace_one else (hard + v + 10 if (ace or v == 1) and hard + v + 10 <= 21
                                                   else hard + v)
                double += P[v - 1] * (Fraction(-2) if final > 21 else _stand(final, self.dealer, 2, self.takes_all))
            options.append(double)
        if a == b and splits_left:
            options.append(2 * self.split(a))
        if split_of is None and rules.surrender_loses is not None and not self._ace_up_barred():
            options.append(-Fraction(rules.surrender_loses))
        return max(options)

    def _ace_up_barred(self) -> bool:
        return self.up == 1 and "A" in self.rules.surrender_not_against or \
            self.up == 10 and bool(self.rules.surrender_not_against & bj.TEN_CARDS)

    @lru_cache(maxsize=None)
    def split(self, v: int) -> Fraction:
        """EV of one hand of a split pair of value v, resplitting while the rules allow (no limit in PT n.º 27:
        the hand's value S solves S = A + p(v) max(play the pair, 2S))."""
        limit = self.rules.split_max_hands
        if limit is not None and limit > 2:
            raise ValueError("a limit on split hands above two is not computed")  # PT states none
        resplit = limit is None
        rest = Fraction(0)
        for x in range(1, 11):
            if x == v:
                continue
            three = {6, 7, 8}
            if v != x and {v, x} <= three:
                hand = SUITED * self.two(v, x, True, v, False) + (1 - SUITED) * self.two(v, x, False, v, False)
            else:
                hand = self.two(v, x, False, v, False)
            rest += P[x - 1] * hand
        keep = self.two(v, v, False, v, False)
        if resplit and 2 * P[v - 1] < 1:
            again = rest / (1 - 2 * P[v - 1])
            if 2 * again > keep:
                return again
        return rest + P[v - 1] * keep

    def box(self) -> Fraction:
        """EV of a box: its first two cards drawn, then the best play."""
        ev = Fraction(0)
        for a in range(1, 11):
            for b in range(1, 11):
                chance = P[a - 1] * P[b - 1]
                if {a, b} <= {6, 7, 8} and a != b:
                    ev += chance * (SUITED * self.two(a, b, True, None, True)
                                    + (1 - SUITED) * self.two(a, b, False, None, True))
                else:
                    ev += chance * self.two(a, b, False, None, True)
        return ev


def main_bet_edge(rules: bj.Rules) -> Fraction:
    """The house edge of the main bet (minus the player's EV per unit of the initial stake), infinite deck."""
    needed = [key for key in rules.missing if key.split("/")[0] in
              ("dealer", "payouts", "doubling", "splitting", "surrender", "player")]
    if needed or rules.dealer_rule is None or rules.blackjack_pays is None or rules.win_pays is None:
        raise ValueError(f"the rules of play lack {', '.join(needed) or 'the dealer rule or payouts'}")
    if rules.win_pays != 1:
        raise ValueError("a win paying other than even money is not computed")
    ev = sum(P[up - 1] * _Player(up, rules).box() for up in range(1, 11))
    return -ev


def _shoe_pairs(decks: int | None):
    """(P(blackjack), P(suited blackjack), P(blackjack of hearts)) of the dealer's first two cards."""
    if decks is None:
        return Fraction(8, 169), Fraction(2, 169), Fraction(1, 338)
    n = 52 * decks
    any_bj = Fraction(2 * 4 * decks * 16 * decks, n * (n - 1))
    per_suit = Fraction(2 * decks * 4 * decks, n * (n - 1))
    return any_bj, 4 * per_suit, per_suit


def dealer_bust(rule: str, decks: int | None) -> Fraction:
    """P(the dealer busts), over every up-card, from a full shoe of `decks` (None: an infinite deck)."""
    if decks is None:
        return sum(P[up - 1] * dealer_table(up, rule).get(bj.BUST, 0) for up in range(1, 11))
    shoe = list(full_shoe(decks))
    total = Fraction(0)
    for up in range(1, 11):
        left = list(shoe)
        left[up - 1] -= 1
        total += Fraction(shoe[up - 1], sum(shoe)) * dealer_table(up, rule, left).get(bj.BUST, 0)
    return total


def super_jack_edges(rules: bj.Rules, decks: int | None) -> dict[str, tuple[Fraction, str]]:
    """Each super-jack chance's house edge, with a note: 1 - (pays + 1) P(win)."""
    any_bj, suited, hearts = _shoe_pairs(decks)
    shoe = f"{decks} decks" if decks else "infinite deck (the decks are not known)"
    found = {}
    for chance, chance_p in (("black_jack", any_bj), ("silver_jack", suited), ("gold_jack", hearts)):
        if chance in rules.super_jack:
            found[chance] = (1 - (Fraction(rules.super_jack[chance]) + 1) * chance_p, shoe)
    if "bust" in rules.super_jack:
        rule_list = [rules.dealer_rule] if rules.dealer_rule else [bj.STANDS_ON_17, bj.HITS_SOFT_17]
        for rule in rule_list:
            name = "bust" if rules.dealer_rule else f"bust_if_{rule}"
            note = shoe if rules.dealer_rule else f"{shoe}; the dealer's rule is not in the text: {rule}"
            found[name] = (1 - (Fraction(rules.super_jack["bust"]) + 1) * dealer_bust(rule, decks), note)
    return found


def _exact(value) -> Fraction | None:
    if value is None or isinstance(value, (bool, float)):
        return None
    try:
        return Fraction(str(value))
    except ValueError:
        return None


def edges(data: dict, payouts: dict | None, table: dict, decks: int | None,
          params: dict | None = None) -> list[tuple[str, Fraction, str]]:
    """(bet, house edge, note) of the main bet and the side bets whose schedule is known. The table's own
    schedule, where it gives one, replaces the law's payouts (`blackjack`, `jogada_ganha`, `premio_especial`;
    the super-jack's under side_bets/super_jack/payouts)."""
    import dataclasses

    rules = bj.rules(data, params)
    changes = {}
    for key, field_name in (("blackjack", "blackjack_pays"), ("jogada_ganha", "win_pays"), ("win", "win_pays"),
                            ("premio_especial", "special_prize_pays")):
        if _exact((payouts or {}).get(key)) is not None and getattr(rules, field_name) is not None:
            changes[field_name] = bj.Decimal(str(payouts[key]))
    own = ((table.get("side_bets") or {}).get("super_jack") or {}).get("payouts") or {}
    if own and rules.super_jack:
        changes["super_jack"] = {chance: bj.Decimal(str(own[chance])) if _exact(own.get(chance)) is not None
                                 else pays for chance, pays in rules.super_jack.items()}
    rules = dataclasses.replace(rules, **changes)
    found = []
    try:
        main = main_bet_edge(rules)
        note = ("exact for an infinite deck (a shoe of a few decks favours the player slightly more); basic "
                "strategy: the best play by total, two-card hands by their cards")
        if rules.jackpot:
            note += "; the jackpot's schedule is the concessionaire's (n.º 43): its edge is not computed"
        found.append(("main", main, note))
    except ValueError as error:
        missing = sorted({name for names in rules.missing.values() for name in names})
        why = f"parameters {', '.join(missing)}" if missing else str(error)
        found.append(None if not rules.super_jack else ("", None, f"the main bet is not computed: {why}"))
    side = super_jack_edges(rules, decks) if rules.super_jack else {}
    aside = found.pop() if found and found[-1] and found[-1][1] is None else None
    for chance, (edge, note) in side.items():
        found.append((f"super_jack_{chance}", edge, note + (f"; {aside[2]}" if aside else "")))
        aside = None
    return [item for item in found if item]


def engine(ruleset, game, play, payouts, table, options) -> list:
    """casino_audit.edge's engine for blackjack (casino_audit.edge.engine_for("blackjack"))."""

    if play is None or "blackjack" not in play.data:
        raise EdgeError(f"the {ruleset.code} ruleset has no rules of play for blackjack under `play:`")
    decks = options.decks or (table.get("cards") or {}).get("decks")
    found = edges(play.data["blackjack"], payouts, table, decks if isinstance(decks, int) else None, options.params)
    if not found:
        raise EdgeError(f"the {ruleset.code} rules of play for blackjack lack what the edge needs")
    return [Edge(bet, edge, note=note) for bet, edge, note in found]
