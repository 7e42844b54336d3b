"""Where matches are played: local worker processes, or (see :mod:`arena.tournament.cluster`) a
Dask cluster. Both queue submitted :class:`MatchJob` values, play ``capacity`` at a time, and hand
back outcomes as they finish."""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter
from collections.abc import Sequence
from multiprocessing.connection import Connection, wait
from typing import Protocol

from arena.tournament import TournamentError
from arena.tournament.config import BotEntry
from arena.tournament.cpus import Pinning, slot_pinnings
from arena.tournament.jobs import MatchJob
from arena.tournament.scratch import sweep
from arena.tournament.startcheck import start_failures
from arena.tournament.worker import Outcome, worker_main
from arena.tournament.worklog import LogLine


#: Seconds a worker has to close its bots and leave before it is killed.
CLOSE_TIMEOUT = 30.0


class Executor(Protocol):
    """Plays submitted jobs, ``capacity`` at a time, in an order of its choosing."""

    capacity: int

    @property
    def running(self) -> int:
        """Jobs being played now."""

    def start_failures(self, entries: Sequence[BotEntry]) -> dict[str, str]:
        """The bots that cannot start where the jobs are played, with why (see
        :func:`arena.tournament.startcheck.start_failures`)."""

    def submit(self, job: MatchJob) -> None:
        """Queue ``job``; it starts when a slot is free."""

    def collect(self, timeout: float) -> list[Outcome]:
        """Outcomes finished since the last call, waiting up to ``timeout`` seconds for the first."""

    def close(self, abandon: bool) -> None:
        """Stop; with ``abandon``, queued and in-flight jobs are dropped (their bots closed).
        Idempotent."""


class LocalExecutor:
    """``workers`` worker processes, each with its own hub and long-lived bot processes.

    With ``pin_cpus``, each worker (with its referee and bots) runs on a processor of its own when
    there are enough (see :mod:`arena.tournament.cpus`). Workers are started with the ``spawn``
    method, so a script that makes one must guard its entry point with
    ``if __name__ == "__main__":``. Each talks to the runner over a pipe of its own (no semaphores,
    so nothing is left for a resource tracker to report when the runner is killed). Starting
    removes the temporary folders of workers that were killed (:func:`arena.tournament.scratch.sweep`).
    Generation affinity keeps restarts few: a free worker takes the
    next queued job of the generation it is playing; when that generation runs out it moves to the
    generation with the most queued jobs, preferring one no other worker is on, and its pool closes
    the processes of the generation it left. Within a generation, jobs keep their submission order.
    """

    def __init__(self, workers: int, *, pin_cpus: bool) -> None:
        sweep()
        context = multiprocessing.get_context("spawn")
        self.capacity = workers
        #: How each worker is pinned (``None``: not pinned).
        self.pinnings: list[Pinning | None] = slot_pinnings(workers, pin_cpus)
        self._queued: list[MatchJob] = []
        self._pipes: list[Connection] = []
        self._procs: list[multiprocessing.process.BaseProcess] = []
        for index in range(workers):
            mine, theirs = context.Pipe()
            proc = context.Process(
                target=worker_main,
                args=(theirs, os.getpid(), self.pinnings[index]),
                name=f"arena-worker-{index}",
                daemon=True,
            )
            proc.start()
            theirs.close()
            self._pipes.append(mine)
            self._procs.append(proc)
        self._generation: list[int | None] = [None] * workers
        self._busy: list[bool] = [False] * workers
        self._closed = False

    @property
    def running(self) -> int:
        return sum(self._busy)

    def start_failures(self, entries: Sequence[BotEntry]) -> dict[str, str]:
        return start_failures(entries)

    def submit(self, job: MatchJob) -> None:
        self._queued.append(job)
        self._dispatch()

    def collect(self, timeout: float) -> list[Outcome]:
        found: list[Outcome] = []
        for pipe in wait(self._pipes, timeout):
            index = self._pipes.index(pipe)  # type: ignore[arg-type]
            try:
                received: Outcome | LogLine = self._pipes[index].recv()
            except (EOFError, OSError):
                self._check_workers(wait_for=self._procs[index])
                continue
            if isinstance(received, LogLine):
                received.emit()
                continue
            found.append(received)
            self._busy[index] = False
        if not found:
            self._check_workers()
        self._dispatch()
        return found

    def _dispatch(self) -> None:
        for index in range(len(self._procs)):
            if self._busy[index] or not self._queued:
                continue
            job = self._next_for(index)
            self._busy[index] = True
            self._generation[index] = job.generation
            self._pipes[index].send(job)

    def _next_for(self, index: int) -> MatchJob:
        current = self._generation[index]
        for position, job in enumerate(self._queued):
            if job.generation == current:
                return self._queued.pop(position)
        remaining = Counter(job.generation for job in self._queued)
        taken = {g for i, g in enumerate(self._generation) if i != index and self._busy[i]}
        best = min(remaining, key=lambda g: (g in taken, -remaining[g], g))
        for position, job in enumerate(self._queued):
            if job.generation == best:
                return self._queued.pop(position)
        raise AssertionError("a generation with queued jobs has a job")

    def _check_workers(self, wait_for: multiprocessing.process.BaseProcess | None = None) -> None:
        if wait_for is not None:
            wait_for.join(timeout=CLOSE_TIMEOUT)
        dead = [p for p in self._procs if not p.is_alive()]
        if dead and not self._closed:
            raise TournamentError(
                f"worker process {dead[0].name} stopped (exit status {dead[0].exitcode}); "
                "games it was playing are not stored: run `arena tournament resume`"
            )

    def close(self, abandon: bool) -> None:
        if self._closed:
            return
        self._closed = True
        self._queued.clear()
        for proc, pipe in zip(self._procs, self._pipes):
            if abandon:
                proc.terminate()
            else:
                try:
                    pipe.send(None)
                except OSError:
                    pass
        for proc in self._procs:
            proc.join(timeout=CLOSE_TIMEOUT)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for pipe in self._pipes:
            pipe.close()
