"""Punto banco (Luxembourg, Art. 37-4) / bacará ponto e banca (Portugal, Portaria 217/2007, Secção III): the
coup, its settlement, and its exact odds. Pure functions; the law's rules of play are passed in as data.

rules: the drawing rules, a plain mapping, as a ruleset's `play:` gives them (rulesets/lu.yaml, punto_banco):
    naturals: [8, 9]                       two-card totals that end the coup ("abattage"): nobody draws
    player_draws_on: [0, 1, 2, 3, 4, 5]    player's two-card totals on which the player takes a third card
    banker:                                banker's two-card total -> when the banker takes a third card,
      3: {draws_on_player_third_card: [0, 1, 2, 3, 4, 5, 6, 7, 9],     by the value of the player's third card
          draws_if_player_stood: true}                                 and when the player took none ("Refus")
    with one row for every total that is not a natural: a missing row is an error, never "stands".

payouts: per bet, under the name the jurisdiction gives it (LU punto/banco/egalite, PT ponto/banca/empate):
    banco: {wins_on: banker, pays: "0.95", returned_on: [tie]}
      wins_on       the outcome that wins the bet: player, banker or tie; or player_pair / banker_pair, won
                    when that hand's first two cards are of one rank (PT n.º 19), whatever the outcome
      pays          the win per unit staked, exact (a string, int or Decimal; a float is refused)
      returned_on   outcomes on which the stake is handed back, neither won nor lost (optional)
      deduction     share of every win kept by the house (optional; PT n.º 20 a): "0.05")
      deduction_by_banker_total   {banker's final total: share kept} (optional; PT n.º 20 b): {5: "0.5"})
    a bet loses its stake on any other outcome.

Cards are ranks ("A", "2" to "10", "J", "Q", "K") or integers: 1 to 9 as themselves, 0 and 10 to 13 (ten,
jack, queen, king) worth 0. A shoe is counted per point value: {0: 128, 1: 32, ..., 9: 32} for 8 decks.

Portugal's drawing table is not in our source: Secção III, n.º 13 ends "observando-se a seguinte tabela:" and
the text gives "(ver documento original)" in its place; Secção IV (Macau) stops at n.º 12. No PT rules are
given here until the original is read; only PT's payouts, which the text does state, are.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Iterator, Mapping, Sequence

from casino_audit.core.values import to_decimal

PLAYER, BANKER, TIE = "player", "banker", "tie"
OUTCOMES = (PLAYER, BANKER, TIE)
PAIRS = {"player_pair": PLAYER, "banker_pair": BANKER}  # a pair bet wins on its hand's first two cards alone

# Art. 37-4, "Tableau de tirage de punto": «Point avec deux cartes 0-1-2-3-4-5 Tirer / 6-7 Rester /
# 8-9 Abattage Banco ne peut tirer». "Tableau de tirage de banco": «Avec deux cartes, lorsqu'il a 0, 1 ou 2,
# banco tire sauf si punto fait un abattage. Inversement, si banco a 8 ou 9, il fait un abattage et punto ne
# peut tirer.» Then the table, rows "Points de banco" 3 to 6, columns "Valeur de la 3° carte donnée à punto"
# 0 to 9 and "Refus" (T: tire, R: reste):
#     3: T T T T T T T T R T | T      5: R R R R T T T T R R | T
#     4: R R T T T T T T R R | T      6: R R R R R R T T R R | R
# The text gives no row for banco's 7: banco stands on 7, as it is the one total neither the sentence (0-2)
# nor the table (3-6) lets it draw on. That is a reading, not words of the text.
_ALL = list(range(10))
_RANKS = {"A": 1, **{str(n): n for n in range(2, 10)}, "10": 0, "J": 0, "Q": 0, "K": 0}


def card_value(card: str | int) -> int:
    """Art. 37-4: «L'as vaut un, les valets, dames, rois, dits «bûches» et les dix valent zéro.»"""
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card <= 13:
        return card if card < 10 else 0
    if isinstance(card, str) and card.strip().upper() in _RANKS:
        return _RANKS[card.strip().upper()]
    raise ValueError(f"not a card: {card!r}")


def _is_card(card) -> bool:
    try:
        return card_value(card) is not None
    except ValueError:
        return False


def points(values: Sequence[int]) -> int:
    """«Il n'est pas tenu compte du chiffre des dizaines, seul est pris en considération le chiffre des unités.»"""
    return sum(values) % 10


def hand_total(cards: Sequence[str | int]) -> int:
    return points([card_value(card) for card in cards])


def is_natural(cards: Sequence[str | int], rules: Mapping) -> bool:
    return len(cards) == 2 and hand_total(cards) in rules["naturals"]


def either_natural(rules: Mapping, player_total: int, banker_total: int) -> bool:
    """Whether a two-card total is a natural ("abattage"): the coup ends and nobody draws."""
    return player_total in rules["naturals"] or banker_total in rules["naturals"]


def player_draws(rules: Mapping, player_total: int) -> bool:
    """Whether the player, with no natural on the table, takes a third card on its two-card total."""
    return player_total in rules["player_draws_on"]


def full_shoe(decks: int) -> dict[int, int]:
    """The counts per point value of `decks` decks of 52: the ten and the three faces are all worth 0."""
    return {0: 16 * decks, **{value: 4 * decks for value in range(1, 10)}}


@dataclass(frozen=True)
class Coup:
    player_cards: tuple
    banker_cards: tuple
    player_total: int
    banker_total: int
    outcome: str  # PLAYER, BANKER or TIE

    @property
    def player_drew(self) -> bool:
        return len(self.player_cards) == 3

    @property
    def banker_drew(self) -> bool:
        return len(self.banker_cards) == 3

    @property
    def cards_used(self) -> int:
        return len(self.player_cards) + len(self.banker_cards)


def outcome_of(player_total: int, banker_total: int) -> str:
    # «La chance gagnante est celle qui réalise le point «neuf» ou celui qui se rapproche le plus de neuf»
    return PLAYER if player_total > banker_total else BANKER if banker_total > player_total else TIE


def banker_draws(rules: Mapping, banker_total: int, player_third: int | None) -> bool:
    """Whether the banker takes a third card on its two-card total, by the value of the player's third card
    (None: the player stood); ValueError where the rules give no row for the total."""
    row = rules["banker"].get(banker_total)
    if row is None:
        raise ValueError(f"the drawing rules give no row for a banker total of {banker_total}")
    if player_third is None:
        return bool(row["draws_if_player_stood"])
    return player_third in row["draws_on_player_third_card"]


def _required_cards(values: Sequence[int], rules: Mapping) -> Iterator[tuple[str, str]]:
    """The hand each card of the coup goes to, in dealing order, with what the card is: as far as the cards
    in `values` let the rules decide (whether the banker draws depends on the player's third card)."""
    # «La première et la troisième carte reviennent à Punto, la deuxième et la quatrième à Banco.»
    yield from ((PLAYER, "player's first card"), (BANKER, "banker's first card"),
                (PLAYER, "player's second card"), (BANKER, "banker's second card"))
    if len(values) < 4:
        return
    player, banker = points((values[0], values[2])), points((values[1], values[3]))
    if either_natural(rules, player, banker):
        return
    player_third = None
    if player_draws(rules, player):
        yield PLAYER, f"player's third card (the player has {player})"
        if len(values) < 5:
            return
        player_third = values[4]
    if banker_draws(rules, banker, player_third):
        why = "the player stood" if player_third is None else f"the player's third card is worth {player_third}"
        yield BANKER, f"banker's third card (the banker has {banker} and {why})"


def check_deal(cards: Sequence, rules: Mapping) -> list[str]:
    """What is wrong with the cards of one coup, in dealing order, under `rules`: unknown cards, cards the rules
    required that are missing, cards beyond those required. Empty if the coup is consistent; never raises for
    bad cards."""
    problems = [f"card {position} is not a card: {card!r}" for position, card in enumerate(cards, 1)
                if not _is_card(card)]
    if problems:
        return problems
    values = [card_value(card) for card in cards]
    required = list(_required_cards(values, rules))
    problems += [f"missing: the {what}" for _, what in required[len(values):]]
    if len(values) > len(required):
        extra = ", ".join(repr(card) for card in cards[len(required):])
        problems.append(f"{len(values) - len(required)} card(s) more than the rules require: {extra}")
    return problems


def deal(cards: Sequence, rules: Mapping) -> Coup:
    """The coup the cards make, dealt in order; ValueError (with check_deal's problems) if they do not make one."""
    problems = check_deal(cards, rules)
    if problems:
        raise ValueError("; ".join(problems))
    return deal_from_shoe(cards, rules)


def deal_from_shoe(cards: Sequence, rules: Mapping) -> Coup:
    """The coup dealt from the front of a shoe: takes the cards the rules require and leaves the rest."""
    values = [card_value(card) for card in cards[:6]]  # a coup never takes more than six
    required = list(_required_cards(values, rules))
    if len(required) > len(values):
        raise ValueError(f"the shoe runs out: missing the {required[len(values)][1]}")
    hands: dict[str, list] = {PLAYER: [], BANKER: []}
    for card, (hand, _) in zip(cards, required):
        hands[hand].append(card)
    player_total, banker_total = hand_total(hands[PLAYER]), hand_total(hands[BANKER])
    return Coup(tuple(hands[PLAYER]), tuple(hands[BANKER]), player_total, banker_total,
                outcome_of(player_total, banker_total))


def _exact(number, what: str) -> Decimal:
    # A float such as 0.95 is already not 0.95: money and rates are read from their written form only; NaN,
    # infinities and numbers past 30 digits are no amounts (values.to_decimal refuses them).
    if isinstance(number, (bool, float)) or not isinstance(number, (int, str, Decimal)):
        raise ValueError(f"{what} must be exact (a string, an integer or a Decimal), not {number!r}")
    value = to_decimal(number)
    if value is None:
        raise ValueError(f"{what} is not a finite amount: {number!r}")
    return value


def _win_per_unit(terms: Mapping, banker_total: int | None) -> Decimal:
    rate = _exact(terms["pays"], "pays") * (1 - _exact(terms.get("deduction", "0"), "deduction"))
    by_total = terms.get("deduction_by_banker_total")
    if by_total:
        if banker_total is None:
            raise ValueError("this payout depends on the banker's total: pass banker_total")
        rate *= 1 - _exact(by_total.get(banker_total, "0"), "deduction_by_banker_total")
    return rate


def settle(outcome: str, bets: Mapping[str, object], payouts: Mapping, *,
           banker_total: int | None = None, pairs: frozenset = frozenset()) -> dict[str, Decimal]:
    """What each bet comes to, exactly: the win (stake x pays, less deductions), 0 for a stake handed back, or
    minus the stake. `banker_total` is needed only by payouts with a deduction_by_banker_total; `pairs` holds
    the hands (PLAYER, BANKER) whose first two cards are a pair, for the pair bets."""
    if outcome not in OUTCOMES:
        raise ValueError(f"not an outcome: {outcome!r} (one of {', '.join(OUTCOMES)})")
    results = {}
    for bet, stake in bets.items():
        terms = payouts.get(bet)
        if terms is None:
            raise ValueError(f"no payout for the bet {bet!r} (known: {', '.join(payouts)})")
        stake = _exact(stake, f"the stake on {bet!r}")
        if stake <= 0:
            raise ValueError(f"the stake on {bet!r} must be positive, not {stake}")
        wins_on = terms["wins_on"]
        if outcome == wins_on or PAIRS.get(wins_on) in pairs:
            results[bet] = stake * _win_per_unit(terms, banker_total)
        elif outcome in terms.get("returned_on", ()):
            results[bet] = Decimal(0)
        else:
            results[bet] = -stake
    return results


def _two_card_hands(left: list[int]) -> Iterator[tuple[int, int, int]]:
    """Each player's and banker's two-card totals with the number of ordered ways four cards of the shoe give
    them; `left` holds the counts after those four cards while each is yielded. A hand's two cards are taken
    as an unordered pair (x2 orderings unless equal): 55 x 55 cases instead of 10^4."""
    for p1 in range(10):
        for p2 in range(p1, 10):
            player_ways = _pair_ways(left, p1, p2)
            if not player_ways:
                continue
            left[p1] -= 1; left[p2] -= 1
            for b1 in range(10):
                for b2 in range(b1, 10):
                    banker_ways = _pair_ways(left, b1, b2)
                    if banker_ways:
                        left[b1] -= 1; left[b2] -= 1
                        yield (p1 + p2) % 10, (b1 + b2) % 10, player_ways * banker_ways
                        left[b1] += 1; left[b2] += 1
            left[p1] += 1; left[p2] += 1


def _pair_ways(left: list[int], a: int, b: int) -> int:
    return left[a] * (left[a] - 1) if a == b else 2 * left[a] * left[b]


def _final_hands(shoe_counts: Mapping[int, int], rules: Mapping) -> dict[tuple[str, int], Fraction]:
    """P(outcome, banker's final total), exactly, for one coup from a shoe in random order."""
    _check_shoe(shoe_counts)
    left = [shoe_counts.get(value, 0) for value in range(10)]
    n = sum(left)
    if n < 6 or min(left) < 0:
        raise ValueError(f"a coup can take six cards; the shoe has {n}")
    # Every coup is counted as the orderings of the next six cards, so paths of 4, 5 and 6 cards share one
    # denominator: a coup of k cards has (n-k)(n-k-1)... ways for the cards after it. Integers until the end.
    ways_after = {4: (n - 4) * (n - 5), 5: n - 5, 6: 1}
    weights: Counter = Counter()

    def banker_turn(player: int, banker: int, player_third: int | None, ways: int, used: int) -> None:
        if not banker_draws(rules, banker, player_third):
            weights[outcome_of(player, banker), banker] += ways * ways_after[used]
            return
        for card in range(10):
            if left[card]:
                total = (banker + card) % 10
                weights[outcome_of(player, total), total] += ways * left[card] * ways_after[used + 1]

    for player, banker, ways in _two_card_hands(left):
        if either_natural(rules, player, banker):
            weights[outcome_of(player, banker), banker] += ways * ways_after[4]
        elif not player_draws(rules, player):
            banker_turn(player, banker, None, ways, 4)
        else:
            for card in range(10):
                if left[card]:
                    ways_with_card = ways * left[card]
                    left[card] -= 1
                    banker_turn((player + card) % 10, banker, card, ways_with_card, 5)
                    left[card] += 1
    orderings = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    return {key: Fraction(count, orderings) for key, count in weights.items()}


def _check_shoe(shoe_counts: Mapping) -> None:
    """A shoe is counted per point value 0 to 9: any other key (a rank "A", 12, -1) would be silently ignored."""
    strangers = [key for key in shoe_counts if isinstance(key, bool) or key not in range(10)]
    if strangers:
        raise ValueError(f"a shoe is counted per point value 0 to 9, not {strangers!r}")
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in shoe_counts.values()):
        raise ValueError("a shoe holds a whole, non-negative number of cards of each value")


def outcome_probabilities(shoe_counts: Mapping[int, int], rules: Mapping) -> dict[str, Fraction]:
    """P(player), P(banker), P(tie) for the next coup from a shoe of these counts per point value, exactly
    (every ordering of the shoe equally likely, cards drawn without replacement)."""
    probabilities = dict.fromkeys(OUTCOMES, Fraction(0))
    for (outcome, _), probability in _final_hands(shoe_counts, rules).items():
        probabilities[outcome] += probability
    return probabilities


def house_edge(shoe_counts: Mapping[int, int], rules: Mapping, payouts: Mapping) -> dict[str, Fraction]:
    """Each bet's expected loss per unit staked, exactly, over all coups (ties included: a returned stake counts
    as a coup played at no gain)."""
    finals = _final_hands(shoe_counts, rules)
    edges = {}
    for bet, terms in payouts.items():
        if terms["wins_on"] in PAIRS:
            raise ValueError(f"the edge of a pair bet ({bet}) is not computed by outcome: leave it out")
        expected = Fraction(0)
        for (outcome, banker_total), probability in finals.items():
            if outcome == terms["wins_on"]:
                expected += probability * Fraction(_win_per_unit(terms, banker_total))
            elif outcome not in terms.get("returned_on", ()):
                expected -= probability
        edges[bet] = -expected
    return edges
