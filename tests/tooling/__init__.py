"""The contributors' tools (the commit-msg hook)."""
