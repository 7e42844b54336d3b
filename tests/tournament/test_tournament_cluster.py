"""Matches sent to a Dask cluster (a local one started here) flow back to the same store."""

from __future__ import annotations

from pathlib import Path

import distributed

from arena.store.db import Store
from arena.tournament.cluster import DaskExecutor
from arena.tournament.config import load_config
from arena.tournament.runner import run_tournament
from tournament_league import league_toml, processes_with, results


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
