"""Which processors each seat deciding at once may use.

A match that has processors to itself (a single match, a series, a pinned tournament worker)
gives the seats thawed together disjoint shares of them when there are at least as many
processors as seats, so no seat can take another's; with fewer, every seat may use all of them and
the equal CPU weights of their control groups share them (see :mod:`arena.sandbox.cgroups`).
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.tournament.cpus import usable_cpus


def seat_cpus(seats: Sequence[int], cpus: frozenset[int]) -> dict[int, frozenset[int]]:
    """Each of ``seats`` (deciding together) → its processors: ``cpus`` cut in ``len(seats)``
    disjoint runs as equal as can be (in the order of ``seats``) when there are enough of them,
    else all of ``cpus`` for every seat."""
    ordered = sorted(cpus)
    if len(ordered) < len(seats):
        return {seat: cpus for seat in seats}
    count = len(seats)
    return {seat: frozenset(ordered[i * len(ordered) // count:(i + 1) * len(ordered) // count])
            for i, seat in enumerate(seats)}


def own_cpus() -> frozenset[int] | None:
    """The processors this process may run on, for a match that has them to itself; ``None``
    where the system cannot tell."""
    return frozenset(usable_cpus()) or None
