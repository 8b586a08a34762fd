"""Files a command writes: reports and baselines atomically, never over a file the run reads; samples never
over any file."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import Optional

from casino_audit.cli.failing import Fail, OutputRefused


def _never_walked(output: Path) -> bool:
    """A report a directory walk never reads as a filing (SARIF, JUnit XML, HTML, Markdown) may sit in the tree
    checked, as CI writes it in the workspace; a JSON or YAML one would be read as a filing by the next run."""
    from casino_audit.read.parsers import WALKED_EXTENSIONS  # start-up: --help loads this module, not the readers

    return not output.name.lower().endswith(WALKED_EXTENSIONS)


def guard_output(output: Path, paths: list[Path], inside_checked_tree: bool = False) -> None:
    """The report never replaces a filing, ruleset or config, never lands in a tree being checked, never
    replaces a directory."""
    target = output.resolve()
    if output.is_dir():
        raise OutputRefused(f"-o {output} is a directory; name a file")
    for path in paths:
        resolved = path.resolve()
        same = target == resolved or (output.exists() and path.exists() and os.path.samefile(output, path))
        if same:
            raise OutputRefused(f"-o {output} is one of the files this run reads (a filing, ruleset or config); the report "
                       "would overwrite it")
        if not inside_checked_tree and not _never_walked(output) and path.is_dir() and (resolved == target.parent or resolved in target.parents):
            raise OutputRefused(f"-o {output} is inside {path}, a directory being checked; write the report "
                                "elsewhere")


def guard_named(output: Path, named: set[str], option: str) -> None:
    """A file a checked document reads (a log's table configuration, a meter log's homologation file) is no place
    for a report or a baseline: known once the run has read them, before anything is written."""
    real = os.path.realpath(output)
    if real in named or (output.exists() and any(os.path.exists(path) and os.path.samefile(output, path)
                                                 for path in named)):
        raise OutputRefused(f"{option} {output} is a file a checked document reads (a log's table configuration or "
                            "homologation file); it would be overwritten: name another file")


def write_atomically(output: Path, write, replace: bool = True) -> None:
    """Write to a temporary file beside the target, then rename it over the target (or, `replace` False, link it
    to a name nothing holds: never over a file that appeared meanwhile): a reader sees the old file or the new
    one, never half of one, and a run stopped (an error, Ctrl-C, SIGTERM from a CI timeout) leaves neither half a
    file under the name nor its temporary beside it."""
    handle, temporary = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=output.parent)
    try:
        with _terminated_as_exit():
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                write(stream)
                stream.flush()
                os.fsync(stream.fileno())
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)  # as a file open() creates, not mkstemp's owner-only mode
            if replace:
                os.replace(temporary, output)
                return
            try:
                os.link(temporary, output)
            except FileExistsError:
                raise
            except OSError:  # no hard links here: copied into a file this run creates
                with open(temporary, "rb") as source, open(output, "xb") as target:
                    shutil.copyfileobj(source, target)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


@contextlib.contextmanager
def _terminated_as_exit():
    """SIGTERM, which runs no handler by default, raised as SystemExit while a file is written, so that the
    writer's clean-up runs (the main thread only: signals are delivered there)."""
    try:
        previous = signal.signal(signal.SIGTERM, _exit_on_signal)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _exit_on_signal(number, frame) -> None:
    raise SystemExit(128 + number)


def quiet_broken_pipe() -> None:
    """The reader went away (`| head`): stop writing, say nothing; the exit code still tells the verdict."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def write_sample(output: Optional[Path], command: str, write) -> None:
    """A sample to standard output, or to a new file: never over one that exists, and a run that fails leaves no
    half-written file behind."""
    if output is None:
        write(sys.stdout)
        return
    if output.exists():
        raise Fail(f"{output} exists: {command} never writes over a file")
    try:
        write_atomically(output, write, replace=False)
    except FileExistsError:
        raise Fail(f"{output} exists: {command} never writes over a file") from None
    except OSError as error:
        raise Fail(f"cannot write {output}: {error.strerror or error}") from None
