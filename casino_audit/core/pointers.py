"""JSON pointers (RFC 6901) over plain data, with `*` as a wildcard segment for rules."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Iterator

WILDCARD = "*"


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


def escape(segment: str) -> str:
    if "~" in segment or "/" in segment:
        return segment.replace("~", "~0").replace("/", "~1")
    return segment


def unescape(segment: str) -> str:
    return segment.replace("~1", "/").replace("~0", "~")


@lru_cache(maxsize=4096)  # rules read the same few pointers in every document
def split(pointer: str) -> tuple[str, ...]:
    if pointer in ("", "/"):
        return ()
    if not pointer.startswith("/"):
        raise ValueError(f"a JSON pointer starts with '/': {pointer!r}")
    return tuple(unescape(s) for s in pointer[1:].split("/"))


@lru_cache(maxsize=4096)
def join(segments: tuple) -> str:
    return "".join("/" + escape(str(s)) for s in segments)


def child(pointer: str, segment) -> str:
    return f"{pointer}/{escape(str(segment))}"


def resolve(data: Any, segments: tuple[str, ...]) -> Iterator[tuple[str, Any]]:
    """Yield (pointer, value) for every match; a path that stops early yields MISSING at the pointer of
    the first segment that is not there (so `/a/b/c` under a missing `a` reports `/a`, once).

    A wildcard over a missing or empty container yields nothing: "every item" of no items holds.
    """
    wildcard = segments.index(WILDCARD) if WILDCARD in segments else None
    if wildcard is not None and wildcard < len(segments) - 1:
        yield from _resolve(data, segments, 0, "")
        return
    plain = segments if wildcard is None else segments[:-1]
    missing_at, node = locate(data, plain)  # a plain path, or the one to a last `*`'s container
    if missing_at is not None:
        yield missing_at, MISSING
    elif wildcard is None:
        yield join(segments), node
    else:
        yield from _items(node, join(plain))


def locate(data: Any, segments: tuple[str, ...]) -> tuple[str | None, Any]:
    """(None, the value) at a plain path; (the pointer of its first segment that is not there, MISSING) where it
    stops. No string is built on the way (a pointer only for what is missing)."""
    node = data
    for depth, segment in enumerate(segments):
        node = node.get(segment, MISSING) if type(node) is dict else step(node, segment)
        if node is MISSING:
            return join(segments[: depth + 1]), MISSING
    return None, node


def _items(node: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    """(pointer, value) of each item of a container at `prefix`, as a last `*` reaches them (none of a scalar)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield child(prefix, key), value
    elif isinstance(node, list):
        for position, value in enumerate(node):
            yield f"{prefix}/{position}", value


def list_index(segment: str) -> int | None:
    """The list index a pointer segment names (ASCII digits, leading zeros allowed), else None: a Unicode digit
    such as `²` names none (int() refuses it), nor do more digits than any list can have."""
    if segment.isascii() and segment.isdigit():
        digits = segment.lstrip("0")
        if not digits:
            return 0
        return int(digits) if len(digits) <= 18 else None
    return None


def step(node: Any, segment: str) -> Any:
    """The value under one segment of a path, or MISSING."""
    if isinstance(node, dict):
        return node.get(segment, MISSING)
    if isinstance(node, list):
        index = list_index(segment)
        if index is not None and index < len(node):
            return node[index]
    return MISSING


def _resolve(node: Any, segments, index: int, prefix: str):
    if index == len(segments):
        yield prefix, node
        return
    segment = segments[index]
    if segment == WILDCARD and index == len(segments) - 1:  # the common last `*`: no recursion per item
        yield from _items(node, prefix)
        return
    if segment == WILDCARD:
        if isinstance(node, dict):
            for key, value in node.items():
                yield from _resolve(value, segments, index + 1, child(prefix, key))
        elif isinstance(node, list):
            for position, value in enumerate(node):
                yield from _resolve(value, segments, index + 1, child(prefix, position))
        return
    value = step(node, segment)
    if value is MISSING:
        yield child(prefix, segment), MISSING
        return
    yield from _resolve(value, segments, index + 1, child(prefix, segment))


def follow(data: Any, segments: tuple[str, ...]) -> Any:
    """The value at a plain path (no wildcard), or MISSING."""
    node = data
    for segment in segments:
        node = node.get(segment, MISSING) if type(node) is dict else step(node, segment)
        if node is MISSING:
            break
    return node


def follower(segments: tuple[str, ...]) -> Callable[[Any], Any]:
    """`follow` along one plain path, made once: a path of one or two segments (most paths a rule reads) is
    read without the loop."""
    if len(segments) == 1:
        (first,) = segments
        return lambda data: data.get(first, MISSING) if type(data) is dict else step(data, first)
    if len(segments) == 2:
        first, second = segments

        def at(data: Any) -> Any:
            node = data.get(first, MISSING) if type(data) is dict else step(data, first)
            return node.get(second, MISSING) if type(node) is dict else step(node, second)
        return at
    return lambda data: follow(data, segments)


def getter(pointer: str) -> Callable[[Any], Any]:
    """`get` for one pointer, its segments split once: what a rule compiled once asks of every document."""
    segments = split(pointer)
    if WILDCARD in segments:
        return lambda data: get(data, pointer)
    return follower(segments)


def get(data: Any, pointer: str) -> Any:
    """The single value at a pointer without wildcards, or MISSING."""
    segments = split(pointer)
    if WILDCARD not in segments:
        return follow(data, segments)
    for _, value in resolve(data, segments):
        return value
    return MISSING

