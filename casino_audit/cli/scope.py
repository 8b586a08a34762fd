"""The rules and parameter values a command other than `check` works with: those a `check` with the same config
and options would apply. Imported by those commands when they run (it loads the settings and rulesets)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

from casino_audit.cli.failing import Fail
from casino_audit.run.settings import SettingsError, jurisdiction_code, load_rulesets, param_values, resolve


def _settings(**options):
    try:
        return resolve(**options)
    except SettingsError as error:
        raise Fail(str(error), details=error.details) from None


def _rulesets(settings) -> dict:
    try:
        return load_rulesets(settings)
    except SettingsError as error:
        raise Fail(str(error), details=error.details) from None


def rules_in_scope(jurisdiction: Optional[str], ruleset: List[Path], config: Optional[Path]) -> list:
    """The rules a `check` with the same config and options would apply: config rulesets included."""
    settings = _settings(config=config, rulesets=list(ruleset))
    rulesets = _rulesets(settings)
    try:
        code = jurisdiction_code(jurisdiction)
    except SettingsError as error:
        raise Fail(str(error)) from None
    if code is not None and code not in rulesets:
        raise Fail(f"no ruleset for jurisdiction {code}; loaded: {', '.join(sorted(rulesets))}")
    return [rulesets[c] for c in sorted(rulesets) if code is None or c == code]


def param_values_for(ruleset, config: Optional[Path], param: List[str]) -> dict:
    """The ruleset's parameter values from --param and the config, as `check` reads them (a config's values of
    other jurisdictions are known, not refused)."""
    settings = _settings(config=config, params=list(param))
    try:
        return param_values(dict(_rulesets(settings)), settings.params).get(ruleset.code, {})
    except SettingsError as error:
        raise Fail(str(error)) from None

