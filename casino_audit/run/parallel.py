"""Checking files in several processes. Files are checked in chunks by forked workers, which inherit the
checker (rulesets compiled once), and by this process: the workers take chunks from the front, this process
from the back, until they meet (two counters in shared memory). Each sends back its files' records and
findings, merged in the order of the files, so the report is the same whatever the number of workers. A run
with dossier rules (documents judged together) stays in one process."""

from __future__ import annotations

import gc
import os
import time
from typing import Callable

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.results import FileRecord, FindingSink, RunResult
from casino_audit.law.scopes import Dossier
from casino_audit.run.one_file import check_one
from casino_audit.run.stages import Context

PARALLEL_FROM = 48  # files: below this, starting workers costs more than it saves
_SHARED: tuple | None = None  # what the workers check with, set before they are forked
_FRONT, _BACK, _DONE = range(3)  # the shared counters: next chunk from the front, past the last one, files done


def parallel_workers(jobs: int | None, files: int, dossier: Dossier) -> int:
    if jobs is None:
        jobs = (os.cpu_count() or 1) if files >= PARALLEL_FROM else 1
    if jobs <= 1 or files <= 1 or dossier.checks or "fork" not in _start_methods():
        return 1
    return min(jobs, files)


def _start_methods() -> list[str]:
    import multiprocessing  # only a run asked for several processes comes here (start-up)

    return multiprocessing.get_all_start_methods()


def _chunks(files: list[str], workers: int) -> list[list[str]]:
    size = max(1, min(32, len(files) // (workers * 4)))
    return [files[at:at + size] for at in range(0, len(files), size)]


def _claim(counters, from_front: bool) -> int | None:
    """The next chunk no process has taken, from the front or the back; None once they meet."""
    with counters.get_lock():
        front, back = counters[_FRONT], counters[_BACK]
        if front >= back:
            return None
        if from_front:
            counters[_FRONT] = front + 1
            return front
        counters[_BACK] = back - 1
        return back - 1


def _check_chunk(chunk: list[str]):
    """Check these files; what they gave, and what the shared state learnt on the way."""
    context, loader, max_bytes, _, counters = _SHARED
    records, crashed = [], 0
    for path in chunk:
        record = FileRecord(path, "checked")
        records.append(record)
        crashed += check_one(path, record, context, loader, max_bytes, None)
    with counters.get_lock():
        counters[_DONE] += len(chunk)
    checker, suppressor = context.checker, context.sink.suppressor
    learnt = None
    if suppressor is not None:
        learnt = (suppressor.used, suppressor.recorded)
        suppressor.used, suppressor.recorded = type(suppressor.used)(), type(suppressor.recorded)()
    return records, context.sink.take(), crashed, set(checker.applied), list(checker.used), learnt


def _work() -> list[tuple[int, tuple]]:
    """In a worker: check chunks from the front until none is left; (chunk index, what it gave) of each."""
    chunks, counters = _SHARED[3], _SHARED[4]
    answers = []
    while (at := _claim(counters, from_front=True)) is not None:
        answers.append((at, _check_chunk(chunks[at])))
    return answers


def check_in_parallel(files: list[str], result: RunResult, context: Context, workers: int, loader,
                      max_bytes: int, told: Callable[[int, str], None] | None, total: int) -> None:
    """`files`: the last of `total`, the others already checked (their waiver and baseline counts are set
    aside while the workers, which would inherit them, send theirs). `told(files done, path)` as chunks end."""
    global _SHARED
    # multiprocessing and its pool load only for a run in several processes (start-up)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    chunks = _chunks(files, workers)
    fork = multiprocessing.get_context("fork")
    counters = fork.Array("q", [0, len(chunks), 0])
    worker_context = Context(context.checker, FindingSink(context.sink.max_per_rule, context.sink.suppressor),
                             context.override, context.default, context.dossier)
    _SHARED = (worker_context, loader, max_bytes, chunks, counters)
    before = total - len(files)
    suppressor = context.sink.suppressor
    if suppressor is not None:
        counted_here = suppressor.used, suppressor.recorded
        suppressor.used, suppressor.recorded = type(suppressor.used)(), type(suppressor.recorded)()
    # The workers' collector would otherwise walk (and, by touching reference counts, copy) every page of the
    # parent's objects they inherit: frozen, those objects are left out of every collection (Python's gc docs).
    gc.freeze()
    try:
        with ProcessPoolExecutor(workers - 1, mp_context=fork) as pool:
            futures = [pool.submit(_work) for _ in range(workers - 1)]
            answers = _check_from_the_back(chunks, counters, futures, told, before)
        _merge(chunks, answers, result, context)
        if told is not None:
            told(total, files[-1])
    finally:
        gc.unfreeze()
        _SHARED = None
        if suppressor is not None:
            suppressor.used.update(counted_here[0])
            suppressor.recorded.update(counted_here[1])


def _check_from_the_back(chunks: list[list[str]], counters, futures, told, before: int) -> dict[int, tuple]:
    """This process is the last worker, from the back: one process fewer to fork, feed and hear from. The workers
    take their first chunk before it takes any, so that each has work whatever the timing. What every chunk
    gave, by index; a chunk of a worker that died is missing."""
    from concurrent.futures.process import BrokenProcessPool  # with the pool (start-up)

    while not (counters[_FRONT] or all(future.done() for future in futures)):
        time.sleep(0.001)
    answers = {}
    try:
        while (at := _claim(counters, from_front=False)) is not None:
            answers[at] = _check_chunk(chunks[at])
            if told is not None:
                told(before + counters[_DONE], chunks[at][-1])
    except BaseException:  # interrupted (Ctrl-C): the workers take no more chunks, so the pool ends soon
        with counters.get_lock():
            counters[_BACK] = counters[_FRONT]
        raise
    for future in futures:
        try:
            answers.update(future.result())
        except BrokenProcessPool:  # a worker died (killed, out of memory): its chunks have no verdict
            pass
    return answers


def _merge(chunks: list[list[str]], answers: dict[int, tuple], result: RunResult, context: Context) -> None:
    """The chunks' records and findings into the run's, in the order of the files."""
    for at, chunk in enumerate(chunks):
        answer = answers.get(at)
        if answer is None:
            records, crashed = [FileRecord(path, "checked") for path in chunk], len(chunk)
            for path in chunk:
                context.sink.add(Finding(F.INTERNAL_ERROR, Severity.ERROR, "the process checking the file "
                                         "stopped; the file's verdict is unknown", path))
            part, applied, used, learnt = None, set(), [], None
        else:
            records, part, crashed, applied, used, learnt = answer
        result.files.extend(records)
        result.internal_errors += crashed
        if part is not None:
            context.sink.absorb(part)
        context.checker.absorb(applied, used)
        if learnt is not None:
            context.sink.suppressor.used.update(learnt[0])
            context.sink.suppressor.recorded.update(learnt[1])
