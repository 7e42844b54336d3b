"""The remote lane of a tournament run: one thread that hosts the remote entrants and plays their
games, one at a time, beside the executor that plays every other game.

The lane owns a hub listening on the config's ``listen`` endpoint (CURVE, with the tournament's
keys from the remote book) and a pool of local bot processes for the other seats of its games. A
game whose remote entrants are all connected is played at once; one waiting for an entrant that is
not connected waits, while the lane plays the others, and after ``postpone_after`` seconds is
postponed: it is played whenever the entrant connects, and if it has not when nothing else is left
to play, it is handed back unplayed (``arena tournament resume`` plays it later). Invitations and
revocations (the book changing) take effect while the lane runs; a ``hello`` with an unknown token
makes the lane look at the book first, so a bot started right after its invitation is let in.
Every second the lane writes what it is waiting for to the status file beside the database, which
``tournament status`` reads.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import __version__
from arena.handle import BotHandle
from arena.manifest import BotSpec
from arena.remote import RemoteError
from arena.remote.book import book_version, read_book, tournament_keys
from arena.remote.seats import remote_spec
from arena.tournament.config import BotEntry, TournamentConfig
from arena.tournament.executors import Executor
from arena.tournament.jobs import JobFailed, MatchJob
from arena.tournament.pool import BotPool
from arena.tournament.worker import Outcome, play_in_pool
from protocols.codec import bot_limits
from protocols.errors import PeerGone, ProtocolError
from protocols.messages import Bye
from protocols.transport import Hub

log = logging.getLogger(__name__)

#: Seconds between two looks at the book and two writes of the status file while idle.
TICK = 0.25
#: Seconds to wait for the lane's hub to bind.
READY_TIMEOUT = 30.0


def status_path(database: Path) -> Path:
    """Where a running lane says who is connected and which games wait on whom."""
    return database.with_name(database.name + ".remote-status.json")


@dataclass
class _Waiting:
    """A remote game in the lane's queue: since when it waits, and whether it is postponed."""

    job: MatchJob
    since: float | None = None
    postponed: bool = False
    names: tuple[str, ...] = field(default=())


class RemotePool(BotPool):
    """A :class:`BotPool` that seats the lane's remote entrants by name, and local bots as usual."""

    def __init__(self, hub: Hub, log_dir: Path, remote: dict[str, BotHandle]) -> None:
        super().__init__(hub, log_dir)
        self.remote = remote

    def seat(self, specs: list[BotSpec], generation: int, keep: int = 1) -> list[BotHandle]:
        local = [s for s in specs if s.name not in self.remote]
        started = iter(super().seat(local, generation, keep))
        return [self.remote[s.name] if s.name in self.remote else next(started) for s in specs]

    def label(self, handle: BotHandle) -> str:
        if self.remote.get(handle.name) is handle:
            return f"remote:{handle.name}.{handle.peer.connections}"
        return super().label(handle)

    def give_back(self, handle: BotHandle, generation: int, keep: bool = True) -> None:
        if self.remote.get(handle.name) is not handle:
            super().give_back(handle, generation, keep)


class RemoteLane:
    """The thread that hosts ``config``'s remote entrants (see the module's description)."""

    def __init__(self, config: TournamentConfig, database: Path) -> None:
        if config.remote is None:
            raise RemoteError(f"tournament {config.name!r} sets no listen endpoint")
        self.config = config
        self.settings = config.remote
        self.database = database
        self.names = [b.name for b in config.bots if b.remote]
        self.outcomes: queue.Queue[Outcome] = queue.Queue()
        #: Set when nothing but remote games is left: postponed games are then handed back.
        self.nothing_else = threading.Event()
        self.error: str | None = None
        self._lock = threading.Lock()
        self._queue: list[_Waiting] = []
        self._playing: MatchJob | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._main, name="arena-remote-lane", daemon=True)

    def start(self) -> None:
        """Start the thread and wait for its hub; :class:`RemoteError` if it cannot listen."""
        self._thread.start()
        self._ready.wait(READY_TIMEOUT)
        if self.error is not None or not self._ready.is_set():
            raise RemoteError(self.error or f"the remote lane did not start in {READY_TIMEOUT:g} s")

    @property
    def playing(self) -> bool:
        """Whether a game is being played now."""
        return self._playing is not None

    def submit(self, job: MatchJob) -> None:
        """Queue a game with at least one remote entrant."""
        names = tuple(entry.name for entry in job.bots if entry.remote)
        with self._lock:
            self._queue.append(_Waiting(job, names=names))

    def stop(self, wait: float) -> None:
        """Stop after the game being played (not waiting more than ``wait`` seconds for it)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(wait)

    def _main(self) -> None:
        try:
            keys = tournament_keys(self.database, self.config.name)
            with (
                tempfile.TemporaryDirectory(prefix="arena-remote-") as logs,
                # The tcp endpoint's frame cap is fixed when it is bound: the config's from the start.
                Hub(curve=keys, listen=self.settings.listen, server=f"arena {__version__}",
                    limits=bot_limits(self.config.frame_limit_kb), caps=self.settings.caps) as hub,
            ):
                pool = RemotePool(hub, Path(logs), {})
                with pool:
                    self._ready.set()
                    self._serve(hub, pool)
        except (RemoteError, ProtocolError, OSError) as exc:
            self.error = str(exc)
        except Exception as exc:  # the runner reports it; the thread must not die silently
            log.exception("the remote lane stopped")
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self._ready.set()
            status_path(self.database).unlink(missing_ok=True)

    def _serve(self, hub: Hub, pool: RemotePool) -> None:
        seen = [(-1, -1)]
        last_status = 0.0

        def refresh() -> bool:
            """Read the book again if it changed since last read (a stat otherwise)."""
            if (version := book_version(self.database)) == seen[0]:
                return False
            seen[0] = version
            self._sync_tokens(hub, pool)
            return True

        # A bot invited a moment ago may say hello before the next look at the book.
        hub.refresh_tokens = refresh
        try:
            while not self._stop.is_set():
                if refresh():
                    last_status = 0.0
                job = self._next(pool)
                if job is not None:
                    self._play(pool, job)
                    continue
                hub.receive(TICK)  # handshakes and keepalive pings
                if time.monotonic() - last_status >= 1:
                    last_status = time.monotonic()
                    self._write_status(pool)
        finally:
            for handle in pool.remote.values():
                handle.say_bye("tournament over" if not self._stop.is_set() else "the run stopped")

    def _play(self, pool: RemotePool, job: MatchJob) -> None:
        self._playing = job
        self._write_status(pool)
        try:
            self.outcomes.put(play_in_pool(pool, job))
        finally:
            self._playing = None

    def _sync_tokens(self, hub: Hub, pool: RemotePool) -> None:
        """Expect each remote entrant's current token; forget tokens replaced or revoked (a
        connection on one is sent ``bye``)."""
        book = read_book(self.database).get(self.config.name)
        tokens = {} if book is None else book.tokens
        for name in self.names:
            token = tokens.get(name)
            handle = pool.remote.get(name)
            if handle is not None and handle.peer.token == token:
                continue
            if handle is not None:
                if handle.peer.connected:
                    try:
                        hub.send(handle.peer, Bye("token revoked"))
                    except PeerGone:
                        pass
                hub.forget(handle.peer)
                del pool.remote[name]
                log.info("%s: token %s", name, "replaced" if token else "revoked")
            if token is not None:
                pool.remote[name] = BotHandle(remote_spec(name), hub, hub.expect(name, token, remote=True))

    def _next(self, pool: RemotePool) -> MatchJob | None:
        """The first queued game whose remote entrants are all connected (taken off the queue);
        meanwhile, games waiting too long are postponed, and postponed ones handed back when
        nothing else is left."""
        now = time.monotonic()
        with self._lock:
            for waiting in self._queue:
                if all(n in pool.remote and pool.remote[n].alive() for n in waiting.names):
                    self._queue.remove(waiting)
                    return waiting.job
            for waiting in list(self._queue):
                if waiting.since is None:
                    waiting.since = now
                if not waiting.postponed and now - waiting.since >= self.settings.postpone_after:
                    waiting.postponed = True
                    log.info("game %s postponed: waiting for %s", waiting.job.game_id,
                             self._absent(waiting, pool))
                if waiting.postponed and self.nothing_else.is_set():
                    self._queue.remove(waiting)
                    absent = ", ".join(self._absent(waiting, pool))
                    self.outcomes.put(JobFailed(
                        waiting.job.game_id,
                        f"postponed: {absent} not connected; play it later with "
                        "arena tournament resume"))
        return None

    @staticmethod
    def _absent(waiting: _Waiting, pool: RemotePool) -> list[str]:
        return [n for n in waiting.names if n not in pool.remote or not pool.remote[n].alive()]

    @property
    def queued(self) -> int:
        """Remote games queued, not yet played or handed back."""
        with self._lock:
            return len(self._queue)

    def _write_status(self, pool: RemotePool) -> None:
        """Write the status file (atomically): entrants, connections, games waiting and postponed."""
        with self._lock:
            waiting = [(w.names, self._absent(w, pool), w.postponed) for w in self._queue]
        entrants: dict[str, Any] = {}
        for name in self.names:
            handle = pool.remote.get(name)
            entrants[name] = {
                "invited": handle is not None,
                "connected": handle is not None and handle.alive(),
                "connections": 0 if handle is None else handle.peer.connections,
                "bot": "" if handle is None else f"{handle.peer.name} {handle.peer.version}".strip(),
                "waiting": sum(1 for _, absent, post in waiting if name in absent and not post),
                "postponed": sum(1 for _, absent, post in waiting if name in absent and post),
            }
        plain = {"tournament": self.config.name, "pid": os.getpid(), "written": time.time(),
                 "playing": self._playing.game_id if self._playing is not None else None,
                 "queued": len(waiting), "entrants": entrants}
        path = status_path(self.database)
        fresh = path.with_name(path.name + ".new")
        try:
            fresh.write_text(json.dumps(plain, indent=1) + "\n")
            os.replace(fresh, path)
        except OSError as exc:
            log.warning("cannot write %s: %s", path, exc)


class RemoteExecutor:
    """An executor that sends the games of remote entrants to a :class:`RemoteLane` and every
    other game to ``inner``."""

    def __init__(self, inner: Executor, lane: RemoteLane) -> None:
        self.inner = inner
        self.lane = lane
        self.capacity = inner.capacity + 1
        self._inner_out = 0
        self._closed = False

    @property
    def running(self) -> int:
        return self.inner.running + (1 if self.lane.playing else 0)

    def start_failures(self, entries: Sequence[BotEntry]) -> dict[str, str]:
        return self.inner.start_failures([e for e in entries if not e.remote])

    def submit(self, job: MatchJob) -> None:
        if any(entry.remote for entry in job.bots):
            self.lane.submit(job)
        else:
            self._inner_out += 1
            self.inner.submit(job)

    def collect(self, timeout: float) -> list[Outcome]:
        found = self._from_lane()
        if self._inner_out:
            done = self.inner.collect(0.0 if found else timeout)
            self._inner_out -= len(done)
            found += done
        elif not found:
            time.sleep(min(timeout, TICK))
        if self._inner_out == 0:
            self.lane.nothing_else.set()
        return found + self._from_lane()

    def _from_lane(self) -> list[Outcome]:
        if self.lane.error is not None:
            raise RemoteError(f"remote entrants can no longer be hosted: {self.lane.error}")
        found: list[Outcome] = []
        while True:
            try:
                found.append(self.lane.outcomes.get_nowait())
            except queue.Empty:
                return found

    def close(self, abandon: bool) -> None:
        if self._closed:
            return
        self._closed = True
        self.lane.stop(1.0 if abandon else 30.0)
        self.inner.close(abandon)


def with_remote_lane(inner: Executor, config: TournamentConfig, database: Path) -> Executor:
    """``inner`` alone for a tournament without remote entrants, else with a started lane
    (:class:`RemoteError` if it cannot listen; ``inner`` is then closed)."""
    if not any(b.remote for b in config.bots):
        return inner
    lane = RemoteLane(config, database)
    try:
        lane.start()
    except RemoteError:
        inner.close(abandon=True)
        raise
    return RemoteExecutor(inner, lane)
