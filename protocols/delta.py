"""Observations as changes (protocol version 2, SPEC.md §3.4): what the referee sends a seat is
the entries of its observation that changed since its previous ``act``, and the keys removed;
the bot rebuilds the whole with :func:`arena_bot.delta.merge`.

:func:`changes` treats observations as read-only: it changes neither argument, and its result
shares unchanged entries with them.
"""

from __future__ import annotations

from arena_bot.wire_types import WireMap

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
