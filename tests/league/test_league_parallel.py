"""A league playing several tables at once (-j 2, one pool): SIGKILLed with tables in play, run
again it completes every table cut short before choosing a new one; the rating history holds a
step after each table and an exact fit at the chosen interval and at the end; `arena serve`'s
view and `arena publish` show the league's ladder, results and replays."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
from polling import wait_until
from test_league_run import ARENA, CONFIG, arena

from arena.league.book import ratings_history, tables
from arena.league.fit import PROVISIONAL_SD
from arena.live.watch import Watch
from arena.store.db import Store

pytestmark = pytest.mark.slow


def cut_short(db: Path) -> int:
    """Decided tables with fewer games stored than they seat (3)."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return int(conn.execute(
                "SELECT count(*) FROM league_tables t WHERE (SELECT count(*) FROM games g "
                "WHERE g.tournament = t.tournament) < 3").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_a_parallel_league_killed_mid_run_completes_its_tables_then_goes_on(tmp_path: Path) -> None:
    (tmp_path / "league.toml").write_text(CONFIG)
    arena(tmp_path, "league", "init", "league.toml", "--db", "l.db")
    arena(tmp_path, "league", "add", "second", "random", "--db", "l.db")
    db = tmp_path / "l.db"
    out = arena(tmp_path, "league", "run", "--db", "l.db", "-j", "2", "--tables", "4",
                "--exact-every", "3")
    assert "played 4 new tables: 12 games stored" in out
    with Store(db) as store:
        kinds = [(r.tables, r.exact) for r in ratings_history(store, "spring") if r.bot == "random"]
    # Exact after the first table (no fit to step from), a step after the second, exact after
    # the third (the interval) and the fourth (the end).
    assert kinds == [(1, True), (2, False), (3, True), (4, True)]

    for _ in range(5):
        runner = subprocess.Popen([*ARENA, "league", "run", "--db", "l.db", "-j", "2"],
                                  cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert wait_until(lambda: cut_short(db) >= 1, timeout=300), "no table in play"
            os.kill(runner.pid, signal.SIGKILL)
        finally:
            runner.kill()
            runner.wait()
        if cut_short(db):
            break
    left = cut_short(db)
    assert left >= 1, "never caught a table in play"
    lines = arena(tmp_path, "league", "run", "--db", "l.db", "-j", "2", "--tables", "1").splitlines()
    assert [" completed: " in line for line in lines[:left + 1]] == [True] * left + [False]
    assert cut_short(db) == 0

    with Store(db) as store:
        decided = tables(store, "spring")
        history = ratings_history(store, "spring")
        assert all(len(store.stored_ids(t.tournament)) == 3 for t in decided)
    assert history[-1].exact and history[-1].tables == len(decided)
    view = Watch(db).snapshot()
    assert view["tournament"] == "league spring" and view["stored"] == 3 * len(decided)
    assert view["finished"] and all(card["replay"] for card in view["finished"])
    # Each table is a tournament of its own: its games are numbered by the league's table.
    numbers = [(card["table"], card["deal"], card["rotation"]) for card in view["finished"]]
    assert len(set(numbers)) == len(numbers) and {n[0] for n in numbers} <= {t.number for t in decided}
    ladder = view["leaderboard"]
    latest = {f"{r.bot}@{r.version}": r for r in history if r.tables == len(decided) and r.exact}
    assert [row["bot"] for row in ladder] == sorted(latest, key=lambda b: -latest[b].elo)
    assert all(row["provisional"] == (latest[row["bot"]].sd > PROVISIONAL_SD) for row in ladder)

    out = arena(tmp_path, "publish", "--db", "l.db", "--out", "site")
    assert f"published {3 * len(decided)} games of 4 bots" in out
    assert len(list((tmp_path / "site" / "games").glob("*.html"))) == 3 * len(decided)
    listed = (tmp_path / "site" / "games.html").read_text()
    assert all(f"<td>{t.number + 1}.1.{r + 1}</td>" in listed for t in decided for r in range(3))
    assert "ismcts@1" in (tmp_path / "site" / "index.html").read_text()
