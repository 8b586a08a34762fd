"""Reading files: the loader, the JSON fast path, what is opened and what is refused."""
