"""`check -`: a filing read from standard input, spooled to a temporary file of the right kind and checked under
its name in the reports (`-`, or --stdin-filename's, as ruff names it). Imported when a check reads it."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
import tempfile
import zlib
from typing import BinaryIO, Iterator

from casino_audit.read.parsers import WALKED_EXTENSIONS

SNIFFED = 2 * 1024 * 1024  # bytes looked at to tell the kind: more than one log record's limit (1 MiB)
_CSV_HEADER = re.compile(rb"#[ \t]*kind[ \t]*:[ \t]*(game-log|meter-log)[ \t]*\r?")


def extension(name: str | None, head: bytes) -> str:
    """The extension standard input is read by: --stdin-filename's if it has one a walk reads (`.jsonl`,
    `.csv.gz`, `.yaml` ...), else told from the content: gzip by its magic bytes; JSON Lines if the first
    non-empty line is a JSON object and another line follows; CSV if it opens with a log's `# kind: game-log` (or
    meter-log) line; else YAML, which JSON is a part of."""
    lower = (name or "").lower()
    for known in sorted(WALKED_EXTENSIONS, key=len, reverse=True):
        if lower.endswith(known):
            return known
    if head.startswith(b"\x1f\x8b"):
        with contextlib.suppress(zlib.error):
            inner = extension(None, zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, SNIFFED))
            if inner in (".jsonl", ".csv"):
                return inner + ".gz"
        return ".yaml"  # no YAML is gzipped: read, it is a finding (binary data), never a pass
    text = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    lines = [line for line in text.split(b"\n") if line.strip()]
    if not lines:
        return ".yaml"
    if _CSV_HEADER.fullmatch(lines[0].strip()):
        return ".csv"
    if len(lines) > 1:
        try:
            first = json.loads(lines[0])
        except (ValueError, UnicodeDecodeError):
            first = None
        if isinstance(first, dict):
            return ".jsonl"
    return ".yaml"


@contextlib.contextmanager
def spooled(name: str | None, stream: BinaryIO | None = None) -> Iterator[tuple[str, str]]:
    """(the name the reports give it, the temporary file holding standard input's bytes), for the block: the file
    is removed after it. Copied in chunks, so a log of any length is never in memory whole."""
    if stream is None:
        stream = getattr(sys.stdin, "buffer", None) or sys.stdin
    with tempfile.TemporaryDirectory(prefix="casino-audit-stdin-") as directory:
        raw = os.path.join(directory, "stdin")
        with open(raw, "wb") as target:
            head = stream.read(SNIFFED)
            if isinstance(head, str):  # a text stream (no buffer under it): its text as UTF-8
                head = head.encode("utf-8")
                target.write(head)
                for chunk in iter(lambda: stream.read(1 << 20), ""):
                    target.write(chunk.encode("utf-8"))
            else:
                target.write(head)
                shutil.copyfileobj(stream, target, 1 << 20)
        source = raw + extension(name, head)
        os.rename(raw, source)
        yield name or "-", source
