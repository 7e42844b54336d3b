"""Interrupted runners: Ctrl-C keeps only whole games; killed with SIGKILL mid-run, then resumed,
the store holds exactly the uninterrupted results."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from polling import wait_until
from tournament_league import league_toml, processes_with, results, run_arena

pytestmark = pytest.mark.slow


def stored_count(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0



def start_runner(config: Path, db: Path) -> subprocess.Popen[str]:
    code = "from arena.cli.app import main; main()"
    return subprocess.Popen(
        [sys.executable, "-c", code, "tournament", "run", str(config), "--db", str(db)],
        cwd=config.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def sigkill_runner_once_stored(config: Path, db: Path, stored: int) -> int:
    """Start a runner, SIGKILL it once ``stored`` games are in ``db`` and return its pid."""
    runner = start_runner(config, db)
    try:
        assert wait_until(lambda: stored_count(db) >= stored, timeout=90), "runner made no progress"
        os.kill(runner.pid, signal.SIGKILL)
    finally:
        runner.kill()
        runner.wait()
    return runner.pid


def test_ctrl_c_stops_cleanly_keeping_only_whole_games(
    tmp_path: Path, marker: str, reference_db: Path
) -> None:
    config = tmp_path / "league.toml"
    config.write_text(league_toml(marker))
    db = tmp_path / "i.db"
    runner = start_runner(config, db)
    try:
        assert wait_until(lambda: stored_count(db) >= 2, timeout=90), "runner made no progress"
        os.kill(runner.pid, signal.SIGINT)
        _, stderr = runner.communicate(timeout=30)
    finally:
        runner.kill()
        runner.wait()
    assert runner.returncode == 130
    assert "stopped:" in stderr and "arena tournament resume" in stderr
    assert processes_with(marker) == [], "Ctrl-C closes every bot"
    kept = results(db)
    assert 2 <= len(kept) < 12
    reference = results(reference_db)
    assert all(kept[game_id] == reference[game_id] for game_id in kept)


def test_sigkilled_runner_resumes_to_the_same_results(
    tmp_path: Path, marker: str, reference_db: Path
) -> None:
    config = tmp_path / "league.toml"
    config.write_text(league_toml(marker))
    db = tmp_path / "k.db"
    sigkill_runner_once_stored(config, db, stored=3)
    before = stored_count(db)
    assert 3 <= before < 12, f"kill landed mid-run ({before} stored)"
    assert wait_until(lambda: processes_with(marker) == [], timeout=20), "orphaned bot processes"

    resumed = run_arena("tournament", "resume", "--db", str(db), cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"played {12 - before} games ({before} were already stored)" in resumed.stdout
    assert results(db) == results(reference_db)
    again = run_arena("tournament", "resume", "--db", str(db), cwd=tmp_path)
    assert "played 0 games (12 were already stored)" in again.stdout
