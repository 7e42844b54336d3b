"""Long-lived bot processes for one runner worker, kept within their process generation.

A process is launched for one ``(bot, generation)`` and only ever seated in games of that
generation; the schedule puts each deal at most once in a generation, so no process meets a deal
twice. A worker plays one generation at a time, so when a job of another generation arrives the
idle processes of every other generation are closed, except those of the generations played most
recently when a job says to keep several (early stopping plays a wave's generations in turn). A process that died or faulted out is closed
and replaced by a fresh one the next time its bot is needed. With a :class:`Pinning`, new processes
start on the worker's processors and join its own once connected.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from types import TracebackType

from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec
from arena.tournament.cpus import Pinning
from arena.tournament.shutdown import deferred
from protocols.transport import Hub


class BotPool:
    """Idle bot handles by ``(bot name, generation)`` on one hub. A context manager; closes all."""

    def __init__(self, hub: Hub, log_dir: Path, pinning: Pinning | None = None) -> None:
        self.hub = hub
        self.log_dir = log_dir
        self.pinning = pinning
        self.launched = 0
        self._idle: dict[tuple[str, int], list[BotHandle]] = defaultdict(list)
        self._labels: dict[int, str] = {}
        self._open: dict[int, BotHandle] = {}
        self._recent: list[int] = []  # generations played, most recent last

    def __enter__(self) -> BotPool:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def seat(self, specs: list[BotSpec], generation: int, keep: int = 1) -> list[BotHandle]:
        """A handle per spec for a game of ``generation``: an idle live process of that bot and
        generation where there is one, else a new one (new ones start together). Idle processes
        of generations other than the ``keep`` played most recently (this one included) are
        closed first.

        A bot that cannot start comes back as a handle with ``failure`` set (the referee records
        the fault and forfeits the seat).
        """
        if self._recent[-1:] != [generation]:
            self._retire_others(generation, keep)
        handles: list[BotHandle | None] = [self._reuse(spec.name, generation) for spec in specs]
        missing = [i for i, h in enumerate(handles) if h is None]
        # A stop waits until the new processes are registered, so close() can still reach them.
        with deferred():
            fresh = self._launch([specs[i] for i in missing])
            for i, handle in zip(missing, fresh):
                self.launched += 1
                self._open[id(handle)] = handle
                if handle.failure is None:
                    self._labels[id(handle)] = f"{os.getpid()}.{self.launched}"
                handles[i] = handle
        return [h for h in handles if h is not None]

    def _launch(self, specs: list[BotSpec]) -> list[BotHandle]:
        if self.pinning is None or not specs:
            return BotHandle.launch_all(specs, self.hub, self.log_dir)
        with self.pinning.starting():
            handles = BotHandle.launch_all(specs, self.hub, self.log_dir)
        for handle in handles:
            if handle.process is not None and handle.process.pid is not None:
                self.pinning.join(handle.process.pid)
        return handles

    def _reuse(self, name: str, generation: int) -> BotHandle | None:
        idle = self._idle[(name, generation)]
        while idle:
            handle = idle.pop()
            if handle.alive():
                return handle
            self._close(handle)
        return None

    def label(self, handle: BotHandle) -> str:
        """A name for the process behind ``handle``, unique among every process this runner started
        (a restart inside the handle gets a new name)."""
        base = self._labels.get(id(handle))
        if base is None:
            return "failed"
        return f"{base}.{handle.starts}"

    def give_back(self, handle: BotHandle, generation: int, keep: bool = True) -> None:
        """Return a handle after a game: kept if still usable and ``keep`` (``False`` after a void
        game, which is played again: its processes have seen its deal), else closed."""
        if keep and handle.failure is None and handle.alive():
            self._idle[(handle.name, generation)].append(handle)
        else:
            self._close(handle)

    def _retire_others(self, generation: int, keep: int) -> None:
        self._recent = [g for g in self._recent if g != generation][-(keep - 1):] if keep > 1 else []
        self._recent.append(generation)
        for key in [k for k in self._idle if k[1] not in self._recent]:
            for handle in self._idle.pop(key):
                self._close(handle)

    def _close(self, handle: BotHandle) -> None:
        with deferred():
            handle.close()
            self._labels.pop(id(handle), None)
            self._open.pop(id(handle), None)

    def close(self) -> None:
        """Close every process this pool started, idle or seated (``bye`` to all first, so their
        exits overlap). Idempotent; a stop waits until it is done."""
        with deferred():
            self._idle.clear()
            handles = list(self._open.values())
            self._open.clear()
            self._labels.clear()
            close_all(handles)
