"""Playing jobs: in a long-lived local worker process (bots reused by generation), or one job
with fresh bots (on a cluster worker)."""

from __future__ import annotations

import logging
import os
import shutil
import signal
import tempfile
from multiprocessing.connection import Connection
from pathlib import Path

from arena import __version__
from arena.clock import TimeControl
from arena.errors import ArenaError
from arena.launch import signal_on_parent_death
from arena.live.files import open_live
from arena.referee import FaultPolicy, play_match
from arena.tournament.cpus import Pinning
from arena.tournament.jobs import JobDone, JobFailed, MatchJob
from arena.tournament.pool import BotPool
from arena.tournament.scratch import claim
from arena.tournament.worklog import WorkerPipe, forward_logs
from arena.tournament.shutdown import on_sigint, on_sigterm
from engine.core import EngineError
from engine.registry import get_game
from protocols.codec import bot_limits
from protocols.errors import ProtocolError
from protocols.transport import Hub

log = logging.getLogger(__name__)

#: Seconds between checks, while idle, that the runner is still there.
IDLE_POLL = 0.5

Outcome = JobDone | JobFailed


def play_in_pool(pool: BotPool, job: MatchJob) -> Outcome:
    """Play ``job`` with processes from ``pool``; a setup error is a :class:`JobFailed`."""
    try:
        game = get_game(job.game)
        config = game.configure(len(job.bots), job.variant, dict(job.knobs))
        control = TimeControl.parse(job.time_control)
        specs = [entry.spec() for entry in job.bots]
    except (ArenaError, EngineError) as exc:
        return JobFailed(job.game_id, str(exc))
    pool.hub.set_limits(bot_limits(job.frame_limit_kb))
    handles = pool.seat(specs, job.generation, job.keep)
    labels = tuple(pool.label(h) for h in handles)
    live = open_live(job.live, job.game_id, config, job.seed, [entry.name for entry in job.bots])
    void = False
    try:
        # The stored game id is derived from the master seed: the bots get a random match id.
        # A pinned worker's match has its processor to itself; others share theirs.
        cpus = None if pool.pinning is None else frozenset({pool.pinning.cpu})
        record = play_match(game, config, job.seed, handles, control, FaultPolicy(job.strikes),
                            clock=job.clock, on_decision=None if live is None else live.add,
                            cpus=cpus)
        void = record.void is not None
    except (ArenaError, ProtocolError) as exc:
        return JobFailed(job.game_id, f"{type(exc).__name__}: {exc}")
    finally:
        if live is not None:
            live.close()
        # A void game's processes (told nothing, possibly mid-decision, and they have seen its
        # deal, which is played again) are closed.
        for handle in handles:
            pool.give_back(handle, job.generation, keep=not void)
    return JobDone(job.game_id, record.to_wire(), labels)


def play_fresh(job: MatchJob) -> Outcome:
    """Play ``job`` with bots started for it alone and closed after (used on cluster workers)."""
    with (
        Hub(server=f"arena {__version__}") as hub,
        tempfile.TemporaryDirectory(prefix="arena-logs-") as logs,
        BotPool(hub, Path(logs)) as pool,
    ):
        return play_in_pool(pool, job)


def worker_main(runner: Connection, parent: int, pinning: Pinning | None) -> None:
    """A local worker: play the jobs that come over ``runner`` until ``None``, reusing bot
    processes, sending each outcome back. With a ``pinning``, the worker and every bot it starts
    (once connected) run on its processor alone. Everything temporary is kept in its scratch
    folder (:mod:`arena.tournament.scratch`), removed when it leaves.

    Leaves (closing every bot) on SIGTERM, or when the runner process ``parent`` is gone. Ctrl-C is
    the runner's to handle, so SIGINT is ignored here. Warnings go to the runner over the same pipe
    (:mod:`arena.tournament.worklog`).
    """
    signal.signal(signal.SIGINT, on_sigint)
    signal.signal(signal.SIGTERM, on_sigterm)
    pipe = WorkerPipe(runner)
    forward_logs(pipe, logging.WARNING)
    _die_with_parent()
    if pinning is not None:
        pinning.apply()
    folder = claim()
    try:
        with (
            Hub(server=f"arena {__version__}") as hub,
            BotPool(hub, folder, pinning) as pool,
        ):
            while True:
                if not runner.poll(IDLE_POLL):
                    if os.getppid() != parent:
                        return
                    continue
                try:
                    job: MatchJob | None = runner.recv()
                except EOFError:
                    return
                if job is None:
                    return
                pipe.send(play_in_pool(pool, job))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _die_with_parent() -> None:
    """Ask Linux to send SIGTERM when the runner dies (the idle poll covers other systems)."""
    if not signal_on_parent_death(signal.SIGTERM):
        log.debug("prctl unavailable; relying on the idle poll")
