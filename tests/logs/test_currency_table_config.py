"""A game log in yen under a table configuration whose limits are in euros: held to its own limits (it was not).

Portaria n.º 217/2007, Título I, Capítulo III, Secção I, n.º 14: «O valor de cada aposta tem de ser igual ao
mínimo fixado para a respectiva banca, ou múltiplo dele, até atingir o máximo.» The table configuration fixes
that minimum and maximum in euros (`stakes: {minimum_eur: 10, maximum_eur: 300}`).

docs/game-logs.md, header field `currency`: «ISO 4217 code of the amounts (default EUR). The law's amounts are
in euros: in a log in another currency the rules comparing its amounts with them ... are not checked, each a
warning here». The table's `_eur` limits are euro amounts just as the law's are; no rate converts yen to them.

The tool holds every yen stake of the log to the configuration's euro maximum as if both were one unit: a
¥7,500 box (about €45 on a €10-€300 table) is a PT-BJ-LOG-LIMITS error «a stake of 7500.00 on box, over the
maximum of 300.00», fourteen of them on a log whose stakes are all within the table's limits (false flags), and
nothing is said at /currency. With the currency left at EUR and the amounts unscaled the same log is clean.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from helpers.command import EXAMPLES, log_findings, run_in_process


def _log(tmp_path, currency: str | None, times: int) -> list:
    table = (EXAMPLES / "pt/table-blackjack.yaml").read_text("utf-8").replace("number: BJ5", "number: BJ2")
    (tmp_path / "table.yaml").write_text(table, "utf-8")
    records = [json.loads(line) for line in (EXAMPLES / "pt/log-blackjack.jsonl").read_text("utf-8").splitlines()]
    header = records[0]
    header.pop("limits"), header.pop("decks")
    header["table_config"] = "table.yaml"
    if currency:
        header["currency"] = currency
    for record in records[1:]:
        record.pop("limits", None)
        for box in record["boxes"]:
            box.pop("jackpot", None)
            for hand in box["hands"]:
                hand["stake"] = str(Decimal(hand["stake"]) * times)
                hand["net"] = str(Decimal(hand["net"]) * times)
    return records


def test_yen_stakes_are_not_held_to_the_table_s_euro_maximum_as_euros(tmp_path):
    found = log_findings(run_in_process, tmp_path, _log(tmp_path, "JPY", 150))
    limits = [f for f in found if f["rule_id"] == "PT-BJ-LOG-LIMITS" and f["severity"] == "error"]
    assert not limits, [(f["line"], f["message"]) for f in limits]
    assert [f for f in found if f["pointer"] == "/currency" and f["severity"] == "warning"], \
        [(f["rule_id"], f["severity"], f["pointer"]) for f in found]
