"""The return of each paytable a machine's PAR data give (read by casino_audit.slots.par_read): counted exactly
where the work allows, else estimated by a seeded simulation, and with `moments` its hit frequency and standard
deviation."""

from __future__ import annotations

from dataclasses import dataclass, replace

from casino_audit import slots
from casino_audit.slots import simulate as slots_simulate
from casino_audit.slots.par_read import ParPaytable, Reading


@dataclass(frozen=True)
class Computed:
    paytable: ParPaytable
    result: slots.Result | None  # None: past the work limit, nothing is known of it


MIN_ROUNDS = slots_simulate.MIN_ROUNDS  # fewer spins than this say nothing: the paytable is left uncounted (None)
USEFUL_ROUNDS = 2_000  # spins an estimate is given at least, while the estimates' work lasts
MAX_ROUNDS = 1_000_000  # spins one paytable's simulation plays at most, however much work is left


def returns(reading: Reading, *, moments: bool = False, rounds: int | None = None, seed: int = 1,
            line_budget: int | None = None, joint_budget: int | None = None,
            work: slots.Work | None = None, estimate_work: slots.Work | None = None,
            moments_work: slots.Work | None = None) -> list[Computed]:
    """Each paytable's result (the return only, unless `moments`), in three passes over the paytables, each with
    its own budget of operations shared by every paytable (a file's, never a paytable's: fifty paytables cost what
    one budget allows):
    1. the return, counted exactly, within `work` (slots.RETURN_WORK by default). `check` and `rtp` run this same
       pass with the same budget, so whatever `rtp` counts exactly `check` judges exactly;
    2. the returns not counted, estimated by seeded simulations sharing `estimate_work` (slots.ESTIMATE_WORK):
       `rounds` spins each, or as many as the work left allows (at least MIN_ROUNDS, else no result: None);
    3. with `moments`, the hit frequency and standard deviation of each paytable counted, within `moments_work`
       (slots.MOMENTS_WORK): past it, the return stands and the result says they were not computed."""
    work = slots.Work(slots.RETURN_WORK) if work is None else work
    estimate_work = slots.Work(slots.ESTIMATE_WORK) if estimate_work is None else estimate_work
    results: list[slots.Result | None] = []
    for table in reading.paytables:
        try:
            results.append(slots.evaluate(table.paytable, moments=False, line_budget=line_budget, work=work,
                                          estimate=False))
        except slots.Uncountable:
            results.append(None)
    left = [i for i, result in enumerate(results) if result is None]
    for n, i in enumerate(left):
        paytable = reading.paytables[i].paytable
        # each paytable still to estimate alike, but none fewer spins than say something (the first have them)
        share = slots.Work(min(max(estimate_work.left, 0), max(
            estimate_work.left // (len(left) - n), USEFUL_ROUNDS * slots_simulate.spin_cost(paytable))))
        note = (f"the exact count outgrew the {slots.RETURN_WORK:,} operations a file's returns are counted within"
                if work.left < 0 else "the exact count outgrew its work budget")
        given = share.left
        try:  # the spins asked for, or as many as its share allows (a free spin or a multiplier costs more)
            results[i] = slots_simulate.simulate(paytable, rounds or MAX_ROUNDS, seed, note=note, work=share,
                                                 until_spent=True)
        except slots.Uncountable:
            pass
        estimate_work.left -= given - max(share.left, 0)
    if moments:
        moments_work = slots.Work(slots.MOMENTS_WORK) if moments_work is None else moments_work
        for i, result in enumerate(results):
            if result is None or not result.exact:
                continue  # an estimate's simulation gave its moments
            try:
                results[i] = slots.evaluate(reading.paytables[i].paytable, moments=True, rounds=rounds or 20_000,
                                            seed=seed, line_budget=line_budget, joint_budget=joint_budget,
                                            work=moments_work)
            except slots.Uncountable:
                results[i] = replace(result, notes=(*result.notes, (
                    f"the hit frequency and standard deviation are not computed: they need more than the "
                    f"{slots.MOMENTS_WORK:,} operations allowed a file's figures beside its returns")))
    return [Computed(table, result) for table, result in zip(reading.paytables, results)]
