"""PT craps n.º 12: «As apostas nestas chances têm de ser múltiplas dos mínimos fixados». With no minimum known
(no table_config, no header limits) PT-CRAPS-LOG-NUMBERS-MULTIPLE said nothing at all: a place bet of 13 passes
with the rule neither finding nor saying it could not judge (casino_audit/logs/stakes.py: `if by and not
is_multiple(...)` skips when `self.limits.minimum` is None, and only the limit rules say "no stake limits")."""

from helpers.command import log_findings

HEADER = {"kind": "game-log", "jurisdiction": "PT", "game": "craps", "casino": "Casino Sample", "table": "T1"}
COUP = {"coup": 1, "time": "2026-11-02T21:00:43", "session": "2026-11-02", "staff": {"croupier": "C-1"},
        "dice": [2, 2], "point": None,
        "bets": [{"seat": 2, "chance": "place_6", "stake": "13", "net": "0", "status": "stays"}]}


def test_place_bet_multiple_rule_is_not_silent_without_a_minimum(cli, tmp_path):
    findings = log_findings(cli, tmp_path, [HEADER, COUP], "--param", "craps_bar_total=12")
    assert any(f["rule_id"] == "PT-CRAPS-LOG-NUMBERS-MULTIPLE" for f in findings), findings


def test_place_bet_multiple_rule_is_not_silent_with_a_maximum_only(cli, tmp_path):
    header = {**HEADER, "limits": {"maximum": "500"}}
    findings = log_findings(cli, tmp_path, [header, COUP], "--param", "craps_bar_total=12")
    assert any(f["rule_id"] == "PT-CRAPS-LOG-NUMBERS-MULTIPLE" for f in findings), findings
