"""House rulesets written for the tests: a shipped ruleset's data as read, and a house ruleset extending it
with other rules of play."""

from __future__ import annotations

import json
from pathlib import Path

from casino_audit.read.loader import load_bytes
from helpers.command import REPO


def _shipped(name: str) -> dict:
    """A shipped ruleset's data as casino-audit reads it (YAML 1.2: `on:` is a key, not true)."""
    path = REPO / "rulesets" / f"{name}.yaml"
    return load_bytes(path.read_bytes(), str(path)).documents[0].data


LU = _shipped("lu")
PUNTO_BANCO = LU["play"]["punto_banco"]


def _house(tmp_path: Path, play: dict, rules: list | None = None, extends: str = "lu") -> Path:
    path = tmp_path / "house.yaml"
    house = {"ruleset": "house", "extends": extends, "rules": rules or [], "play": play}
    path.write_text(json.dumps(house, ensure_ascii=False, default=str), "utf-8")  # JSON is YAML: read as written
    return path
