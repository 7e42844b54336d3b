"""Matches sent to a Dask cluster (a local one started here) flow back to the same store."""

from __future__ import annotations

import socket
from pathlib import Path

import distributed

from arena.store.db import Store
from arena.tournament.cluster import DaskExecutor
from arena.tournament.config import load_config
from arena.tournament.runner import run_tournament
from tournament_league import league_toml, processes_with, results, run_arena


def test_dask_local_cluster_run_matches_the_local_run(
    tmp_path: Path, marker: str, reference_db: Path
) -> None:
    path = tmp_path / "league.toml"
    path.write_text(league_toml(marker))
    config = load_config(path)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
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
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = run_arena("tournament", "run", str(path), "--db", "league.db",
                     "--cluster", f"tcp://127.0.0.1:{port}", cwd=tmp_path)
    assert done.returncode == 2
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in " ".join(done.stderr.split())
    assert not (tmp_path / "league.db").exists()
