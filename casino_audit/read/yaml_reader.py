"""YAML to plain data and positions, built straight from the parser's events.

No node tree is composed: a file is read in one pass with its cost counted as it goes (values, and the
characters of every scalar each time an alias repeats it), so a file past the limits is refused before it
is built, not after. Anchors are kept here; an alias shares the value its anchor built.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

import yaml
from yaml.events import (AliasEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent, ScalarEvent,
                         SequenceEndEvent, SequenceStartEvent, StreamEndEvent)

from casino_audit.core import findings as F
from casino_audit.core.findings import Finding, Location, Related, Severity
from casino_audit.read.positions import Positions, Spots
from casino_audit.core.values import THOUSANDS_POINT, show, thousands_point
from casino_audit.read.yaml_scalars import MAP, MERGE, SCALAR_TAGS, SEQ, TAG, read_plain, read_tagged

try:  # the C parser is ~8x faster; the pure-Python one gives the same events
    _Parser = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing
    _Parser = yaml.SafeLoader

_SURROGATE = re.compile("[\ud800-\udfff]")
_STANDARD_PREFIX = "tag:yaml.org,2002:"


@dataclass
class Limits:
    max_nodes: int  # keys and values in a document, each alias counting those it repeats
    max_characters: int  # characters of scalars in a document, each alias counting those it repeats
    max_documents: int
    max_depth: int


class TooLarge(Exception):
    """The file is past a limit: it is refused from here on."""

    def __init__(self, message: str, mark=None):
        super().__init__(message)
        self.message, self.mark = message, mark


class _Refused(Exception):
    """The document cannot be read (an unsupported tag, a cycle): it is skipped, the file goes on."""

    def __init__(self, rule_id: str, message: str, mark):
        super().__init__(message)
        self.rule_id, self.message, self.mark = rule_id, message, mark


class _Anchor:
    __slots__ = ("value", "text", "spots", "nodes", "characters")

    def __init__(self, value, text, spots, nodes, characters):
        self.value, self.text, self.spots, self.nodes, self.characters = value, text, spots, nodes, characters


_OPEN = _Anchor(None, None, None, 0, 0)  # an anchored collection still being read: an alias to it is a cycle
_NO_KEY, _MERGE_KEY = object(), object()


class _Frame:
    __slots__ = ("data", "spots", "mapping", "key", "key_position", "merges", "anchor", "position", "nodes",
                 "characters", "start_mark", "amounts")

    def __init__(self, data, mapping, anchor, position, nodes, characters, mark):
        self.data, self.mapping, self.anchor, self.position = data, mapping, anchor, position
        self.spots = Spots(mapping)
        self.key, self.key_position, self.merges = _NO_KEY, 0, None
        self.nodes, self.characters, self.start_mark = nodes, characters, mark
        self.amounts = None  # the `*_eur` key a mapping or list of amounts in euros is under (maxima_eur, ...)


def _in_euros(top: _Frame) -> bool:
    """Whether a value read now is an amount in euros: under a `*_eur` key, or in a list or mapping that is."""
    return top.amounts is not None or (top.mapping and isinstance(top.key, str) and top.key.endswith("_eur"))


def _packed(mark) -> int:
    return (mark.line + 1) << 32 | (mark.column + 1)


class YamlReader:
    """Reads every document of a text into `documents` (index, data, positions, findings, start, end)."""

    def __init__(self, text: str | bytes, path: str, limits: Limits):
        self.text, self.path, self.limits = text, path, limits
        self.nodes = self.characters = 0
        self.index = 0
        self.documents: list[tuple] = []
        self.findings: list[Finding] = []  # what stopped the file, or a document

    def finding(self, rule_id: str, message: str, mark=None, document: int | None = None,
                line: int | None = None, column: int | None = None) -> Finding:
        if mark is not None:
            line, column = mark.line + 1, mark.column + 1
        return Finding(rule_id, Severity.ERROR, message, self.path, line, column, document=document)

    def read(self) -> None:
        for document in self.each():
            self.documents.append(document)

    def each(self):
        """The documents, each as soon as it is read: (index, data, positions, findings, start, end, values).
        A problem that stops the file is raised where it is met, after the documents before it."""
        parser = _Parser(self.text)
        next_event = parser.get_event
        try:
            while True:
                event = next_event()
                if event.__class__ is DocumentStartEvent:
                    if self.index >= self.limits.max_documents:
                        raise TooLarge(f"the file holds more than {self.limits.max_documents:,} documents; split "
                                       "it into several files", event.start_mark)
                    self.nodes = self.characters = 0  # each document's cost is bounded on its own
                    found = self.document(event, next_event)
                    self.index += 1
                    if found is not None:
                        yield found
                elif event.__class__ is StreamEndEvent:
                    return
        finally:
            parser.dispose()

    def document(self, start, next_event) -> None:
        index, findings, anchors = self.index, [], {}
        before = self.nodes
        self.directives(start, findings, index)
        try:
            data, spots, root = self.build(next_event, findings, anchors, index)
        except _Refused as refused:
            self.findings.append(self.finding(refused.rule_id, refused.message, refused.mark, index))
            while next_event().__class__ is not yaml.DocumentEndEvent:  # skip to the next document
                pass
            return None
        end = next_event()  # DocumentEndEvent
        if data is None and spots is None:
            line = (root >> 32) if root else None
            self.findings.append(self.finding(F.LOAD_EMPTY, "the document is empty", None, index, line, 1))
            return None
        return (index, data, Positions(root, spots), findings, start.start_mark.index, end.end_mark.index,
                self.nodes - before)

    def directives(self, start, findings: list, index: int) -> None:
        if start.version is not None and tuple(start.version) != (1, 1):
            findings.append(self.finding(
                F.LOAD_AMBIGUOUS, f"the document declares YAML {start.version[0]}.{start.version[1]}, but is read "
                "as YAML 1.1 (where yes and no are booleans, and 010 is octal); remove the %YAML line",
                start.start_mark, index))
        for handle, prefix in (start.tags or {}).items():
            if (handle == "!!" and prefix != _STANDARD_PREFIX) or (handle != "!!" and prefix.startswith(_STANDARD_PREFIX)):
                line = self._directive_line(start, handle)
                findings.append(self.finding(
                    F.LOAD_AMBIGUOUS, f"the %TAG directive makes {handle} mean {show(prefix)}: a tag would not read "
                    "as it is written; remove the directive", None, index, line, 1))

    def _directive_line(self, start, handle: str) -> int:
        region = self.text[start.start_mark.index:start.end_mark.index]
        if isinstance(region, bytes):  # ASCII text read as it is (loader.stream_bytes)
            region = region.decode("ascii")
        for match in re.finditer(r"^%TAG[ \t]+(\S+)", region, re.M):
            if match.group(1) == handle:
                return start.start_mark.line + 1 + region.count("\n", 0, match.start())
        return start.start_mark.line + 1

    # Over 60 lines: plain keys and values and their placing stay inline; a call each slowed every read by 5%.
    def build(self, next_event, findings: list, anchors: dict, index: int):
        """(data, spots, packed root position) of one document; spots None for a scalar document."""
        max_nodes = self.limits.max_nodes
        nodes, characters = self.nodes, self.characters  # in locals while the loop runs, written back at its end
        stack: list[_Frame] = []
        top = None
        while True:
            event = next_event()
            kind = event.__class__
            if kind is ScalarEvent:
                nodes += 1
                characters += len(event.value)
                if nodes > max_nodes:
                    raise self._too_many(event)
                tag = event.tag
                if top is not None and top.mapping and top.key is _NO_KEY:  # a key: kept as written
                    text = self._written_key(event, anchors, findings, index) if tag or event.style or \
                        event.anchor is not None else event.value
                    self._key(top, text, _packed(event.start_mark),
                              tag == MERGE or (tag is None and event.implicit[0] and text == "<<"), findings, index)
                    continue
                if tag is None and event.implicit[0] and event.anchor is None:  # plain
                    value, problem = read_plain(event.value)
                    if problem:
                        findings.append(self._kept_as_written(problem, event, index))
                    elif type(value) is Decimal and top is not None and _in_euros(top) and \
                            THOUSANDS_POINT.fullmatch(event.value):
                        findings.append(self._thousands(top, event, index))
                else:
                    value = self._scalar(event, anchors, findings, index)
                spots, position = None, _packed(event.start_mark)
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                nodes += 1
                top = self._open(event, kind is MappingStartEvent, top, len(stack), anchors, findings, index,
                                 nodes, characters)
                stack.append(top)
                continue
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                event = stack.pop()  # a frame keeps its start mark, for a merge key's finding
                if event.merges or event.anchor is not None:
                    self._close(event, anchors, findings, index, nodes, characters)
                value, spots, position = event.data, event.spots, event.position
                top = stack[-1] if stack else None
            elif kind is AliasEvent:
                anchor = self._alias(event, anchors, nodes, characters)
                nodes += anchor.nodes
                characters += anchor.characters
                position = _packed(event.start_mark)
                if top is not None and top.mapping and top.key is _NO_KEY:
                    self._alias_key(top, anchor, position, event, findings, index)
                    continue
                value, spots = anchor.value, anchor.spots
            else:  # pragma: no cover - the parser gives nothing else inside a document
                raise _Refused(F.LOAD_SYNTAX, f"unexpected {kind.__name__}", event.start_mark)
            if top is None:
                self.nodes, self.characters = nodes, characters
                return value, spots, position
            if top.mapping:  # the value into its mapping under the key before it, or onto the end of its sequence
                key = top.key
                top.key = _NO_KEY
                if key is _MERGE_KEY:
                    top.merges.append((value, spots, event.start_mark))
                    continue
                top.data[key] = value
                at_spots = top.spots
                at_spots.at[key] = top.key_position
                if spots is not None:
                    at_spots.set_inner(key, spots)
                elif at_spots.inner and key in at_spots.inner:  # a duplicate key replaced a collection
                    del at_spots.inner[key]
            else:
                data = top.data
                if spots is not None:
                    top.spots.set_inner(len(data), spots)
                data.append(value)
                top.spots.at.append(position)

    def _written_key(self, event, anchors: dict, findings: list, index: int) -> str:
        """A key with a tag, a style or an anchor: its text as written, its tag checked."""
        text, tag = event.value, event.tag
        if tag is not None and tag != "!":
            self._check_key_tag(event, findings, index)
        if event.style == '"' and _SURROGATE.search(text):
            findings.append(self._surrogate(event, index))
            text = _escape_surrogates(text)
        if event.anchor is not None:
            self._anchor(anchors, event, findings, index, _Anchor(text, text, None, 1, len(text)))
        return text

    def _scalar(self, event, anchors: dict, findings: list, index: int):
        """A scalar value with a tag, quotes or an anchor, read as its tag (or, plain, as YAML 1.1) says."""
        text, tag = event.value, event.tag
        if tag is None or tag == "!":
            if tag is None and event.implicit[0]:  # plain; `! 0310` is text as written
                value, problem = read_plain(text)
                if problem:
                    findings.append(self._kept_as_written(problem, event, index))
            else:
                value = text
                if event.style == '"' and _SURROGATE.search(text):
                    findings.append(self._surrogate(event, index))
                    value = _escape_surrogates(text)
        elif tag in SCALAR_TAGS:
            value, problem = read_tagged(tag, text)
            if problem:
                findings.append(self._kept_as_written(problem, event, index))
        else:
            raise _Refused(F.LOAD_UNSUPPORTED, f"the tag {show(tag)} is not allowed in a filing", event.start_mark)
        if event.anchor is not None:
            self._anchor(anchors, event, findings, index, _Anchor(value, text, None, 1, len(text)))
        return value

    def _thousands(self, top: _Frame, event, index: int) -> Finding:
        """An amount in euros written 4.000: a thousands point or a decimal point (as the CSV logs say it)."""
        key = top.key if top.mapping and isinstance(top.key, str) else top.amounts
        return self.finding(F.LOAD_AMBIGUOUS, thousands_point(key, event.value), event.start_mark, index)

    def _kept_as_written(self, problem: str, event, index: int) -> Finding:
        return self.finding(F.LOAD_AMBIGUOUS, problem + "; it is kept as the text written", event.start_mark, index)

    def _open(self, event, mapping: bool, top: _Frame | None, depth: int, anchors: dict, findings: list,
              index: int, nodes: int, characters: int) -> _Frame:
        """The frame of a mapping or sequence that starts; `nodes` and `characters` count it and those before."""
        if nodes > self.limits.max_nodes:
            raise self._too_many(event)
        if top is not None and top.mapping and top.key is _NO_KEY:
            raise _Refused(F.LOAD_UNSUPPORTED, "a key must be plain text, not a list or mapping", event.start_mark)
        if event.tag not in (None, "!", MAP if mapping else SEQ):
            raise _Refused(F.LOAD_UNSUPPORTED, f"the tag {show(event.tag)} is not allowed in a filing",
                           event.start_mark)
        if depth >= self.limits.max_depth:
            raise _Refused(F.LOAD_UNSUPPORTED, f"the document nests deeper than {self.limits.max_depth} levels",
                           event.start_mark)
        if event.anchor is not None:
            self._anchor(anchors, event, findings, index, _OPEN)
        frame = _Frame({} if mapping else [], mapping, event.anchor, _packed(event.start_mark), nodes, characters,
                       event.start_mark)
        if top is not None and top.mapping and isinstance(top.key, str) and top.key.endswith("_eur"):
            frame.amounts = top.key
        return frame

    def _close(self, frame: _Frame, anchors: dict, findings: list, index: int, nodes: int, characters: int) -> None:
        """A mapping or sequence that ends: its merge keys applied, its anchor's value kept."""
        if frame.merges:
            self._merge(frame, findings, index)
        if frame.anchor is not None:
            anchors[frame.anchor] = _Anchor(frame.data, None, frame.spots, nodes - frame.nodes + 1,
                                            characters - frame.characters)

    def _alias(self, event, anchors: dict, nodes: int, characters: int) -> _Anchor:
        """The anchor an alias repeats, its nodes and characters within the limits once added to those so far."""
        anchor = anchors.get(event.anchor)
        if anchor is None:
            raise _Refused(F.LOAD_SYNTAX, f"the alias *{event.anchor} refers to no anchor defined before it",
                           event.start_mark)
        if anchor is _OPEN:
            raise _Refused(F.LOAD_UNSUPPORTED, "an alias refers to a node that contains it (a cycle)",
                           event.start_mark)
        if nodes + anchor.nodes > self.limits.max_nodes:
            raise self._too_many(event)
        max_characters = self.limits.max_characters
        if characters + anchor.characters > max_characters:
            raise TooLarge(f"a document expands to more than {max_characters:,} characters of values (an alias "
                           "repeats its anchor's text each time)", event.start_mark)
        return anchor

    def _alias_key(self, top: _Frame, anchor: _Anchor, position: int, event, findings: list, index: int) -> None:
        if anchor.spots is not None:
            raise _Refused(F.LOAD_UNSUPPORTED, "a key must be plain text, not a list or mapping", event.start_mark)
        self._key(top, anchor.text, position, False, findings, index)

    def _key(self, frame: _Frame, key: str, position: int, merge: bool, findings: list, index: int) -> None:
        if merge:
            if frame.merges is None:
                frame.merges = []
            elif frame.merges:
                line, column = position >> 32, position & 0xFFFFFFFF
                findings.append(self.finding(
                    F.LOAD_AMBIGUOUS, "a second merge key (<<) in the same mapping: YAML readers disagree on which "
                    "values win; merge a list instead (<<: [*a, *b])", None, index, line, column))
            frame.key = _MERGE_KEY
            return
        at = frame.spots.at
        if key in at:
            first = at[key]
            duplicate = self.finding(
                F.LOAD_DUPLICATE_KEY, f"duplicate key {show(key)} (first given at line {first >> 32}, column "
                f"{first & 0xFFFFFFFF}); a reader keeps only one of the two values, so the filing is ambiguous",
                None, index, position >> 32, position & 0xFFFFFFFF)
            duplicate.related = (Related("the key given first", Location(
                self.path, first >> 32, first & 0xFFFFFFFF, document=index)),)
            findings.append(duplicate)
        frame.key, frame.key_position = key, position

    def _merge(self, frame: _Frame, findings: list, index: int) -> None:
        """`<<: *defaults`: keys written in the mapping win, then the merged mappings in order."""
        data, at = frame.data, frame.spots.at
        for value, spots, mark in frame.merges:
            if isinstance(value, dict):
                sources = [(value, spots)]
            elif isinstance(value, list) and all(isinstance(item, dict) for item in value):
                inner = spots.inner or {}
                sources = [(item, inner.get(number)) for number, item in enumerate(value)]
            else:
                raise _Refused(F.LOAD_UNSUPPORTED, "a merge key (<<) must refer to a mapping or a list of mappings",
                               mark)
            for source, source_spots in sources:
                for key, item in source.items():
                    if key in data:
                        continue
                    data[key] = item
                    at[key] = source_spots.at[key]
                    below = source_spots.inner.get(key) if source_spots.inner else None
                    if below is not None:
                        frame.spots.set_inner(key, below)

    def _anchor(self, anchors: dict, event, findings: list, index: int, anchor: _Anchor) -> None:
        if event.anchor in anchors:
            findings.append(self.finding(
                F.LOAD_AMBIGUOUS, f"the anchor &{event.anchor} is defined twice; an alias after this one means this "
                "one, which a reader may not expect: give each anchor its own name", event.start_mark, index))
        anchors[event.anchor] = anchor

    def _check_key_tag(self, event, findings: list, index: int) -> None:
        if event.tag == MERGE:
            return
        if event.tag not in SCALAR_TAGS:
            raise _Refused(F.LOAD_UNSUPPORTED, f"the tag {show(event.tag)} is not allowed in a filing", event.start_mark)
        _, problem = read_tagged(event.tag, event.value)
        if problem:
            findings.append(self.finding(F.LOAD_AMBIGUOUS, problem + "; the key is kept as the text written",
                                         event.start_mark, index))

    def _surrogate(self, event, index: int) -> Finding:
        return self.finding(F.LOAD_ENCODING, "a \\u escape names half of a surrogate pair, which is not a "
                            "character; it is kept as the escape written", event.start_mark, index)

    def _too_many(self, event) -> TooLarge:
        return TooLarge(f"a document holds more than {self.limits.max_nodes:,} keys and values (an alias counts "
                        "those it repeats)", event.start_mark)


def _escape_surrogates(text: str) -> str:
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


__all__ = ["Limits", "TooLarge", "YamlReader", "TAG"]
