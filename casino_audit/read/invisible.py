"""Characters a person cannot see in a YAML or JSON text (format characters, line and paragraph separators, C0
and C1 controls where the syntax reads them): each a LOAD finding of the loader, the document still checked."""

from __future__ import annotations

import re
import unicodedata

_INVISIBLE_CATEGORIES = frozenset(("Cf", "Zl", "Zp"))  # format characters (bidi, zero-width, BOM), LS, PS
MAX_INVISIBLE_FINDINGS = 20


def _is_invisible(char: str, json_syntax: bool) -> bool:
    category = unicodedata.category(char)
    return category in _INVISIBLE_CATEGORIES or (category == "Cc" and char not in "\t\n\r") and (
        json_syntax or char == "\x85")


def invisible_characters(text: str, json_syntax: bool) -> list[tuple[int, str]]:
    """A character that changes what is read but is not seen (a bidi override, a zero-width space, a BOM or a
    line separator in the middle): a finding where it is, the document still checked. (offset, message), in
    order; at most MAX_INVISIBLE_FINDINGS, the last saying how many more there are."""
    if text.isascii():
        found = ["\x7f"] if json_syntax and "\x7f" in text else []
    else:
        found = [char for char in set(text) if (char >= "\x7f") and _is_invisible(char, json_syntax)]
    if not found:
        return []
    pattern = re.compile("[" + "".join(re.escape(char) for char in found) + "]")
    total = sum(text.count(char) for char in found)
    listed = []
    for number, match in enumerate(pattern.finditer(text)):
        if number == MAX_INVISIBLE_FINDINGS:
            break
        offset, char = match.start(), match.group()
        name = unicodedata.name(char, "a control character")
        message = (f"an invisible character (U+{ord(char):04X} {name}) in the text: what is read is not what a "
                   "person sees" + ("; YAML 1.1 takes it for a line break, YAML 1.2 and editors may not" if
                                    unicodedata.category(char) in ("Zl", "Zp") or char == "\x85" else "")
                   + "; remove it, or write it as an escape in double quotes")
        if number == MAX_INVISIBLE_FINDINGS - 1 and total > MAX_INVISIBLE_FINDINGS:
            message += f" ({total - MAX_INVISIBLE_FINDINGS:,} more such characters in the file are not listed)"
        listed.append((offset, message))
    return listed
