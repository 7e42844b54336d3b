"""Store safety: a real ``arena tournament run`` killed with SIGKILL at random moments never leaves
a half-stored game (every stored game decodes and replays to its stored result, and equals the
same game of an uninterrupted run), leaves no bot process behind, and always resumes to the same
final results as the uninterrupted run.

All in the slow tier: ``ARENA_KILL_TRIALS`` (2) trials of one kill each, and
``ARENA_KILL_TRIALS_LONG`` (6) more of up to three kills each (a kill that comes after the run
finished is not made).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from polling import wait_until
from process_census import processes_marked

from arena.referee import final_ranks
from arena.store.db import Store
from engine.core import replay
from engine.registry import get_game

pytestmark = pytest.mark.slow

SHORT = int(os.environ.get("ARENA_KILL_TRIALS", "2"))
LONG = int(os.environ.get("ARENA_KILL_TRIALS_LONG", "6"))
GAMES = 12  # four bots, tables of three, one deal, three seat rotations
ARENA = [sys.executable, "-c", "from arena.cli.app import main; main()"]

Comparable = tuple[object, ...]


def league(marker: str) -> str:
    """Four seeded random bots, every table of three, one deal in duplicate (12 games)."""
    lines = ['name = "kill"', 'game = "wongar"', "table_size = 3", "deals = 1",
             'time_control = "2s/20s"', "seed = 7", "concurrency = 2"]
    for i in range(4):
        lines += ["[[bots]]", f'name = "r{i}"', 'bot = "random"',
                  f'env = {{ ARENA_SEED = "{i}", ARENA_KILL_MARKER = "{marker}" }}']
    return "\n".join(lines) + "\n"


def processes_with(marker: str) -> list[int]:
    """Live processes whose environment carries ``marker``."""
    return processes_marked("ARENA_KILL_MARKER", marker)


def stored(db: Path) -> dict[str, Comparable]:
    """Every stored game, checked to decode and replay to its stored result; as comparable data."""
    if not db.exists():
        return {}
    games: dict[str, Comparable] = {}
    with Store(db) as store:
        for game in store.games():
            record = game.record
            state = replay(get_game(f"{record.game}@{record.version}"), record.config, record.seed,
                           [(d.seat, d.action) for d in record.decisions])
            assert state.is_over(), f"{game.placement.game_id} is stored unfinished"
            assert state.result().scores == record.scores
            assert record.ranks == final_ranks(state.result().ranks, record.forfeited)
            games[game.placement.game_id] = (
                game.placement, record.seed, record.bots, record.faults, record.scores, record.ranks,
                tuple((d.seat, d.action, d.fallback) for d in record.decisions),
            )
    return games



@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Comparable], float]:
    """The league played uninterrupted: its games, and how long the run took (s)."""
    folder = tmp_path_factory.mktemp("kill-reference")
    (folder / "league.toml").write_text(league(f"ref-{os.getpid()}"))
    started = time.monotonic()
    done = subprocess.run([*ARENA, "tournament", "run", "league.toml", "--db", "ref.db"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    games = stored(folder / "ref.db")
    assert len(games) == GAMES
    return games, time.monotonic() - started


def kill_trial(folder: Path, trial: int, kills: int, reference: tuple[dict[str, Comparable], float]) -> None:
    """Up to ``kills`` runs of one database killed at random moments, checked after each, then a
    run left to finish."""
    expected, duration = reference
    marker = f"kill-{os.getpid()}-{trial}"
    (folder / "league.toml").write_text(league(marker))
    db = folder / "t.db"
    rng = random.Random(trial)
    for attempt in range(kills + 1):
        runner = subprocess.Popen([*ARENA, "tournament", "run", "league.toml", "--db", str(db)],
                                  cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            runner.wait(None if attempt == kills else rng.uniform(0.2, duration))
        except subprocess.TimeoutExpired:
            runner.send_signal(signal.SIGKILL)
        finally:
            runner.kill()
            runner.wait()
        assert wait_until(lambda: processes_with(marker) == [], 30), "bots outlived a killed runner"
        games = stored(db)
        assert all(games[game_id] == expected[game_id] for game_id in games)
        if runner.returncode == 0:
            break
    assert runner.returncode == 0
    assert games == expected


@pytest.mark.parametrize("trial", range(SHORT))
def test_a_killed_runner_stores_whole_games_and_resumes_to_the_same_results(
    trial: int, tmp_path: Path, reference: tuple[dict[str, Comparable], float]
) -> None:
    kill_trial(tmp_path, trial, 1, reference)


@pytest.mark.parametrize("trial", range(SHORT, SHORT + LONG))
def test_a_killed_runner_stores_whole_games_and_resumes_to_the_same_results_long(
    trial: int, tmp_path: Path, reference: tuple[dict[str, Comparable], float]
) -> None:
    kill_trial(tmp_path, trial, 3, reference)
