"""A progress bar for long runs, drawn on standard error in a terminal; nothing anywhere else.

It is the pipeline's `progress` callback (pipeline.Progress): files checked of those found and, under it while a
log is read, its bytes read of its size with the percentage, the speed and the time left (rich's columns, as
rich.progress.wrap_file draws them), so one big log does not sit at `0/1 files` for its whole run. `counting`
is the same for a count of things written (`sample-log`'s coups). Nothing is drawn, and rich.progress is not
even imported, until the run has gone on for SHOW_AFTER_S: a run that ends sooner (a pre-commit hook, a handful
of files) looks exactly as it would without it. The bar is transient: it is erased before the report is printed.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import Callable, Iterator, TextIO

from casino_audit.core.display import printable

SHOW_AFTER_S = 0.5  # a run still going after half a second is likely to take a few


def in_ci(environ=os.environ) -> bool:
    """CI services set CI (GitHub Actions, GitLab CI, ... to "true"); their logs are no place for a bar."""
    return environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def wanted(machine_readable_on_stdout: bool, stream: TextIO | None = None, environ=os.environ) -> bool:
    """A bar only for a person at a terminal: standard error is one (that can move its cursor), not in CI, and the
    report going to standard output is not one a program reads (`--format json | jq` shows nothing else)."""
    stream = sys.stderr if stream is None else stream
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):  # no stream, or a closed one
        terminal = False
    return terminal and environ.get("TERM") != "dumb" and not in_ci(environ) and not machine_readable_on_stdout


def _progress(stream: TextIO, clock: Callable[[], float], rows: str, time_left: bool = False):
    """A rich Progress on `stream` whose tasks are of two kinds, told apart by their field `unit`: "count" (files,
    coups: done of total, the time elapsed, then the path and records, or with `time_left` the time left) and
    "bytes" (a file read: rich's percentage, bytes, speed and time left). Columns are shared by a Progress's
    tasks, so each column draws the one or the other."""
    # rich.progress loads only when a bar is drawn (start-up)
    from rich.console import Console
    from rich.table import Column
    from rich.text import Text
    from rich.progress import (BarColumn, DownloadColumn, MofNCompleteColumn, Progress, ProgressColumn,
                               TaskProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn,
                               TransferSpeedColumn)

    class Either(ProgressColumn):
        def __init__(self, count, read, table_column=None):
            super().__init__(table_column)
            self.count, self.read = count, read

        def render(self, task):
            return (self.read if task.fields.get("unit") == "bytes" else self.count).render(task)

    class Left(ProgressColumn):  # "eta 0:00:17"
        remaining = TimeRemainingColumn()

        def render(self, task):
            return Text("eta ") + self.remaining.render(task)

    console = Console(file=stream, force_terminal=True, highlight=False, markup=False, emoji=False)
    return Progress(TextColumn("{task.description}", markup=False), BarColumn(bar_width=24),
                    Either(MofNCompleteColumn(), TaskProgressColumn()),
                    Either(TextColumn(rows, markup=False), DownloadColumn()),
                    Either(TimeElapsedColumn(), TransferSpeedColumn()),
                    Either(Left() if time_left else TextColumn("{task.fields[where]}", markup=False), Left(),
                           table_column=Column(no_wrap=True, overflow="ellipsis")),
                    console=console, transient=True, refresh_per_second=8, get_time=clock,
                    redirect_stdout=False, redirect_stderr=False)  # a sample written to stdout stays there


class ProgressBar:
    """Files checked of those found, the file being read and, in a log, the records read so far; under it, while
    a log of known size is read, its bytes read, percentage, speed and time left."""

    def __init__(self, stream: TextIO, show_after: float,
                 clock: Callable[[], float] = time.monotonic):
        self._stream, self._show_after, self._clock = stream, show_after, clock
        self._started = clock()
        self._bar = None  # rich.progress.Progress, once shown
        self._task = None
        self._reading = None  # the bytes task of the file being read, and that file's path
        self._broken = False

    def __call__(self, at) -> None:
        if self._broken:
            return
        try:
            if self._bar is None:
                if self._clock() - self._started < self._show_after:
                    return
                self._show()
            self._draw(at)
        except Exception:  # noqa: BLE001 - a display that fails must not touch the run: it stops drawing
            self._broken = True
            self.close()

    def _draw(self, at) -> None:
        room = max(12, min(48, self._bar.console.width - 75))  # the rows fit the terminal, 80 columns too
        name = printable(at.path if len(at.path) <= room else "..." + at.path[3 - room:])
        self._bar.update(self._task, completed=at.files_done, total=at.files_total,
                         where=name + (f"  {at.records:,} records" if at.records else ""))
        self._read(at)

    def _read(self, at) -> None:
        """The row of the file being read: made when its bytes are first told, gone when another file is told."""
        known = getattr(at, "bytes_total", None) is not None and getattr(at, "bytes_read", None) is not None
        if self._reading is not None and (self._reading[1] != at.path or not known):
            self._bar.remove_task(self._reading[0])
            self._reading = None
        if not known:
            return
        if self._reading is None:
            self._reading = (self._bar.add_task("  reading", total=at.bytes_total, unit="bytes", where=""),
                             at.path)
        self._bar.update(self._reading[0], completed=min(at.bytes_read, at.bytes_total), total=at.bytes_total)

    def _show(self) -> None:
        self._bar = _progress(self._stream, self._clock, "files")
        self._task = self._bar.add_task("checking", total=None, unit="count", where="")
        self._bar.start()

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def close(self) -> None:
        if self._bar is not None:
            with contextlib.suppress(Exception):
                self._bar.stop()


class CountBar(ProgressBar):
    """`done` of `total` things written (a sample's coups), with the time elapsed and left; called with the count
    done so far, as often as the writer likes (it draws at most a few times a second)."""

    def __init__(self, stream: TextIO, show_after: float, what: str, total: int, unit: str,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__(stream, show_after, clock)
        self._what, self._total, self._unit = what, total, unit

    def _show(self) -> None:
        self._bar = _progress(self._stream, self._clock, self._unit, time_left=True)
        self._task = self._bar.add_task(self._what, total=self._total, unit="count", where="")
        self._bar.start()

    def _draw(self, done: int) -> None:
        self._bar.update(self._task, completed=done)


@contextlib.contextmanager
def counting(what: str, total: int, unit: str) -> Iterator[CountBar | None]:
    """The callback a writer tells its count to (None when no bar is wanted: standard error is no terminal, or in
    CI), erased when the block ends; what is written, to standard output or a file, is the same either way."""
    if not wanted(False):
        yield None
        return
    bar = CountBar(sys.stderr, SHOW_AFTER_S, what, total, unit)
    try:
        yield bar
    finally:
        bar.close()


@contextlib.contextmanager
def progress_for(machine_readable_on_stdout: bool) -> Iterator[ProgressBar | None]:
    """The callback to hand the pipeline (None when no bar is wanted: the pipeline then pays nothing); the bar is
    erased when the block ends, before any report is written."""
    if not wanted(machine_readable_on_stdout):
        yield None
        return
    bar = ProgressBar(sys.stderr, SHOW_AFTER_S)
    try:
        yield bar
    finally:
        bar.close()
