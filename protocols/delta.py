"""Observations as changes (protocol version 2, SPEC.md §3.4): what the referee sends a seat is
the entries of its observation that changed since its previous ``act``, and the keys removed.

Both functions treat observations as read-only: neither changes its arguments, and the results
share unchanged entries with them.
"""

from __future__ import annotations

from engine.wire_types import WireMap

_ABSENT = object()


def changes(previous: WireMap | None, current: WireMap) -> tuple[WireMap, tuple[str, ...]]:
    """The entries of ``current`` that differ from ``previous`` (all of them when ``previous`` is
    ``None``) and the keys of ``previous`` that ``current`` lacks, in ``previous``'s order.

    An entry that is the same object as before is unchanged without being compared, so an engine
    that keeps unchanged parts of its observations makes this cost little more than a dict scan.
    """
    if previous is None:
        return current, ()
    changed = {}
    for key, value in current.items():
        before = previous.get(key, _ABSENT)
        if before is not value and before != value:
            changed[key] = value
    return changed, tuple(key for key in previous if key not in current)


def merge(previous: WireMap, changed: WireMap, gone: tuple[str, ...]) -> WireMap:
    """The observation that ``changes`` described: ``previous`` with ``changed`` applied and the
    ``gone`` keys removed (a new map; ``previous`` is left as it was)."""
    current = dict(previous)
    current.update(changed)
    for key in gone:
        current.pop(key, None)
    return current
