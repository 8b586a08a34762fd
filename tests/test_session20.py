"""Session 20: breaches a filer could get through, each reproduced (a failing test on the code before) and
found now, at its line."""

from decimal import Decimal

from test_rt19_dice import CRAPS, CRAPS_PARAMS, STAYS, dice_coup, run_log


# --- craps: the point follows the throws whatever the session label (n.º 10.1, 10.9) ------------------------
def test_a_new_session_label_does_not_reset_the_point_or_the_standing_bets(cli, tmp_path):
    # Point 6 is on and seat 1's pass bet stands; the next throw is a 7: the pass bet loses. Relabelled as a
    # new session with the point written off, the 7 read as a come-out win and the log passed clean, exit 0.
    coups = [dice_coup(1, [3, 3], (1, "pass_line", 10, 0, STAYS)),
             dice_coup(2, [4, 3], (1, "pass_line", 10, 10), point=None)]
    coups[1]["session"] = "2026-11-02-b"
    code, found = run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS)
    assert code == 1 and ("PT-CRAPS-LOG-RESOLUTION", 3, "/point") in found
    # a bet standing on the layout cannot vanish with the label either (n.º 10.9)
    coups[1]["bets"], coups[1]["point"] = [], 6
    code, found = run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS)
    assert code == 1 and found == [("PT-CRAPS-LOG-RESOLUTION", 3, "/bets")]
    # written as the throws have it, the new label is no finding: the 7 loses the pass bet, exit 0
    coups[1]["bets"] = [{"seat": 1, "chance": "pass_line", "stake": 10, "net": -10}]
    assert run_log(cli, tmp_path, CRAPS, coups, *CRAPS_PARAMS) == (0, [])
