"""Where matches are played: local worker processes, or (see :mod:`arena.tournament.cluster`) a
Dask cluster. Both take :class:`MatchJob` values and hand back outcomes as they finish."""

from __future__ import annotations

import multiprocessing
import os
import queue
from typing import Protocol

from arena.tournament import TournamentError
from arena.tournament.jobs import MatchJob
from arena.tournament.worker import Outcome, worker_main


class Executor(Protocol):
    """Plays submitted jobs, ``capacity`` at a time."""

    capacity: int

    def submit(self, job: MatchJob) -> None:
        """Start ``job`` (the caller keeps at most ``capacity`` in flight)."""

    def collect(self, timeout: float) -> list[Outcome]:
        """Outcomes finished since the last call, waiting up to ``timeout`` seconds for the first."""

    def close(self, abandon: bool) -> None:
        """Stop; with ``abandon``, in-flight jobs are dropped (their bots closed). Idempotent."""


class LocalExecutor:
    """``workers`` worker processes, each with its own hub and long-lived bot processes.

    Jobs are taken in submission order, so each worker sees generations in ascending order.
    """

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.capacity = workers
        self._jobs: multiprocessing.Queue[MatchJob | None] = context.Queue()
        self._results: multiprocessing.Queue[Outcome] = context.Queue()
        self._procs = [
            context.Process(
                target=worker_main,
                args=(self._jobs, self._results, os.getpid()),
                name=f"arena-worker-{i}",
                daemon=True,
            )
            for i in range(workers)
        ]
        for proc in self._procs:
            proc.start()
        self._closed = False

    def submit(self, job: MatchJob) -> None:
        self._jobs.put(job)

    def collect(self, timeout: float) -> list[Outcome]:
        found: list[Outcome] = []
        try:
            found.append(self._results.get(timeout=timeout))
            while True:
                found.append(self._results.get_nowait())
        except queue.Empty:
            pass
        if not found:
            dead = [p for p in self._procs if not p.is_alive()]
            if dead:
                raise TournamentError(
                    f"worker process {dead[0].name} stopped (exit status {dead[0].exitcode}); "
                    "games it was playing are not stored: run `arena tournament resume`"
                )
        return found

    def close(self, abandon: bool) -> None:
        if self._closed:
            return
        self._closed = True
        if abandon:
            for proc in self._procs:
                proc.terminate()
        else:
            for _ in self._procs:
                self._jobs.put(None)
        for proc in self._procs:
            proc.join(timeout=10.0)
            if proc.is_alive():
                proc.kill()
                proc.join()
        self._jobs.cancel_join_thread()
        self._results.cancel_join_thread()
