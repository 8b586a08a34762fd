"""PT blackjack n.º 20: «A combinação blackjack ganha sempre ao total 21. Não se considera blackjack, mas sim o
total de 21, se aquela combinação resultar do desdobramento de um par.» A 21 of three cards settled as a tie
against the dealer's blackjack, and a split ace's 21 paid 3 to 2, break n.º 20; the ruleset quotes n.º 20 under
`covers: [blackjack_beats_21]`, which no settlement ever names, so both findings cite n.º 23 instead (whose
«mais próximo de 21» alone would make two 21s a tie, n.º 24)."""

import json

import pytest

HEADER = {"kind": "game-log", "jurisdiction": "PT", "game": "blackjack", "casino": "Casino Sample", "table": "T1",
          "limits": {"minimum": 10, "maximum": 300}, "decks": 6}
N20 = "Título I, Capítulo III, Secção I, n.º 20"


def _settlement_citations(cli, tmp_path, dealer, hands):
    coup = {"coup": 1, "time": "2026-11-02T21:00:00", "session": "S1", "staff": {"croupier": "C-10"}, "shoe": 1,
            "burned": ["5c"], "dealer": dealer, "boxes": [{"box": 1, "seat": 1, "hands": hands}]}
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(HEADER) + "\n" + json.dumps(coup) + "\n", "utf-8")
    done = cli("check", str(path), "--format", "json")
    return [f["citation"]["article"] for f in json.loads(done.stdout)["findings"]
            if f["rule_id"] == "PT-BJ-LOG-SETTLEMENT"]


@pytest.mark.parametrize("dealer, hands", [
    # 21 of three cards against the dealer's blackjack, settled as a tie (0): it loses
    (["As", "Kh"], [{"cards": ["Th", "5d", "6c"], "stake": "20", "decisions": ["hit", "stand"], "net": "0"}]),
    # a split ace and a king paid as a blackjack (+30): it is a 21, paid 1 to 1
    (["Ts", "8d"], [{"cards": ["Ah", "Kd"], "stake": "20", "decisions": ["split", "stand"], "net": "30"},
                    {"cards": ["Ac", "9s"], "stake": "20", "decisions": ["stand"], "net": "20"}]),
], ids=["three-card-21-against-blackjack", "split-ace-21-paid-as-blackjack"])
def test_a_settlement_that_breaks_blackjack_beats_21_cites_n20(cli, tmp_path, dealer, hands):
    assert _settlement_citations(cli, tmp_path, dealer, hands) == [N20]
