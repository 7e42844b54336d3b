"""One executor shared by several runs at once: each run (a :func:`run_tournament` in a thread of
its own) plays through a :class:`Lane`, and one thread, the pool's owner, alone talks to the
executor (:meth:`SharedPool.pump`): it hands the lanes' jobs over and routes each outcome back to
the lane that submitted it, by game id (a game id hashes its tournament's seed with its table,
deal and rotation, so runs with seeds of their own, such as a league's tables, never share one;
the pool refuses a game id already in play for another run). So ``capacity`` games are in play
in all, whichever runs they belong to.

Each lane's process generations are renumbered into the pool's own, so a worker's long-lived bot
processes are only ever seated in games of the run and generation they were started for.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from dataclasses import replace

from arena.tournament.config import BotEntry
from arena.tournament.executors import Executor
from arena.tournament.jobs import MatchJob
from arena.tournament.worker import Outcome


class PoolStopped(Exception):
    """The pool was stopped: a run playing through one of its lanes ends (nothing more stored)."""


class SharedPool:
    """``executor`` shared by the lanes :meth:`lane` makes. Only the thread that calls
    :meth:`pump` submits to ``executor`` and collects from it; lanes may be used from any thread
    (a lane's start check, ``start_failures``, runs in the lane's thread: it leaves the executor's
    queue alone, and a Dask client may be called from any thread)."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor
        self.capacity = executor.capacity
        self._lock = threading.Lock()
        self._inbox: list[tuple[Lane, MatchJob]] = []
        self._owner: dict[str, Lane] = {}  # game id → the lane whose job it is, until it is back
        self._generations: dict[tuple[int, int], int] = {}
        self._lanes = 0
        self.stopped = threading.Event()

    def lane(self) -> Lane:
        """A new lane (an :class:`~arena.tournament.executors.Executor` for one run)."""
        with self._lock:
            self._lanes += 1
            return Lane(self, self._lanes)

    @property
    def in_play(self) -> int:
        """Jobs submitted by the lanes and not yet back (queued ones included)."""
        with self._lock:
            return len(self._owner)

    def pump(self, timeout: float) -> None:
        """Hand the lanes' new jobs to the executor, then route what finishes within ``timeout``
        seconds to its lane. Call from the owning thread only; the executor's errors propagate."""
        with self._lock:
            jobs, self._inbox = self._inbox, []
        for _, job in jobs:
            self.executor.submit(job)
        for outcome in self.executor.collect(timeout):
            with self._lock:
                lane = self._owner.pop(outcome.game_id, None)
            if lane is not None:
                lane.deliver(outcome)

    def stop(self) -> None:
        """Make every lane's run end at its next wait (:class:`PoolStopped`)."""
        self.stopped.set()

    def _submit(self, lane: Lane, job: MatchJob) -> None:
        with self._lock:
            if self._owner.get(job.game_id, lane) is not lane:
                raise AssertionError(f"game {job.game_id} is in play for two runs")
            generation = self._generations.setdefault((lane.number, job.generation),
                                                      len(self._generations))
            self._owner[job.game_id] = lane
            self._inbox.append((lane, replace(job, generation=generation)))

    def _drop(self, lane: Lane) -> None:
        """Forget ``lane``'s jobs: queued ones are not handed over, outcomes of others dropped."""
        with self._lock:
            self._inbox = [(owner, job) for owner, job in self._inbox if owner is not lane]
            self._owner = {game: owner for game, owner in self._owner.items() if owner is not lane}


class Lane:
    """One run's view of a :class:`SharedPool`, with the executor's interface."""

    def __init__(self, pool: SharedPool, number: int) -> None:
        self.pool = pool
        self.number = number
        self.capacity = pool.capacity
        self._outcomes: queue.SimpleQueue[Outcome] = queue.SimpleQueue()
        self._in_flight: set[str] = set()
        #: Whether the run has submitted a job yet (before, it is checking its bots).
        self.started = False

    @property
    def running(self) -> int:
        return len(self._in_flight)

    def start_failures(self, entries: Sequence[BotEntry]) -> dict[str, str]:
        return self.pool.executor.start_failures(entries)

    def submit(self, job: MatchJob) -> None:
        self._in_flight.add(job.game_id)
        self.started = True
        self.pool._submit(self, job)

    def deliver(self, outcome: Outcome) -> None:
        """An outcome of this lane's job (from the pool's owner)."""
        self._outcomes.put(outcome)

    def collect(self, timeout: float) -> list[Outcome]:
        """Outcomes returned since the last call, waiting up to ``timeout`` for the first;
        :class:`PoolStopped` once the pool is stopped."""
        if self.pool.stopped.is_set():
            raise PoolStopped()
        found: list[Outcome] = []
        try:
            found.append(self._outcomes.get(timeout=timeout))
            while True:
                found.append(self._outcomes.get_nowait())
        except queue.Empty:
            pass
        for outcome in found:
            self._in_flight.discard(outcome.game_id)
        return found

    def close(self, abandon: bool) -> None:
        """With ``abandon``, the lane's queued jobs are not played and its outcomes dropped (jobs
        already playing finish unread)."""
        if abandon:
            self.pool._drop(self)
        self._in_flight.clear()
