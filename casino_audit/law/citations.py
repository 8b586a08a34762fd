"""The provisions of a ruleset's rules of play: where its play data quote the law (a mapping with `article`
and `text`), the parameters they leave a value to, and a provision as a finding cites it."""

from __future__ import annotations

from typing import Any

from casino_audit.core.findings import Citation
from casino_audit.core.pointers import child


def provisions_in(data: Any, pointer: str = "") -> list[tuple[str, dict]]:
    """(JSON pointer, mapping) of every citation in a game's play data: a mapping with `article` and `text` (the
    stud rules' words-only citations, a bare string, are no provision a finding can cite)."""
    found = []
    if isinstance(data, dict):
        if "article" in data and "text" in data:
            return [(pointer, data)]
        for key, value in data.items():
            found += provisions_in(value, child(pointer, str(key)))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += provisions_in(value, f"{pointer}/{index}")
    return found


def params_named(data: Any, pointer: str = "") -> list[tuple[str, str]]:
    """(JSON pointer, name) of each parameter a game's play data leave a value to: `{param: NAME}`, and the names
    a `payout_params:` mapping gives."""
    found = []
    if isinstance(data, dict):
        if set(data) == {"param"} and isinstance(data["param"], str):
            return [(pointer + "/param", data["param"])]
        for key, value in data.items():
            if key == "payout_params" and isinstance(value, dict):
                found += [(child(child(pointer, key), str(k)), v) for k, v in value.items() if isinstance(v, str)]
                continue
            found += params_named(value, child(pointer, str(key)))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += params_named(value, f"{pointer}/{index}")
    return found


def provision_citation(raw: Any, instruments: dict) -> Citation | None:
    """A provision of the rules of play ({article, text[, instrument]}) as a finding cites it; None if it is none
    (the ruleset's loading refused a provision naming an instrument it does not have)."""
    if not isinstance(raw, dict) or "article" not in raw or "text" not in raw:
        return None
    instrument = instruments.get(raw.get("instrument", ""))
    if instrument is None:
        return None
    return Citation(instrument.get("short") or instrument["title"], raw["article"], raw["text"],
                    instrument.get("language", ""))

