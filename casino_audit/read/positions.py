"""Where each value of a document is written: a tree parallel to the data, not one pointer string per value.

A pointer per value costs its length: fifty nested 100 kB keys above a million values would be 5 TB of
pointers. Here a container's members keep one packed integer each (line << 32 | column), and only members
that are containers themselves have a subtree; a pointer is walked when a finding needs its position.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from typing import Iterator

from casino_audit.core.pointers import child, list_index, split

Position = tuple[int, int]  # 1-based line and column


def pack(line: int, column: int) -> int:
    return line << 32 | column


def unpack(packed: int) -> Position:
    return packed >> 32, packed & 0xFFFFFFFF


class Spots:
    """Positions of one container's members: `at` member -> packed position (a dict for a mapping, an array
    by index for a sequence); `inner` member -> Spots of the members that are containers."""

    __slots__ = ("at", "inner")

    def __init__(self, mapping: bool):
        self.at: dict | array = {} if mapping else array("q")
        self.inner: dict | None = None

    def set_inner(self, member, spots: "Spots") -> None:
        if self.inner is None:
            self.inner = {}
        self.inner[member] = spots

    def member(self, segment: str):
        """The key under which `segment` is stored here, or None."""
        at = self.at
        if isinstance(at, dict):
            return segment if segment in at else None
        index = list_index(segment)
        return index if index is not None and index < len(at) else None


class Positions(Mapping):
    """JSON pointer -> (line, column) of every value written in the source (a member of a mapping is where
    its key is written). `nearest` answers for a pointer that is not there with its closest ancestor."""

    def __init__(self, root: int | None = None, spots: Spots | None = None):
        self.root, self.spots = root, spots

    def nearest(self, pointer: str | None) -> Position | None:
        if pointer is None or self.root is None:
            return None
        found, spots = self.root, self.spots
        for segment in split(pointer) if pointer else ():
            if spots is None:
                break
            member = spots.member(segment)
            if member is None:
                break
            found = spots.at[member]
            spots = spots.inner.get(member) if spots.inner else None
        return unpack(found)

    def _exact(self, pointer: str) -> int | None:
        if self.root is None:
            return None
        found, spots = self.root, self.spots
        for segment in split(pointer) if pointer else ():
            member = spots.member(segment) if spots is not None else None
            if member is None:
                return None
            found = spots.at[member]
            spots = spots.inner.get(member) if spots.inner else None
        return found

    def __getitem__(self, pointer: str) -> Position:
        try:
            found = self._exact(pointer)
        except ValueError:  # not a JSON pointer
            found = None
        if found is None:
            raise KeyError(pointer)
        return unpack(found)

    def __iter__(self) -> Iterator[str]:
        if self.root is None:
            return
        yield ""
        # No recursion: a tree may be as deep as the loader allows. Aliases share subtrees (never cycles: the
        # loader refuses those), so this walks each value as often as the data repeats it.
        pending: list[tuple[str, Spots]] = [("", self.spots)] if self.spots else []
        while pending:
            pointer, spots = pending.pop()
            members = spots.at if isinstance(spots.at, dict) else range(len(spots.at))
            for member in members:
                below = child(pointer, member)
                yield below
                inner = spots.inner.get(member) if spots.inner else None
                if inner is not None:
                    pending.append((below, inner))

    def __len__(self) -> int:
        return sum(1 for _ in self)
