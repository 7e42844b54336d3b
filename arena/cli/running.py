"""What every command that plays into a results database shares: the runner lock, the sandbox
check, where the matches are played (local worker processes or a Dask cluster) and the
``--cluster`` option."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import fail, say, user_errors
from arena.errors import ArenaError
from arena.sandbox.selftest import refusal
from arena.store.db import Store
from arena.store.lock import RunnerLock
from arena.tournament.cluster import DaskExecutor
from arena.tournament.config import TournamentConfig
from arena.tournament.executors import Executor, LocalExecutor

ClusterOpt = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        help="Play on a Dask cluster, e.g. tcp://scheduler:8786 (needs: pip install 'arena[cluster]').",
    ),
]


@contextmanager
def runner_lock(db: Path) -> Iterator[RunnerLock]:
    """Hold the runner lock of ``db`` (exit 2 naming the holder if another runner has it). A
    database this creates is removed again if nothing was stored in it."""
    created = not db.exists()
    with user_errors():
        lock = RunnerLock(db).acquire()
    try:
        if lock.taken_over is not None:
            say(f"note: the previous runner ({lock.taken_over}) stopped without finishing; "
                "taking over", err=True)
        yield lock
    finally:
        if created:
            _remove_if_empty(db)
        lock.release()


def _remove_if_empty(db: Path) -> None:
    """Remove the database ``db`` (and its WAL files) if no tournament is stored in it."""
    try:
        with Store(db) as store:
            if store.tournaments():
                return
    except ArenaError:
        return
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        path.unlink(missing_ok=True)


def match_executor(cluster: str | None, workers: int, *, pin_cpus: bool) -> Executor:
    """Where the matches run: the Dask cluster at ``cluster`` (``workers`` at a time, 0: its
    threads; exit 2 if it cannot be reached or is not an address), else ``workers`` local worker
    processes."""
    if cluster:
        with user_errors():
            return DaskExecutor(cluster, workers)
    return LocalExecutor(workers, pin_cpus=pin_cpus)


def require_sandbox(config: TournamentConfig) -> None:
    """Exit 2 with the fix when untrusted bots of ``config`` would need a sandbox this machine
    lacks (a tournament stored as unsandboxed needs none)."""
    with user_errors():
        specs = [config.bot(entry.name).spec() for entry in config.bots]
    refused = refusal(specs)
    if refused is not None:
        raise fail(refused)
