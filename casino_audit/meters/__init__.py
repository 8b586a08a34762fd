"""Meter logs (kind `meter-log`): a header naming the casino and, optionally, the machines' homologation files,
then one record per reading of a slot machine's meters (LU Art. 18-3, 5°), drop-box counts marked on readings.

records.py   the reading record's schema, meter names and CSV columns, the whole schema `schema meter-log` prints
theory.py    a machine's theoretical return and standard deviation per game, from its homologation file
stats.py     the normal quantile and the interval a realised return is judged against, exactly (no floats)
session.py   one log checked reading by reading (MeterSession), with each machine's state; its parts:
machines.py  the machines as filed: homologation files, ids, capacities, the units one game may stake
increments.py  what the meters counted between readings: the two coin-in meters agree, rollovers, resets
months.py    the drop box counted every calendar month
judged.py    the realised return judged at the log's close against its theory
figures.py   numbers as the findings write them
"""
