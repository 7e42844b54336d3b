"""A league played on a real local Dask cluster (a scheduler and two workers started here): the
league process matchmakes while the workers play, one worker is SIGKILLed mid-run and its games
are played again elsewhere, and every game of every table is stored exactly once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
from dask_processes import free_port, start_scheduler, start_worker
from polling import wait_until
from stored_rows import stored_count
from test_league_run import ARENA, CONFIG, arena

pytestmark = pytest.mark.slow


def test_a_league_on_a_dask_cluster_stores_every_game_once_despite_a_lost_worker(
    tmp_path: Path,
) -> None:
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = start_scheduler(port)
    workers = [start_worker(address, 1, nanny=False) for _ in range(2)]
    (tmp_path / "league.toml").write_text(CONFIG)
    arena(tmp_path, "league", "init", "league.toml", "--db", "l.db")
    arena(tmp_path, "league", "add", "second", "random", "--db", "l.db")
    db = tmp_path / "l.db"
    try:
        runner = subprocess.Popen(
            [*ARENA, "league", "run", "--db", "l.db", "--cluster", address, "--tables", "4",
             "-j", "2"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert wait_until(lambda: stored_count(db) >= 1, timeout=300), "no game stored"
            os.kill(workers[0].pid, signal.SIGKILL)
            out, err = runner.communicate(timeout=600)
        finally:
            runner.kill()
            runner.wait()
    finally:
        for process in (scheduler, *workers):
            process.kill()
            process.wait()
    assert runner.returncode == 0, err
    assert "played 4 new tables: 12 games stored" in out
    with sqlite3.connect(db) as conn:
        tables = [t for (t,) in conn.execute("SELECT tournament FROM league_tables")]
        counts = dict(conn.execute("SELECT tournament, count(*) FROM games GROUP BY tournament"))
        repeated = conn.execute("SELECT tournament, id FROM games GROUP BY tournament, id "
                                "HAVING count(*) > 1").fetchall()
    assert len(tables) == 4 and all(counts[t] == 3 for t in tables), counts
    assert repeated == []
