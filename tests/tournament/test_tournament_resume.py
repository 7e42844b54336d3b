"""Interrupted runners: Ctrl-C keeps only whole games; killed with SIGKILL mid-run, then resumed,
the store holds exactly the uninterrupted results, for seeded random bots and for the searching
built-in bots with node budgets."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from polling import wait_until
from stored_rows import stored_count
from tournament_league import league_toml, processes_with, results, run_arena

pytestmark = pytest.mark.slow



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


def budgeted_league_toml(marker: str) -> str:
    """The built-in bots with node budgets at tables of three, trusted (one long-lived process per
    bot, so a resumed run's processes have played other games before each game than the
    uninterrupted run's); ``marker`` tags their processes' environment."""
    lines = ['name = "budgeted"', 'game = "wongar"', "table_size = 3", "deals = 2",
             'time_control = "10s"', "seed = 2027", "concurrency = 2", "trusted = true"]
    entrants = [("random", "random", ""), ("greedy", "greedy", "nodes = 3"),
                ("ismcts", "ismcts", "nodes = 15"), ("ismcts-b", "ismcts", "nodes = 15")]
    for index, (name, bot, budget) in enumerate(entrants):
        lines += ["[[bots]]", f'name = "{name}"', f'bot = "{bot}"', budget,
                  f'env = {{ ARENA_SEED = "{index}", ARENA_TEST_MARKER = "{marker}" }}']
    return "\n".join(lines) + "\n"


@pytest.mark.slow
def test_a_budgeted_tournament_killed_three_times_stores_the_uninterrupted_games(
    tmp_path: Path, marker: str
) -> None:
    """Every built-in bot draws from its match's own generator, so the 24 games of a run killed
    with SIGKILL three times and resumed are, decision for decision, those of an uninterrupted run."""
    config = tmp_path / "budgeted.toml"
    config.write_text(budgeted_league_toml(marker))
    whole = run_arena("tournament", "run", str(config), "--db", "whole.db", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    reference = results(tmp_path / "whole.db")
    assert len(reference) == 24

    db = tmp_path / "killed.db"
    for stored in (4, 10, 16):
        killed = sigkill_runner_once_stored(config, db, stored)
        assert stored_count(db) < 24, f"runner {killed} finished before it could be killed"
        assert wait_until(lambda: processes_with(marker) == [], timeout=20), "orphaned bot processes"
    resumed = run_arena("tournament", "resume", "--db", str(db), cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert results(db) == reference
