"""The document kinds and the JSON Schemas filings are shape-checked against."""
