"""Blackjack (Luxembourg, Art. 32, 5: the super-jack; Portugal, Portaria 217/2007, Título I, Capítulo III,
Secção I: blackjack/21): hand values, the dealer's drawing, what a player may do at each point (the settlement of
a hand and of the side bets: games/blackjack_settlement.py; the exact odds of the dealer's finals:
games/blackjack_dealer_odds.py; the shape of the rules of play: games/blackjack_schema.py). Pure functions; the
law's rules of play are passed in as data (a ruleset's `play: blackjack: blackjack:` mapping, resolved by
`rules()`).

The rules of play, as data (rulesets/pt.yaml states every part; rulesets/lu.yaml refers most to parameters,
the Luxembourg text in our source giving only the super-jack):
    dealer:       {rule: stands_on_17 | hits_soft_17, no_draw_when_no_hand_in_play: bool}
    player:       {stand_above: 11}                      a player may stand only above this total
    doubling:     {on: [9, 10, 11] | any, after_split: bool, ace_counts_one: bool}
    splitting:    {max_hands: int (no key: no limit), aces_one_card: bool}
    surrender:    {loses: "0.5" | none, not_against: [A], first_two_cards_only: bool}
    insurance:    {on: [A], maximum: "0.5" (of the box's stake), pays: 2}
    even_money:   {on: [A], pays: 1}
    payouts:      {blackjack: "1.5", win: 1, dealer_blackjack_takes: all | original}
    special_prize:{pays: 3, combinations: [six_seven_eight_suited, three_sevens]}
    super_jack:   {bust: "2.5", black_jack: 19, silver_jack: 77, gold_jack: 300}
    jackpot:      {stake: amount}
    citations:    {part: {article, text}}                the words each part rests on
Any value may be {param: NAME}: the run's parameter value, or, without one, the part is unavailable.

Cards are (rank, suit) pairs or "Td"-style text; ranks A 2-9 T J Q K, a ten-card is worth 10, an ace 1 or 11.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterable, Mapping, Sequence

from casino_audit.core.values import to_decimal

VALUES = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10}
TEN_CARDS = frozenset("TJQK")
STANDS_ON_17, HITS_SOFT_17 = "stands_on_17", "hits_soft_17"
BLACKJACK, BUST = "blackjack", "bust"
DEALER_FINALS = (17, 18, 19, 20, 21, BLACKJACK, BUST)
SIX_SEVEN_EIGHT_SUITED, THREE_SEVENS = "six_seven_eight_suited", "three_sevens"
SUPER_JACK_CHANCES = ("bust", "black_jack", "silver_jack", "gold_jack")

# Which check each part of the rules serves: a part that needs a parameter the run does not give makes these
# aspects unavailable (the replay reports them "not checked", naming the parameter).
PART_ASPECTS = {
    "dealer": ("dealer_drawing",), "player": ("decisions",), "doubling": ("decisions",),
    "splitting": ("decisions",), "surrender": ("decisions", "settlement"), "insurance/maximum": ("decisions",),
    "insurance/on": ("decisions",), "insurance/pays": ("settlement",), "even_money/on": ("decisions",),
    "even_money/pays": ("settlement",), "payouts": ("settlement",), "special_prize": ("settlement",),
    "super_jack": ("side_bets",), "jackpot": ("side_bets",),
}


def aspects_of(key: str) -> tuple[str, ...]:
    """The aspects a ruleset key ("part/key") serves: its own entry, else its part's."""
    return PART_ASPECTS.get(key, PART_ASPECTS.get(key.split("/")[0], ()))


# The Rules field each ruleset key ("part/key") is read into: a key a parameter leaves unknown taints that field
# alone, so that a coup whose replay never reads it is still checked (casino_audit/replay/blackjack.py and
# its blackjack_*.py).
FIELDS = {
    "dealer/rule": "dealer_rule", "dealer/no_draw_when_no_hand_in_play": "dealer_no_draw_when_no_hand_in_play",
    "player/stand_above": "stand_above", "doubling/on": "double_on", "doubling/after_split": "double_after_split",
    "doubling/ace_counts_one": "ace_counts_one_after_double", "splitting/max_hands": "split_max_hands",
    "splitting/aces_one_card": "split_aces_one_card", "surrender/loses": "surrender_loses",
    "surrender/not_against": "surrender_not_against", "surrender/first_two_cards_only": "surrender_first_two_cards_only",
    "insurance/on": "insurance_on", "insurance/maximum": "insurance_maximum", "insurance/pays": "insurance_pays",
    "even_money/on": "even_money_on", "even_money/pays": "even_money_pays", "payouts/blackjack": "blackjack_pays",
    "payouts/win": "win_pays", "payouts/dealer_blackjack_takes": "dealer_blackjack_takes_all",
    "special_prize/pays": "special_prize_pays", "special_prize/combinations": "special_prize_combinations",
    "jackpot/stake": "jackpot_stake",
}


def rank_of(card: Any) -> str:
    text = card[0] if isinstance(card, tuple) else card[:1] if isinstance(card, str) else None
    if text not in VALUES:
        raise ValueError(f"not a card: {card!r}")
    return text


def value(card: Any) -> int:
    return VALUES[rank_of(card)]


def hand_value(cards: Iterable[Any], ace_counts_one: bool = False) -> tuple[int, bool]:
    """(total, soft): one ace counts 11 where that keeps the total at 21 or under (PT n.º 6 a): «Ás - 1 ou 11»),
    unless the hand was doubled counting it as 1 (PT n.º 32: «é obrigado a manter-lhe esse valor até final»)."""
    values = [value(card) for card in cards]
    total = sum(values)
    if not ace_counts_one and 1 in values and total + 10 <= 21:
        return total + 10, True
    return total, False


def is_blackjack(cards: Sequence[Any], from_split: bool = False) -> bool:
    """An ace and a ten-card as a hand's first two cards; PT n.º 20: «Não se considera blackjack, mas sim o total
    de 21, se aquela combinação resultar do desdobramento de um par.»"""
    return not from_split and len(cards) == 2 and sorted(value(c) for c in cards) == [1, 10]


def blackjack_paid_at_once(up: Any) -> bool:
    """Whether a player's blackjack is settled before the dealer plays: PT n.º 21, «Se o jogador fizer blackjack e a
    carta aberta da banca não for uma das que possibilitem essa combinação (ás, figura ou 10), deverá ser-lhe pago
    logo o respectivo prémio»; against an ace or a ten-card it waits for the dealer's hand (a tie is still open)."""
    return value(up) not in (1, 10)


def is_bust(cards: Sequence[Any], ace_counts_one: bool = False) -> bool:
    return hand_value(cards, ace_counts_one)[0] > 21


# --- the rules, resolved from the ruleset's data and the run's parameters ------------------------------------

class RulesError(ValueError):
    """The rules of play are malformed (a value of the wrong kind)."""


@dataclass(frozen=True)
class Rules:
    dealer_rule: str | None = None
    dealer_no_draw_when_no_hand_in_play: bool = False
    stand_above: int | None = None
    double_on: frozenset[int] | None = None  # two-card totals; None: any two cards
    double_after_split: bool = False
    ace_counts_one_after_double: bool = False
    split_max_hands: int | None = None  # None: no limit
    split_aces_one_card: bool = False
    surrender_loses: Decimal | None = None  # None: no surrender
    surrender_not_against: frozenset[str] = frozenset()
    surrender_first_two_cards_only: bool = True
    insurance_on: frozenset[str] | None = None  # None: the rules do not say on what up-card
    insurance_maximum: Decimal | None = None
    insurance_pays: Decimal | None = None
    even_money_on: frozenset[str] | None = None  # None: no even money
    even_money_pays: Decimal | None = None
    blackjack_pays: Decimal | None = None
    win_pays: Decimal | None = None
    dealer_blackjack_takes_all: bool = True
    special_prize_pays: Decimal | None = None
    special_prize_combinations: frozenset[str] = frozenset()
    super_jack: Mapping[str, Decimal] = field(default_factory=dict)
    jackpot_stake: Decimal | None = None
    jackpot: bool = False
    missing: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # part/key -> parameters not given
    # part -> the provisions it rests on, as the ruleset quotes them ({article, text[, instrument, covers]}):
    # what a replay finding cites (casino_audit.replay.provision)
    citations: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def unavailable(self) -> dict[str, list[str]]:
        """aspect -> the parameters it lacks."""
        found: dict[str, list[str]] = {}
        for key, names in self.missing.items():
            for aspect in aspects_of(key):
                found.setdefault(aspect, []).extend(n for n in names if n not in found.get(aspect, ()))
        return found


def _resolve(node: Any, params: Mapping[str, Any], missing: list[str]) -> Any:
    if isinstance(node, Mapping) and set(node) == {"param"}:
        if node["param"] not in params or params[node["param"]] is None:
            missing.append(node["param"])
            return None
        return params[node["param"]]
    if isinstance(node, Mapping):
        return {key: _resolve(item, params, missing) for key, item in node.items()}
    if isinstance(node, list):
        return [_resolve(item, params, missing) for item in node]
    return node


def _amount(text: Any, what: str) -> Decimal | None:
    if text is None:
        return None
    if isinstance(text, float):
        raise RulesError(f"{what} must be exact, not the float {text!r}")
    found = to_decimal(text)
    if found is None:
        raise RulesError(f"{what} is not an amount: {text!r}")
    return found


def _flag(text: Any, what: str) -> bool:
    if isinstance(text, bool):
        return text
    if isinstance(text, str) and text.strip().lower() in ("yes", "no", "true", "false"):
        return text.strip().lower() in ("yes", "true")
    raise RulesError(f"{what} is yes or no, not {text!r}")


def _totals(text: Any) -> frozenset[int] | None:
    if text == "any":
        return None
    if isinstance(text, str):
        text = [part for part in text.replace(" ", "").split(",") if part]
    try:
        return frozenset(int(item) for item in text)
    except (TypeError, ValueError):
        raise RulesError(f"doubling `on` is `any` or a list of totals, not {text!r}") from None


def _parts(data: Mapping[str, Any], params: Mapping[str, Any]) -> tuple[dict, dict[str, tuple[str, ...]]]:
    """(part -> key -> value, with the parameters' values in; "part/key" -> the parameters a value needs and
    the run does not give, that value left out)."""
    parts, missing = {}, {}
    for part, raw in data.items():
        if part == "citations":
            continue
        parts[part] = {}
        for key, item in (raw.items() if isinstance(raw, Mapping) else ()):
            names: list[str] = []
            found = _resolve(item, params, names)
            if names:
                missing[f"{part}/{key}"] = tuple(names)
            else:
                parts[part][key] = found
    return parts, missing


def rules(data: Mapping[str, Any], params: Mapping[str, Any] | None = None) -> Rules:
    """The rules of play from a ruleset's `blackjack:` data with the run's parameter values; the values that need
    a parameter not given are listed in `missing` ("part/key") and read as absent."""
    parts, missing = _parts(data, params or {})
    dealer = parts.get("dealer") or {}
    doubling = parts.get("doubling") or {}
    splitting = parts.get("splitting") or {}
    surrender = parts.get("surrender") or {}
    insurance = parts.get("insurance") or {}
    even = parts.get("even_money") or {}
    payouts = parts.get("payouts") or {}
    prize = parts.get("special_prize") or {}
    jackpot = parts.get("jackpot") if "jackpot" in data else None
    rule = dealer.get("rule")
    if rule not in (None, STANDS_ON_17, HITS_SOFT_17):
        raise RulesError(f"the dealer's rule is {STANDS_ON_17} or {HITS_SOFT_17}, not {rule!r}")
    loses = surrender.get("loses")
    takes = payouts.get("dealer_blackjack_takes", "all")
    if takes not in ("all", "original"):
        raise RulesError(f"dealer_blackjack_takes is all or original, not {takes!r}")
    max_hands = splitting.get("max_hands")
    return Rules(
        dealer_rule=rule,
        dealer_no_draw_when_no_hand_in_play=bool(dealer.get("no_draw_when_no_hand_in_play", False)),
        stand_above=(parts.get("player") or {}).get("stand_above"),
        double_on=_totals(doubling.get("on", "any")),
        double_after_split=_flag(doubling.get("after_split", False), "doubling after_split"),
        ace_counts_one_after_double=bool(doubling.get("ace_counts_one", False)),
        split_max_hands=int(max_hands) if max_hands is not None else None,
        split_aces_one_card=bool(splitting.get("aces_one_card", False)),
        surrender_loses=None if loses in (None, "none") else _amount(loses, "surrender loses"),
        surrender_not_against=frozenset(surrender.get("not_against", ())),
        surrender_first_two_cards_only=bool(surrender.get("first_two_cards_only", True)),
        insurance_on=frozenset(insurance["on"]) if "on" in insurance else None,
        insurance_maximum=_amount(insurance.get("maximum"), "insurance maximum"),
        insurance_pays=_amount(insurance.get("pays"), "insurance pays"),
        even_money_on=frozenset(even["on"]) if "on" in even else None,
        even_money_pays=_amount(even.get("pays"), "even money pays"),
        blackjack_pays=_amount(payouts.get("blackjack"), "blackjack pays"),
        win_pays=_amount(payouts.get("win"), "a win pays"),
        dealer_blackjack_takes_all=takes == "all",
        special_prize_pays=_amount(prize.get("pays"), "the special prize"),
        special_prize_combinations=frozenset(prize.get("combinations", ())),
        super_jack={chance: _amount(pays, f"super-jack {chance}")
                    for chance, pays in (parts.get("super_jack") or {}).items()},
        jackpot="jackpot" in data,
        jackpot_stake=_amount((jackpot or {}).get("stake"), "the jackpot stake"),
        missing=missing,
        citations=data.get("citations") if isinstance(data.get("citations"), Mapping) else {},
    )


# --- the dealer ----------------------------------------------------------------------------------------------

def dealer_draws(cards: Sequence[Any], rule: str) -> bool:
    """Whether the dealer takes another card. PT n.º 19: «No caso de a pontuação ... ser de 17 ou superior, é-lhe
    vedado tirar qualquer outra»; n.º 6 a): the dealer's ace «valerá sempre 11, se a pontuação dessa jogada for 17
    ou superior, não excedendo 21»: a soft 17 is 17, and the dealer stands."""
    total, soft = hand_value(cards)
    return total < 17 or (rule == HITS_SOFT_17 and total == 17 and soft)


def dealer_final(cards: Sequence[Any]) -> int | str:
    if is_blackjack(cards):
        return BLACKJACK
    total, _ = hand_value(cards)
    return BUST if total > 21 else total


# --- what a player may do ------------------------------------------------------------------------------------

def pair(cards: Sequence[Any]) -> bool:
    """PT n.º 26: «as duas primeiras cartas ... embora de naipes diferentes, tenham o mesmo valor»."""
    return len(cards) == 2 and value(cards[0]) == value(cards[1])


def may_double(cards: Sequence[Any], rules: Rules, after_split: bool, split_aces: bool) -> str | None:
    """None if the hand may be doubled now, else why not."""
    if len(cards) != 2:
        return f"a double is on the first two cards, and this hand has {len(cards)}"
    if after_split and not rules.double_after_split:
        return "the rules allow no double after a split"
    if split_aces and rules.split_aces_one_card:
        return "a split ace takes one card only"
    if rules.double_on is not None:
        hard = sum(value(c) for c in cards)
        totals = {hard, hard + 10} if any(value(c) == 1 for c in cards) else {hard}
        if not totals & rules.double_on:
            shown = " or ".join(str(t) for t in sorted(totals))
            return f"the hand totals {shown}; a double is allowed on {', '.join(map(str, sorted(rules.double_on)))}"
    return None


def doubled_ace_counts_one(cards: Sequence[Any], rules: Rules) -> bool:
    """PT n.º 32: a hand doubled on a total that counted its ace as 1 keeps the ace at 1."""
    if not rules.ace_counts_one_after_double or not any(value(c) == 1 for c in cards[:2]):
        return False
    soft_total = sum(value(c) for c in cards[:2]) + 10
    return rules.double_on is not None and soft_total not in rules.double_on


def special_prize(cards: Sequence[Any], combinations: Iterable[str]) -> str | None:
    """PT n.º 35: «cartas com os valores "6-7-8" do mesmo naipe ou três "7"»: the combination the hand's three
    cards make, if any (cards are (rank, suit) or text). Both total 21, so a hand holding them has no fourth card
    (n.º 18 forbids a card after 21): a bust hand of four cards among which three sevens is not read as one."""
    if len(cards) != 3:
        return None
    ranked = [(rank_of(c), (c[1] if isinstance(c, tuple) else c[1:2])) for c in cards]
    combinations = set(combinations)
    if THREE_SEVENS in combinations and sum(rank == "7" for rank, _ in ranked) >= 3:
        return THREE_SEVENS
    if SIX_SEVEN_EIGHT_SUITED in combinations:
        for suit in {s for _, s in ranked}:
            if {"6", "7", "8"} <= {rank for rank, s in ranked if s == suit}:
                return SIX_SEVEN_EIGHT_SUITED
    return None
