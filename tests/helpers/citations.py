"""The shipped texts of the law (rulesets/sources/) and the whitespace-blind form citations are compared in."""

import re
from pathlib import Path

_TEXTS = Path(__file__).resolve().parents[2] / "rulesets" / "sources"
# Each jurisdiction's text, by its ruleset's code: rulesets/sources/<code>-*.txt (a new jurisdiction's text is
# found by its name, no test to edit)
SOURCES = {path.name.split("-", 1)[0].upper(): path.name for path in sorted(_TEXTS.glob("*-*.txt"))}


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
