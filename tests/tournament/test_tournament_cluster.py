"""Matches sent to a Dask cluster (a local one started here) flow back to the same store."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import distributed
import pytest
from polling import wait_until
from dask_processes import free_port, start_scheduler, start_worker
from stored_rows import stored_count

from arena.store.db import Store
from arena.tournament.cluster import DaskExecutor
from arena.tournament.config import load_config
from arena.tournament.runner import run_tournament
from tournament_league import league_toml, processes_with, results, run_arena

pytestmark = pytest.mark.slow


def test_dask_local_cluster_run_matches_the_local_run(
    tmp_path: Path, marker: str, reference_db: Path
) -> None:
    path = tmp_path / "league.toml"
    path.write_text(league_toml(marker))
    config = load_config(path)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # its HTTP server on a free port
        ) as cluster,
        Store(tmp_path / "c.db") as store,
    ):
        executor = DaskExecutor(cluster.scheduler_address)
        assert executor.capacity == 2
        summary = run_tournament(config, store, executor)
    assert (summary.played, summary.failed, summary.missing) == (12, 0, 0)
    assert results(tmp_path / "c.db") == results(reference_db)
    assert processes_with(marker) == []


def test_an_unreachable_scheduler_exits_2_and_leaves_no_database(tmp_path: Path) -> None:
    path = tmp_path / "league.toml"
    path.write_text(league_toml("unreachable"))
    port = free_port()
    done = run_arena("tournament", "run", str(path), "--db", "league.db",
                     "--cluster", f"tcp://127.0.0.1:{port}", cwd=tmp_path)
    assert done.returncode == 2
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in " ".join(done.stderr.split())
    assert not (tmp_path / "league.db").exists()


def test_the_scheduler_dying_mid_run_is_one_line_with_the_resume_command(
    tmp_path: Path, marker: str, reference_db: Path
) -> None:
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = start_scheduler(port)
    worker = start_worker(address, 2)
    config = tmp_path / "league.toml"
    config.write_text(league_toml(marker, pause=0.03))
    db = tmp_path / "d.db"
    try:
        runner = subprocess.Popen(
            [sys.executable, "-c", "from arena.cli.app import main; main()", "tournament", "run",
             str(config), "--db", str(db), "--cluster", address],
            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        try:
            assert wait_until(lambda: stored_count(db) >= 1, timeout=120), "no game stored"
            scheduler.kill()
            _, stderr = runner.communicate(timeout=120)
        finally:
            runner.kill()
            runner.wait()
    finally:
        for process in (scheduler, worker):
            process.kill()
            process.wait()
    assert runner.returncode == 2, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert f"lost the Dask scheduler at {address}" in lines[0]
    assert f"Play the rest with: arena tournament resume --db {db} --cluster {address}" in lines[0]
    stored = stored_count(db)
    assert 1 <= stored < 12 and f"{stored} of 12 games are stored" in lines[0]
    assert wait_until(lambda: processes_with(marker) == [], timeout=30)
    resumed = run_arena("tournament", "resume", "--db", str(db), cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert results(db) == results(reference_db)
