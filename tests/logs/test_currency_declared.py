"""Held closed (a find of the fourth hostile pass, issue 22); the regression note:

A game log whose `currency` is three capital letters that name no currency (`EUX`) has every euro amount of the
law withheld from it with warnings only: a stake minimum breached in euros passes, exit 0.

docs/game-logs.md, `currency`: "ISO 4217 code of the amounts (default EUR). The law's amounts are in euros: in a
log in another currency the rules comparing its amounts with them ... are not checked, each a warning here".
The shape message for a bad one says the field takes "three capital letters, an ISO 4217 currency code (EUR)".

`EUX` is no ISO 4217 code (nor is a log in `XXX`, ISO 4217's "no currency", a log of amounts in some currency),
yet the tool reads it as another currency: the parameter punto_banco_stake_minimum_eur (Art. 37-5, the minimum
stake fixed by the authorisation order) is withheld, LU-PB-STAKE-MIN-ORDER is "not checked" (a warning), and the
log's declared minimum of 10 under the order's 20 passes. In EUR (or with no `currency`) the same log is an
error. `eur` or `EUR ` are SHAPE-INVALID (an error); a made-up code should be refused the same way, not taken at
its word.

Consequence: a filer switches off every euro check of a log by writing a code no currency has: breach passed.
"""

from __future__ import annotations

import json

import pytest

from helpers.command import EXAMPLES, log_findings, run_in_process


def _records(currency):
    lines = (EXAMPLES / "lu" / "log-punto-banco.jsonl").read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    header["limits"] = {"minimum": 10, "maximum": 1000}  # under the order's minimum of 20
    if currency is not None:
        header["currency"] = currency
    return [header] + [json.loads(line) for line in lines[1:]]


def _errors(tmp_path, currency):
    found = log_findings(run_in_process, tmp_path, _records(currency),
                         "--param", "punto_banco_stake_minimum_eur=20")
    return [f for f in found if f["severity"] == "error"]


def test_in_euros_the_minimum_is_a_breach(tmp_path):
    assert any(f["rule_id"] == "LU-PB-STAKE-MIN-ORDER" for f in _errors(tmp_path, "EUR"))


def test_a_code_no_currency_has_is_refused_not_taken_for_another_currency(tmp_path):
    errors = _errors(tmp_path, "EUX")
    assert any(f["pointer"] == "/currency" or f["rule_id"] == "LU-PB-STAKE-MIN-ORDER" for f in errors), errors
