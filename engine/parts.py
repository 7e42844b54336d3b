"""Observation parts kept between calls: each part is rebuilt only when what it is built from changed.

A state keeps one :class:`Parts` and builds its observations from it. A part is stored with a
snapshot of its source (the data it was built from, copied when it was built); asked for again,
it is the very same object while the source still equals that snapshot. When the source differs,
the part is rebuilt, and if the new value equals the stored one the stored object is handed out
still. So between two builds of a part, ``is`` tells a consumer that it is unchanged, and a new
object always means a new value (or a value that changed and came back).

Comparing with a snapshot, rather than counting mutations, keeps a part right however its
source changed: by the rules, by a staging helper, or by a test setting a field directly.

Parts are shared by every observation that holds them, so no one may change them: observations
are read-only to callers (copy one before changing it).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from operator import is_
from typing import Any, TypeVar

from engine.core import Wire

S = TypeVar("S")
C = TypeVar("C")
T = TypeVar("T")
W = TypeVar("W", bound=Wire)


def as_is(source: S) -> S:
    """The snapshot of a source that never changes in place (a tuple, a string, a number)."""
    return source


def copy_rows(source: list[list[T]]) -> list[list[T]]:
    """The snapshot of a list of lists (of numbers, strings or tuples)."""
    return [row.copy() for row in source]


def copy_first(source: tuple[list[T], C]) -> tuple[list[T], C]:
    """The snapshot of ``(a list, something that never changes)``: a part's source and the
    fixed context its building needs."""
    return source[0].copy(), source[1]


class Parts:
    """The parts of one state's observations, by key (see the module docstring)."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[Hashable, tuple[Any, ...]] = {}

    def get(self, key: Hashable, source: S, snapshot: Callable[[S], S], build: Callable[[S], W]) -> W:
        """The part ``key`` built from ``source`` by ``build``; ``snapshot(source)`` is a copy that
        later changes to ``source`` cannot reach (``list.copy`` for a flat list, :func:`as_is` for a
        tuple)."""
        kept = self._kept.get(key)
        if kept is not None and kept[0] == source:
            part: W = kept[1]
            return part
        value = build(source)
        if kept is not None and kept[1] == value:
            value = kept[1]
        self._kept[key] = (snapshot(source), value)
        return value

    def rows(self, key: Hashable, source: list[int], width: int, build: Callable[[list[int]], W]) -> list[Wire]:
        """The list part ``key`` with one element per ``width`` entries of the flat ``source``, each
        built by ``build`` from its slice; an element whose slice is unchanged is kept."""
        kept = self._kept.get(key)
        if kept is not None and kept[0] == source:
            part: list[Wire] = kept[1]
            return part
        items = [source[at: at + width] for at in range(0, len(source), width)]
        value = _reuse(kept, items, build)
        self._kept[key] = (source.copy(), value, items)
        return value

    def each(self, key: Hashable, items: list[list[int]], build: Callable[[list[int]], W]) -> list[Wire]:
        """The list part ``key`` with one element per list in ``items``, built by ``build``; an
        element whose list is unchanged is kept."""
        kept = self._kept.get(key)
        if kept is not None and kept[0] == items:
            part: list[Wire] = kept[1]
            return part
        value = _reuse(kept, items, build)
        copies = copy_rows(items)
        self._kept[key] = (copies, value, copies)
        return value

    def same(self, key: Hashable, value: Wire) -> Wire:
        """``value``, or the part ``key`` handed out before if that equals it (for parts that cost
        about as much to build as to check)."""
        kept = self._kept.get(key)
        if kept is not None and kept[1] == value:
            part: Wire = kept[1]
            return part
        self._kept[key] = (None, value)
        return value


def _reuse(kept: tuple[Any, ...] | None, items: list[list[int]], build: Callable[[list[int]], W]) -> list[Wire]:
    """The elements for ``items``: kept where the item equals the one it was built from (``kept[2]``)
    or where building gives an equal value; the kept list itself if every element is kept."""
    if kept is None or len(kept[2]) != len(items):
        return [build(item) for item in items]
    old: list[Wire] = kept[1]
    value: list[Wire] = [
        part if was == item else _renewed(build(item), part) for item, was, part in zip(items, kept[2], old)
    ]
    return old if all(map(is_, value, old)) else value


def _renewed(value: W, before: Wire) -> Wire:
    """``before`` if it equals ``value``, else ``value``."""
    return before if before == value else value
