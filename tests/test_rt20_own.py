"""rt20 (own): today's checks red-teamed, as a filer who wants a breach through and as an inspector who must not
see a legal filing flagged. Each test failed on the code before its fix."""

from test_rt19_dice import roulette_coup, run_log

FRENCH = {"kind": "game-log", "jurisdiction": "PT", "game": "french_roulette", "casino": "Casino Estoril",
          "table": "F1"}
AMERICAN = {**FRENCH, "game": "american_roulette"}


# --- the law's ratio is read over the minimum a stake the maximum limits is held to ------------------------
def test_a_chance_minimum_under_another_name_does_not_inflate_the_divisor(cli, tmp_path):
    """PT n.º 24, b): simple chances at most 540 times the minimum. minima {chances_simples: 200, encarnado: 5}
    beside maxima {chances_simples: 100000}: the ratio read 500 (over 200), yet a stake on red is held to the 5
    of `encarnado` (the first of its names the limits give) and to the 100,000: 50,000 on red passed, exit 0."""
    red = {"seat": 9, "chance": "encarnado", "stake": 50000, "net": 50000}
    header = {**FRENCH, "limits": {"minimum": 5, "maximum": 1000, "maxima": {"chances_simples": 100000},
                                   "minima": {"chances_simples": 200, "encarnado": 5}}}
    code, found = run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)])
    assert code == 1 and found == [("PT-FROUL-MAXIMA", 1, "/limits/maxima/chances_simples")]
    # a chance's own maximum, its minimum given under another of its names
    header["limits"]["maxima"] = {"rouge": 100000}
    header["limits"]["minima"] = {"rouge": 200, "encarnado": 5}
    code, found = run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)])
    assert code == 1 and found == [("PT-FROUL-MAXIMA", 1, "/limits/maxima/rouge")]
    # no table minimum, one chance's minimum alone: the maximum over it is still judged
    header["limits"] = {"maximum": 1000, "maxima": {"chances_simples": 100000}, "minima": {"encarnado": 5}}
    code, found = run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)])
    assert code == 1 and found == [("PT-FROUL-MAXIMA", 1, "/limits/maxima/chances_simples")]
    # PT n.º 32, a): a plein at most 30 times the minimum, its minimum 1 under `plein` beside pleno's 100
    plein = {"seat": 1, "chance": "plein", "numbers": [17], "stake": 1, "net": 35}
    header = {**AMERICAN, "limits": {"minimum": 5, "maximum": 1000, "maxima": {"pleno": 3000},
                                     "minima": {"pleno": 100, "plein": 1}}}
    code, found = run_log(cli, tmp_path, header, [roulette_coup(1, 17, plein)])
    assert code == 1 and found == [("PT-AROUL-MAXIMA", 1, "/limits/maxima/pleno")]


def test_a_chance_minimum_that_holds_every_stake_it_limits_is_legal(cli, tmp_path):
    red = {"seat": 9, "chance": "encarnado", "stake": 200, "net": 200}
    header = {**FRENCH, "limits": {"minimum": 5, "maximum": 1000, "maxima": {"chances_simples": 100000},
                                   "minima": {"chances_simples": 200}}}
    assert run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)]) == (0, [])
    header["limits"]["maxima"] = {"rouge": 100000}
    header["limits"]["minima"] = {"rouge": 200, "noir": 5}  # noir is held to the table's 1,000
    assert run_log(cli, tmp_path, header, [roulette_coup(1, 1, red)]) == (0, [])
