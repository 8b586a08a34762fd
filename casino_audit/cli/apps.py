"""The typer apps every command module registers on, the --version callback, and the options they share."""

from __future__ import annotations

import typer

from casino_audit import __version__

# rich_markup_mode=None: plain click help and usage errors; typer's rich help costs ~0.3 s of imports per start.
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="Check casino filings (slot-machine homologation files, gaming-table configurations) "
                       "against gaming law. Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or "
                       "internal error.")
rules_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="List and explain the rules of the rulesets.")
rulesets_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Work with ruleset files.")
app.add_typer(rules_app, name="rules")
app.add_typer(rulesets_app, name="rulesets")

CONFIG_OPTION = typer.Option(None, "--config", help="Config file (default: ./casino-audit.yaml if present); its "
                                                     "rulesets are the ones `check` would use.")


@app.callback(invoke_without_command=True)
def _version(version: bool = typer.Option(False, "--version", help="Print the version and exit.")):
    if version:
        typer.echo(f"casino-audit {__version__}")
        raise typer.Exit()
