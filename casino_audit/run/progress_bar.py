"""A progress bar for long runs, drawn on standard error in a terminal; nothing anywhere else.

It is the pipeline's `progress` callback (pipeline.Progress). Nothing is drawn, and rich.progress is not even
imported, until the run has gone on for SHOW_AFTER_S: a run that ends sooner (a pre-commit hook, a handful of
files) looks exactly as it would without it. The bar is transient: it is erased before the report is printed.
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


class ProgressBar:
    """Files checked of those found, the file being read and, in a log, the records read so far."""

    def __init__(self, stream: TextIO, show_after: float,
                 clock: Callable[[], float] = time.monotonic):
        self._stream, self._show_after, self._clock = stream, show_after, clock
        self._started = clock()
        self._bar = None  # rich.progress.Progress, once shown
        self._task = None
        self._broken = False

    def __call__(self, at) -> None:
        if self._broken:
            return
        try:
            if self._bar is None:
                if self._clock() - self._started < self._show_after:
                    return
                self._show()
            name = printable(at.path if len(at.path) <= 48 else "..." + at.path[-45:])
            self._bar.update(self._task, completed=at.files_done, total=at.files_total, path=name,
                             records=f"{at.records:,} records" if at.records else "")
        except Exception:  # noqa: BLE001 - a display that fails must not touch the run: it stops drawing
            self._broken = True
            self.close()

    def _show(self) -> None:
        # rich.progress loads only when a bar is drawn (start-up)
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(file=self._stream, force_terminal=True, highlight=False, markup=False, emoji=False)
        self._bar = Progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
                             TimeElapsedColumn(), TextColumn("{task.fields[path]}", markup=False),
                             TextColumn("{task.fields[records]}", markup=False),
                             console=console, transient=True, refresh_per_second=8)
        self._task = self._bar.add_task("check", total=None, path="", records="")
        self._bar.start()

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def close(self) -> None:
        if self._bar is not None:
            with contextlib.suppress(Exception):
                self._bar.stop()


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
