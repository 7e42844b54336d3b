"""Pinning local match slots to processors.

A turn-based match is a relay: the referee asks, one bot thinks, the referee judges. Kept on one
processor, each hand-over is a plain context switch; spread over several, every hand-over wakes
another processor (costly, above all in virtual machines), and two matches in parallel disturb
each other's caches and timing. So each local worker, with its referee and every bot it starts,
runs on a processor of its own when there are enough processors for every worker. Bots start
(load their code, connect, greet) on their worker's processor and any processor no worker has, as
starting is heavy work without hand-overs, and are pinned once connected.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


def usable_cpus() -> tuple[int, ...]:
    """The processors this process may run on, ascending; empty where the system cannot tell or
    pin (not Linux)."""
    if not hasattr(os, "sched_getaffinity") or not hasattr(os, "sched_setaffinity"):
        return ()
    return tuple(sorted(os.sched_getaffinity(0)))


def slot_pinnings(workers: int, pin: bool) -> list[Pinning | None]:
    """The pinning of each of ``workers`` slots: distinct processors when ``pin`` is asked and
    there are at least as many usable processors as slots, else ``None`` for every slot (the
    system schedules, as slots sharing a processor would not get equal shares)."""
    cpus = usable_cpus()
    if not pin or len(cpus) < workers:
        return [None] * workers
    spare = frozenset(cpus[workers:])
    return [Pinning(cpu, spare | {cpu}) for cpu in cpus[:workers]]


@dataclass(frozen=True, slots=True)
class Pinning:
    """A worker on ``cpu``; its bots start on ``start_on`` and then join it."""

    cpu: int
    start_on: frozenset[int]

    def apply(self) -> None:
        """Pin the calling thread (and what it starts from now on) to ``cpu``."""
        os.sched_setaffinity(0, {self.cpu})

    @contextmanager
    def starting(self) -> Iterator[None]:
        """While inside, what the calling thread starts may run on every processor of
        ``start_on``."""
        os.sched_setaffinity(0, self.start_on)
        try:
            yield
        finally:
            os.sched_setaffinity(0, {self.cpu})

    def join(self, pid: int) -> None:
        """Move every thread of process ``pid`` (and what they start from now on) to ``cpu``;
        threads that end meanwhile, or a process already gone, are skipped."""
        try:
            threads = [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
        except FileNotFoundError:
            return
        for tid in threads:
            try:
                os.sched_setaffinity(tid, {self.cpu})
            except ProcessLookupError:
                pass
