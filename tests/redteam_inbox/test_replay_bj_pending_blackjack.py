"""PT blackjack: a blackjack held against a ten up is still in play; the dealer must draw to 17.

Portaria 217/2007, Título I, Capítulo III, Secção I:
- n.º 19: «Na hipótese de esse total ser de 16 ou inferior, é obrigado a tirar tantas cartas quantas as
  necessárias para perfazer, no mínimo, a mencionada pontuação de 17.»
- n.º 22: «Quando todos os jogadores presentes na mesa tenham perdido ou já desistido e não haja mais ninguém em
  jogo, o pagador abstém-se de tirar a terceira carta»: the only exception, when every player has LOST or
  SURRENDERED.
- n.º 21: a blackjack is paid at once, its cards collected, only «se ... a carta aberta da banca não for uma das
  que possibilitem essa combinação (ás, figura ou 10)»; against a ten up it waits for the dealer's hand.

Here the dealer shows Th 2c (12); box 1 holds a blackjack against that ten (not paid at once, neither lost nor
surrendered), box 2 is bust. n.º 22 does not apply (not every player has lost or surrendered), so n.º 19 obliges
the dealer to draw. The replay counts the pending blackjack as out of play:
- a dealer who draws (5d) is flagged PT-BJ-LOG-DEALER-DRAWING citing n.º 22: a FALSE FLAG of a lawful draw;
- a dealer who stands on 12 passes clean: a FALSE PASS of n.º 19.
"""

import json

HEADER = {"kind": "game-log", "jurisdiction": "PT", "game": "blackjack", "casino": "Casino Sample", "table": "T1",
          "limits": {"minimum": 10, "maximum": 300}, "decks": 6}


def _coup(dealer):
    return {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S1", "shoe": 1, "burned": ["5c"],
            "dealer": dealer, "boxes": [
                {"box": 1, "seat": 1, "hands": [{"cards": ["As", "Kd"], "stake": "10", "decisions": ["stand"],
                                                 "net": "15"}]},
                {"box": 2, "seat": 2, "hands": [{"cards": ["Ts", "6d", "9h"], "stake": "10", "decisions": ["hit"],
                                                 "net": "-10"}]}]}


def _drawing_findings(cli, tmp_path, dealer):
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(HEADER) + "\n" + json.dumps(_coup(dealer)) + "\n", "utf-8")
    done = cli("check", str(path), "--format", "json")
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return [f for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "PT-BJ-LOG-DEALER-DRAWING"
            and f["severity"] == "error"]


def test_a_dealer_drawing_to_17_against_a_pending_blackjack_is_no_breach(cli, tmp_path):
    # 12 + 5 = 17: the draw n.º 19 requires; n.º 22's exception does not hold (a blackjack has not lost)
    assert _drawing_findings(cli, tmp_path, ["Th", "2c", "5d"]) == []


def test_a_dealer_standing_on_12_against_a_pending_blackjack_breaks_n19(cli, tmp_path):
    found = _drawing_findings(cli, tmp_path, ["Th", "2c"])
    assert len(found) == 1 and found[0]["citation"]["article"] == "Título I, Capítulo III, Secção I, n.º 19"
