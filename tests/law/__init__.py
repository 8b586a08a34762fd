"""Rulesets, the check kinds and the engine, the rule cases, and how the rulesets read the law."""
