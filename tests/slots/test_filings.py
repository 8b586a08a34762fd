"""Slot-machine homologation files and their PAR data: each test is a filing that got a
breach through, or the tool stuck, before its fix."""

from __future__ import annotations

import json
import random

import yaml

from helpers.command import EXAMPLES, without_par

THREE_REEL = EXAMPLES / "lu/machine-par-three-reel.yaml"


def _machine(tmp_path, par: dict, name: str = "machine.yaml", head: str | None = None):
    text = head if head is not None else without_par(THREE_REEL.read_text(encoding="utf-8"))
    path = tmp_path / name
    path.write_text(text + yaml.safe_dump({"par": par}, sort_keys=False), encoding="utf-8")
    return path


def _findings(done) -> list[tuple[str, str, str]]:
    report = json.loads(done.stdout)
    return [(f["rule_id"], f["pointer"], f["message"]) for f in report["findings"] if f["severity"] != "info"]


def _many_scatters(stops: int, scatter_symbols: int, reels: int, free_spins: int) -> dict:
    """Tall windows showing many scatter symbols: as many combinations of counts as windows, on every reel."""
    rng = random.Random(5)
    symbols = [f"S{i}" for i in range(scatter_symbols)] + ["X"]
    return {"symbols": symbols, "rows": 10,
            "reels": [{"strip": [rng.choice(symbols) for _ in range(stops)]} for _ in range(reels)],
            "lines": [[0] * reels],
            "paytables": [{"name": "base", "credits_per_line": 1, "pays": [{"symbol": "X", "count": 1, "pays": 1}],
                           "scatters": [{"symbol": f"S{i}", "count": 10, "pays": 1, "free_spins": free_spins}
                                        for i in range(scatter_symbols)]}]}


def test_many_scatter_symbols_on_tall_windows_are_a_finding_in_seconds_not_a_hang(tmp_path, cli):
    # Before: the scatter counts' product over the reels had no bound (nor the per-entry passes over it): 20
    # scatter symbols on three 100-stop reels of 10 rows ran for minutes (a 50-stop sheet with free spins 12 s).
    for free_spins, stops, symbols in ((1, 50, 10), (0, 100, 20), (1, 2_000, 30)):
        path = _machine(tmp_path, _many_scatters(stops, symbols, 3, free_spins), f"m{free_spins}{stops}.yaml")
        done = cli("check", str(path), "--format", "json")  # its cost: tests/hostile/worst.py par_scatters
        assert done.returncode == 1, done.stdout
        found = _findings(done)
        assert any(rule.startswith("LU-SLOT-PAR") for rule, _, _ in found), found
        if free_spins:
            assert ("LU-SLOT-PAR-EVALUABLE", "/par/paytables/0/scatters") in [(r, p) for r, p, _ in found]


def test_scatter_entries_are_bounded_in_number(tmp_path, cli):
    par = _many_scatters(20, 2, 3, 0)
    par["paytables"][0]["scatters"] = [{"symbol": "S0", "count": 1 + i % 30, "pays": 1} for i in range(101)]
    done = cli("check", str(_machine(tmp_path, par)), "--format", "json")
    assert done.returncode == 1
    assert any(p == "/par/paytables/0/scatters" and "at most" in m for _, p, m in _findings(done))


def test_a_paytable_staking_over_the_maximum_or_under_the_minimum_is_found(tmp_path, cli):
    # Before: the denomination was shown, never used: 100 credits of EUR 1.00 a spin (EUR 100) on a machine that
    # declares a maximum stake of EUR 10 passed clean, exit 0 (and EUR 0.01 under a EUR 0.50 minimum likewise).
    def paytable(credits: int, denomination: str) -> dict:
        return {"symbols": ["A", "X"], "reels": [{"strip": ["A", "X"]}], "lines": [[0]],
                "paytables": [{"name": "base", "credits_per_line": credits, "denomination": denomination,
                               "redistribution_rate": "90 %", "pays": [{"symbol": "A", "count": 1,
                                                                         "pays": str(credits * 18 // 10)}]}]}
    for credits, denomination, words in ((100, "1.00", "above the machine's maximum stake of EUR 10.00"),
                                         (10, "0.01", "below the machine's minimum stake of EUR 0.50")):
        done = cli("check", str(_machine(tmp_path, paytable(credits, denomination))), "--format", "json")
        assert done.returncode == 1, done.stdout
        [found] = _findings(done)
        assert found[:2] == ("LU-SLOT-PAR-STAKES", "/par/paytables/0/denomination") and words in found[2], found
    done = cli("check", str(_machine(tmp_path, paytable(10, "1.00"))), "--format", "json")
    assert done.returncode == 0 and _findings(done) == []


def _many_wild_multipliers(subjects: int, wilds: int) -> dict:
    symbols = [f"A{i}" for i in range(subjects)] + [f"W{i}" for i in range(wilds)]
    return {"symbols": symbols, "rows": 3, "reels": [{"strip": symbols} for _ in range(5)], "ways": True,
            "wild_multipliers": "highest", "wilds": [{"symbol": f"W{i}", "multiplier": i + 2} for i in range(wilds)],
            "paytables": [{"name": "base", "credits_per_spin": 25,
                           "pays": [{"symbol": f"A{i}", "count": c, "pays": c} for i in range(subjects)
                                    for c in (1, 2, 3, 4, 5)]}]}


def test_a_ways_game_of_many_wild_multipliers_is_told_past_the_limit_without_building_every_term(tmp_path, cli):
    # Before: under `highest`, every wild multiplier level made product terms for every entry, all built before
    # the work budget was looked at: 100 subjects and 400 wilds took 7 s and 280 MB of check, 4M terms at most.
    # Its cost is bounded where costs are measured (tests/hostile/worst.py par_wild_multipliers), not by a clock.
    path = _machine(tmp_path, _many_wild_multipliers(100, 400))
    done = cli("check", str(path), "--format", "json")
    assert done.returncode == 1
    assert any(rule == "LU-SLOT-PAR-MIN" and "cannot tell" in message for rule, _, message in _findings(done))


def test_every_win_on_a_line_of_many_entries_and_lines_is_counted_in_bounded_time(tmp_path, cli):
    # Before: with `line_wins: all`, each entry's hits were read line by line, symbol by symbol, uncharged: 2,000
    # entries on 500 lines of nine 50-symbol reels held check for 47 s. The same figures now in under a second.
    symbols = [f"A{i}" for i in range(50)]
    par = {"symbols": symbols, "rows": 1, "reels": [{"strip": symbols} for _ in range(9)], "lines": [[0] * 9] * 500,
           "line_wins": "all",
           "paytables": [{"name": "base", "credits_per_line": 1,
                          "pays": [{"combination": [f"A{i % 50}"] * (1 + i % 9), "pays": 1 + i} for i in range(2000)]}]}
    done = cli("check", str(_machine(tmp_path, par)), "--format", "json")  # its cost: worst.py par_line_wins
    assert done.returncode == 1
    # The return is counted exactly (455,109.70 %), not given up: it is far from the rate declared.
    found = _findings(done)
    assert any(rule == "LU-SLOT-PAR-DECLARED" and "8888861232949808027/1953125000000000" in message for rule, _, message in found), found
