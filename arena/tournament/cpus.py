"""Pinning local match slots to processors.

A turn-based match is a relay: the referee asks, one bot thinks, the referee judges. Kept on one
processor, each hand-over is a plain context switch; spread over several, every hand-over wakes
another processor (costly, above all in virtual machines), and two matches in parallel disturb
each other's caches and timing. So each local worker, with its referee and every bot it starts,
runs on a processor of its own when there are enough processors for every worker.
"""

from __future__ import annotations

import os


def usable_cpus() -> tuple[int, ...]:
    """The processors this process may run on, ascending; empty where the system cannot tell or
    pin (not Linux)."""
    if not hasattr(os, "sched_getaffinity") or not hasattr(os, "sched_setaffinity"):
        return ()
    return tuple(sorted(os.sched_getaffinity(0)))


def slot_cpus(workers: int, pin: bool) -> list[int | None]:
    """The processor of each of ``workers`` slots: distinct processors when ``pin`` is asked and
    there are at least as many usable processors as slots, else ``None`` for every slot (the
    system schedules, as slots sharing a processor would not get equal shares)."""
    cpus = usable_cpus()
    if not pin or len(cpus) < workers:
        return [None] * workers
    return list(cpus[:workers])


def pin_to(cpu: int) -> None:
    """Run the calling thread, and every thread and process it starts from now on, on ``cpu``."""
    os.sched_setaffinity(0, {cpu})
