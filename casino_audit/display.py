"""Text from filings, rulesets and file names made safe to print to a person.

A key can carry `\\x1b[2J` (clear the screen) and a fake verdict, a file name undecodable bytes, a ruleset text a
right-to-left override: every human-readable output passes its text through `printable`, so what is shown is
what is there, escaped, and the terminal stays ours.
"""

from __future__ import annotations

import unicodedata

# Control characters, format characters (bidi overrides, zero-width), lone surrogates, line/paragraph separators.
_UNSAFE_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp", "Co", "Cn"))


def _unsafe(char: str) -> bool:
    return unicodedata.category(char) in _UNSAFE_CATEGORIES


def printable(text: object, keep_newlines: bool = False) -> str:
    """The text with every control or invisible character written as an escape (\\x1b, \\u202e, \\udcff)."""
    text = str(text)
    if text.isprintable() and text.isascii():
        return text
    out = []
    for char in text:
        if keep_newlines and char == "\n":
            out.append(char)
        elif char == " " or not _unsafe(char):
            out.append(char)
        else:
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)


def brief(text: str, limit: int = 80) -> str:
    """At most `limit` characters of a value quoted in a message, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters)"


def same_name(text: str) -> str:
    """A name as two are compared to tell whether they name one thing (a machine, a croupier): its Unicode
    compatibility form (NFKC: "José" composed or not, "Ｍ" fullwidth), without the control and format characters a
    reader cannot see (a NUL, a zero-width space), case folded, its spaces collapsed to one."""
    text = "".join(char for char in unicodedata.normalize("NFKC", text)
                   if char.isspace() or unicodedata.category(char) not in ("Cc", "Cf"))
    return " ".join(text.casefold().split())
