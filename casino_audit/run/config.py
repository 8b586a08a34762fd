"""The run's settings: a config file (casino-audit.yaml) under command-line options."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Severity
from casino_audit.read.loader import NotOneDocument, load_single_document
from casino_audit.documents.shape import ShapeValidator
from casino_audit.run.suppressions import RECORD_FIELDS, Waiver, identity

DEFAULT_NAMES = ("casino-audit.yaml", ".casino-audit.yaml")

CONFIG_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "jurisdiction": {"type": "string", "pattern": "^[A-Z]{2}$"},
        "rulesets": {"type": "array", "items": {"type": "string"}},
        "params": {"type": "object", "additionalProperties": {"type": ["number", "string", "integer"]}},
        "fail_on": {"enum": ["error", "warning", "info", "never"]},
        "select": {"type": "array", "items": {"type": "string"}},
        "ignore": {"type": "array", "items": {"type": "string"}},
        "max_file_size": {"type": "integer", "minimum": 1},
        "max_per_rule": {"type": "integer", "minimum": 0},
        "require_params": {"type": "boolean"},
        "allow_empty": {"type": "boolean"},
        "waivers": {
            "type": "array",
            "description": "A regulator's dérogations: findings of a rule in some files (under a JSON pointer) "
                           "reported as waived, not counted, until the expiry date.",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["rule", "files", "justification", "granted_by", "reference", "expires"],
                "properties": {
                    "rule": {"type": "string", "minLength": 1, "description": "A law rule id, exactly."},
                    "files": {"type": "string", "minLength": 1,
                              "description": "Glob over paths relative to the config's directory (* within a "
                                             "directory, ** across)."},
                    "pointer": {"type": "string", "pattern": "^(/.*)?$",
                                "description": "Only findings at this JSON pointer or under it."},
                    "coup": {"type": "integer", "description": "Only findings about the game log's coup of this "
                                                              "number."},
                    "table": {"type": "string", "minLength": 1,
                              "description": "Only findings about the game log records of this table."},
                    "machine": {"type": "string", "minLength": 1,
                                "description": "Only findings about the meter log readings of this machine."},
                    "time": {"type": "string", "minLength": 1,
                             "description": "Only findings about the log record of this time, as written."},
                    "justification": {"type": "string", "minLength": 1},
                    "granted_by": {"type": "string", "minLength": 1},
                    "reference": {"type": "string", "minLength": 1},
                    "expires": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                                "description": "The last day the waiver applies (ISO date)."},
                },
            },
        },
    },
}
PYPROJECT_TABLE = "tool.casino-audit"


def is_config_name(name: str) -> bool:
    """casino-audit.yaml, .casino-audit.yaml and NAME.casino-audit.yaml are config files, not filings."""
    return name in DEFAULT_NAMES or name.endswith(".casino-audit.yaml")


class ConfigError(Exception):
    """A config file that cannot be used; `findings` say where and why."""

    def __init__(self, findings: list[Finding]):
        super().__init__("\n".join(map(str, findings)))
        self.findings = findings


@dataclass
class Config:
    path: Path | None = None
    jurisdiction: str | None = None
    rulesets: list[Path] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    fail_on: str | None = None
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    max_file_size: int | None = None
    max_per_rule: int | None = None
    require_params: bool | None = None
    allow_empty: bool | None = None
    waivers: list = field(default_factory=list)  # suppressions.Waiver
    found_by: str = "option --config"  # how the file was found: named, or discovered from the working directory


def _declares_table(pyproject: Path) -> bool:
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return _NAMED.search(text) is not None  # only then is the file parsed (casino-audit, or a misspelling of it)


_NAMED = re.compile(r"casino[-_]?audit", re.IGNORECASE)
# Names a person may give a config that discovery does not read (casino_audit.yml ...): said, never passed over.
MISSPELT_NAMES = tuple(f"{dot}{stem}{ext}" for dot in ("", ".") for stem in ("casino-audit", "casino_audit", "casinoaudit")
                       for ext in (".yaml", ".yml") if f"{dot}{stem}{ext}" not in DEFAULT_NAMES)


def _misnamed(directory: Path) -> list[str]:
    """Config files in this directory that discovery would not read: a misspelt name, a misspelt pyproject table."""
    names = [name for name in MISSPELT_NAMES if (directory / name).is_file()]
    pyproject = directory / "pyproject.toml"
    if pyproject.is_file() and _declares_table(pyproject):
        tool = _pyproject_data(pyproject).get("tool")
        names += [f"pyproject.toml [tool.{key}]" for key in (tool if isinstance(tool, dict) else {})
                  if key != "casino-audit" and _NAMED.fullmatch(key)]
    return names


def find_config(explicit: Path | None, start: Path | None = None) -> Path | None:
    """The --config file, else the nearest config found upward from the working directory, stopping at the
    repository root (the directory holding .git). Two config files in one directory are ambiguous: refused."""
    if explicit is not None:
        return explicit
    directory = (start or Path.cwd()).resolve()
    while True:
        found = [directory / name for name in DEFAULT_NAMES if (directory / name).is_file()]
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file() and _declares_table(pyproject) and _pyproject_table(pyproject) is not None:
            found.append(pyproject)
        misnamed = _misnamed(directory)
        if misnamed:  # its settings (require_params, fail_on ...) would be lost in silence
            raise ConfigError([Finding(F.CONFIG_INVALID, Severity.ERROR,
                                       f"{', '.join(misnamed)} in {directory} looks like a config file but is not read:"
                                       " config files are named casino-audit.yaml or .casino-audit.yaml (or a "
                                       "pyproject.toml's [tool.casino-audit]); rename it, or name one with --config",
                                       str(directory / misnamed[0].split(" ")[0]))])
        if len(found) > 1:
            raise ConfigError([Finding(F.CONFIG_INVALID, Severity.ERROR,
                                       f"{len(found)} config files in one directory ({', '.join(p.name for p in found)}):"
                                       " which one applies is ambiguous; keep one, or name it with --config",
                                       str(found[1]))])
        if found:
            return _shown(found[0])
        if (directory / ".git").exists() or directory.parent == directory:
            return None
        directory = directory.parent


def _shown(path: Path) -> Path:
    """A discovered config's path as the report shows it: relative to the working directory when under it."""
    try:
        return Path(os.path.relpath(path))
    except ValueError:
        return path


class _NotToml(Exception):
    pass


def _pyproject_data(path: Path) -> dict:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle, parse_float=Decimal)  # money is never a binary float
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError([Finding(F.CONFIG_INVALID, Severity.ERROR, f"{path} cannot be read as TOML: {error}",
                                   str(path))]) from None


def _pyproject_table(path: Path):
    """`[tool.casino-audit]` of a pyproject.toml, or None when it has none."""
    data = _pyproject_data(path)
    return data.get("tool", {}).get("casino-audit") if isinstance(data.get("tool"), dict) else None


def _table_line(path: Path) -> int:
    try:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip().replace('"', "").replace("'", "").startswith("[tool.casino-audit"):
                return number
    except (OSError, UnicodeDecodeError):
        pass
    return 1


class _TomlDocument:
    """A pyproject table as a config document: TOML gives no positions, so every finding points at the table."""

    def __init__(self, path: Path, data):
        self.data = data
        self._line = _table_line(path)

    def position(self, pointer):
        return (self._line, 1)


def load_config(path: Path | None, found_by: str = "option --config") -> Config:
    if path is None:
        return Config()
    if path.name == "pyproject.toml":
        table = _pyproject_table(path)
        if table is None:
            raise ConfigError([Finding(F.CONFIG_INVALID, Severity.ERROR,
                                       f"{path} has no [{PYPROJECT_TABLE}] table", str(path), 1, 1)])
        document = _TomlDocument(path, table)
    else:
        try:
            document = load_single_document(path, "a config file")
        except NotOneDocument as error:
            raise ConfigError(error.findings) from None
    errors = ShapeValidator(CONFIG_SCHEMA).errors(document.data)
    if errors:
        raise ConfigError([Finding(F.CONFIG_INVALID, Severity.ERROR, message, str(path),
                                   *(document.position(pointer) or (1, 1)), pointer, 0)
                           for _, pointer, message in errors])
    data = document.data
    return Config(path=path, found_by=found_by, waivers=_waivers(path, document),
                  jurisdiction=data.get("jurisdiction"),
                  rulesets=[path.parent / r for r in data.get("rulesets", [])],
                  params=dict(data.get("params", {})), fail_on=data.get("fail_on"),
                  select=list(data.get("select", [])), ignore=list(data.get("ignore", [])),
                  max_file_size=data.get("max_file_size"), max_per_rule=data.get("max_per_rule"),
                  require_params=data.get("require_params"), allow_empty=data.get("allow_empty"))


def _waivers(path: Path, document) -> list:
    waivers, problems = [], []
    for n, entry in enumerate(document.data.get("waivers", [])):
        pointer = f"/waivers/{n}"
        line, column = document.position(pointer) or (None, None)
        try:
            expires = date.fromisoformat(entry["expires"])
        except ValueError:
            problems.append(Finding(F.CONFIG_INVALID, Severity.ERROR, f"`expires` {entry['expires']!r} is not a date",
                                    str(path), *(document.position(pointer + "/expires") or (line, column)),
                                    pointer + "/expires", 0))
            continue
        named = {name: entry[name] for name in RECORD_FIELDS if name in entry}  # a log record, by what it is
        waivers.append(Waiver(entry["rule"], entry["files"], entry.get("pointer"), entry["justification"],
                              entry["granted_by"], entry["reference"], expires, str(path), line, column, pointer,
                              identity(named) if named else ()))
    if problems:
        raise ConfigError(problems)
    return waivers
