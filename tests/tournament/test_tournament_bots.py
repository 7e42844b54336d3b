"""Bots that stay what they were: relative command lines run from the config file's folder (resume
from anywhere plays as run; a moved folder is a clear error, then plays on from its new place),
and a bot changed between run and resume is refused, or with permission stored as a new build."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import sys
from pathlib import Path

import pytest
from polling import wait_until
from stored_rows import stored_count
from test_tournament_resume import start_runner
from tournament_league import processes_with, results, run_arena

from arena.store.db import Store
from arena.tournament.botfiles import changes
from arena.tournament.builds import current_build
from arena.tournament.config import BotEntry

pytestmark = pytest.mark.slow

BOT = """import time
from bots import random as base
from protocols.sdk import run_matches

def new_match(start):
    choose = base.new_match(start)

    def paced(observation, legal, clock):
        time.sleep(0.005)
        return choose(observation, legal, clock)

    return paced

raise SystemExit(run_matches(new_match, name="mine", version="1"))
"""


def entrant_league(folder: Path, marker: str) -> Path:
    """A league folder: ``league.toml`` whose bots run ``mybots/mybot.py`` by a relative path."""
    (folder / "mybots").mkdir(parents=True)
    (folder / "mybots" / "mybot.py").write_text(BOT)
    lines = ['name = "league"', 'game = "wongar"', "table_size = 3", "deals = 1",
             'time_control = "2s/20s"', "seed = 2026", "concurrency = 2"]
    for i in range(4):
        lines += ["[[bots]]", f'name = "r{i}"', f'bot = "{sys.executable} mybots/mybot.py"',
                  "trusted = true",
                  f'env = {{ ARENA_SEED = "{i}", ARENA_TEST_MARKER = "{marker}" }}']
    (folder / "league.toml").write_text("\n".join(lines) + "\n")
    return folder / "league.toml"


def interrupted_run(config: Path, db: Path, marker: str) -> int:
    """Start ``run``, stop it with Ctrl-C once 3 games are stored; the games stored."""
    runner = start_runner(config, db)
    try:
        assert wait_until(lambda: stored_count(db) >= 3, timeout=90), "runner made no progress"
        os.kill(runner.pid, signal.SIGINT)
        runner.communicate(timeout=30)
    finally:
        runner.kill()
        runner.wait()
    assert runner.returncode == 130
    assert wait_until(lambda: processes_with(marker) == [], timeout=20)
    stored = stored_count(db)
    assert 3 <= stored < 12
    return stored


def test_resume_from_anywhere_and_from_a_moved_folder_plays_as_run(
    tmp_path: Path, marker: str, reference_db: Path
) -> None:
    config = entrant_league(tmp_path / "league", marker)
    db = tmp_path / "league" / "l.db"
    before = interrupted_run(config, db, marker)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    moved = tmp_path / "moved"
    shutil.move(tmp_path / "league", moved)
    lost = run_arena("tournament", "resume", "--db", str(moved / "l.db"), cwd=elsewhere)
    assert lost.returncode == 2, lost.stderr
    assert len(lost.stderr.strip().splitlines()) == 1, lost.stderr
    assert f"the folder {tmp_path / 'league'} of bot 'r0' no longer exists" in lost.stderr
    assert stored_count(moved / "l.db") == before, "a bot that cannot start forfeits nothing"

    shutil.move(moved, tmp_path / "league")
    resumed = run_arena("tournament", "resume", "--db", str(db), cwd=elsewhere)
    assert resumed.returncode == 0, resumed.stderr
    assert f"played {12 - before} games ({before} were already stored)" in resumed.stdout
    assert results(db) == results(reference_db)
    with Store(db) as store:
        assert all(g.record.faults == () for g in store.games())


def test_a_moved_league_plays_on_by_its_config_from_the_new_place(
    tmp_path: Path, marker: str, reference_db: Path
) -> None:
    config = entrant_league(tmp_path / "league", marker)
    before = interrupted_run(config, tmp_path / "league" / "l.db", marker)
    shutil.move(tmp_path / "league", tmp_path / "moved")
    moved = tmp_path / "moved"
    done = run_arena("tournament", "run", str(moved / "league.toml"), "--db", str(moved / "l.db"),
                     cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"played {12 - before} games" in done.stdout
    assert results(moved / "l.db") == results(reference_db)
    again = run_arena("tournament", "resume", "--db", str(moved / "l.db"), cwd=tmp_path)
    assert again.returncode == 0 and "played 0 games (12 were already stored)" in again.stdout


def test_a_changed_bot_is_refused_unless_allowed_then_stored_as_a_new_build(
    tmp_path: Path, marker: str
) -> None:
    config = entrant_league(tmp_path / "league", marker)
    db = tmp_path / "league" / "l.db"
    before = interrupted_run(config, db, marker)
    with (tmp_path / "league" / "mybots" / "mybot.py").open("a") as script:
        script.write("# build 2\n")

    refused = run_arena("tournament", "resume", "--db", str(db), cwd=tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "bot 'r0' changed since build 1 (mybots/mybot.py changed)" in refused.stderr
    assert "--allow-changed-bots" in refused.stderr
    rerun = run_arena("tournament", "run", str(config), "--db", str(db), cwd=tmp_path)
    assert rerun.returncode == 2 and "changed since build 1" in rerun.stderr
    assert stored_count(db) == before

    allowed = run_arena("tournament", "resume", "--db", str(db), "--allow-changed-bots",
                        cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stderr
    with Store(db) as store:
        builds = store.builds("league")
        games = store.games("league")
    assert {(b.bot, b.build) for b in builds} == {(f"r{i}", n) for i in range(4) for n in (1, 2)}
    assert len(games) == 12
    assert {frozenset(g.builds) for g in games} == {frozenset({1}), frozenset({2})}
    assert sum(1 for g in games if set(g.builds) == {1}) == before
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM game_seats WHERE build IS NULL").fetchone() == (0,)


def test_a_bot_s_files_are_its_program_s_arguments_and_its_manifest(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text("print(1)\n")
    (tmp_path / "weights.bin").write_bytes(b"\x00\x01")
    (tmp_path / "bot.toml").write_text(
        'name = "m"\ncommand = ["python3", "mybot.py", "weights.bin", "--depth", "3"]\n'
    )
    entry = BotEntry("m", str(tmp_path / "bot.toml"))
    before = current_build(entry).row.files
    assert set(before) == {"command", "version", "mybot.py", "weights.bin", "bot.toml"}
    (tmp_path / "weights.bin").write_bytes(b"\x00\x02")
    after = current_build(entry).row.files
    assert changes(before, after) == ["weights.bin changed"]
    moved = tmp_path.rename(tmp_path.with_name(tmp_path.name + "-moved"))
    assert current_build(BotEntry("m", str(moved / "bot.toml"))).row.files == after


def test_the_files_a_manifest_lists_are_fingerprinted_and_its_neighbours_are_not(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text("print(1)\n")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "openings.bin").write_bytes(b"\x00")
    (tmp_path / "league.toml").write_text("# the organiser's\n")
    (tmp_path / "bot.toml").write_text(
        'name = "m"\ncommand = ["python3", "mybot.py"]\nfiles = ["book"]\n'
    )
    entry = BotEntry("m", str(tmp_path / "bot.toml"))
    before = current_build(entry).row.files
    assert set(before) == {"command", "version", "mybot.py", "book/openings.bin", "bot.toml"}
    (tmp_path / "book" / "openings.bin").write_bytes(b"\x01")
    assert changes(before, current_build(entry).row.files) == ["book/openings.bin changed"]
