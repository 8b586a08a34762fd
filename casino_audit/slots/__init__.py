"""Slot machines' maths: a homologation file's PAR data read (slots.par_read, with slots.par_fields, par_reels and
par_pays), each paytable's return (slots.par_returns), hit frequency and standard deviation counted exactly
(slots.count, by lines or ways: slots.lines, slots.ways), or estimated by a seeded simulation with its interval
(slots.simulate). The paytable as data is slots.model.

This face gives the model's names and the counts' entry points, so that `from casino_audit import slots` reads
`slots.Paytable` and `slots.evaluate` alike."""

from casino_audit.slots.count import combine, evaluate, game_stats
from casino_audit.slots.model import (
    HIGHEST, LINE_ALL, LINE_HIGHEST, MULTIPLY, ONE, ZERO, DOCUMENT_WORK, ESTIMATE_WORK, EntryResult, FreeSpinsResult, Game, GameStats, JOINT_BUDGET, JOINT_COST,
    LINE_BUDGET, LinePay, MOMENTS_WORK, NotEvaluable, Paytable, RETURN_WORK, Reel, Result, SPARE_WORK,
    ScatterCounts, ScatterPay, Uncountable, WaysPay, Wild, Work, decimal_text, one_in, square_root,
)
