"""Every replay finding cites the provision the coup breaks: the article and the law's words the rules of play
(`play:` in the ruleset) quote for that decision, bet or aspect, not the one citation of the rule that verifies the
aspect; no message names another article than its finding's citation; `rules explain` lists the provisions a
replay rule may cite; a house ruleset brings its own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino_audit.law.cases import load_cases, run_case
from casino_audit.law.rulesets import builtin_names, load_builtin, rulesets_dir
from helpers.command import EXAMPLES, TEST_PARAMS, run_in_process

T = "2026-11-02T21:00:{:02d}"


def findings(tmp_path: Path, header: dict, *coups: dict, params: dict | None = None, name: str = "log.jsonl",
             extra: tuple = ()) -> list[dict]:
    """The JSON report's findings for a log of these coups (numbered, timed and in one session here)."""
    lines = [json.dumps(header)]
    for number, coup in enumerate(coups, 1):
        lines.append(json.dumps({"coup": number, "time": T.format(number), "session": "S1", **coup}))
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", "utf-8")
    args = ["check", str(path), "--format", "json", *extra]
    for key, value in {**TEST_PARAMS, **(params or {})}.items():
        args += ["--param", f"{key}={value}"]
    done = run_in_process(*args)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)["findings"]


def cited(found: list[dict], rule_id: str) -> list[str]:
    """The articles the rule's findings cite, in order."""
    return [f["citation"]["article"] for f in found if f["rule_id"] == rule_id]


def quoted(found: list[dict], rule_id: str) -> list[str]:
    return [f["citation"]["text"] for f in found if f["rule_id"] == rule_id]


# --- PT blackjack ------------------------------------------------------------------------------------------------

BJ = {"kind": "game-log", "jurisdiction": "PT", "game": "blackjack", "casino": "C", "table": "BJ1", "decks": 6,
      "limits": {"minimum": 10, "maximum": 300}}
PT_BJ = {"blackjack_jackpot_stake_eur": "1"}
N = "Título I, Capítulo III, Secção I, n.º "


def bj_coup(dealer, *hands, insurance=None, shoe=1):
    boxes = []
    for k, hand in enumerate(hands):
        box = {"box": k + 1, "seat": k + 1, "hands": hand}
        if insurance is not None and k == 0:
            box["insurance"] = insurance
        boxes.append(box)
    return {"shoe": shoe, "dealer": dealer, "boxes": boxes}


def h(cards, stake, decisions, net):
    return {"cards": cards, "stake": str(stake), "decisions": decisions, "net": str(net)}


def test_pt_blackjack_insurance_over_half_the_stake_cites_n_33(tmp_path):
    found = findings(tmp_path, BJ, bj_coup(["As", "Kd"], [h(["9c", "8d"], 20, ["stand"], -20)],
                                           insurance={"stake": "15", "net": "30"}), params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-DECISIONS") == [N + "33"]
    assert "não poderá exceder metade" in quoted(found, "PT-BJ-LOG-DECISIONS")[0]


def test_pt_blackjack_a_split_ace_hit_cites_n_26(tmp_path):
    found = findings(tmp_path, BJ, bj_coup(["9c", "7d", "Th"], [h(["As", "5d", "2c"], 10, ["split", "hit"], 10),
                                                                 h(["Ah", "9c"], 10, [], 10)]), params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-DECISIONS") == [N + "26"]


def test_pt_blackjack_a_surrender_against_an_ace_cites_n_36(tmp_path):
    found = findings(tmp_path, BJ, bj_coup(["Ac", "7d"], [h(["Ts", "6d"], 20, ["surrender"], -10)]), params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-DECISIONS") == [N + "36"]


def test_pt_blackjack_the_six_seven_eight_prize_unpaid_cites_n_35(tmp_path):
    # 6-7-8 of hearts, 21 against the dealer's 20: the win (10) and the special prize (30) are due, 10 paid
    found = findings(tmp_path, BJ, bj_coup(["Kc", "Qd"], [h(["6h", "7h", "8h"], 10, ["hit"], 10)]), params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-SETTLEMENT") == [N + "35"]


def test_pt_blackjack_the_dealer_drawing_when_all_have_bust_cites_n_22(tmp_path):
    found = findings(tmp_path, BJ, bj_coup(["9c", "7d", "Th"], [h(["Ts", "6d", "9h"], 10, ["hit"], -10)]),
                     params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-DEALER-DRAWING") == [N + "22"]
    assert "não haja mais ninguém em jogo" in quoted(found, "PT-BJ-LOG-DEALER-DRAWING")[0]


def test_pt_blackjack_each_settlement_cites_what_settles_the_hand(tmp_path):
    found = findings(tmp_path, BJ, bj_coup(["9c", "7d", "2h"],  # the dealer's 18
                                           [h(["As", "Kd"], 10, [], 10)],  # a blackjack paid 1 to 1: n.º 21
                                           [h(["Ts", "8d"], 10, ["stand"], 10)],  # a tie paid: n.º 24
                                           [h(["Ts", "9d"], 10, ["stand"], 5)]),  # a win underpaid: n.º 23
                     params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-SETTLEMENT") == [N + "21", N + "24", N + "23"]


# --- roulette ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game, payouts, zero", [("american_roulette", "Secção I, n.º 27", "Secção I, n.º 28"),
                                                 ("french_roulette", "Secção II, n.º 18", "Secção II, n.º 19")])
def test_pt_roulette_a_rua_paid_12_cites_the_payouts_and_a_zero_paid_the_zero_rule(tmp_path, game, payouts, zero):
    header = {"kind": "game-log", "jurisdiction": "PT", "game": game, "casino": "C", "table": "T1",
              "limits": {"minimum": 5, "maximum": 1000}}
    found = findings(tmp_path, header,
                     {"number": 32, "bets": [{"seat": 1, "chance": "rua", "numbers": [31, 32, 33], "stake": "10",
                                              "net": "120"}]},
                     {"number": 0, "bets": [{"seat": 1, "chance": "preto", "stake": "10", "net": "0"},
                                            {"seat": 1, "chance": "pleno", "numbers": [5], "stake": "10",
                                             "net": "0"}]})
    section = "Título I, Capítulo I, "
    assert cited(found, "PT-ROUL-LOG-SETTLEMENT") == [section + payouts, section + zero, section + payouts]
    assert "11 vezes o seu valor na rua" in quoted(found, "PT-ROUL-LOG-SETTLEMENT")[0]


# --- dice ------------------------------------------------------------------------------------------------------

def dice_header(game):
    return {"kind": "game-log", "jurisdiction": "PT", "game": game, "casino": "C", "table": "D1",
            "limits": {"minimum": 10, "maximum": 1000}}


CRAPS_PARAMS = {"craps_bar_total": "12"}


def test_pt_craps_a_hardway_and_a_field_settled_wrong_cite_n_11_3_and_n_13_1(tmp_path):
    found = findings(tmp_path, dice_header("craps"),
                     {"dice": [2, 2], "point": None, "bets": [
                         {"seat": 1, "chance": "hardway_4", "stake": 10, "net": 90},  # pays 7
                         {"seat": 2, "chance": "field", "stake": 10, "net": 10}]},  # a 4: even money, right
                     {"dice": [6, 6], "point": 4, "bets": [
                         {"seat": 2, "chance": "field", "stake": 10, "net": 10}]},  # a 12 pays double
                     params=CRAPS_PARAMS)
    section = "Título I, Capítulo II, Secção II, "
    assert cited(found, "PT-CRAPS-LOG-SETTLEMENT") == [section + "n.º 11.3", section + "n.º 13.1"]


def test_pt_cussec_a_pequeno_paid_on_a_triple_cites_n_9_and_says_n_9(tmp_path):
    found = findings(tmp_path, dice_header("cussec"),
                     {"dice": [1, 1, 1], "bets": [{"seat": 1, "chance": "pequeno", "stake": 10, "net": 10}]},
                     {"dice": [1, 2, 1], "bets": [{"seat": 1, "chance": "pequeno", "stake": 10, "net": -10}]})
    section = "Título I, Capítulo II, Secção III, "
    assert cited(found, "PT-CUSSEC-LOG-RESOLUTION") == [section + "n.º 9", section + "n.º 7, a)"]
    messages = [f["message"] for f in found if f["rule_id"] == "PT-CUSSEC-LOG-RESOLUTION"]
    assert "n.º 9" in messages[0] and "n.º 7" not in messages[0]


# --- stud poker ----------------------------------------------------------------------------------------------------

def stud_box(cards, ante, net, raised=True, box=1):
    entry = {"box": box, "seat": box, "cards": cards, "ante": str(ante), "decision": "raise" if raised else "fold",
             "net": str(net)}
    if raised:
        entry["raise"] = str(2 * ante)
    return entry


@pytest.mark.parametrize("code, rule, article", [("LU", "LU-STUD-LOG-SETTLEMENT", "Art. 37-7"),
                                                 ("MC", "MC-STUD-LOG-SETTLEMENT",
                                                  "Article Premier (combinaisons autorisées)")])
def test_stud_a_winning_hand_paid_off_the_table_cites_the_payout_table(tmp_path, code, rule, article):
    header = {"kind": "game-log", "jurisdiction": code, "game": "stud_poker", "casino": "C", "table": "SP1",
              "limits": {"minimum": 10, "maximum": 250}}
    # the dealer's A-K-9-5-3 qualifies; a flush wins 8 times the raise (ante 10: +10 +160), paid 5 (+110);
    # a straight 5 times (+10 +100), paid 8 (+170)
    found = findings(tmp_path, header, {"dealer": ["Ac", "Kd", "9h", "5s", "3c"], "boxes": [
        stud_box(["2h", "7h", "8h", "Jh", "Qh"], 10, 110, box=1),
        stud_box(["4d", "5c", "6s", "7s", "8d"], 10, 170, box=2)]}, params={"stud_poker_high_card_raise": "push"})
    assert cited(found, rule) == [article, article]
    assert "Couleur 8 fois la mise" in quoted(found, rule)[0]
    for message in (f["message"] for f in found if f["rule_id"] == rule):
        assert "37-6" not in message


# --- baccarat --------------------------------------------------------------------------------------------------------

def test_pt_bacara_each_settlement_cites_the_win_the_tie_or_the_pair(tmp_path):
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca", "casino": "C", "table": "B1",
              "decks": 6, "limits": {"minimum": 10, "maximum": 700}}
    found = findings(tmp_path, header,
                     {"shoe": 1, "player": ["9h", "Kd"], "banker": ["5c", "Qh"], "outcome": "player",
                      "bets": [{"seat": 1, "chance": "ponto", "stake": 40, "net": 80}]},  # a win paid twice
                     {"shoe": 1, "player": ["4h", "3d"], "banker": ["2c", "5h"], "outcome": "tie",
                      "bets": [{"seat": 1, "chance": "ponto", "stake": 40, "net": -40},  # returned on a tie
                               {"seat": 2, "chance": "empate", "stake": 10, "net": 90}]},  # 8 for 1
                     {"shoe": 1, "player": ["6h", "6d"], "banker": ["Tc", "8h"], "outcome": "banker",
                      "bets": [{"seat": 1, "chance": "par_do_ponto", "stake": 10, "net": 80}]})  # 11 for 1
    section = "Título I, Capítulo III, Secção III, "
    assert cited(found, "PT-BAC-LOG-SETTLEMENT") == [section + "n.º 17", section + "n.º 18", section + "n.º 18",
                                                     section + "n.º 19"]


# --- a message names no article but its finding's citation ----------------------------------------------------------

_NAMED = re.compile(r"\b(?:n\.º|Art\.|Article)\s*([0-9]+(?:[.-][0-9]+)*)(?:,?\s*([a-z])\))?")
_QUOTED = re.compile(r"«[^»]*»|\"[^\"]*\"")  # the law's own words, quoted: what they name is the law's


def _articles(text: str) -> set[tuple[str, str]]:
    return set(_NAMED.findall(_QUOTED.sub("", text)))


def misnamed(message: str, article: str) -> list[tuple[str, str]]:
    """The articles a message names that its citation's article is not (a letter where the citation has one)."""
    cited_here = _articles(article)
    numbers = {number for number, _ in cited_here}
    return [(number, letter) for number, letter in _articles(message)
            if number not in numbers or (letter and (number, "") not in cited_here and (number, letter) not in cited_here)]


def test_misnamed_reads_articles_as_a_person_does():
    assert misnamed("a pequeno bet is lost (Título I, Capítulo II, Secção III, n.º 7, a))",
                    "Título I, Capítulo II, Secção III, n.º 9") == [("7", "a")]
    assert misnamed("lost (n.º 9, b))", "Título I, Capítulo II, Secção I, n.º 9, b)") == []
    assert misnamed("lost (n.º 9, b))", "Título I, Capítulo II, Secção I, n.º 9, a)") == [("9", "b")]
    assert misnamed("net +170 (Art. 37-6, Art. 37-7: \"procède\")", "Art. 37-7") == [("37-6", "")]
    assert misnamed("(n.º 19: «pagamentos a que se referem os n.os 17 e 18»)", "n.º 19") == []


def _sample_logs(directory: Path, params: dict) -> int:
    """A sample log of each game each ruleset has log rules for, with each breach its generator can inject
    (`casino_audit/samples/`), written into `directory`; how many."""
    import io

    from casino_audit.samples.log import family_module, write

    written = 0
    for name in builtin_names():
        ruleset = load_builtin(name)
        parsed = {key: ruleset.params[key].parse(value) for key, value in params.items() if key in ruleset.params}
        for game in sorted({game for rule in ruleset.rules if rule.kind == "game-log" for game in rule.games}):
            module = family_module(game)
            for breach in getattr(module, "BREACHES", ()):
                out = io.StringIO()
                try:
                    write(ruleset, game, 120, 7, [breach], out, params=parsed)
                except Exception:  # a breach the generator cannot deal at this game or under this law
                    continue
                (directory / f"{name}-{game}-{breach}.jsonl").write_text(out.getvalue(), "utf-8")
                written += 1
    return written


def _replay_findings(directory: Path):
    """(rule, message, citation article, where) of every replay finding the breach examples, the rule cases and
    sample logs with each breach injected give."""
    found = []
    for name in builtin_names():
        ruleset = load_builtin(name)
        replayed = {rule.id for rule in ruleset.rules if rule.check.get("kind") == "replay"}
        for cases in load_cases(ruleset).values():
            for case in cases:
                for finding in run_case(case, ruleset).findings:
                    if finding.rule_id in replayed and finding.citation is not None:
                        found.append((finding.rule_id, finding.message, finding.citation.article, case.source))
    from casino_audit.samples.blackjack import SAMPLE_PARAMS

    params = {**TEST_PARAMS, **PT_BJ, **CRAPS_PARAMS, **{key: str(value) for key, value in SAMPLE_PARAMS.items()},
              "stud_poker_high_card_raise": "push", "poker_sem_descarte_unqualified_raise": "push",
              "banca_francesa_other_totals": "stays", "roulette_zero_rule": "lose"}
    assert _sample_logs(directory, params) > 50
    logs = sorted(str(path) for path in EXAMPLES.rglob("log-*breaches*"))
    args = ["check", *logs, str(directory), "--format", "json", "--max-per-rule", "0"]
    for key, value in params.items():
        args += ["--param", f"{key}={value}"]
    done = run_in_process(*args)
    for finding in json.loads(done.stdout)["findings"]:
        if finding["citation"] and finding["rule_id"].split("-")[1] not in ("LOAD", "SHAPE"):
            found.append((finding["rule_id"], finding["message"], finding["citation"]["article"], finding["file"]))
    return found


def test_no_replay_message_names_another_article_than_its_citation(tmp_path):
    found = _replay_findings(tmp_path)
    assert len(found) > 300 and len({rule for rule, *_ in found}) > 50
    wrong = [(rule, message, article, where) for rule, message, article, where in found
             if misnamed(message, article)]
    assert wrong == []


# --- the ruleset's own: schema, instruments, a house ruleset ------------------------------------------------------

HOUSE_ROULETTE = """\
ruleset: casa
extends: pt
instruments:
  ordem: {title: Ordem de serviço n.º 7 do Casino, short: OS 7, language: pt}
rules: []
play:
  american_roulette:
    zero_rule: {simple_chances: lose}
    citations:
      payouts:
        - instrument: ordem
          article: ponto 3
          text: A rua paga onze vezes a aposta, como a lei manda.
      zero_rule:
        - article: Título I, Capítulo I, Secção I, n.º 28
          text: >-
            A saída do 0 faz perder todas as apostas feitas nas chances simples, nas dúzias, nas colunas e nos
            respectivos cavalos.
    citation:
      article: Título I, Capítulo I, Secção I, n.º 28
      text: A saída do 0 faz perder todas as apostas feitas nas chances simples
"""


def test_a_house_ruleset_brings_its_own_provisions_and_instruments(tmp_path):
    house = tmp_path / "casa.yaml"
    house.write_text(HOUSE_ROULETTE, "utf-8")
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "american_roulette", "casino": "C", "table": "T1",
              "limits": {"minimum": 5, "maximum": 1000}}
    found = findings(tmp_path, header,
                     {"number": 32, "bets": [{"seat": 1, "chance": "rua", "numbers": [31, 32, 33], "stake": "10",
                                              "net": "120"}]},
                     {"number": 0, "bets": [{"seat": 1, "chance": "preto", "stake": "10", "net": "10"}]},
                     extra=("--ruleset", str(house)))
    citations = [f["citation"] for f in found if f["rule_id"] == "PT-ROUL-LOG-SETTLEMENT"]
    assert [(c["instrument"], c["article"]) for c in citations] == [
        ("OS 7", "ponto 3"), ("Portaria n.º 217/2007", "Título I, Capítulo I, Secção I, n.º 28")]
    assert citations[0]["text"] == "A rua paga onze vezes a aposta, como a lei manda."
    done = run_in_process("rules", "explain", "PT-ROUL-LOG-SETTLEMENT", "--ruleset", str(house))
    assert "ponto 3, OS 7 (american_roulette)" in done.stdout and "A rua paga onze vezes" in done.stdout


@pytest.mark.parametrize("change, where, words", [
    (("- instrument: ordem", "- instrument: nenhuma"), ":11:11:",
     "'nenhuma', which neither `instrument` nor `instruments` defines"),
    (("text: A rua paga onze vezes a aposta, como a lei manda.", 'text: ""'), ":13:11:", "should be non-empty"),
    (("article: ponto 3", "article: ponto 3\n          covers: [Payouts]"), ":13:20:", "not a name of small letters"),
    (("          text: A rua paga", "          words: A rua paga"), ":11:11:", "payouts/0/text` is required"),
])
def test_a_provision_names_an_instrument_the_ruleset_has_and_quotes_words(tmp_path, change, where, words):
    from casino_audit.law.model import RulesetError
    from casino_audit.law.rulesets import load_ruleset

    path = tmp_path / "casa.yaml"
    path.write_text(HOUSE_ROULETTE.replace(*change), "utf-8")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(path)
    problems = "\n".join(map(str, raised.value.problems))
    assert f"casa.yaml{where}" in problems and words in problems, problems


def test_every_provision_of_the_rules_of_play_is_quoted_word_for_word():
    from helpers.citations import SOURCES, normalise

    for name in builtin_names():
        ruleset = load_builtin(name)
        source = normalise((rulesets_dir() / "sources" / SOURCES[ruleset.code]).read_text("utf-8"))
        for game, play in ruleset.play.items():
            for pointer, citation in play.provisions():
                assert citation is not None and citation.language == ruleset.instrument["language"], (game, pointer)
                assert normalise(citation.text) in source, f"{name} {game}{pointer}: not found word for word"


def test_lu_english_roulette_and_punto_banco_cite_the_words_each_settlement_breaks(tmp_path):
    roulette = {"kind": "game-log", "jurisdiction": "LU", "game": "english_roulette", "casino": "C", "table": "E1",
                "limits": {"minimum": 2, "maximum": 720}}
    found = findings(tmp_path, roulette,
                     {"number": 17, "bets": [{"seat": 1, "chance": "plein", "numbers": [17], "stake": 2, "net": 72}]},
                     {"number": 0, "bets": [{"seat": 1, "chance": "rouge", "stake": 4, "net": -4}]})
    words = quoted(found, "LU-EROUL-LOG-SETTLEMENT")
    assert len(words) == 2 and "trente-cinq fois la mise" in words[0] and "perdent de moitié" in words[1]
    baccarat = {"kind": "game-log", "jurisdiction": "LU", "game": "punto_banco", "casino": "C", "table": "P2",
                "decks": 6, "limits": {"minimum": 20, "maximum": 2000}}
    burn = ["Kd", "2s", "8c", "Jd", "4h", "7s", "Ac", "Th", "3c", "9d", "6h"]
    found = findings(tmp_path, baccarat,
                     {"shoe": 1, "burned": burn, "player": ["9h", "Kd"], "banker": ["5c", "Qh"], "outcome": "player",
                      "bets": [{"seat": 2, "chance": "punto", "stake": 40, "net": 38}]},
                     {"shoe": 1, "player": ["4h", "3d"], "banker": ["2c", "5h"], "outcome": "tie",
                      "bets": [{"seat": 1, "chance": "banco", "stake": 40, "net": -40},
                               {"seat": 2, "chance": "egalite", "stake": 20, "net": 20}]},
                     {"shoe": 1, "player": ["2d", "6s"], "banker": ["9c", "Kh"], "outcome": "banker",
                      "bets": [{"seat": 1, "chance": "banco", "stake": 20, "net": 20}]},  # 19 for 20
                     name="pb.jsonl")
    assert quoted(found, "LU-PB-LOG-SETTLEMENT") == [
        "Les gains de punto sont payés à égalité",
        "Dans ce dernier cas, pour les enjeux sur punto et banco, le coup est nul.",
        "les gains d’égalité 8 pour 1", "les gains de banco sont payés 19 pour 20"]


@pytest.mark.parametrize("output_format", ["sarif", "junit", "github", "markdown", "html", "rich"])
def test_every_report_format_gives_the_provision_each_finding_cites(tmp_path, output_format):
    path = tmp_path / "log.jsonl"
    coup = {"coup": 1, "time": T.format(1), "session": "S1",
            **bj_coup(["As", "Kd"], [h(["9c", "8d"], 20, ["stand"], -20)], insurance={"stake": "15", "net": "30"})}
    path.write_text(json.dumps(BJ) + "\n" + json.dumps(coup) + "\n", "utf-8")
    done = run_in_process("check", str(path), "--format", output_format, "--param",
                          "blackjack_jackpot_stake_eur=1", "--select", "PT-BJ-LOG-DECISIONS")
    assert done.returncode == 1, done.stdout
    report = done.stdout
    if output_format == "sarif":
        [result] = json.loads(report)["runs"][0]["results"]
        assert result["properties"]["citation"]["article"] == N + "33"
    elif output_format == "html":
        assert f'<span class="article">{N}33</span>' in report
    else:
        assert "n.º 33" in report  # the rule's own citation is n.º 29: the finding's is the provision it breaks


def test_lu_super_jack_findings_cite_its_payouts_or_its_stake_rule(tmp_path):
    from casino_audit.samples.blackjack import SAMPLE_PARAMS

    header = {**BJ, "jurisdiction": "LU", "limits": {"minimum": 10, "maximum": 1000}}
    found = findings(tmp_path, header, bj_coup(["9c", "6h", "Qh"], [h(["Ts", "8d"], 20, ["stand"], 20)]) | {
        "boxes": [{"box": 1, "seat": 1, "hands": [h(["Ts", "8d"], 20, ["stand"], 20)],
                   "super_jack": {"bust": {"stake": "10", "net": "10"},  # the dealer bust: 2.5 times, 25
                                  "gold_jack": {"stake": "5", "net": "-5"}}}]},  # under the table minimum
        params={key: str(value) for key, value in SAMPLE_PARAMS.items()})
    assert cited(found, "LU-BJ-LOG-SIDE-BETS") == ["Art. 32, 5, al. 2", "Art. 32, 5, al. 3"]


def test_rules_explain_and_list_give_the_provisions_a_replay_rule_may_cite():
    done = run_in_process("rules", "explain", "PT-BJ-LOG-DECISIONS")
    explained = done.stdout
    assert "Provisions its findings cite" in explained
    for number in ("18", "26", "29", "33", "36"):
        assert f"{N}{number}, Portaria n.º 217/2007 (blackjack)" in explained
    assert "não poderá exceder metade do valor da aposta" in explained
    assert "Provisions its findings cite" not in run_in_process("rules", "explain", "PT-BJ-LOG-LIMITS").stdout
    listed = {rule["id"]: rule for rule in json.loads(run_in_process("rules", "list", "--format", "json").stdout)}
    articles = [entry["article"] for entry in listed["PT-ROUL-LOG-SETTLEMENT"]["provisions"]]
    assert articles == ["Título I, Capítulo I, Secção I, n.º 27", "Título I, Capítulo I, Secção I, n.º 28",
                        "Título I, Capítulo I, Secção II, n.º 18", "Título I, Capítulo I, Secção II, n.º 19"]
    assert listed["LU-SLOT-RTP-MIN"]["provisions"] == []


def test_pt_blackjack_deal_findings_cite_the_deal_the_asking_or_the_decks(tmp_path):
    found = findings(tmp_path, BJ,
                     bj_coup(["9c", "8d"], [h(["Ts", "7d", "2c"], 10, ["stand"], 10)]),  # a card nobody asked for
                     bj_coup(["9c", "8s"], [h(["Ts"], 10, [], 0)]),  # a hand of one card
                     bj_coup(["9c"] * 5 + ["8s"], [h(["Ts", "9h"], 10, ["stand"], 10)]),  # a 9c too many in the shoe
                     params=PT_BJ)
    assert cited(found, "PT-BJ-LOG-DEAL") == [N + "18", N + "17", N + "3"]


def test_a_replay_finding_cites_its_rule_or_a_provision_its_rules_of_play_quote():
    """Never a citation of no ruleset's: each is the rule's own or one the game's `play:` data quotes."""
    seen_provisions = 0
    for name in builtin_names():
        ruleset = load_builtin(name)
        rules = {rule.id: rule for rule in ruleset.rules if rule.check.get("kind") == "replay"}
        for cases in load_cases(ruleset).values():
            for case in cases:
                for finding in run_case(case, ruleset).findings:
                    rule = rules.get(finding.rule_id)
                    if rule is None or finding.citation == rule.citation:
                        continue
                    quoted_here = {citation for game in rule.games if game in ruleset.play
                                   for _, citation in ruleset.play[game].provisions()}
                    assert finding.citation in quoted_here, (case.source, finding)
                    seen_provisions += 1
    assert seen_provisions > 20


# --- the helper each family picks its provision with -------------------------------------------------------------

_KEYS = st.sampled_from(["on", "maximum", "pays", "tie", "wins", "settlement"])
_ENTRY = st.builds(lambda article, covers: {"article": article, "text": "words", **({"covers": covers} if covers else {})},
                   st.text(min_size=1, max_size=5), st.lists(_KEYS, unique=True, max_size=3))


@given(entries=st.lists(_ENTRY, max_size=5), covers=st.one_of(st.none(), _KEYS))
def test_provision_is_the_first_entry_covering_the_key_else_the_parts_first(entries, covers):
    from casino_audit.replay import provision

    found = provision({"part": entries}, "part", covers)
    covering = [entry for entry in entries if covers is not None and covers in entry.get("covers", ())]
    assert found is (covering[0] if covering else entries[0] if entries else None)
    assert provision({"part": entries}, "another part", covers) is None
    if entries:
        assert provision({"part": entries[0]}, "part") is entries[0]  # one mapping is a list of one


def test_pt_bacara_a_banca_win_paid_without_the_commission_cites_n_20(tmp_path):
    (tmp_path / "table.yaml").write_bytes((EXAMPLES / "pt" / "table-bacara.yaml").read_bytes())
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "bacara_ponto_banca", "casino": "Casino Lisboa",
              "table": "B9", "table_config": "table.yaml"}
    found = findings(tmp_path, header,
                     {"shoe": 1, "player": ["2d", "6s"], "banker": ["9c", "Kh"], "outcome": "banker",
                      "bets": [{"seat": 1, "chance": "banca", "stake": 100, "net": 100}]})  # 95: five per cent off
    assert cited(found, "PT-BAC-LOG-SETTLEMENT") == ["Título I, Capítulo III, Secção III, n.º 20"]
