"""Stage 1, load: YAML, JSON, JSON Lines and CSV read with the source position of every value (a side
table keyed by JSON pointer), records streamed, the YAML 1.1 readings that would change a value refused.
Takes paths or bytes; gives plain data with positions."""
