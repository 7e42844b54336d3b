"""Playing matches on a Dask distributed cluster (the optional ``arena[cluster]`` extra).

Each match runs on a cluster worker with bots started for it alone (so no process ever meets a
deal twice); the outcome comes back to the runner, which stores it.
"""

from __future__ import annotations

import logging
import uuid
from collections import deque
from collections.abc import Sequence
from concurrent.futures import CancelledError
from types import ModuleType
from typing import Any

from arena.tournament import TournamentError
from arena.tournament.config import BotEntry
from arena.tournament.jobs import JobFailed, MatchJob
from arena.tournament.startcheck import start_failures
from arena.tournament.worker import Outcome, play_fresh

#: Seconds to close the connection to a live scheduler.
CLOSE_TIMEOUT = 10.0

INSTALL_HINT = "pip install 'arena[cluster]'"


class ClusterLost(TournamentError):
    """The connection to the Dask scheduler at ``address`` was lost mid-run (stored games are
    kept)."""

    def __init__(self, message: str, address: str) -> None:
        super().__init__(message)
        self.address = address


def distributed_module() -> ModuleType:
    """``dask.distributed``, or a :class:`TournamentError` saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise TournamentError(
            f"--cluster needs Dask distributed, which is not installed: {INSTALL_HINT}"
        ) from None
    return distributed


def _quiet_dask() -> None:
    """Silence Dask's own log (tracebacks on a lost connection): the runner reports in one line."""
    names = [n for n in logging.Logger.manager.loggerDict if n.split(".")[0] in _DASK_LOGGERS]
    for name in {*names, *_DASK_LOGGERS}:
        logging.getLogger(name).setLevel(logging.CRITICAL)


_DASK_LOGGERS = ("distributed", "tornado", "asyncio")


class DaskExecutor:
    """Jobs as Dask tasks on the scheduler at ``address`` (e.g. ``tcp://host:8786``).

    ``capacity`` defaults to the cluster's total worker threads.
    """

    def __init__(self, address: str, capacity: int = 0, connect_timeout: float = 10.0) -> None:
        self._distributed = distributed_module()
        if not logging.getLogger().isEnabledFor(logging.DEBUG):
            _quiet_dask()
        self.address = address
        try:
            self._client: Any = self._distributed.Client(address, timeout=connect_timeout)
        except ValueError as exc:
            raise TournamentError(
                f"--cluster {address!r}: not a scheduler address ({exc}); "
                "expected e.g. tcp://scheduler:8786"
            ) from None
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

    def start_failures(self, entries: Sequence[BotEntry]) -> dict[str, str]:
        """Checked on a cluster worker, where the bots will run."""
        future = self._client.submit(start_failures, list(entries), pure=False)
        try:
            found: dict[str, str] = future.result()
        except Exception as exc:  # the check's own failure, or the scheduler's
            raise self._lost(exc) from None
        return found

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
            if self._client.status != "running":
                raise self._lost(None) from None
            return []
        except Exception as exc:
            raise self._lost(exc) from None
        found: list[Outcome] = []
        for future in done:
            game_id = self._futures.pop(future)
            try:
                found.append(future.result())
            except CancelledError as exc:  # the scheduler is gone (or forgot the task)
                raise self._lost(exc) from None
            except Exception as exc:  # a task's error is data here: the game stays unplayed
                found.append(JobFailed(game_id, f"on the cluster: {type(exc).__name__}: {exc}"))
        self._dispatch()
        return found

    def _lost(self, exc: BaseException | None) -> ClusterLost:
        reason = "" if exc is None else f" ({type(exc).__name__}: {' '.join(str(exc).split())})"
        return ClusterLost(f"lost the Dask scheduler at {self.address}{reason}", self.address)

    def close(self, abandon: bool) -> None:
        if self._closed:
            return
        self._closed = True
        self._queued.clear()
        running = self._client.status == "running"
        if abandon and self._futures and running:
            self._client.cancel(list(self._futures))
        self._futures.clear()
        self._client.close(timeout=CLOSE_TIMEOUT if running else 1)
