"""Observations as changes (protocol version 2, SPEC.md §3.4): each ``act`` carries the entries of
the seat's observation that changed since its previous ``act``, and the keys removed; :func:`merge`
rebuilds the whole observation from them.
"""

from __future__ import annotations

from arena_bot.wire_types import WireMap


def merge(previous: WireMap, changed: WireMap, gone: tuple[str, ...]) -> WireMap:
    """``previous`` with ``changed`` applied and the ``gone`` keys removed (a new map that shares
    unchanged entries; ``previous`` is left as it was)."""
    current = dict(previous)
    current.update(changed)
    for key in gone:
        current.pop(key, None)
    return current
