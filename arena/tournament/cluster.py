"""Playing matches on a Dask distributed cluster (the optional ``arena[cluster]`` extra).

Each match runs on a cluster worker with bots started for it alone (so no process ever meets a
deal twice); the outcome comes back to the runner, which stores it.
"""

from __future__ import annotations

import uuid
from collections import deque
from types import ModuleType
from typing import Any

from arena.tournament import TournamentError
from arena.tournament.jobs import JobFailed, MatchJob
from arena.tournament.worker import Outcome, play_fresh

INSTALL_HINT = "pip install 'arena[cluster]'"


def distributed_module() -> ModuleType:
    """``dask.distributed``, or a :class:`TournamentError` saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise TournamentError(
            f"--cluster needs Dask distributed, which is not installed: {INSTALL_HINT}"
        ) from None
    return distributed


class DaskExecutor:
    """Jobs as Dask tasks on the scheduler at ``address`` (e.g. ``tcp://host:8786``).

    ``capacity`` defaults to the cluster's total worker threads.
    """

    def __init__(self, address: str, capacity: int = 0, connect_timeout: float = 10.0) -> None:
        self._distributed = distributed_module()
        try:
            self._client: Any = self._distributed.Client(address, timeout=connect_timeout)
        except (OSError, TimeoutError) as exc:
            raise TournamentError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        threads = sum(self._client.nthreads().values())
        self.capacity = capacity or max(1, threads)
        self._queued: deque[MatchJob] = deque()
        self._futures: dict[Any, str] = {}
        self._closed = False

    @property
    def running(self) -> int:
        return len(self._futures)

    def submit(self, job: MatchJob) -> None:
        self._queued.append(job)
        self._dispatch()

    def _dispatch(self) -> None:
        while self._queued and len(self._futures) < self.capacity:
            job = self._queued.popleft()
            key = f"arena-{job.game_id}-{uuid.uuid4().hex[:8]}"
            future = self._client.submit(play_fresh, job, pure=False, key=key)
            self._futures[future] = job.game_id

    def collect(self, timeout: float) -> list[Outcome]:
        if not self._futures:
            self._dispatch()
            return []
        try:
            done, _ = self._distributed.wait(
                list(self._futures), timeout=timeout, return_when="FIRST_COMPLETED"
            )
        except TimeoutError:
            return []
        found: list[Outcome] = []
        for future in done:
            game_id = self._futures.pop(future)
            try:
                found.append(future.result())
            except Exception as exc:  # a task's error is data here: the game stays unplayed
                found.append(JobFailed(game_id, f"on the cluster: {type(exc).__name__}: {exc}"))
        self._dispatch()
        return found

    def close(self, abandon: bool) -> None:
        if self._closed:
            return
        self._closed = True
        self._queued.clear()
        if abandon and self._futures:
            self._client.cancel(list(self._futures))
        self._futures.clear()
        self._client.close()
