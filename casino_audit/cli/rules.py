"""`casino-audit rules list | rules explain` and `rulesets validate`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from casino_audit.cli.apps import CONFIG_OPTION, rules_app, rulesets_app
from casino_audit.cli.failing import EXIT_CLEAN, EXIT_FINDINGS, Fail, exits


@rules_app.command("list")
@exits
def rules_list(
    jurisdiction: Optional[str] = typer.Option(None, "-j", "--jurisdiction", help="Only this jurisdiction."),
    ruleset: List[Path] = typer.Option([], "--ruleset", help="A custom ruleset file."),
    output_format: str = typer.Option("rich", "--format", help="rich, json, or markdown (the coverage document: "
                                                               "articles to rules, and what is left out and why)."),
    config: Optional[Path] = CONFIG_OPTION,
):
    """List every rule with its severity and citation."""
    # start-up: the rulesets and the catalogue load when the command runs
    from casino_audit.cli.scope import rules_in_scope
    from casino_audit.report import catalogue

    if output_format not in catalogue.LIST_FORMATS:
        raise Fail(f"unknown --format {output_format!r}; choose {', '.join(catalogue.LIST_FORMATS)}")
    catalogue.list_rules(rules_in_scope(jurisdiction, ruleset, config), output_format, sys.stdout)


@rules_app.command("explain")
@exits
def rules_explain(
    rule_id: str = typer.Argument(..., help="A rule id, e.g. LU-SLOT-RTP-MIN."),
    ruleset: List[Path] = typer.Option([], "--ruleset", help="A custom ruleset file."),
    config: Optional[Path] = CONFIG_OPTION,
):
    """Explain a rule: what it checks, the article and its original words, what passes and what fails."""
    # start-up: the rulesets and the catalogue load when the command runs
    from casino_audit.cli.scope import rules_in_scope
    from casino_audit.report import catalogue

    for rs in rules_in_scope(None, ruleset, config):
        for rule in rs.rules:
            if rule.id == rule_id.upper():
                catalogue.explain(rule, rs, sys.stdout)
                return
    raise Fail(f"no rule {rule_id!r}; `casino-audit rules list` shows them all")


@rulesets_app.command("validate")
@exits
def rulesets_validate(files: List[Path] = typer.Argument(..., help="Ruleset files to validate.")):
    """Validate ruleset files against the meta-schema and the check kinds; exit 1 if any is invalid."""
    # start-up: the rulesets' loader and the catalogue load when the command runs
    from casino_audit.law.model import RulesetError
    from casino_audit.law.rulesets import load_ruleset
    from casino_audit.report.catalogue import validation

    bad = False
    for path in files:
        try:
            validation(path, None, load_ruleset(path), sys.stdout, sys.stderr)
        except RulesetError as error:
            bad = True
            validation(path, error.problems, None, sys.stdout, sys.stderr)
    raise typer.Exit(EXIT_FINDINGS if bad else EXIT_CLEAN)
