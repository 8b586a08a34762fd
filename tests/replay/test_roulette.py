"""Roulette logs replayed: each aspect passes and fails at the right line, a long compliant sample is clean,
each injected breach is found by its aspect, and every number of both wheels settles every bet as an
independent computation does."""

import json
import random
from decimal import Decimal

import pytest

from casino_audit.games import roulette as engine
from casino_audit.logs.terms import terms_for
from casino_audit.replay import Terms
from casino_audit.replay import roulette as replay
from casino_audit.law.rulesets import load_builtin
from casino_audit.samples import roulette as samples
from helpers.command import EXAMPLES
from helpers.roulette_logs import PT_FRENCH, SCHEDULE, bet, check, coup

LU_ENGLISH = {"kind": "game-log", "jurisdiction": "LU", "game": "english_roulette", "casino": "Casino 2000",
              "table": "E1", "limits": {"minimum": 2, "maximum": 720}}
LU_AMERICAN = {"kind": "game-log", "jurisdiction": "LU", "game": "american_roulette", "casino": "Casino 2000",
               "table": "A1", "table_config": "table.json", "limits": {"minimum": 5, "maximum": 1000}}


FINE = coup(17, bet("plein", 5, 175, [17]), bet("rouge", 5, -5))


# --- each aspect, one passing and one failing coup, at its line -------------------------------------------
@pytest.mark.parametrize("header, bad, rule", [
    (LU_ENGLISH, "00", "LU-EROUL-LOG-SPIN"), (LU_ENGLISH, 37, "LU-EROUL-LOG-SPIN"),
    (PT_FRENCH, "00", "PT-ROUL-LOG-SPIN"), (PT_FRENCH, -1, "PT-ROUL-LOG-SPIN")])
def test_spin(cli, tmp_path, header, bad, rule):
    found, _ = check(cli, tmp_path, header, [FINE, coup(bad, bet("manque", 5, -5))])
    assert found == [(rule, 3, "/number")]


def test_a_double_zero_table_configuration_does_not_make_00_a_pocket(cli, tmp_path):
    # LU Art. 29: the American wheel «est divisé en 37 cases»; a table filing 38 is LU-AROUL-POCKETS, and its log
    # is replayed on the law's wheel: "00" is no pocket, whatever the configuration says
    coups = [coup("00", bet("plein", 5, 175, ["00"]), bet("rouge", 5, -5))]
    for pockets in (38, 37):
        found, _ = check(cli, tmp_path, LU_AMERICAN, coups, "--param", "roulette_zero_rule=lose", pockets=pockets)
        assert ("LU-AROUL-LOG-SPIN", 2, "/number") in found, pockets


@pytest.mark.parametrize("header, placed, pointer, rule", [
    (LU_ENGLISH, bet("cheval", 2, -2, [1, 5]), "/bets/1/numbers", "LU-EROUL-LOG-CHANCES"),
    (LU_ENGLISH, bet("cinq_numeros", 2, -2, [0, 1, 2, 3, "00"]), "/bets/1/chance", "LU-EROUL-LOG-CHANCES"),
    (LU_ENGLISH, bet("voisins", 2, -2, [17]), "/bets/1/chance", "LU-EROUL-LOG-CHANCES"),
    (LU_ENGLISH, bet("rouge", 2, -2, [1, 2]), "/bets/1/numbers", "LU-EROUL-LOG-CHANCES"),
    (PT_FRENCH, bet("rua", 5, -5, [1, 2, 4]), "/bets/1/numbers", "PT-ROUL-LOG-CHANCES"),
    (PT_FRENCH, bet("duzia", 5, -5), "/bets/1", "PT-ROUL-LOG-CHANCES")])
def test_chances(cli, tmp_path, header, placed, pointer, rule):
    good = bet("transversale" if header is LU_ENGLISH else "rua", 5, -5, [0, 2, 3])
    found, _ = check(cli, tmp_path, header, [coup(17, good), coup(17, good, placed)])
    assert found == [(rule, 3, pointer)]


@pytest.mark.parametrize("header, chance, right, wrong, rule", [
    (LU_ENGLISH, "rouge", "-2.5", -5, "LU-EROUL-LOG-SETTLEMENT"),  # Art. 37-2: half lost on zero
    (PT_FRENCH, "encarnado", -5, "-2.5", "PT-ROUL-LOG-SETTLEMENT"),  # n.º 19: all lost on zero
])
def test_settlement_on_zero(cli, tmp_path, header, chance, right, wrong, rule):
    coups = [coup(0, bet(chance, 5, right)), coup(0, bet(chance, 5, wrong))]
    found, _ = check(cli, tmp_path, header, coups)
    assert found == [(rule, 3, "/bets/0/net")]


def test_settlement_to_the_cent(cli, tmp_path):
    coups = [coup(13, bet("deux_douzaines", "3.10", "1.55", list(range(1, 25)))),
             coup(13, bet("deux_douzaines", "3.10", "1.56", list(range(1, 25))))]
    found, _ = check(cli, tmp_path, LU_ENGLISH, coups)
    assert found == [("LU-EROUL-LOG-SETTLEMENT", 3, "/bets/0/net")]


def test_without_a_zero_rule_or_a_schedule_the_settlement_is_not_checked_but_the_rest_is(cli, tmp_path):
    header = {**LU_AMERICAN, "game": "roulette", "table_config": None}
    del header["table_config"]
    coups = [coup(17, bet("plein", 5, 1, [17])), coup(37, bet("cheval", 5, -5, [1, 5]))]
    found, report = check(cli, tmp_path, header, coups)
    assert found == [("LU-ROUL-LOG-CHANCES", 3, "/bets/0/numbers"), ("LU-ROUL-LOG-SPIN", 3, "/number")]
    why = [f["message"] for f in report["findings"] if f["rule_id"] == "LU-ROUL-LOG-SETTLEMENT"]
    assert why and "not checked" in why[0] and "roulette_zero_rule" in why[0]
    found, report = check(cli, tmp_path, header, coups, "--param", "roulette_zero_rule=lose")
    why = [f["message"] for f in report["findings"] if f["rule_id"] == "LU-ROUL-LOG-SETTLEMENT"]
    assert why and "table_config" in why[0]
    found, report = check(cli, tmp_path, header, coups, "--param", "roulette_zero_rule=en_prison_one_spin")
    assert "en prison" in [f["message"] for f in report["findings"] if f["rule_id"] == "LU-ROUL-LOG-SETTLEMENT"][0]


def test_the_zero_rule_parameter_settles_lu_roulette(cli, tmp_path):
    coups = [coup(0, bet("rouge", 5, "-2.5")), coup(0, bet("rouge", 5, -5))]
    found, _ = check(cli, tmp_path, LU_AMERICAN, coups, "--param", "roulette_zero_rule=half_back", pockets=37)
    assert found == [("LU-ROUL-LOG-SETTLEMENT", 3, "/bets/0/net")]


def test_stake_limits(cli, tmp_path):
    found, _ = check(cli, tmp_path, PT_FRENCH, [coup(3, bet("par", 2500, -2500)), coup(3, bet("par", 4, -4))])
    assert found == [("PT-ROUL-LOG-LIMITS", 3, "/bets/0/stake")]


def test_the_minimum_is_kept_through_the_day_at_english_roulette(cli, tmp_path):
    coups = [coup(3, bet("pair", 2, -2), limits={"minimum": 2}),
             coup(3, bet("pair", 4, -4), time="2026-11-03T20:00:00", limits={"minimum": 4}),
             coup(3, bet("pair", 4, -4), time="2026-11-03T21:00:00", limits={"minimum": 5})]
    found, _ = check(cli, tmp_path, LU_ENGLISH, coups)
    assert found == [("LU-EROUL-LOG-MINIMUM-UNCHANGED", 4, "/limits/minimum"),
                     ("LU-ROUL-LOG-LIMITS", 4, "/bets/0/stake")]


def test_the_spinner_is_relieved_within_the_hour(cli, tmp_path):
    def at(time, who):
        return coup(3, bet("impar", 5, 5), time=time, staff={"croupier": "C-1", "spinner": who})
    relieved = [at("2026-11-02T20:00:00", "C-7"), at("2026-11-02T20:59:00", "C-7"), at("2026-11-02T21:00:00", "C-8"),
                at("2026-11-02T21:59:59", "C-8")]
    found, _ = check(cli, tmp_path, PT_FRENCH, relieved)
    assert found == []
    found, _ = check(cli, tmp_path, PT_FRENCH, [*relieved, at("2026-11-02T22:00:01", "C-8")])
    assert found == [("PT-ROUL-LOG-SPINNER", 6, "/staff/spinner")]


def test_a_csv_log_reads_00_and_the_numbers_of_each_bet(cli, tmp_path):
    (tmp_path / "table.json").write_text(json.dumps({"kind": "table", "jurisdiction": "LU",
                                                     "game": "american_roulette", "wheel": {"pockets": 38},
                                                     "payouts": SCHEDULE}))
    (tmp_path / "log.csv").write_text(
        "# kind: game-log\n# jurisdiction: LU\n# game: american_roulette\n# casino: Casino 2000\n# table: A1\n"
        "# table_config: table.json\n"
        "coup,time,session,number,seat,chance,numbers,stake,net\n"
        "1,2026-11-02T20:00:00,s1,00,1,cheval,0 00,5,85\n"
        "1,2026-11-02T20:00:00,s1,00,2,rouge,,5,-5\n"
        "2,2026-11-02T20:01:00,s1,0,1,cheval,0 00,5,-5\n")
    done = cli("check", str(tmp_path / "log.csv"), "--format", "json", "--param", "roulette_zero_rule=lose")
    errors = [(f["rule_id"], f["line"], f["pointer"]) for f in json.loads(done.stdout)["findings"]
              if f["severity"] == "error" and f["file"] == str(tmp_path / "log.csv")]  # (the table's are its own)
    # "00" read as the double zero, not 0: no pocket of the law's wheel (Art. 29), though the table files 38; the
    # numbers of each bet read from the one cell ("0 00")
    assert errors == [("LU-AROUL-LOG-SPIN", 8, "/number"), ("LU-ROUL-LOG-CHANCES", 8, "/bets/0/numbers"),
                      ("LU-ROUL-LOG-CHANCES", 10, "/bets/0/numbers")]
    assert "'00' is no pocket" in json.dumps(json.loads(done.stdout)["findings"])


# --- samples ------------------------------------------------------------------------------------------------
def sample(cli, tmp_path, header, count, inject=()):
    ruleset = load_builtin(header["jurisdiction"].lower())
    terms = terms_for(header, ruleset, header["game"], {}, str(tmp_path / "log.jsonl"), [])
    coups = list(samples.coups(header["game"], terms, random.Random(2026), count, set(inject)))
    return check(cli, tmp_path, header, coups)


@pytest.mark.parametrize("header", [LU_ENGLISH, PT_FRENCH, {**PT_FRENCH, "game": "american_roulette"}])
def test_a_compliant_sample_is_clean(cli, tmp_path, header):
    found, report = sample(cli, tmp_path, header, 2000 if header is PT_FRENCH else 500)
    assert found == [] and report["summary"]


@pytest.mark.parametrize("header, expected", [
    (LU_ENGLISH, {"wrong_payout": "LU-EROUL-LOG-SETTLEMENT", "bad_number": "LU-EROUL-LOG-SPIN",
                  "impossible_bet": "LU-EROUL-LOG-CHANCES", "minimum_changed": "LU-EROUL-LOG-MINIMUM-UNCHANGED",
                  # a rouge of twice the table's maximum is over the law's 360 times the minimum too (Art. 37-3)
                  "over_the_maximum": ("LU-EROUL-LOG-MAXIMA", "LU-ROUL-LOG-LIMITS")}),
    (PT_FRENCH, {"wrong_payout": "PT-ROUL-LOG-SETTLEMENT", "bad_number": "PT-ROUL-LOG-SPIN",
                 "impossible_bet": "PT-ROUL-LOG-CHANCES", "spinner_over_an_hour": "PT-ROUL-LOG-SPINNER",
                 "over_the_maximum": "PT-ROUL-LOG-LIMITS"})])
def test_each_breach_is_found_by_its_aspect(cli, tmp_path, header, expected):
    for breach, rule in expected.items():
        found, _ = sample(cli, tmp_path, header, 480, [breach])
        assert [rule_id for rule_id, _, _ in found] == ([rule] if isinstance(rule, str) else list(rule)), breach
    assert set(samples.BREACHES) == {*expected, "spinner_over_an_hour", "minimum_changed"}


# --- every number of both wheels, every bet, against an independent computation -----------------------------
RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}  # LU Art. 37-2, PT n.º 24 b)
OUTSIDE = {"rouge": RED, "noir": set(range(1, 37)) - RED, "pair": set(range(2, 37, 2)),
           "impair": set(range(1, 37, 2)), "manque": set(range(1, 19)), "passe": set(range(19, 37))}
PAYS = {"plein": 35, "cheval": 17, "transversale": 11, "carre": 8, "sixain": 5, "cinq_numeros": 6, "douzaine": 2,
        "colonne": 2, "deux_douzaines": Decimal("0.5"), "deux_colonnes": Decimal("0.5"),
        **{name: 1 for name in OUTSIDE}}


def expected(chance, numbers, number, stake, zero):
    covered = OUTSIDE.get(chance) or set(numbers)
    if number in covered:
        return stake * PAYS[chance]
    if chance in OUTSIDE and number in (0, "00") and zero == "half_back":
        return -stake / 2
    return -stake


@pytest.mark.parametrize("pockets", [37, 38])
@pytest.mark.parametrize("zero", ["lose", "half_back"])
def test_every_number_settles_every_bet_as_an_independent_computation(pockets, zero, monkeypatch):
    schedule = {name: str(pays) for name, pays in PAYS.items()}
    prepared = replay.prepare("roulette", Terms(play=None, payouts=schedule, table={"wheel": {"pockets": pockets}},
                                                params={"roulette_zero_rule": zero}))
    assert prepared.wheel == engine.SINGLE_ZERO  # the law's wheel, whatever the table files
    if pockets == 38:  # the replay's settlement on a double-zero wheel, which no law we hold fixes, still right
        monkeypatch.setattr(replay, "wheel_of", lambda terms: engine.DOUBLE_ZERO)
        prepared = replay.prepare("roulette", Terms(play=None, payouts=schedule, params={"roulette_zero_rule": zero}))
    wheel = prepared.wheel
    assert len(wheel.pockets) == pockets
    placings = [(kind, sorted(numbers, key=str)) for kind, sets in engine.legal_bets(wheel).items() for numbers in sets]
    assert len({kind for kind, _ in placings}) == (16 if pockets == 38 else 15)
    stake = Decimal("3.10")
    for number in wheel.pockets:
        right = [bet(kind, stake, expected(kind, numbers, number, stake, zero), numbers) for kind, numbers in placings]
        assert list(replay.replay(prepared, replay.start(prepared), coup(number, *right))) == []
        wrong = [{**placed, "net": placed["net"] + Decimal("0.01")} for placed in right]
        found = list(replay.replay(prepared, replay.start(prepared), coup(number, *wrong)))
        assert [pointer for _, pointer, _ in found] == [f"/bets/{i}/net" for i in range(len(wrong))]
        assert {aspect for aspect, _, _ in found} == {"settlement"}


# --- a table's wheel against the law's ---------------------------------------------------------------------------
# PT roleta francesa has 37 numbers (Secção II, n.º 2; the spin, n.º 23: «num dos 37 compartimentos do prato»).
# A table configuration declaring a 38-pocket wheel is refused (PT-FROUL-POCKETS); its log's coups were once
# replayed on a double-zero wheel: a coup on "00", and a pleno on it paid 35, passed PT-ROUL-LOG-SPIN and -CHANCES,
# which report both when no configuration is named. A declaration may only tighten the law (wheel_of in
# casino_audit/replay/roulette.py once took the configuration's pockets as given).
def test_a_refused_38_pocket_wheel_does_not_make_00_a_french_roulette_pocket(cli, tmp_path):
    table = (EXAMPLES / "pt/table-french-roulette.yaml").read_text("utf-8").replace("pockets: 37", "pockets: 38")
    (tmp_path / "table.yaml").write_text(table.replace("number: RF1", "number: F1"), "utf-8")
    header = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "Casino Estoril",
              "table": "F1", "table_config": "table.yaml"}
    coup = {"coup": 1, "time": "2026-11-02T21:00:05", "session": "2026-11-02",
            "staff": {"croupier": "C-3", "spinner": "C-7"}, "number": "00",
            "bets": [{"seat": 1, "chance": "pleno", "numbers": ["00"], "stake": 5, "net": 175}]}
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(coup) + "\n", "utf-8")
    done = cli("check", str(path), "--format", "json")
    rules = {f["rule_id"] for f in json.loads(done.stdout)["findings"]}
    assert {"PT-ROUL-LOG-SPIN", "PT-ROUL-LOG-CHANCES"} <= rules
