"""Sample game logs: realistic coups (shuffled shoes, sessions, staff changes, several seats' bets), compliant or
with named breaches injected, for `casino-audit sample-log`, the tests, the benchmarks and new users.

A family module (one per game family, beside casino_audit/replay/<family>.py) holds:

    GAMES: tuple[str, ...]
    BREACHES: dict[str, str]      breach name -> what it injects, naming the aspect that must find it
    coups(game, terms, rng, count, inject) -> Iterator[dict]
        `count` coup records (the common fields `coup`, `time`, `session`, `staff` included) dealt and settled
        by the rules of play in `terms` (casino_audit.replay.Terms), from `rng` (random.Random) alone, so a seed
        gives the same log. `inject`: a set of breach names; each is injected at least once, at coups the
        module chooses from `rng`, every other coup compliant.
"""

from datetime import timedelta

# The pause between two sessions of a sample table: a table closes between séances, so a new label never comes
# while play goes on (what `--param session_break_minutes` holds a log to).
SESSION_BREAK = timedelta(hours=3)
