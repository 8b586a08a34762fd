"""Red team: a coin-in reset passes for a rollover when games_played goes back with it."""

from _meterlog import HEADER, reading, rules, write


def test_coin_in_set_back_with_games_played_is_a_reset_not_a_rollover(cli, tmp_path):
    # Both coin-in meters near their capacity (10 and 8 digits) go back to 1,000 with games_played going back from
    # 9,025,000 to 100. Were games_played to go on (9,025,100), the rollover's 1,001,000 coins in 100 games at
    # 10 units at most would be a reset (LU-SLOT-LOG-COIN-IN-RESET, found). games_played has no filed capacity:
    # it cannot roll over, so going back it was cleared; yet MeterIncrements._rollovers then drops the games
    # bound (`games = ... if "games_played" not in back else None`, raw None) and takes the rollover: silent.
    readings = [reading(f"2026-01-{day:02d}T06:00:00", "M-001", day, counted=day == 1) for day in range(1, 11)]
    for day, record in enumerate(readings, 1):
        record["coin_in_1"] = 9_999_000_000 + 6000 * (day - 10)
        record["coin_in_2"] = 99_000_000 + 6000 * (day - 10)
    last = readings[-1]
    for day in range(11, 32):
        played = day - 11
        readings.append(dict(last, time=f"2026-01-{day:02d}T06:00:00", coin_in_1=1000 + 6000 * played,
                             coin_in_2=1000 + 6000 * played, games_played=100 + 2500 * played,
                             coin_out=last["coin_out"] + 925_925 + 5550 * played, drop=last["drop"] + 500 * (played + 1)))
    path = write(tmp_path, dict(HEADER, period={"from": "2026-01-01", "to": "2026-01-31"}), readings)
    done = cli("check", str(path), "--format", "json")
    assert done.returncode == 1, done.stdout
    assert "LU-SLOT-LOG-COIN-IN-RESET" in rules(done), done.stdout
