"""A league played on a real local Dask cluster (a scheduler and two workers started here): the
league process matchmakes while the workers play, one worker is SIGKILLed mid-run and its games
are played again elsewhere, and every game of every table is stored exactly once."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from polling import wait_until
from test_league_run import ARENA, CONFIG, arena

pytestmark = pytest.mark.slow


def stored_games(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_a_league_on_a_dask_cluster_stores_every_game_once_despite_a_lost_worker(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    dask = str(Path(sys.executable).with_name("dask"))
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
    workers = [subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--no-dashboard",
                                 "--no-nanny"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL) for _ in range(2)]
    (tmp_path / "league.toml").write_text(CONFIG)
    arena(tmp_path, "league", "init", "league.toml", "--db", "l.db")
    arena(tmp_path, "league", "add", "second", "random", "--db", "l.db")
    db = tmp_path / "l.db"
    try:
        runner = subprocess.Popen(
            [*ARENA, "league", "run", "--db", "l.db", "--cluster", address, "--tables", "4",
             "-j", "2"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert wait_until(lambda: stored_games(db) >= 1, timeout=300), "no game stored"
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
