"""Punto banco and bacará coups replayed (casino_audit.replay.baccarat): payouts as the law fixes them, the
drawing table, cards counted out of the shoe, pair bets, the commission, a house ruleset's drawing table; and
what the replay cannot check, said aspect by aspect. Written where mutation testing (tools/mutate.py) showed the
suite did not bite: each names the fact of the law or of the game that a mutant broke without any test failing."""

import json

import pytest

from casino_audit.games import baccarat
from casino_audit.games.baccarat import BANKER, PLAYER, TIE
from casino_audit.law.rulesets import load_builtin
from helpers.command import EXAMPLES

RULES = load_builtin("lu").play["punto_banco"].data["drawing"]  # LU Art. 37-4, as the ruleset has it


def _pb_terms(tmp_path, game="punto_banco", code="lu", table=None, header_extra=None):
    from casino_audit.logs.terms import terms_for
    header = {"kind": "game-log", "jurisdiction": code.upper(), "game": game, **(header_extra or {})}
    if table is not None:
        (tmp_path / "table.yaml").write_text(table, encoding="utf-8")
        header["table_config"] = "table.yaml"
    from dataclasses import replace

    from casino_audit.replay.baccarat import ASPECTS

    problems = []
    terms = terms_for(header, load_builtin(code), game, {}, str(tmp_path / "log.jsonl"), problems)
    # (a payout the law fixes set aside is said: tests/logs/test_declarations.py)
    assert [p for p in problems if "the coups are settled as the law pays" not in p[1]] == []
    return replace(terms, aspects=frozenset(ASPECTS) - {"burn"})  # a shoe's burn is LU-PB-LOG-BURN's, tested apart


def test_a_table_paying_banco_at_evens_is_replayed_at_the_laws_19_for_20(tmp_path):
    """Art. 37-4 fixes banco's 19 for 20: a configuration saying 1 is its rule's breach (LU-PB-PAYOUTS), and
    the coups are still settled as the law pays, so a log paying banco at evens is found at every coup."""
    from casino_audit.replay import baccarat as replay_baccarat
    table = (EXAMPLES / "lu/table-punto-banco.yaml").read_text("utf-8").replace("banco: 0.95", "banco: 1")
    terms = _pb_terms(tmp_path, table=table)
    assert terms.payouts["banco"] == "0.95"
    prepared = replay_baccarat.prepare("punto_banco", terms)
    coup = {"coup": 1, "shoe": 1, "player": ["2c", "3d", "Kh"], "banker": ["7s", "Kc"], "outcome": "banker",
            "bets": [{"seat": 1, "chance": "banco", "stake": 20, "net": 20}]}
    assert [(aspect, pointer) for aspect, pointer, _ in replay_baccarat.replay(
        prepared, replay_baccarat.start(prepared), coup)] == [("settlement", "/bets/0/net")]


def test_what_a_punto_banco_replay_cannot_check_is_said_aspect_by_aspect(tmp_path):
    from casino_audit.replay import Unavailable
    from casino_audit.replay import baccarat as replay_baccarat
    # PT's text gives no drawing table; a header giving neither decks nor a minimum leaves two more aspects out.
    with pytest.raises(Unavailable) as raised:
        replay_baccarat.prepare("bacara_ponto_banca", _pb_terms(tmp_path, "bacara_ponto_banca", "pt", header_extra={
            "decks": 8, "limits": {"minimum": 20}}))
    assert set(raised.value.reasons) == {"drawing"} and raised.value.prepared is not None
    assert "no drawing table" in raised.value.reasons["drawing"]
    # no decks declared where the law allows six or eight: the cards are counted against eight, and that is said
    from casino_audit.logs.terms import terms_for
    problems = []
    terms = terms_for({"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca"}, load_builtin("pt"),
                      "bacara_ponto_banca", {}, str(tmp_path / "log.jsonl"), problems)
    assert terms.decks == 8 and [p[0] for p in problems] == ["/decks"] and "counted against 8" in problems[0][1]
    with pytest.raises(Unavailable) as raised:
        replay_baccarat.prepare("bacara_ponto_banca", terms)
    assert set(raised.value.reasons) == {"drawing", "both_sides", "burn"} - {"burn"}
    assert "minimum" in raised.value.reasons["both_sides"]
    with pytest.raises(Unavailable) as raised:  # LU's six decks are the law's (Art. 37-4)
        replay_baccarat.prepare("punto_banco", _pb_terms(tmp_path))
    assert set(raised.value.reasons) == {"both_sides"}
    replay_baccarat.prepare("punto_banco", _pb_terms(tmp_path, header_extra={"decks": 6, "limits": {"minimum": 20}}))
    # A commission section without its mode: which deduction applies to a banca win is not known, so only those
    # wins are left unsettled (said as partial); every other bet is settled by the law (n.os 17, 18).
    table = (EXAMPLES / "pt/table-bacara-ten-seats.yaml").read_text("utf-8")
    assert "commission: {mode: five_percent, communicated: true}" in table
    with pytest.raises(Unavailable) as raised:
        replay_baccarat.prepare("bacara_ponto_banca", _pb_terms(
            tmp_path, "bacara_ponto_banca", "pt", table.replace("mode: five_percent, ", "")))
    assert "settlement" not in raised.value.reasons and raised.value.prepared.undeducted == {"banca"}
    assert "without its `mode`" in raised.value.partial["settlement"]
    with pytest.raises(Unavailable) as raised:  # a ruleset stating no chances: nothing can be replayed
        replay_baccarat.prepare("punto_banco", replay_baccarat.Terms(play={}, payouts={}))
    assert raised.value.prepared is None and "states no chances" in str(raised.value)


def _lu_replay(tmp_path, coups, header_extra=None):
    from casino_audit.replay import baccarat as replay_baccarat
    from dataclasses import replace
    terms = _pb_terms(tmp_path, header_extra={"decks": 6, "limits": {"minimum": 20}, **(header_extra or {})})
    # a one-deck shoe, as the engine's count is tested here (a header's decks are held to the law's six apart,
    # tests/logs/test_declarations.py)
    prepared = replay_baccarat.prepare("punto_banco", replace(terms, decks=1))
    state = replay_baccarat.start(prepared)
    found = []
    for coup in coups:
        coup = {"coup": 1, "shoe": 1, "outcome": "banker", "bets": [], **coup}
        found += [(aspect, pointer) for aspect, pointer, _ in replay_baccarat.replay(prepared, state, coup)]
    return found


@pytest.mark.parametrize("player, banker, found", [
    (["Tc", "7d"], ["5h", "Kc"], [("drawing", "/banker")]),  # 5, the player stood on 7: the banker draws
    (["Tc", "7d"], ["6h", "Kc", "2s"], [("drawing", "/banker/2")]),  # 6, the player stood: the banker stands
    (["Tc", "2d", "8c"], ["3h", "Kc", "2s"], [("drawing", "/banker/2")]),  # 3 stands on a third card of 8 (R)
    (["Tc", "2d", "9c"], ["3h", "Kc"], [("drawing", "/banker")]),  # ... and draws on a 9 (T)
    (["Tc", "2d", "9c"], ["3h", "Kc", "2s"], []),
    (["Tc", "7d"], ["6h", "Kc"], []),
])
def test_the_bankers_third_card_is_replayed_against_art_37_4s_table(tmp_path, player, banker, found):
    worth = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 0, "J": 0, "Q": 0, "K": 0}
    totals = (sum(worth[c[0]] for c in player) % 10, sum(worth[c[0]] for c in banker) % 10)
    outcome = PLAYER if totals[0] > totals[1] else BANKER if totals[1] > totals[0] else TIE
    assert _lu_replay(tmp_path, [{"player": player, "banker": banker, "outcome": outcome}]) == found


def test_tens_and_faces_are_worth_nothing_in_a_logged_hand(tmp_path):
    # «les valets, dames, rois, dits «bûches» et les dix valent zéro»: T-J and Q-K are 0, both draw.
    assert _lu_replay(tmp_path, [{"player": ["Tc", "Jd", "9h"], "banker": ["Qh", "Ks", "Ac"], "outcome": "player"}]) \
        == []  # 9 to 1: had a bûche any value, the outcome or the drawing would be found wrong
    assert _lu_replay(tmp_path, [{"player": ["Tc", "Jd", "9h"], "banker": ["Qh", "Ks", "Ac"], "outcome": "banker"}]) \
        == [("outcome", "/outcome")]


def test_a_card_out_of_a_one_deck_shoe_twice_is_found_burned_cards_included(tmp_path):
    coups = [{"burned": ["Ah"], "player": ["Tc", "7d"], "banker": ["6h", "Kc"], "outcome": "player"},
             {"player": ["Ah", "7s"], "banker": ["6d", "Kc"], "outcome": "player"}]  # Ah burned, Kc dealt before
    assert _lu_replay(tmp_path, coups) == [("deal", "/player/0"), ("deal", "/banker/1")]
    assert _lu_replay(tmp_path, [{**coups[1], "shoe": 2}]) == []  # a new shoe holds them again


@pytest.mark.parametrize("n, said", [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"),
                                     (13, "13th"), (21, "21st"), (22, "22nd"), (101, "101st"), (111, "111th")])
def test_ordinals(n, said):
    from casino_audit.replay import baccarat as replay_baccarat
    assert replay_baccarat._ordinal(n) == said


def test_a_player_on_both_sides_closer_than_the_minimum_in_force_is_found(tmp_path):
    from casino_audit.replay import baccarat as replay_baccarat
    from casino_audit.replay import Unavailable
    with pytest.raises(Unavailable) as raised:  # the text gives Macau no drawing table and no payouts
        replay_baccarat.prepare("bacara_macau", _pb_terms(
            tmp_path, "bacara_macau", "pt", header_extra={"decks": 8, "limits": {"minimum": 20}}))
    prepared = raised.value.prepared
    assert set(raised.value.reasons) == {"drawing", "settlement"} and prepared.minimum == 20
    state = replay_baccarat.start(prepared)

    def found(bets, limits=None):
        coup = {"coup": 1, "shoe": 1, "player": ["Tc", "7d"], "banker": ["6h", "Kc"], "outcome": "player",
                "bets": [{"net": 0, **bet} for bet in bets], **({"limits": limits} if limits else {})}
        return [(a, p) for a, p, _ in replay_baccarat.replay(prepared, state, coup) if a == "both_sides"]
    assert found([{"seat": 1, "chance": "ponto", "stake": 100}, {"seat": 1, "chance": "banca", "stake": 90}]) == [
        ("both_sides", "/bets/1/stake")]
    assert found([{"seat": 1, "chance": "ponto", "stake": 100}, {"seat": 1, "chance": "banca", "stake": 80}]) == []
    assert found([{"seat": 1, "chance": "ponto", "stake": 100}, {"seat": 2, "chance": "banca", "stake": 90}]) == []
    # A coup raising the minimum to 50 holds this coup and the next to it.
    assert found([{"seat": 1, "chance": "ponto", "stake": 100}, {"seat": 1, "chance": "banca", "stake": 60}],
                 {"minimum": 50}) == [("both_sides", "/bets/1/stake")]
    assert found([{"seat": 3, "chance": "banca", "stake": 100}, {"seat": 3, "chance": "ponto", "stake": 60}]) == [
        ("both_sides", "/bets/1/stake")]
    # Limits giving only a maximum leave the minimum in force as it was.
    assert found([{"seat": 3, "chance": "banca", "stake": 100}, {"seat": 3, "chance": "ponto", "stake": 60}],
                 {"maximum": 1000}) == [("both_sides", "/bets/1/stake")]
    # Where no minimum is known, nothing is judged (the replay says so once) and nothing breaks.
    unknown = replay_baccarat.Prepared(prepared.drawing, prepared.terms, 8, prepared.chances, prepared.sides, None)
    coup = {"coup": 1, "shoe": 1, "player": ["Tc", "7d"], "banker": ["6h", "Kc"], "outcome": "player",
            "bets": [{"seat": 1, "chance": "ponto", "stake": 100, "net": 0},
                     {"seat": 1, "chance": "banca", "stake": 90, "net": 0}]}
    assert [a for a, _, _ in replay_baccarat.replay(unknown, replay_baccarat.start(unknown), coup)
            if a == "both_sides"] == []


def test_a_logged_cards_worth_is_the_engines_reading_of_art_37_4():
    from casino_audit.replay import baccarat as replay_baccarat
    ranks = ["A", *map(str, range(2, 10)), "T", "J", "Q", "K"]
    assert replay_baccarat._WORTH == {rank: baccarat.card_value("10" if rank == "T" else rank) for rank in ranks}
    assert [replay_baccarat._WORTH[rank] for rank in ranks] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]


def test_a_ruleset_without_rules_of_play_leaves_the_whole_replay_out():
    from casino_audit.replay import Terms, Unavailable
    from casino_audit.replay import baccarat as replay_baccarat
    with pytest.raises(Unavailable) as raised:
        replay_baccarat.prepare("punto_banco", Terms(play=None, payouts=None))
    assert raised.value.prepared is None and set(raised.value.aspects) == set(replay_baccarat.ASPECTS)


def test_a_seats_stakes_on_one_chance_are_held_together_against_the_maximum():
    from casino_audit.replay import baccarat as replay_baccarat
    coup = {"bets": [{"seat": 1, "chance": "banco", "stake": 600}, {"seat": 1, "chance": "banco", "stake": 600},
                     {"seat": 2, "chance": "banco", "stake": 5}, {"chance": "banco", "stake": 5},
                     {"seat": True, "chance": "banco", "stake": 5}, {"seat": 1, "chance": 7, "stake": 5}]}
    assert [key for *_, key in replay_baccarat.stakes(coup)] == [(1, "banco"), (1, "banco"), (2, "banco"),
                                                                   (None, "banco"), (None, "banco"), None]
    assert [pointer for pointer, *_ in replay_baccarat.stakes(coup)] == [f"/bets/{i}/stake" for i in range(6)]


def test_a_pair_bet_is_won_on_its_hands_first_two_cards_of_one_rank_only(tmp_path):
    # PT n.º 19: «quando as duas cartas inicialmente distribuídas a um daqueles grupos tiverem a mesma denominação»
    from casino_audit.replay import Unavailable
    from casino_audit.replay import baccarat as replay_baccarat
    with pytest.raises(Unavailable) as raised:  # the text gives no drawing table: the settlement is checked
        replay_baccarat.prepare("bacara_ponto_banca", _pb_terms(
            tmp_path, "bacara_ponto_banca", "pt", header_extra={"decks": 8, "limits": {"minimum": 20}}))
    prepared = raised.value.prepared

    def found(player, banker, net):
        coup = {"coup": 1, "shoe": 1, "player": player, "banker": banker, "outcome": "player",
                "bets": [{"seat": 1, "chance": "par_do_ponto", "stake": 10, "net": net},
                         {"seat": 2, "chance": "par_da_banca", "stake": 10, "net": -10}]}
        return [(a, p) for a, p, _ in replay_baccarat.replay(prepared, replay_baccarat.start(prepared), coup)]
    assert found(["9h", "9d"], ["5c", "Qh"], 110) == []  # 11 to 1
    assert found(["9h", "Kd"], ["5c", "Qh"], -10) == []
    assert found(["9h", "Kd"], ["5c", "Qh"], 110) == [("settlement", "/bets/0/net")]
    assert found(["9h", "Kd"], ["5c", "5h"], -10) == [("settlement", "/bets/1/net")]  # the banker's 5-5 won


def test_the_commission_a_table_chose_is_deducted_from_each_banca_win(tmp_path):
    # PT n.º 20 a): «Dedução de 5% ao montante dos prémios em cada lance ganho pelo grupo da banca»
    from casino_audit.replay import Unavailable
    from casino_audit.replay import baccarat as replay_baccarat
    table = (EXAMPLES / "pt/table-bacara-ten-seats.yaml").read_text("utf-8")
    with pytest.raises(Unavailable) as raised:  # the text gives no drawing table: the settlement is checked
        replay_baccarat.prepare("bacara_ponto_banca", _pb_terms(tmp_path, "bacara_ponto_banca", "pt", table))
    assert set(raised.value.reasons) == {"drawing"}
    prepared = raised.value.prepared
    coup = {"coup": 1, "shoe": 1, "player": ["2c", "Kd"], "banker": ["7s", "Kc"], "outcome": "banker"}

    def found(net):
        bets = [{"seat": 1, "chance": "banca", "stake": 100, "net": net}]
        return [(a, p) for a, p, _ in replay_baccarat.replay(prepared, replay_baccarat.start(prepared),
                                                               {**coup, "bets": bets})]
    assert found(95) == [] and found(100) == [("settlement", "/bets/0/net")]
    terms = _pb_terms(tmp_path, "bacara_ponto_banca", "pt", table)
    with pytest.raises(Unavailable) as raised:  # a mode the rules of play do not know: banca's wins not judged
        replay_baccarat.prepare("bacara_ponto_banca", replay_baccarat.Terms(
            terms.play, terms.payouts, terms.decks, terms.limits, table={"commission": {"mode": "ten_percent"}}))
    assert "commission 'ten_percent' is not one" in raised.value.partial["settlement"]
    assert "settlement" not in raised.value.reasons and raised.value.prepared.undeducted == {"banca"}

# --- a house ruleset's drawing table (found from replay/baccarat.py's `if row is None: return`) ----------------
HOUSE_DRAWING = """\
ruleset: house-pt
extends: pt
rules: []
play:
  bacara_ponto_banca:
    citation: {article: "Secção III, n.º 13", text: "observando-se a seguinte tabela"}
    drawing:
      naturals: [8, 9]
      player_draws_on: [0, 1, 2, 3, 4, 5]
      banker:
        0: {draws_on_player_third_card: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], draws_if_player_stood: true}
        1: {draws_on_player_third_card: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], draws_if_player_stood: true}
        2: {draws_on_player_third_card: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], draws_if_player_stood: true}
        3: {draws_on_player_third_card: [0, 1, 2, 3, 4, 5, 6, 7, 9], draws_if_player_stood: true}
        4: {draws_on_player_third_card: [2, 3, 4, 5, 6, 7], draws_if_player_stood: true}
        5: {draws_on_player_third_card: [4, 5, 6, 7], draws_if_player_stood: true}
ROWS
    bets:
      ponto: {wins_on: player, returned_on: [tie]}
      banca: {wins_on: banker, returned_on: [tie]}
      empate: {wins_on: tie}
"""
ROWS_6_7 = """\
        6: {draws_on_player_third_card: [6, 7], draws_if_player_stood: false}
        7: {draws_on_player_third_card: [], draws_if_player_stood: false}
"""


def test_a_house_drawing_table_without_a_row_for_a_total_is_refused_not_left_unchecked(tmp_path):
    """A house ruleset gave PT bacará a drawing table with rows 0 to 5 only: a banker on 6 drawing after the player
    stood (no table allows it) passed every log with no finding and no note, the replay skipping a missing row."""
    from casino_audit.replay import Terms
    from casino_audit.replay import baccarat as replay_baccarat
    from casino_audit.law.model import RulesetError
    from casino_audit.law.rulesets import load_ruleset

    incomplete = tmp_path / "house.yaml"
    incomplete.write_text(HOUSE_DRAWING.replace("ROWS\n", ""), encoding="utf-8")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(incomplete)
    assert "house.yaml:10:7: the drawing table gives no row for a banker total of 6, 7" in str(raised.value)

    complete = tmp_path / "complete.yaml"
    complete.write_text(HOUSE_DRAWING.replace("ROWS\n", ROWS_6_7), encoding="utf-8")
    play = load_ruleset(complete).play["bacara_ponto_banca"].data
    prepared = replay_baccarat.prepare("bacara_ponto_banca", Terms(
        play=play, payouts={"ponto": 1, "banca": 1, "empate": 8}, decks=8, limits={"minimum": 5}))
    coup = {"coup": 1, "shoe": 1, "player": ["7c", "Kd"], "banker": ["6h", "Kc", "9s"], "outcome": "player",
            "bets": []}
    assert [(aspect, pointer) for aspect, pointer, _ in replay_baccarat.replay(
        prepared, replay_baccarat.start(prepared), coup)] == [("drawing", "/banker/2")]


# --- a table's commission section against the law's payouts ----------------------------------------
# A table configuration's `commission` section only chooses among the deductions the law allows on banco/banca
# wins (LU Art. 37-4 fixes «19 pour 20» itself; PT bacará n.º 20's a) or b)). It must never switch off the
# settlement of the bets the law pays whatever the commission: LU «Les gains de punto sont payés à égalité ... les
# gains d'égalité 8 pour 1»; PT n.º 17 «prémios iguais às importâncias apostadas», n.º 18 «oito para um». A
# commission the LU rules of play do not know, or a PT one without `mode`, once turned the whole settlement aspect
# to "not checked" and let the log pass (exit 0) with a punto paid ten times and an empate paid on a banker win.
_COMMISSION_BURNED = ["5c", "8s", "9c", "7h", "3c", "Qd"]


def _run_commission_table(cli, tmp_path, table, header, bets, burned, player=("Th", "Kd"), outcome="banker"):
    (tmp_path / "table.yaml").write_text(table, "utf-8")
    coup = {"coup": 1, "time": "2026-11-02T21:01:06", "session": "S1", "staff": {"croupier": "C-1"}, "shoe": 1,
            "burned": burned, "player": list(player), "banker": ["6c", "Qh"], "outcome": outcome, "bets": bets}
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps({**header, "table_config": "table.yaml"}) + "\n" + json.dumps(coup) + "\n", "utf-8")
    done = cli("check", str(path), "--format", "json")
    return done.returncode, [f for f in json.loads(done.stdout)["findings"]
                             if f["rule_id"].endswith("-LOG-SETTLEMENT") and f["severity"] == "error"]


def test_an_lu_commission_section_does_not_turn_off_the_law_s_payouts(cli, tmp_path):
    table = (EXAMPLES / "lu/table-punto-banco.yaml").read_text("utf-8") + "commission: {mode: five_percent}\n"
    header = {"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco",
              "casino": "Casino 2000 Mondorf-les-Bains", "table": "P1"}
    rc, found = _run_commission_table(cli, tmp_path, table, header, [{"seat": 5, "chance": "punto", "stake": 40, "net": 400}], _COMMISSION_BURNED,
                     player=("9h", "Kd"), outcome="player")
    assert rc == 1 and [f["pointer"] for f in found] == ["/bets/0/net"]


def test_a_pt_commission_without_mode_does_not_turn_off_ponto_and_empate(cli, tmp_path):
    table = (EXAMPLES / "pt/table-bacara.yaml").read_text("utf-8").replace(
        "commission: {mode: five_percent, communicated: true}", "commission: {communicated: true}")
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca", "casino": "Casino Lisboa",
              "table": "B9"}
    bets = [{"seat": 1, "chance": "ponto", "stake": 100, "net": 100}, {"seat": 2, "chance": "empate", "stake": 10,
                                                                        "net": 500}]
    rc, found = _run_commission_table(cli, tmp_path, table, header, bets, ["2s", "7d", "Jc", "3h", "Qs", "8d", "4c", "Ts"])
    assert rc == 1 and sorted(f["pointer"] for f in found) == ["/bets/0/net", "/bets/1/net"]


# PT bacará n.º 20 b) deducts half «em cada lance ganho pelo grupo da banca com a pontuação de 5» only: a banca
# win on any other total is paid as n.º 17 says («prémios iguais às importâncias apostadas»), so a banca win on 6
# paid half breaks n.º 17, and its finding must cite n.º 17, not n.º 20.
_HALF_ON_FIVE_TABLE = (EXAMPLES / "pt/table-bacara.yaml").read_text("utf-8").replace("mode: five_percent", "mode: half_on_five")


def test_a_banca_win_on_six_paid_half_cites_n17_not_the_commission(cli, tmp_path):
    (tmp_path / "table.yaml").write_text(_HALF_ON_FIVE_TABLE, "utf-8")
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca", "casino": "Casino Lisboa",
              "table": "B9", "table_config": "table.yaml"}
    coup = {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02", "staff": {"croupier": "P-3"},
            "shoe": 1, "burned": ["2s", "7d", "Jc", "3h", "Qs", "8d", "4c", "Ts"], "player": ["Th", "Kd"],
            "banker": ["6c", "Qh"], "outcome": "banker",
            "bets": [{"seat": 1, "chance": "banca", "stake": 100, "net": 50}]}
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (header, coup)), "utf-8")
    done = cli("check", str(path), "--format", "json")
    found = [f for f in json.loads(done.stdout)["findings"] if f["rule_id"] == "PT-BAC-LOG-SETTLEMENT"]
    assert len(found) == 1
    assert found[0]["citation"]["article"] == "Título I, Capítulo III, Secção III, n.º 17"
