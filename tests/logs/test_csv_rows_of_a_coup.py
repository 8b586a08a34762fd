"""Rows of one CSV coup that give the same amount written two ways (`limits_minimum` 20 on one row, 20.00 on the
next) give one value: they were reported as two (LOAD-AMBIGUOUS, an error), though the amounts are equal.

docs/game-logs.md, CSV: «The rows of one coup follow each other and repeat its cells (rows of one coup that
disagree are a finding)»; its table types `limits_minimum` as «an amount, read exactly as written (12.50)».

csv_coups._assemble compares a later row's cell with the first row's as text (`value != first[...]`), never as
the amount its column reads: 20 and 20.00 are one amount (the JSON Lines log takes "20" and 20.00 alike), so the
rows agree and nothing disagrees. A table's export that writes the header row's limit as 20 and the bet rows' as
20.00 is a legal log refused with an error at every such coup.

Consequence: false flag (a legal log is an error, exit 1).
"""

from __future__ import annotations

import pytest

from helpers.command import EXAMPLES, run_in_process

PARAMS = ("--param", "punto_banco_minimum_multiple_eur=20", "--param", "punto_banco_minimum_floor_eur=0.50",
          "--param", "punto_banco_stake_minimum_eur=20")


def _findings(tmp_path, second_row_cell: str) -> list[dict]:
    import json

    lines = (EXAMPLES / "lu/log-punto-banco.csv").read_text("utf-8").splitlines()
    head = [line for line in lines if line.startswith("#")]
    columns, rows = lines[len(head)], lines[len(head) + 1:]
    rows = [row + "," + (second_row_cell if index == 1 else "20") for index, row in enumerate(rows)]
    path = tmp_path / "log.csv"
    path.write_text("\n".join([*head, columns + ",limits_minimum", *rows]) + "\n", "utf-8")
    done = run_in_process("check", str(path), "--format", "json", *PARAMS)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)["findings"]


def test_rows_of_a_coup_giving_one_amount_written_otherwise_agree(tmp_path):
    assert [f for f in _findings(tmp_path, "20") if f["severity"] != "info"] == []  # the control
    found = _findings(tmp_path, "20.00")  # coup 1's second row: the same minimum, with its cents
    assert [(f["rule_id"], f["line"], f["message"][:90]) for f in found if f["severity"] != "info"] == []
