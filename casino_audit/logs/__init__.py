"""Game logs: a header record naming the table, its game and its law, then one record per coup (docs/game-logs.md).

reader.py streams the records of a JSON Lines or CSV file (gzip read transparently), one at a time, their
positions found only for the records a finding is about; session.py replays them against the rules that
verify each aspect, with the state of the log (the shoe, the session's minimum, the last coup's number).
"""
