"""Text from filings, rulesets and file names made safe to print to a person.

A key can carry `\\x1b[2J` (clear the screen) and a fake verdict, a file name undecodable bytes, a ruleset text a
right-to-left override: every human-readable output passes its text through `printable`, so what is shown is
what is there, escaped, and the terminal stays ours.
"""

from __future__ import annotations

import functools
import os
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


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing (a soft hyphen, the combining
# grapheme joiner, the variation selectors, the Hangul fillers, the tags), whatever their general category.
_DEFAULT_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                      (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                      (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                      (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
_BLANK = frozenset("\u2800")  # drawn as nothing, though no default-ignorable: the blank braille pattern
CONFUSABLES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "confusables.txt")  # Unicode's, shipped verbatim


def _ignorable(char: str) -> bool:
    code = ord(char)
    return code >= 0xAD and any(low <= code <= high for low, high in _DEFAULT_IGNORABLE)


@functools.lru_cache(maxsize=4096)
def nameless(text: str) -> str | None:
    """Why a name names no one a reader could tell apart, or None: empty or only spaces, or holding a character
    that is drawn as nothing or that no one can read (a control or format character, a zero-width space, a
    variation selector, a private-use or unassigned code point), or a combining mark on no letter (at its start or
    after a space), or a placeholder (`_placeholder`: "-", "?", "N/A"). Such a name is refused where it is written, never compared."""
    if not text.strip():
        return "is empty" if not text else "is only spaces"
    before = " "
    for char in text:
        if (_unsafe(char) and char not in "\t") or _ignorable(char) or char in _BLANK:
            return f"holds U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')}), a character a reader cannot see"
        if unicodedata.category(char).startswith("M") and before.isspace():
            return f"holds U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')}), a combining mark on no letter"
        before = char
    return _placeholder(text)


# Words a filer writes where a name is not known: they name no one (compared as `same_name` reads them)
_PLACEHOLDERS = ("n/a", "n.a.", "na", "n/d", "nd", "none", "null", "nobody", "no one", "unknown", "tbd",
                 "tba", "x", "xx", "xxx", "idem", "ditto", "nenhum", "ninguem", "ninguém", "desconhecido",
                 "personne", "inconnu", "aucun", "unbekannt", "keiner")


@functools.lru_cache(maxsize=1)
def _placeholder_names() -> frozenset[str]:
    return frozenset(same_name(word) for word in _PLACEHOLDERS)


def _placeholder(text: str) -> str | None:
    """Why a name written in full is still no one's, or None: only punctuation, dashes and symbols ("-", "?",
    "—", "..."), or a word written where a name is not known ("N/A", "unknown", "TBD"), in any case and through
    its skeleton. A placeholder read as a person relieves a croupier no one relieved."""
    if all(unicodedata.category(char)[0] in "PSZ" or char.isspace() for char in text):
        return "is only punctuation or symbols"
    if same_name(text) in _placeholder_names():
        return "is a placeholder written where a name is not known"
    return None


@functools.lru_cache(maxsize=1)
def _prototypes() -> dict[int, str]:
    """confusables.txt read once: each source code point -> its prototype (UTS #39, section 4)."""
    table: dict[int, str] = {}
    with open(CONFUSABLES, encoding="utf-8-sig") as handle:
        for line in handle:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) < 3:
                continue
            source = fields[0].split()
            if len(source) == 1:
                table[int(source[0], 16)] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """The confusable skeleton of UTS #39 (section 4): NFD, without the default-ignorable code points, each code
    point replaced by its prototype in Unicode's confusables.txt, NFD again. Two strings are confusable when their
    skeletons are equal (Cyrillic "С-10" and Latin "C-10"). Case is kept, as the standard keeps it."""
    if text.isascii():  # ASCII is its own NFD, holds no default-ignorable, and its prototypes are in NFD
        return text.translate(_prototypes())
    text = "".join(char for char in unicodedata.normalize("NFD", text) if not _ignorable(char))
    return unicodedata.normalize("NFD", text.translate(_prototypes()))


@functools.lru_cache(maxsize=1)
def _latin() -> dict[int, str]:
    """Each code point outside ASCII that looks like ASCII text -> that text: the skeleton of the character itself,
    else of its case folding, else of its upper case, the first that is ASCII; and the character's other cases where
    they have no ASCII look-alike of their own (Cyrillic "С" and "с" are "C" and "c", Greek "Ν" is "N", Cyrillic
    "в", whose own look-alike is the small capital "ʙ", is "B" as its capital "В" is)."""
    chosen: dict[int, str] = {}
    for code in _prototypes():
        char = chr(code)
        for form in (char, char.casefold(), char.upper()):
            text = skeleton(form)
            if text.isascii():
                if code >= 0x80:
                    chosen[code] = text
                for other in (char.casefold(), char.lower(), char.upper()):
                    if len(other) == 1 and ord(other) >= 0x80 and other != char:
                        chosen.setdefault(ord(other), text)
                break
    return chosen


@functools.lru_cache(maxsize=8192)
def same_name(text: str) -> str:
    """A name as two are compared to tell whether they name one thing (a machine, a croupier, a session, a table):
    what a person sees. Without the control, format and default-ignorable characters a reader cannot see (a NUL, a
    zero-width space), each character that looks like ASCII as that ASCII (`_latin`: Greek "Ϲ" is "C", as it looks,
    not the "Σ" its compatibility form is), in its Unicode compatibility form (NFKC: "José" composed or not, "Ｍ"
    fullwidth); then its confusable skeleton (UTS #39: "C-1O" is "C-10", "rn" is
    "m"), case folded, the skeleton again, case folded again (a letter's two cases are one letter), "i" read as "l"
    (the skeleton makes the capital "I" an "l", and case makes it an "i": the three are one letter here), its spaces
    collapsed to one. Two names are one where their skeletons are one (Cyrillic "С-10" is "C-10") or they differ
    only in case. (A name that says nothing, `nameless`, is refused where it is written.)"""
    if not (text.isascii() and text.isprintable()):
        text = "".join(char for char in unicodedata.normalize("NFD", text)
                       if char.isspace() or (unicodedata.category(char) not in ("Cc", "Cf") and not _ignorable(char)))
        text = unicodedata.normalize("NFKC", text.translate(_latin()))
    return " ".join(skeleton(skeleton(text).casefold()).casefold().replace("i", "l").split())


def shown_path(raw: str) -> str:
    """A path as the run names it in its reports: without a leading `./`, and relative to the working directory
    where it is inside it (no absolute path of the inspector's machine in a report filed or uploaded), else as
    given. Only the text is changed (no link resolved, no `..` folded), so it names the same file."""
    while raw.startswith("./") and len(raw) > 2 and raw[2:].lstrip("/") != "-":  # `./-` is a file, `-` stdin
        raw = raw[2:].lstrip("/")
    if os.path.isabs(raw):
        try:
            here = os.getcwd()
        except OSError:  # the working directory was removed: as given
            return raw
        if raw.startswith(here.rstrip(os.sep) + os.sep) and len(raw) > len(here) + 1:
            return raw[len(here.rstrip(os.sep)) + 1:]
    return raw
