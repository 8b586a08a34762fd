"""The shipped texts of the law (rulesets/sources/) and the whitespace-blind form citations are compared in."""

import re


SOURCES = {"LU": "lu-rgd-2002-03-08.txt", "PT": "pt-portaria-217-2007.txt", "MC": "mc-am-2003-281.txt"}


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
