"""Stages 2 and 3, identify and validate: a document's kind (machine, table, game-log, meter-log) and
its shape against the shipped JSON Schemas (casino_audit/schemas), with messages a filer reads."""
