"""A real league of Liar's Dice fed through its submissions folder while `arena league run` plays:
a submitted bot (sandboxed) taken as a new entrant, an entrant added by the organiser, a new
version submitted mid-run, a version that passes the bot check but fails the validation table, a
fixed upload taken again, a retirement, and the runner SIGKILLed mid-table then run again.

Every decided table ends whole with each rotation stored once, nothing void is rated, the refused
version is never an entrant nor rated and its reason is in its owner's folder (with no one else's
output), and the stored ratings equal a refit from the stored games."""

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
from sandboxed import require_sandbox

from arena.league.book import entrants, league, ratings_history, tables
from arena.league.config import label
from arena.league.fit import fit_games, league_games, league_outcomes
from arena.league.owners import owners_root
from arena.league.submissions import ACCEPTED, REFUSED, submissions
from arena.store.db import Store

pytestmark = pytest.mark.sandbox

ARENA = [sys.executable, "-c", "from arena.cli.app import main; main()"]

CONFIG = """name = "dice"
game = "liars_dice"
table_size = 2
time_control = "1s"
seed = 3

[matchmaking]
placement_games = 2

[submissions]
folder = "uploads"
settle_seconds = 0

[[bots]]
name = "r1"
bot = "random"

[[bots]]
name = "r2"
bot = "random"
env = { ARENA_SEED = "2" }
"""

GOOD = """# version {version}
from bots.random import main
raise SystemExit(main())
"""
#: Passes the bot check (one match per process) and crashes at its second match, which the
#: validation table plays in the same process.
CRASHES_LATER = """import os
from arena_bot.sdk import match_random, run_matches

started = 0


def new_match(start):
    global started
    started += 1
    if started == 2:
        os._exit(1)
    rng = match_random(start)
    return lambda observation, legal, clock: rng.choice(legal)


raise SystemExit(run_matches(new_match, name="alice", version="3"))
"""


def arena(folder: Path, *args: str) -> str:
    done = subprocess.run([*ARENA, *args], cwd=folder, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def submit(folder: Path, program: str) -> None:
    """Write alice's submission in place (the intake waits for two looks at the same content)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.py").write_text(program)
    (folder / "bot.toml").write_text(f'name = "alice"\ncommand = ["{sys.executable}", "bot.py"]\n')


def query(db: Path, sql: str) -> list[tuple[object, ...]]:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return list(conn.execute(sql).fetchall())
    except sqlite3.Error:
        return []


def has(db: Path, sql: str) -> bool:
    return bool(query(db, sql))


def half_played_after(db: Path, number: int) -> bool:
    """Whether the last decided table is later than ``number`` and not yet whole."""
    rows = query(db, "SELECT number, (SELECT count(*) FROM games g WHERE g.tournament = "
                     "t.tournament) FROM league_tables t ORDER BY number DESC LIMIT 1")
    return bool(rows) and int(str(rows[0][0])) > number and int(str(rows[0][1])) < 2


def start(folder: Path, log: str) -> subprocess.Popen[bytes]:
    with (folder / log).open("wb") as out:
        return subprocess.Popen([*ARENA, "league", "run", "--db", "l.db", "-j", "1"], cwd=folder,
                                stdout=out, stderr=subprocess.STDOUT)


def test_a_league_takes_submissions_refuses_a_failing_version_and_survives_a_sigkill(
        tmp_path: Path) -> None:
    require_sandbox()
    tmp_path.chmod(0o755)  # the submitted bots' copies live beside the database
    db = tmp_path / "l.db"
    (tmp_path / "league.toml").write_text(CONFIG)
    arena(tmp_path, "league", "init", "league.toml", "--db", "l.db")
    alice = tmp_path / "uploads" / "alice"
    submit(alice, GOOD.format(version=1))
    runner = start(tmp_path, "run1.out")
    try:
        def running(condition: str) -> bool:
            assert runner.poll() is None, (tmp_path / "run1.out").read_text()
            return has(db, condition)

        assert wait_until(lambda: running("SELECT 1 FROM league_entrants WHERE bot = 'alice'"),
                          timeout=300)
        arena(tmp_path, "league", "add", "carol", "random", "--db", "l.db")
        submit(alice, GOOD.format(version=2))
        assert wait_until(lambda: running("SELECT 1 FROM league_entrants WHERE bot = 'alice' "
                                          "AND version = 2"), timeout=300)
        submit(alice, CRASHES_LATER)
        assert wait_until(lambda: running("SELECT 1 FROM league_submissions WHERE state = "
                                          "'refused'"), timeout=300)
        submit(alice, GOOD.format(version=4))
        assert wait_until(lambda: running("SELECT 1 FROM league_entrants WHERE bot = 'alice' "
                                          "AND version = 3"), timeout=300)
        arena(tmp_path, "league", "retire", "r2", "--db", "l.db")
        with Store(db) as store:
            retired_at = len(tables(store, "dice"))
        for attempt in range(5):  # a table decided after the retirement, cut short
            if attempt:
                runner = start(tmp_path, f"run{attempt + 1}.out")
            caught = wait_until(lambda: half_played_after(db, retired_at) or runner.poll()
                                is not None, timeout=300)
            assert caught and runner.poll() is None, "the runner stopped by itself"
            os.kill(runner.pid, signal.SIGKILL)
            runner.wait()
            if half_played_after(db, retired_at):
                break
        else:
            pytest.fail("never caught a table half played")
    finally:
        runner.kill()
        runner.wait()
    out = arena(tmp_path, "league", "run", "--db", "l.db", "--tables", "1")
    assert " completed: " in out.splitlines()[0], "the table cut short is completed first"

    with Store(db) as store:
        row = league(store, None)
        decided = tables(store, "dice")
        for table in decided:
            stored = store.games(table.tournament)
            seats = tuple(label(k) for k in table.seats)
            assert sorted(g.record.bots for g in stored) == sorted([seats, seats[::-1]]), (
                f"table {table.number}: each rotation stored once")
        assert not any(("r2", 1) in t.seats for t in decided[retired_at + 1:])
        games = league_games(store, decided)
        outcomes = league_outcomes(store, "dice")
        fit = fit_games([(g.record.bots, g.record.ranks) for g in games], row.table_size)
        assert fit is not None
        assert sum(fit.games.values()) == 2 * len(outcomes) == 4 * len(decided), "no void rated"
        latest = [r for r in ratings_history(store, "dice") if r.tables == len(decided)]
        refit = fit.rows(len(decided))
        assert [(r.bot, r.version, r.games) for r in latest] == [
            (r.bot, r.version, r.games) for r in refit]
        for stored_rating, fitted in zip(latest, refit, strict=True):
            assert stored_rating.elo == pytest.approx(fitted.elo, abs=1e-6)
            assert stored_rating.sd == pytest.approx(fitted.sd, abs=1e-6)

        looks = [s for s in submissions(store, "dice") if s.bot == "alice"]
        assert [(s.state, s.version) for s in looks] == [
            (ACCEPTED, 1), (ACCEPTED, 2), (REFUSED, None), (ACCEPTED, 3)]
        refused = looks[2]
        assert refused.reason is not None
        assert refused.reason.startswith("validation table, game 2 (seat 1): crash at decision")
        versions = {v.key: v for v in entrants(store, "dice")}
        assert [k for k in versions if k[0] == "alice"] == [("alice", 1), ("alice", 2),
                                                             ("alice", 3)]
        assert all(refused.hash[:16] not in v.entry.bot for v in versions.values()), (
            "the refused version is never an entrant")
        assert looks[3].hash[:16] in versions[("alice", 3)].entry.bot
        rated = {(r.bot, r.version) for r in ratings_history(store, "dice")}
        assert rated <= set(versions) and ("alice", 3) in {k for t in decided for k in t.seats}
        (token,) = store.rows("SELECT token FROM league_owners WHERE bot = 'alice'")
    owner = owners_root(db) / token[0]
    verdict = (owner / "validation" / f"{refused.hash[:16]}.txt").read_text()
    assert f"refused: {refused.reason}" in verdict
    logs = sorted(p.name for p in (owner / "games").iterdir())
    assert logs and all(name.startswith("alice@") for name in logs), "its own output alone"
    assert {name.split("-")[0] for name in logs} <= {"alice@1", "alice@2", "alice@3"}
    board = json.loads(arena(tmp_path, "league", "ladder", "--db", "l.db", "--format", "json"))
    assert board["games"] == len(games)
    assert {s["bot"] for s in board["standings"]} == {label(k) for k in fit.games}
