"""How a command fails: a message and exit code, never a traceback."""

from __future__ import annotations

import functools

import typer

from casino_audit.core.display import printable

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _say_error(message: str) -> None:
    # start-up: rich loads only when there is an error to print
    from rich.console import Console
    from rich.text import Text

    console = Console(stderr=True, highlight=False, soft_wrap=True, markup=False, emoji=False)
    console.print(Text(message, style="red"))


class Fail(Exception):
    """Stop with a message, lines of detail under it, and an exit code (2 unless said otherwise)."""

    def __init__(self, message: str, code: int = EXIT_ERROR, details: list[str] | tuple = ()):
        super().__init__(message)
        self.code = code
        self.details = list(details)


def exits(command):
    """Turn Fail into a message and exit code; any other exception into exit 2, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except Fail as failure:
            # Each line escaped on its own: a newline inside a path or a value never starts a line of ours.
            _say_error("\n".join([f"casino-audit: {printable(failure)}", *(printable(d) for d in failure.details)]))
            raise typer.Exit(failure.code) from None
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as error:  # noqa: BLE001 - the whole point is that nothing escapes as a traceback
            _say_error(f"casino-audit: internal error: {type(error).__name__}: {printable(error)}")
            raise typer.Exit(EXIT_ERROR) from None
    return wrapper


class OutputRefused(Fail):
    """-o names a file the run reads: refused, and that file is never touched (not even removed as stale)."""


class ReportedFail(Fail):
    """A run that could not start, whose report (saying why, exit 2) has been written: it stays."""
