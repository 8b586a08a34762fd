"""One settings layer: command-line options resolved against the config file once, for every command.

Each setting keeps where its value came from (an option, the config file, the default), so a report can say
what narrowed or loosened the check and who asked for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from casino_audit.law.engine import selected
from casino_audit.run.config import ConfigError, find_config, load_config
from casino_audit.core import findings as F
from casino_audit.core.findings import TOOL_FINDINGS, TOOL_PREFIXES, Finding, Severity
from casino_audit.read.loader import DEFAULT_MAX_BYTES
from casino_audit.core.results import DEFAULT_MAX_PER_RULE
from casino_audit.run.suppressions import record_text
from casino_audit.law.model import Ruleset, RulesetError
from casino_audit.law.rulesets import builtin_names, load_builtin, load_ruleset


class SettingsError(Exception):
    """Settings that cannot be used: a usage error (exit 2). `findings` say where (a config or ruleset file's
    line), and go into the report like any other finding, so a CI format shows them too."""

    def __init__(self, message: str, findings: list[Finding] | tuple = ()):
        super().__init__(message)
        self.findings = list(findings)

    @property
    def details(self) -> list[str]:
        return [str(f) for f in self.findings]


DEFAULT = "default"


@dataclass(frozen=True)
class Setting:
    name: str
    value: Any
    source: str  # "default", "option --ignore", "config casino-audit.yaml"


@dataclass
class Settings:
    config_path: Path | None = None
    jurisdiction_override: str | None = None  # -j: replaces every document's own
    jurisdiction_default: str | None = None  # config `jurisdiction`: fills documents that name none
    ruleset_paths: list[Path] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    fail_on: Severity | None = Severity.ERROR
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    require_params: bool = False
    allow_empty: bool = False
    max_file_size: int = DEFAULT_MAX_BYTES
    max_per_rule: int = DEFAULT_MAX_PER_RULE
    sources: dict[str, str] = field(default_factory=dict)  # setting name -> where its value came from
    config_found_by: str | None = None
    waivers: list = field(default_factory=list)  # suppressions.Waiver, from the config
    baseline: Path | None = None  # --baseline: findings accepted earlier
    baseline_legacy: bool = False  # a version-1 baseline: any message at a baselined place is accepted
    baseline_version: int | None = None  # 1 and 2: a log's findings matched by their record's place, not identity

    def source(self, name: str) -> str:
        return self.sources.get(name, DEFAULT)

    def in_effect(self) -> list[Setting]:
        """Every setting that is not the default, with its source: what the report must name."""
        shown = {
            "jurisdiction_override": self.jurisdiction_override,
            "jurisdiction_default": self.jurisdiction_default,
            "rulesets": [str(p) for p in self.ruleset_paths],
            "params": {name: str(value) for name, value in self.params.items()},
            "fail_on": self.fail_on.label if self.fail_on is not None else "never",
            "select": self.select, "ignore": self.ignore,
            "require_params": self.require_params, "allow_empty": self.allow_empty,
            "max_file_size": self.max_file_size, "max_per_rule": self.max_per_rule,
        }
        in_effect = [Setting(name, value, self.source(name)) for name, value in shown.items()
                     if self.source(name) != DEFAULT]
        if self.config_path is not None:  # which config shaped the run, and how it was found
            in_effect.insert(0, Setting("config", str(self.config_path), self.config_found_by or "option --config"))
        if self.waivers:
            in_effect.append(Setting("waivers", [f"{w.rule_id} for {w.files}" + (f" at {w.pointer}" if w.pointer else "")
                                                 + (f" ({record_text(w.record)})" if w.record else "")
                                                 + f" until {w.expires.isoformat()} ({w.reference})"
                                                 for w in self.waivers], f"config {self.config_path}"))
        if self.baseline is not None:
            in_effect.append(Setting("baseline", str(self.baseline) + (
                " (version 1: a finding at a baselined place is accepted whatever its message, a breach grown "
                "worse included; write it again with --write-baseline)" if self.baseline_legacy else "") + (
                f" (version {self.baseline_version}: a log's findings are matched by their record's place in the "
                "file, not by its table, coup and time or machine and reading time, so another day's log under "
                "the same name can match; write it again with --write-baseline)"
                if self.baseline_version in (1, 2) else ""),
                "option --baseline"))
        return in_effect


def split_codes(values: list[str] | None) -> list[str]:
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def parse_params(items: list[str]) -> dict[str, str]:
    parsed = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise SettingsError(f"--param takes NAME=VALUE, not {item!r}")
        parsed[name.strip()] = value.strip()
    return parsed


def jurisdiction_code(code: str | None, option: str = "--jurisdiction") -> str | None:
    if code is None:
        return None
    code = code.strip().upper()
    if len(code) != 2 or not code.isalpha() or not code.isascii():
        raise SettingsError(f"{option} takes a two-letter code (LU, PT, MC), not {code!r}")
    return code


def severity_threshold(name: str) -> Severity | None:
    name = name.lower()
    if name == "never":
        return None
    try:
        return Severity.parse(name)
    except ValueError:
        raise SettingsError(f"--fail-on takes error, warning, info or never, not {name!r}") from None


def resolve(*, config: Path | None = None, jurisdiction: str | None = None, rulesets: list[Path] | None = None,
            params: list[str] | None = None, fail_on: str | None = None, select: list[str] | None = None,
            ignore: list[str] | None = None, require_params: bool | None = None, allow_empty: bool | None = None,
            max_file_size: int | None = None, max_per_rule: int | None = None) -> Settings:
    """Options (None: not given) over the config file over the defaults."""
    try:
        found = find_config(config)
        file = load_config(found, "option --config" if config is not None else "found upward from the working "
                                                                               "directory")
    except ConfigError as error:
        raise SettingsError("the config file is not valid:", [_as(F.CONFIG_INVALID, f) for f in error.findings]) \
            from None
    settings = Settings(config_path=file.path, config_found_by=file.found_by, waivers=list(file.waivers))
    in_config = f"config {file.path}"

    def pick(name: str, option: str, given, configured, default):
        if given is not None and given != []:
            settings.sources[name] = f"option {option}"
            return given
        if configured is not None and configured != []:
            settings.sources[name] = in_config
            return configured
        return default

    settings.jurisdiction_override = jurisdiction_code(jurisdiction)
    if settings.jurisdiction_override:
        settings.sources["jurisdiction_override"] = "option --jurisdiction"
    settings.jurisdiction_default = jurisdiction_code(file.jurisdiction, f"`jurisdiction` in {file.path}")
    if settings.jurisdiction_default:
        settings.sources["jurisdiction_default"] = in_config
    settings.ruleset_paths = list(file.rulesets) + list(rulesets or [])
    if settings.ruleset_paths:
        settings.sources["rulesets"] = " and ".join(
            part for part, present in ((in_config, file.rulesets), ("option --ruleset", rulesets)) if present)
    option_params = parse_params(params or [])
    settings.params = {**file.params, **option_params}
    if settings.params:
        option_part = "option --param"
        if file.params and option_params:  # which value came from where, and each of the config's set aside
            over = [f"{name}={file.params[name]}" for name in option_params if name in file.params]
            option_part += f" ({', '.join(option_params)}" + (f"; over the config's {', '.join(over)}" if over else "") + ")"
        settings.sources["params"] = " and ".join(
            part for part, present in ((in_config, file.params), (option_part, option_params)) if present)
    settings.fail_on = severity_threshold(pick("fail_on", "--fail-on", fail_on, file.fail_on, "error"))
    settings.select = pick("select", "--select", split_codes(select), file.select, [])
    settings.ignore = pick("ignore", "--ignore", split_codes(ignore), file.ignore, [])
    settings.require_params = bool(pick("require_params", "--require-params", require_params,
                                        file.require_params, False))
    settings.allow_empty = bool(pick("allow_empty", "--allow-empty", allow_empty, file.allow_empty, False))
    settings.max_file_size = pick("max_file_size", "--max-file-size", max_file_size, file.max_file_size,
                                  DEFAULT_MAX_BYTES)
    if settings.max_file_size < 1:
        raise SettingsError("--max-file-size takes a positive number of bytes")
    settings.max_per_rule = pick("max_per_rule", "--max-per-rule", max_per_rule, file.max_per_rule,
                                 DEFAULT_MAX_PER_RULE)
    if settings.max_per_rule < 0:
        raise SettingsError("--max-per-rule takes 0 (show all) or a positive number")
    return settings


class Rulesets(Mapping):
    """Rulesets by jurisdiction code: the custom ones given, and the built-in ones, each read when it is first
    asked for (a built-in ruleset's file is named by its code in lower case: lu.yaml is LU)."""

    def __init__(self, custom: dict[str, Ruleset]):
        self._loaded: dict[str, Ruleset] = dict(custom)
        self._builtin = {name.upper(): name for name in builtin_names()}

    def __getitem__(self, code: str) -> Ruleset:
        if code not in self._loaded:
            if not isinstance(code, str) or code not in self._builtin:
                raise KeyError(code)
            self._loaded[code] = load_builtin(self._builtin[code])
        return self._loaded[code]

    def __iter__(self):
        return iter(sorted(set(self._builtin) | set(self._loaded)))

    def __len__(self) -> int:
        return len(set(self._builtin) | set(self._loaded))

    def __contains__(self, code) -> bool:
        return isinstance(code, str) and (code in self._loaded or code in self._builtin)

    def loaded(self) -> dict[str, Ruleset]:
        """The rulesets read so far: those a run used."""
        return {code: self._loaded[code] for code in sorted(self._loaded)}


def load_rulesets(settings: Settings) -> Rulesets:
    """Built-in rulesets by jurisdiction, each replaced by a custom one of the same jurisdiction if given."""
    try:
        custom, paths = {}, {}
        for path in settings.ruleset_paths:
            ruleset = load_ruleset(path)
            if ruleset.code in custom and Path(paths[ruleset.code]).resolve() != Path(path).resolve():
                # one would be dropped, while the report named both
                raise SettingsError(f"two custom rulesets for {ruleset.code}: {paths[ruleset.code]} and {path}; "
                                    "which one applies is ambiguous: give one per jurisdiction (a house ruleset "
                                    "may extend another)")
            custom[ruleset.code], paths[ruleset.code] = ruleset, path
        rulesets = Rulesets(custom)
        if settings.select or settings.ignore or settings.params:  # all rule ids and parameters must be known
            for code in rulesets:
                rulesets[code]
    except RulesetError as error:
        raise SettingsError("the ruleset is not valid:", [_ruleset_finding(p) for p in error.problems]) from None
    _check_codes(rulesets, settings.select + settings.ignore)
    _check_waivers(rulesets, settings.waivers)
    return rulesets


def _as(rule_id: str, finding: Finding) -> Finding:
    """A problem met while reading a settings file, as the finding about that file."""
    return Finding(rule_id, Severity.ERROR, f"{finding.rule_id}: {finding.message}" if finding.rule_id != rule_id
                   else finding.message, finding.file, finding.line, finding.column, finding.pointer, finding.document)


def _ruleset_finding(problem: Finding) -> Finding:
    return _as(F.RULESET_INVALID, problem)


def _check_codes(rulesets: dict[str, Ruleset], codes: list[str]) -> None:
    """--select/--ignore choose among the law's rules. A code naming one of the tool's own findings is refused
    (they say a filing could not be read or checked, and no option hides that); one matching nothing is a typo."""
    if not codes:
        return
    tool = [code for code in codes if any(selected(rule_id, [code], None) for rule_id in TOOL_FINDINGS)]
    if tool:
        raise SettingsError(f"--select/--ignore: {', '.join(tool)} would filter the tool's own findings "
                            f"({', '.join(sorted(prefix + '-' for prefix in TOOL_PREFIXES))}); they say a filing "
                            "could not be read or checked, or a log is not whole, and are always reported")
    known = [rule.id for ruleset in rulesets.values() for rule in ruleset.rules]
    unknown = [code for code in codes if not any(selected(rule_id, [code], None) for rule_id in known)]
    if unknown:
        raise SettingsError(f"--select/--ignore: no rule matches {', '.join(unknown)} "
                            "(`casino-audit rules list` shows them)")


def _check_waivers(rulesets: Rulesets, waivers: list) -> None:
    """A waiver names one law rule exactly: a prefix would waive more than was granted, and the tool's own
    findings (a filing that could not be read) are never waived."""
    if not waivers:
        return
    known = {rule.id for code in rulesets for rule in rulesets[code].rules}
    problems = []
    for waiver in waivers:
        if waiver.rule_id not in known:
            why = ("is one of the tool's own findings, which say a filing could not be read or checked and are never "
                   "waived") if waiver.rule_id in TOOL_FINDINGS or waiver.rule_id.split("-", 1)[0] in TOOL_PREFIXES \
                else "names no rule of the rulesets (a waiver names one rule exactly; `casino-audit rules list`)"
            problems.append(Finding(F.CONFIG_INVALID, Severity.ERROR, f"the waiver's rule {waiver.rule_id!r} {why}",
                                    waiver.config, waiver.line, waiver.column, waiver.pointer_in_config + "/rule", 0))
    if problems:
        raise SettingsError("the config file is not valid:", problems)


def param_values(rulesets: dict[str, Ruleset], raw: dict) -> dict[str, dict]:
    """Each jurisdiction's parameter values, parsed by its ruleset's declaration (no parameter: none read)."""
    if not raw:
        return {}
    declared = {name for ruleset in rulesets.values() for name in ruleset.params}
    unknown = sorted(set(raw) - declared)
    if unknown:
        raise SettingsError(f"unknown parameter(s): {', '.join(unknown)}; the rulesets declare: "
                            f"{', '.join(sorted(declared)) or 'none'}")
    values: dict[str, dict] = {}
    for code, ruleset in rulesets.items():
        values[code] = {}
        for name, value in raw.items():
            if name in ruleset.params:
                try:
                    values[code][name] = ruleset.params[name].parse(value)
                except ValueError as error:
                    raise SettingsError(str(error)) from None
    return values
