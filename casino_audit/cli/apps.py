"""The typer apps every command module registers on, the --version callback, and the options they share."""

from __future__ import annotations

import typer

from casino_audit import __version__

# rich_markup_mode=None: plain click help and usage errors; typer's rich help costs ~0.3 s of imports per start.
# add_completion: typer's --install-completion and --show-completion (bash, zsh, fish, PowerShell); they cost
# nothing at start-up (the shell is detected only when one of them is given).
app = typer.Typer(add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="Check casino filings (slot-machine homologation files, gaming-table configurations) and "
                       "their game logs and meter logs (JSON Lines or CSV, gzipped or not) against gaming law. "
                       "Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or internal error.")
rules_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="List and explain the rules of the rulesets.")
rulesets_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Work with ruleset files.")
app.add_typer(rules_app, name="rules")
app.add_typer(rulesets_app, name="rulesets")

CONFIG_DISCOVERY = ("casino-audit.yaml, .casino-audit.yaml or a pyproject.toml with a [tool.casino-audit] table, "
                    "the nearest in the working directory or a directory above it, up to the repository root (the "
                    "directory holding .git) or the filesystem's")
CHECK_CONFIG_OPTION = typer.Option(None, "--config", metavar="FILE",
                                   help=f"The config file, in place of the one found: {CONFIG_DISCOVERY}.")
CONFIG_OPTION = typer.Option(None, "--config", metavar="FILE",
                             help=f"The config file, in place of the one found: {CONFIG_DISCOVERY}. Its rulesets "
                                  "and parameters are used as `check` uses them.")


@app.callback(invoke_without_command=True)
def _version(version: bool = typer.Option(False, "--version", "-V", help="Print the version and exit.")):
    if version:
        typer.echo(f"casino-audit {__version__}")
        raise typer.Exit()
