"""A meter log's records: the meters a reading gives, the reading's schema, its CSV columns, and the whole schema
`casino-audit schema meter-log` prints (the header, and the reading under `$defs`)."""

from __future__ import annotations

import copy

from casino_audit.logs.csv_reader import RowLayout, header_reader

# The meters of a reading, in the order the CSV writes them. The two coin-in meters are the first and the second
# `coin_in` meter of the machine's homologation file, in the order it lists them (Art. 18-3, 5°: "deux compteurs
# des entrées"); drop, coin_out and hand_paid_jackpots are its drop, coin_out and hand_paid_jackpot meters.
COIN_IN = ("coin_in_1", "coin_in_2")
LAW_METERS = (*COIN_IN, "drop", "coin_out", "hand_paid_jackpots")
METERS = (*LAW_METERS, "games_played", "door_openings")
REQUIRED_METERS = METERS[:-1]  # door openings are kept where a machine has the meter; no rule reads them
MACHINE_ROLE = {"drop": "drop", "coin_out": "coin_out", "hand_paid_jackpots": "hand_paid_jackpot"}
MAX_DIGITS = 30

_DESCRIPTIONS = {
    "coin_in_1": "The first coin-in meter: coins or tokens put in by players (the first `coin_in` meter of the "
                 "homologation file).",
    "coin_in_2": "The second coin-in meter, counting the same coins or tokens (the second `coin_in` meter of the "
                 "homologation file).",
    "drop": "The drop meter: coins or tokens fallen into the drop box.",
    "coin_out": "The coin-out meter: coins or tokens paid by the machine itself.",
    "hand_paid_jackpots": "The hand-paid jackpot meter: coins or tokens paid by hand at the cash desk (0 on a machine "
                          "that pays every win itself).",
    "games_played": "Games staked since the meter started (free games not counted).",
    "door_openings": "Door openings since the meter started (kept; no rule reads it).",
}
COUNT_SCHEMA = {"type": "integer", "minimum": 0, "maximum": 10 ** MAX_DIGITS - 1}

READING_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A meter reading",
    "description": "One reading of one machine's meters, as its displays show them: whole counts of coins or tokens "
                   "(of the log's `denomination`), never reset by hand, going back to 0 only past their capacity.",
    "type": "object", "additionalProperties": False,
    "required": ["time", "machine", *REQUIRED_METERS],
    "properties": {
        "time": {"type": "string", "description": "When the meters were read, ISO 8601 (2026-01-31T06:00:00)."},
        "machine": {"type": "string", "minLength": 1, "description": "The machine's location number on the floor or its serial number, as its homologation file gives it (not blank)."},
        **{meter: {**COUNT_SCHEMA, "description": _DESCRIPTIONS[meter]} for meter in METERS},
        "drop_box_counted": {"type": "boolean", "description": "The drop box was emptied and counted at this reading "
                                                               "(Art. 18-13)."},
        "note": {"type": "string", "description": "A floor remark, kept and not read."},
    },
}

CSV_LAYOUT = RowLayout(
    columns={"time": ("time", "text"), "machine": ("machine", "text"),
             **{meter: (meter, "count") for meter in METERS},
             "drop_box_counted": ("drop_box_counted", "bool"), "note": ("note", "text")},
    header_reader=header_reader("meter-log"),
    free_text=frozenset({"note"}))


def homologated_digits(filed, meter: str) -> int | None:
    """A meter's capacity in its homologation file: the first and second `coin_in` meters are coin_in_1 and
    coin_in_2, the drop, coin_out and hand_paid_jackpot meters drop, coin_out and hand_paid_jackpots."""
    listed = filed.get("meters") if isinstance(filed, dict) else None
    if not isinstance(listed, list):
        return None
    items = [item for item in listed if isinstance(item, dict)]
    if meter in COIN_IN:
        matching = [item for item in items if item.get("role") == "coin_in"]
        matching = matching[COIN_IN.index(meter):COIN_IN.index(meter) + 1]
    else:
        matching = [item for item in items if item.get("role") == MACHINE_ROLE.get(meter)][:1]
    value = matching[0].get("capacity_digits") if matching else None
    return value if type(value) is int and 1 <= value <= 30 else None


def meter_log_schema() -> dict:
    """The header's schema with the reading record under `$defs`."""
    from casino_audit.documents import kinds

    document = copy.deepcopy(kinds.schema("meter-log"))
    reading = {key: value for key, value in READING_SCHEMA.items() if key != "$schema"}
    document.setdefault("$defs", {})["reading"] = reading
    return document
