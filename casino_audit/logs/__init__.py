"""Game logs: a header record naming the table, its game and its law, then one record per coup (docs/game-logs.md).

reader.py streams the records of a JSON Lines file (gzip read transparently), one at a time, their positions
found only for the records a finding is about; csv_reader.py does the same for a CSV log. session.py replays
them (LogSession) under what terms.py gives (`terms_for`: the table configuration, the header's limits, the
law's schedule), against the rules that verify each aspect: aspects.py holds the log's state, and order.py
(numbering, times, séances), limits.py, stakes.py and turns.py check one aspect each.
"""
