"""A real league of the built-in bots (node budgets): tables played, a bot added, a version
updated and a bot retired between runs, a runner SIGKILLed mid-run and run again. Every decided
table ends up whole (each rotation of its deal stored once), no retired version is seated after its
retirement, nothing void is rated, and the stored ratings equal a refit from the stored games."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from polling import wait_until
from stored_rows import stored_count

from arena.league.book import entrants, league, ratings_history, tables
from arena.league.config import label
from arena.league.fit import fit_games, league_games, league_outcomes
from arena.store.db import Store

pytestmark = pytest.mark.slow

ARENA = [sys.executable, "-c", "from arena.cli.app import main; main()"]

CONFIG = """name = "spring"
game = "wongar"
variant = "basic"
table_size = 3
time_control = "1s"
seed = 11

[matchmaking]
placement_games = 3

[[bots]]
name = "random"
bot = "random"

[[bots]]
name = "greedy"
bot = "greedy"
nodes = 4

[[bots]]
name = "ismcts"
bot = "ismcts"
nodes = 20
"""


def arena(folder: Path, *args: str) -> str:
    done = subprocess.run([*ARENA, *args], cwd=folder, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def half_played(db: Path) -> bool:
    """Whether the last decided table has fewer games stored than it seats."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            row = conn.execute("SELECT tournament FROM league_tables ORDER BY number DESC "
                               "LIMIT 1").fetchone()
            if row is None:
                return False
            stored = conn.execute("SELECT count(*) FROM games WHERE tournament = ?", row)
            return int(stored.fetchone()[0]) < 3
    except sqlite3.Error:
        return False


def kill_mid_table(folder: Path) -> None:
    """Run the league without end and SIGKILL it while a table is half played (tried again if the
    table was whole by the time the signal landed)."""
    for _ in range(5):
        runner = subprocess.Popen([*ARENA, "league", "run", "--db", "l.db", "-j", "1"],
                                  cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert wait_until(lambda: half_played(folder / "l.db"), timeout=120), "no progress"
            os.kill(runner.pid, signal.SIGKILL)
        finally:
            runner.kill()
            runner.wait()
        if half_played(folder / "l.db"):
            return
    pytest.fail("never caught a table half played")


def test_a_league_survives_entrant_changes_and_a_sigkill(tmp_path: Path) -> None:
    (tmp_path / "league.toml").write_text(CONFIG)
    arena(tmp_path, "league", "init", "league.toml", "--db", "l.db")
    out = arena(tmp_path, "league", "run", "--db", "l.db", "--tables", "2", "-j", "2")
    assert "played 2 new tables: 6 games stored" in out
    arena(tmp_path, "league", "add", "late", "greedy", "--nodes", "2", "--db", "l.db")
    out = arena(tmp_path, "league", "run", "--db", "l.db", "--tables", "2")
    assert "late@1" in out.splitlines()[0], "a new entrant plays its placement table at once"
    arena(tmp_path, "league", "update", "greedy", "greedy", "--nodes", "8", "--db", "l.db")
    arena(tmp_path, "league", "retire", "random", "--db", "l.db")
    with Store(tmp_path / "l.db") as store:
        changed_at = len(tables(store, "spring"))
    kill_mid_table(tmp_path)
    out = arena(tmp_path, "league", "run", "--db", "l.db", "--tables", "1")
    assert " completed: " in out.splitlines()[0], "the table cut short is completed first"

    db = tmp_path / "l.db"
    with Store(db) as store:
        row = league(store, None)
        decided = tables(store, "spring")
        games = league_games(store, decided)
        for table in decided:
            stored = store.games(table.tournament)
            assert len(stored) == 3, f"table {table.number} is whole"
            assert {g.record.bots for g in stored} == {
                rotation for rotation in _rotations(tuple(label(k) for k in table.seats))}
            assert {g.placement.deal for g in stored} == {0}
        for table in decided[changed_at:]:
            assert ("greedy", 1) not in table.seats and ("random", 1) not in table.seats
        assert ("greedy", 2) in {k for t in decided[changed_at:] for k in t.seats}
        outcomes = league_outcomes(store, "spring")
        assert sorted(outcomes) == sorted((g.record.bots, g.record.ranks) for g in games)
        fit = fit_games([(g.record.bots, g.record.ranks) for g in games], row.table_size)
        assert fit is not None
        assert sum(fit.games.values()) == 3 * len(outcomes) == 9 * len(decided), "no void is rated"
        latest = [r for r in ratings_history(store, "spring") if r.tables == len(decided)]
        assert [(r.bot, r.version, r.games) for r in latest] == [
            (r.bot, r.version, r.games) for r in fit.rows(len(decided))]
        for stored_rating, refit in zip(latest, fit.rows(len(decided)), strict=True):
            assert stored_rating.elo == pytest.approx(refit.elo, abs=1e-6)
            assert stored_rating.sd == pytest.approx(refit.sd, abs=1e-6)
        versions = {v.key: v for v in entrants(store, "spring")}
    assert not versions[("greedy", 1)].active and versions[("greedy", 2)].active
    board = json.loads(arena(tmp_path, "league", "ladder", "--db", "l.db", "--format", "json"))
    assert board["games"] == len(games)
    assert {s["bot"] for s in board["standings"]} == {label(k) for k in fit.games}
    history = arena(tmp_path, "league", "history", "greedy", "--db", "l.db")
    assert "greedy@1: arrived after table 0, retired" in history
    assert f"greedy@2: arrived after table {changed_at}, active" in history


def _rotations(seats: tuple[str, ...]) -> list[tuple[str, ...]]:
    return [seats[i:] + seats[:i] for i in range(len(seats))]


BROKEN = CONFIG.replace('[[bots]]\nname = "ismcts"\nbot = "ismcts"\nnodes = 20\n', (
    '[[bots]]\nname = "broken"\nbot = "python3 -c \'raise SystemExit(1)\'"\ntrusted = true\n'))


def test_a_bot_that_cannot_start_stops_the_run_until_it_is_retired(tmp_path: Path) -> None:
    """A bot stored without the start check (or broken since it was stored)."""
    (tmp_path / "league.toml").write_text(BROKEN)
    arena(tmp_path, "league", "init", "league.toml", "--db", "l.db", "--no-check")
    done = subprocess.run([*ARENA, "league", "run", "--db", "l.db", "--tables", "1"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    message = " ".join(done.stderr.split())
    assert done.returncode == 2
    assert "error: table 0 of league 'spring': bot 'broken@1' cannot start" in message
    assert "Nothing was played" in message
    arena(tmp_path, "league", "retire", "broken", "--db", "l.db")
    arena(tmp_path, "league", "add", "ismcts", "ismcts", "--nodes", "20", "--db", "l.db")
    out = arena(tmp_path, "league", "run", "--db", "l.db", "--tables", "1")
    assert out.splitlines()[0] == "table 1 (placement): greedy@1, ismcts@1, random@1"
    with Store(tmp_path / "l.db") as store:
        decided = tables(store, "spring")
        assert [len(store.games(t.tournament)) for t in decided] == [0, 3], (
            "the table seating a version retired since is left as it was")


def test_ctrl_c_stops_the_run_and_the_next_run_makes_every_table_whole(tmp_path: Path) -> None:
    (tmp_path / "league.toml").write_text(CONFIG)
    arena(tmp_path, "league", "init", "league.toml", "--db", "l.db")
    runner = subprocess.Popen([*ARENA, "league", "run", "--db", "l.db", "-j", "1"], cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: stored_count(tmp_path / "l.db") >= 4, timeout=120)
        os.kill(runner.pid, signal.SIGINT)
        _, stderr = runner.communicate(timeout=60)
    finally:
        runner.kill()
        runner.wait()
    assert runner.returncode == 130
    assert "stopped: every stored game is kept" in " ".join(stderr.split())
    arena(tmp_path, "league", "run", "--db", "l.db", "--tables", "1")
    with Store(tmp_path / "l.db") as store:
        decided = tables(store, "spring")
        assert len(decided) >= 3
        assert [len(store.games(t.tournament)) for t in decided] == [3] * len(decided)
