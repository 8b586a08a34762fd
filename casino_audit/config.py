"""The run's settings: a config file (casino-audit.yaml) under command-line options."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from casino_audit import findings as F
from casino_audit.findings import Finding, Severity
from casino_audit.loader import NotOneDocument, load_single_document
from casino_audit.shape import ShapeValidator

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
    },
}


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


def find_config(explicit: Path | None) -> Path | None:
    if explicit is not None:
        return explicit
    for name in DEFAULT_NAMES:
        if Path(name).is_file():
            return Path(name)
    return None


def load_config(path: Path | None) -> Config:
    if path is None:
        return Config()
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
    return Config(path=path, jurisdiction=data.get("jurisdiction"),
                  rulesets=[path.parent / r for r in data.get("rulesets", [])],
                  params=dict(data.get("params", {})), fail_on=data.get("fail_on"),
                  select=list(data.get("select", [])), ignore=list(data.get("ignore", [])),
                  max_file_size=data.get("max_file_size"), max_per_rule=data.get("max_per_rule"),
                  require_params=data.get("require_params"), allow_empty=data.get("allow_empty"))
