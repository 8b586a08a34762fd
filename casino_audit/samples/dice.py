"""Sample dice-game logs (banca francesa, craps, cussec): seeded throws, several seats betting, every bet settled by
the rules of play (casino_audit/replay/dice.py's coup records), with named breaches injected on request.

Only chances the run can settle are bet on: at craps, no don't bets without the bar, no place or lay bets nor
don't-side odds without their payouts; banca francesa needs banca_francesa_other_totals (Unavailable otherwise).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Iterator

from casino_audit.games import dice as engine
from casino_audit.replay import Terms
from casino_audit.replay.dice import CONTRACT_STAYS, GAMES, prepare_partial

BREACHES = {
    "wrong_payout": "a won bet paid one unit more than the schedule says (settlement)",
    "bet_on_unknown_chance": "a bet on a chance the game does not have (chances)",
    "bad_die": "a die showing 7 (dice)",
    "craps_point_ignored": "craps: a pass line bet paid on a seven-out, as if the 7 were a come-out natural "
                           "(resolution)",
    "standing_bet_collected": "craps: a big 6 or big 8 bet collected on a throw that decides nothing for it "
                              "(resolution)",
    "contract_bet_withdrawn": "craps: a pass line bet standing on its point taken off the layout (resolution)",
}
CRAPS_ONLY = {"craps_point_ignored", "standing_bet_collected", "contract_bet_withdrawn"}
UNKNOWN_CHANCE = {"banca_francesa": "dezoito", "craps": "horn", "cussec": "total_3"}
SEATS = {"banca_francesa": 8, "craps": 12, "cussec": 10}
START = datetime(2026, 11, 2, 21, 0, 0)
RELIEF = timedelta(minutes=55)  # no croupier stays at the dice an hour (banca francesa n.º 18)


def _decimal(amount: Fraction) -> Decimal:
    return Decimal(amount.numerator) / Decimal(amount.denominator)


def coups(game: str, terms: Terms, rng: random.Random, count: int, inject=frozenset()) -> Iterator[dict]:
    if game not in GAMES:
        raise ValueError(f"no dice game {game!r}: {', '.join(GAMES)}")
    unknown = set(inject) - set(BREACHES)
    if unknown or (game != "craps" and set(inject) & CRAPS_ONLY):
        raise ValueError(f"breaches {sorted(unknown or set(inject) & CRAPS_ONLY)} cannot be injected at {game}")
    prepared, unavailable = prepare_partial(game, terms)
    if unavailable is not None and "other_totals" in unavailable.aspects:
        raise unavailable
    settled = {name: chance for name, chance in prepared.chances.items() if _payable(prepared, name, chance)}
    # each breach from a coup of the first half on, injected at the first coup that allows it
    pending = {name: rng.randrange(max(1, count // 2)) for name in sorted(inject)}
    table = _Table(game, prepared, settled, rng)
    when, croupier, since = START, 1, None
    for number in range(1, count + 1):
        before, when = when, when + timedelta(seconds=rng.randint(35, 95))
        if when.date() != before.date():  # the table closes at night: the next day's session opens at 15:00
            when = max(when, when.replace(hour=15, minute=0, second=0))
        since = since or when
        if when - since > RELIEF:  # the croupier at the dice (the deitador) is relieved within the hour
            croupier, since = croupier % 9 + 1, when
        record = {"coup": number, "time": when.isoformat(), "session": f"{when:%Y-%m-%d}",
                  "staff": {"croupier": f"C-{croupier}"}, **table.throw()}
        for name, after in list(pending.items()):
            if number > after and _inject(name, record, table, rng):
                del pending[name]
        yield record


def _payable(prepared, name, chance) -> bool:
    pays = [rule.get("pays") for rule in chance["rules"] if rule["result"] == engine.WIN]
    keys = [key for value in pays for key in ((value["by_point"].values()) if isinstance(value, dict) else [value])]
    uses_bar = any("bar" in rule["when"].get("total", ()) for rule in chance["rules"])
    return all(key in prepared.payouts for key in keys) and not (uses_bar and prepared.bar is None)


class _Table:
    """The layout between throws: the point, and every bet still standing."""

    def __init__(self, game, prepared, settled, rng):
        self.game, self.prepared, self.settled, self.rng = game, prepared, settled, rng
        self.point = None
        self.standing: list[dict] = []  # bets carried to the next throw: {seat, chance, stake, on, point}
        self.withdrawn = False

    def _stake(self, name: str, base: int = 10) -> Decimal:
        stake = Fraction(base * self.rng.randint(1, 6 if name in ("ases", "trio") else 20))
        for key in self._keys(name):  # a payout that is no whole number of cents on this stake: scale it up
            while (stake * self.prepared.payouts[key] * 100).denominator != 1:
                stake *= (stake * self.prepared.payouts[key] * 100).denominator
        return _decimal(stake)

    def _keys(self, name):
        for rule in self.settled[name]["rules"]:
            pays = rule.get("pays")
            if isinstance(pays, dict):
                yield from pays["by_point"].values()
            elif pays:
                yield pays

    def _choose(self, name):
        spec = self.settled[name].get("on")
        if not spec:
            return None
        return sorted(self.rng.sample(range(1, 7), spec["faces"]))

    def _new_bets(self) -> list[dict]:
        bets, rng = [], self.rng
        names = [name for name, chance in self.settled.items() if chance.get("needs") != "own_point"
                 and not name.endswith("_odds")]  # odds go behind a bet, below
        for seat in rng.sample(range(1, SEATS[self.game] + 1), rng.randint(1, 4)):
            for name in rng.sample(names, rng.randint(1, 2)):
                chance = self.settled[name]
                if chance.get("point") == "own" and self.point is None:
                    continue  # a come bet waits for the point (n.º 10.3)
                if chance.get("contract") and chance.get("point") == "table" and self.point is not None:
                    continue  # the line bets are made at the come-out
                bet = {"seat": seat, "chance": name, "stake": self._stake(name)}
                if (on := self._choose(name)) is not None:
                    bet["on"] = on
                bets.append(bet)
        if self.game == "craps" and self.point is not None:  # odds behind the line and come bets with a point
            for bet in list(self.standing):
                odds = f"{bet['chance']}_odds"
                if odds in self.settled and (bet["chance"].endswith("line") or "point" in bet) and rng.random() < 0.3 \
                        and not any(b["chance"] == odds and b["seat"] == bet["seat"] for b in self.standing):
                    new = {"seat": bet["seat"], "chance": odds, "stake": bet["stake"]}  # at most the bet's own
                    key = engine.pays_key(self.settled[odds]["rules"][0].get("pays"), bet.get("point", self.point))
                    if (Fraction(bet["stake"]) * self.prepared.payouts[key] * 100).denominator != 1:
                        continue  # no whole number of cents on this stake
                    if "point" in bet:
                        new["point"] = bet["point"]
                    bets.append(new)
        return bets

    def throw(self) -> dict:
        dice = [self.rng.randint(1, 6) for _ in range(self.prepared.count)]
        record = {"dice": dice}
        if self.game == "craps":
            record["point"] = self.point
        bets, standing = self.standing + self._new_bets(), []
        for bet in bets:
            chance = self.settled[bet["chance"]]
            point = self.point if chance.get("point") == "table" else bet.get("point")
            found = engine.resolve(chance, dice, bet.get("on") or (), point, self.prepared.bar)
            bet["net"] = _decimal(engine.net(bet["stake"], found, self.prepared.payouts))
            if found.result == engine.STAYS:
                bet["status"] = CONTRACT_STAYS
                carried = {key: bet[key] for key in ("seat", "chance", "stake", "on") if key in bet}
                after = engine.point_after(chance, found, dice, point)
                if chance.get("point") == "own":
                    carried["point"] = after
                standing.append(carried)
        record["bets"] = bets
        self.standing = standing
        if self.game == "craps":
            total = sum(dice)
            if self.point is None:
                self.point = total if total in engine.POINT_NUMBERS else None
            elif total in (7, self.point):
                self.point = None
        return record


def _inject(name: str, record: dict, table: _Table, rng: random.Random) -> bool:
    """Breaks one compliant record in place; False when this coup offers no occasion (try the next)."""
    bets = record["bets"]
    if name == "wrong_payout":
        won = [bet for bet in bets if bet["net"] > 0 and not (set(table._keys(bet["chance"]))
                                                              & set(table.prepared.payout_params))]
        if won:
            rng.choice(won)["net"] += 1
        return bool(won)
    if name == "bet_on_unknown_chance":
        bets.append({"seat": 1, "chance": UNKNOWN_CHANCE[table.game], "stake": Decimal(10), "net": Decimal(-10)})
        return True
    if name == "bad_die":
        record["dice"][rng.randrange(len(record["dice"]))] = 7
        return True
    if name == "craps_point_ignored":
        lost = [bet for bet in bets if bet["chance"] == "pass_line" and bet["net"] < 0 and record["point"]]
        if sum(record["dice"]) == 7 and lost:
            lost[0]["net"] = lost[0]["stake"]
            return True
        return False
    if name == "standing_bet_collected":
        waiting = [bet for bet in bets if bet["chance"] in ("big_6", "big_8") and bet.get("status")]
        if waiting:
            del waiting[0]["status"]
            waiting[0]["net"] = -waiting[0]["stake"]
            table.standing = [s for s in table.standing if not all(s[k] == waiting[0][k] for k in ("seat", "chance"))]
        return bool(waiting)
    if name == "contract_bet_withdrawn":
        # a pass line bet that stood from the throw before: the replay expects it back
        if record["point"] is None:
            return False
        for index, bet in enumerate(bets):
            if bet["chance"] == "pass_line" and bet.get("status"):
                del bets[index]
                table.standing = [s for s in table.standing if not (s["chance"] == "pass_line" and s["seat"] == bet["seat"]
                                                                    and s["stake"] == bet["stake"])]
                if not any(b["chance"] == "pass_line" and b["seat"] == bet["seat"] for b in bets):  # its odds go too
                    bets[:] = [b for b in bets if not (b["chance"] == "pass_line_odds" and b["seat"] == bet["seat"])]
                    table.standing = [s for s in table.standing
                                      if not (s["chance"] == "pass_line_odds" and s["seat"] == bet["seat"])]
                return True
        return False
    raise ValueError(name)
