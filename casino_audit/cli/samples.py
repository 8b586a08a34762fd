"""`casino-audit sample-log | sample-meters`: realistic logs, compliant or with named breaches."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from casino_audit.cli.apps import CONFIG_OPTION, app
from casino_audit.cli.failing import Fail, exits
from casino_audit.cli.files import write_sample


@app.command("sample-log")
@exits
def sample_log(
    game: str = typer.Argument(..., help="The game, as a table configuration names it (punto_banco ...)."),
    jurisdiction: str = typer.Option(..., "-j", "--jurisdiction", metavar="CODE", help="Whose law: LU, PT, MC."),
    coups: int = typer.Option(1000, "--coups", metavar="N", min=0, help="How many coups."),
    seed: int = typer.Option(1, "--seed", metavar="S", help="The seed: the same seed gives the same log."),
    inject: List[str] = typer.Option([], "--inject", metavar="BREACH",
                                     help="A breach to inject (repeatable); an unknown name lists the known ones."),
    param: List[str] = typer.Option([], "--param", metavar="NAME=VALUE",
                                    help="A value the law leaves out, as `check` takes it (the game is played by it)."),
    output_format: str = typer.Option("jsonl", "--format", metavar="FORMAT", help="jsonl or csv."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", metavar="FILE",
                                          help="Write to FILE (refused if it exists), else to standard output."),
    config: Optional[Path] = CONFIG_OPTION,
):
    """Write a realistic game log (shuffled shoes, sessions, staff changes, several seats' bets), compliant or
    with named breaches injected: for tests, benchmarks and a first try of `check`."""
    # start-up: the sampler and the rulesets load when the command runs
    from casino_audit.cli.scope import param_values_for, rules_in_scope
    from casino_audit.run.progress_bar import counting
    from casino_audit.samples.log import SampleError, write

    if output_format not in ("jsonl", "csv"):
        raise Fail(f"unknown --format {output_format!r}; choose jsonl or csv")
    [ruleset] = rules_in_scope(jurisdiction, [], config)
    values = param_values_for(ruleset, config, param)
    try:  # a bar on stderr in a terminal for a long sample, erased when it is written; the log is the same
        with counting("sample-log", coups, "coups") as progress:
            write_sample(output, "sample-log", lambda out: write(ruleset, game, coups, seed, inject, out,
                                                                  output_format, values, progress))
    except SampleError as error:
        raise Fail(str(error)) from None


@app.command("sample-meters")
@exits
def sample_meters(
    jurisdiction: str = typer.Option(..., "-j", "--jurisdiction", metavar="CODE", help="Whose law: LU."),
    machines: Optional[int] = typer.Option(None, "--machines", metavar="N", min=1,
                                           help="How many machines (5; with --machine, one per file)."),
    days: int = typer.Option(31, "--days", metavar="D", min=2, help="How many days, one reading a machine a day."),
    seed: int = typer.Option(1, "--seed", metavar="S", help="The seed: the same seed gives the same log."),
    inject: List[str] = typer.Option([], "--inject", metavar="BREACH",
                                     help="A breach to inject (repeatable); an unknown name lists the known ones."),
    machine: List[str] = typer.Option([], "--machine", metavar="PATH",
                                      help="A machine's homologation file, as the header names it (relative to the "
                                           "log), once per machine (repeatable): the machine is named after its "
                                           "location number, else its serial number; the first file's rate and "
                                           "meters shape the sample."),
    output_format: str = typer.Option("jsonl", "--format", metavar="FORMAT", help="jsonl or csv."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", metavar="FILE",
                                          help="Write to FILE (refused if it exists), else to standard output."),
    config: Optional[Path] = CONFIG_OPTION,
):
    """Write a realistic meter log (machines read daily, rollovers, drop-box counts), compliant or with named
    breaches injected: for tests, benchmarks and a first try of `check`."""
    # start-up: the sampler, the reader and the rulesets load when the command runs
    from casino_audit.cli.scope import rules_in_scope
    from casino_audit.read.loader import NotOneDocument, load_single_document
    from casino_audit.samples.log import SampleError
    from casino_audit.samples.meters import write

    if output_format not in ("jsonl", "csv"):
        raise Fail(f"unknown --format {output_format!r}; choose jsonl or csv")
    [ruleset] = rules_in_scope(jurisdiction, [], config)
    files = []
    for named in machine:  # read where the log will read it: beside the log
        where = (output.parent if output is not None else Path(".")) / named
        try:
            data = load_single_document(where, "a homologation file").data
        except NotOneDocument as error:
            raise Fail(f"{where} cannot be read:", details=error.problems) from None
        if not isinstance(data, dict) or data.get("kind") != "machine":
            raise Fail(f"{where} is not a homologation file (kind: machine)")
        files.append((named, data))
    count = machines if machines is not None else len(files) or 5
    try:
        write_sample(output, "sample-meters", lambda out: write(ruleset, count, days, seed, inject, out,
                                                                output_format, files))
    except SampleError as error:
        raise Fail(str(error)) from None
