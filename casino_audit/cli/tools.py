"""`casino-audit edge | rtp | schema`: the game engines and the schemas, outside a check."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from casino_audit.cli.apps import CONFIG_OPTION, app
from casino_audit.cli.failing import Fail, exits
from casino_audit.documents import kinds
from casino_audit.documents.kinds import KIND_NAMES, misshapen


@app.command()
@exits
def edge(
    game: str = typer.Argument(..., help="The game, as a table configuration names it (punto_banco, english_roulette...)."),
    jurisdiction: str = typer.Option(..., "-j", "--jurisdiction", metavar="CODE", help="Whose law: LU, PT, MC."),
    table: Optional[Path] = typer.Option(None, "--table", metavar="FILE", help="A table configuration: its payouts "
                                                                              "(and decks, wheel) instead of the law's."),
    decks: Optional[int] = typer.Option(None, "--decks", metavar="N", min=1, help="Decks in the shoe (card games)."),
    zero_rule: Optional[str] = typer.Option(None, "--zero-rule", metavar="RULE",
                                            help="What a zero does to the simple chances where the law is silent: "
                                                 "lose, half_back or en_prison_one_spin."),
    rounds: int = typer.Option(200_000, "--rounds", metavar="N", min=1,
                               help="Rounds of the seeded simulation, for the games not computed exactly."),
    seed: int = typer.Option(1, "--seed", metavar="S", help="The simulation's seed."),
    param: List[str] = typer.Option([], "--param", metavar="NAME=VALUE",
                                    help="A value the law leaves out (a payout, a rule of play), as `check` takes it."),
    output_format: str = typer.Option("rich", "--format", metavar="FORMAT", help="rich or json."),
    config: Optional[Path] = CONFIG_OPTION,
):
    """The house edge of every bet of a game under a jurisdiction's law (or a table's schedule): exactly where
    it can be enumerated, else by a seeded simulation with its 95 % interval, labelled so."""
    # start-up: the game engines, the reader and the rulesets load when the command runs
    from casino_audit.cli.scope import param_values_for, rules_in_scope
    from casino_audit.edge import EdgeError, Options, edges
    from casino_audit.read.loader import NotOneDocument, load_single_document
    from casino_audit.report import edges as edge_report

    if output_format not in edge_report.FORMATS:
        raise Fail(f"unknown --format {output_format!r}; choose rich or json")
    [ruleset] = rules_in_scope(jurisdiction, [], config)
    data = None
    if table is not None:
        try:
            document = load_single_document(table, "a table configuration")
        except NotOneDocument as error:
            raise Fail(f"{table} cannot be read:", details=error.problems) from None
        data = document.data
        if not isinstance(data, dict) or data.get("game") != game:
            raise Fail(f"{table} is not a {game} table configuration")
        problems = misshapen(document, "table")
        if problems:
            raise Fail(f"{table} is not a table configuration the edge can be computed from "
                       f"({len(problems)} problem(s)):", details=[f"  {problem}" for problem in problems])
    try:
        found = edges(ruleset, game, data, Options(decks, zero_rule, rounds, seed,
                                                   param_values_for(ruleset, config, param)))
    except EdgeError as error:
        raise Fail(str(error)) from None
    source = f"the schedule of {table}" if table else f"the law's schedule ({ruleset.name})"
    filed_under = data.get("jurisdiction") if data is not None else None
    if isinstance(filed_under, str) and filed_under.upper() != ruleset.code:  # -j replaces it: said, as check does
        source += f" (a table filed under {filed_under}, its edges computed under {ruleset.code}'s rules: -j)"
    edge_report.report(f"{game} in {ruleset.jurisdiction_name} ({ruleset.code}): house edge by bet, {source}",
                       found, output_format, sys.stdout)


@app.command()
@exits
def rtp(
    file: Path = typer.Argument(..., metavar="FILE", help="A slot-machine homologation file (kind: machine) with "
                                                           "PAR data (`par:`)."),
    paytable: Optional[str] = typer.Option(None, "--paytable", metavar="NAME", help="Only this paytable."),
    rounds: int = typer.Option(20_000, "--rounds", metavar="N", min=1,
                               help="Spins of the seeded simulation, for what is not counted exactly."),
    seed: int = typer.Option(1, "--seed", metavar="S", help="The simulation's seed."),
    output_format: str = typer.Option("rich", "--format", metavar="FORMAT", help="rich or json."),
):
    """The return to player of each paytable of a machine's PAR data, computed exactly (a fraction), with its hit
    frequency, standard deviation per spin, each pay's hits and share of the return, and the odds of the top
    award. What cannot be counted within the work budget is estimated by a seeded simulation, labelled so."""
    # start-up: the PAR engine and the reader load when the command runs
    from casino_audit.read.loader import NotOneDocument, load_single_document
    from casino_audit.report import rtp as rtp_report
    from casino_audit.slots import par_read, par_returns

    if output_format not in rtp_report.FORMATS:
        raise Fail(f"unknown --format {output_format!r}; choose rich or json")
    try:
        document = load_single_document(file, "a machine homologation file")
    except NotOneDocument as error:
        raise Fail(f"{file} cannot be read:", details=error.problems) from None
    data = document.data
    if not isinstance(data, dict) or data.get("kind") != "machine":
        raise Fail(f"{file} is not a slot-machine homologation file (`kind: machine`)")
    if data.get("par") is None:
        raise Fail(f"{file} gives no PAR data (`par:`, see docs/par.md): there is nothing to compute the return from")
    reading = par_read.read(data["par"])
    if reading.problems:
        placed = sorted(((document.position(pointer) or (0, 0)), message) for pointer, message in reading.problems)
        details = [f"  {file}:{line}:{column}: {message}" if line else f"  {file}: {message}"
                   for (line, column), message in placed]
        raise Fail(f"the PAR data of {file} cannot be evaluated ({len(reading.problems)} problem(s)):",
                   details=details)
    if paytable is not None:
        names = [table.paytable.name for table in reading.paytables]
        if paytable not in names:
            raise Fail(f"no paytable {paytable!r} in {file}; it has {', '.join(map(repr, names))}")
        reading.paytables = [t for t in reading.paytables if t.paytable.name == paytable]
    # The returns as `check` counts them (the same pass, the same budget), then the figures beside them within a
    # budget of their own: a hostile sheet stops there, a real one never does.
    computed = par_returns.returns(reading, moments=True, rounds=rounds, seed=seed)
    if all(item.result is None for item in computed):
        raise Fail(f"the PAR data of {file} are too large to count or simulate within casino-audit's work limits "
                   f"(paytable {', '.join(repr(item.paytable.paytable.name) for item in computed)})")
    rtp_report.report(str(file), data.get("redistribution_rate"), computed, output_format, sys.stdout)


SCHEMAS = {"ruleset": "ruleset.schema.json", "report": "report.schema.json"}


@app.command()
@exits
def schema(name: str = typer.Argument(..., help=f"A document kind ({', '.join(KIND_NAMES)}), "
                                                f"or {' / '.join(SCHEMAS)}."),
           output_format: str = typer.Option("json", "--format", help="json (the JSON Schema), or markdown (a "
                                             "reference page: every field, its type, what it takes and means; a "
                                             "log's CSV columns).")):
    """Print the JSON Schema of a document kind (for editors), of rulesets or of the JSON report."""
    if output_format not in ("json", "markdown"):
        raise Fail(f"unknown format {output_format!r}; choose json or markdown")
    from casino_audit.documents.shape import packaged_schema  # start-up: the schemas load when asked for

    if name == "game-log":
        from casino_audit.logs.schema import game_log_schema  # start-up: as packaged_schema

        document = game_log_schema()
    elif name == "meter-log":
        from casino_audit.meters.records import meter_log_schema  # start-up: as packaged_schema

        document = meter_log_schema()
    elif name in kinds.KINDS:
        document = kinds.schema(name)
    elif name in SCHEMAS:
        document = packaged_schema(SCHEMAS[name])
    else:
        raise Fail(f"unknown schema {name!r}; choose one of {', '.join([*KIND_NAMES, *SCHEMAS])}")
    if output_format == "markdown":
        from casino_audit.documents.schema_doc import page  # start-up: as packaged_schema

        typer.echo(page(name, document), nl=False)
    else:
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
