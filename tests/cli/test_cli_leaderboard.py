"""``arena leaderboard`` and ``arena publish`` over a real tournament in a real results database."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from arena.store.db import Store

LEAGUE = """
name = "cli-league"
game = "waroong"
variant = "street-vendor"
table_size = 3
deals = 2
time_control = "2s/20s"
seed = 7
concurrency = 2
[[bots]]
name = "first"
bot = "random"
env = { ARENA_SEED = "1" }
[[bots]]
name = "second"
bot = "random"
env = { ARENA_SEED = "2" }
[[bots]]
name = "third"
bot = "random"
env = { ARENA_SEED = "3" }
"""


def arena(*args: str, cwd: Path, columns: int = 200) -> subprocess.CompletedProcess[str]:
    """The ``arena`` command line in a fresh interpreter, on a console ``columns`` wide."""
    code = "from arena.cli.app import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={"COLUMNS": str(columns), "PATH": "/usr/bin:/bin"},
    )


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding league.toml and league.db with the whole league played."""
    folder = tmp_path_factory.mktemp("league")
    (folder / "league.toml").write_text(LEAGUE)
    done = arena("tournament", "run", "league.toml", "--db", "league.db", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder


def test_leaderboard_formats_agree(league: Path) -> None:
    table = arena("leaderboard", "--db", "league.db", "--samples", "20", cwd=league)
    assert table.returncode == 0, table.stderr
    for bot in ("first", "second", "third"):
        assert bot in table.stdout
    assert "provisional" not in table.stdout

    plain = arena("leaderboard", "--db", "league.db", "--format", "json", "--samples", "20", cwd=league)
    assert plain.returncode == 0, plain.stderr
    data = json.loads(plain.stdout)
    assert data["provisional"] is False
    ratings = {row["bot"]: row for row in data["standings"]}
    assert set(ratings) == {"first", "second", "third"}
    assert all(row["games"] == 6 for row in ratings.values())
    assert abs(sum(row["elo"] for row in ratings.values()) / 3 - 1500) < 1e-6

    markdown = arena("leaderboard", "--db", "league.db", "-f", "md", "--samples", "20", cwd=league)
    assert markdown.returncode == 0
    best = max(ratings.values(), key=lambda row: row["elo"])
    assert f"| 1 | {best['bot']}" in markdown.stdout


def test_publish_writes_the_leaderboard_and_the_site(league: Path) -> None:
    done = arena("publish", "--db", "league.db", "--out", "site", "--samples", "20", cwd=league)
    assert done.returncode == 0, done.stderr
    site = league / "site"
    assert {p.name for p in site.iterdir()} == {
        "index.html", "leaderboard.md", "leaderboard.json", "games.html", "games", "bots", "static",
    }
    data = json.loads((site / "leaderboard.json").read_text())
    html = (site / "index.html").read_text()
    for row in data["standings"]:
        assert row["bot"] in html
    assert "<script src" not in html and "http://" not in html.lower().replace("http://www.w3.org", "")


def _copy(source: Path, target: Path) -> None:
    """A consistent copy of a live SQLite database."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def test_a_league_still_running_is_provisional(league: Path, tmp_path: Path) -> None:
    """Drop one stored game from a copy: the board shows what is stored, marked provisional."""
    copy = tmp_path / "partial.db"
    _copy(league / "league.db", copy)
    with sqlite3.connect(copy) as db:
        first = db.execute("SELECT id FROM games ORDER BY rowid LIMIT 1").fetchone()[0]
        db.execute("DELETE FROM game_seats WHERE game = ?", (first,))
        db.execute("DELETE FROM games WHERE id = ?", (first,))
    done = arena("leaderboard", "--db", str(copy), "-f", "json", "--samples", "20", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["provisional"] is True
    assert sum(row["games"] for row in data["standings"]) == 5 * 3


def test_a_store_with_one_bot_cannot_be_rated(league: Path, tmp_path: Path) -> None:
    with Store(league / "league.db") as store:
        row = store.tournament(None)
        stored = store.games(row.name)[0]
    with Store(tmp_path / "solo.db") as solo:
        solo.add_tournament("solo", row.fingerprint, row.config, [])
        solo.add_game("solo", stored.placement, replace(stored.record, bots=("solo",) * 3))
    done = arena("leaderboard", "--db", "solo.db", cwd=tmp_path)
    assert done.returncode == 2
    assert "only one bot" in done.stderr and "solo" in done.stderr


def test_unknown_tournament_and_missing_database_are_clear_errors(league: Path) -> None:
    unknown = arena("leaderboard", "--db", "league.db", "--tournament", "autumn", cwd=league)
    assert unknown.returncode == 2
    assert "no tournament 'autumn'; stored: cli-league" in unknown.stderr
    missing = arena("publish", "--db", "nothing.db", "--out", "site2", cwd=league)
    assert missing.returncode == 2
    assert "nothing.db: no results database here" in missing.stderr
    assert not (league / "site2").exists()


def test_a_tournament_with_no_games_yet_says_how_to_play_them(league: Path, tmp_path: Path) -> None:
    _copy(league / "league.db", tmp_path / "empty.db")
    with sqlite3.connect(tmp_path / "empty.db") as db:
        db.execute("DELETE FROM game_seats")
        db.execute("DELETE FROM games")
    done = arena("leaderboard", "--db", "empty.db", cwd=tmp_path)
    assert done.returncode == 2
    assert "has no stored games yet" in done.stderr
    assert "Traceback" not in done.stderr
    published = arena("publish", "--db", "empty.db", "--out", "site", cwd=tmp_path)
    assert published.returncode == 0, published.stderr
    assert "published 0 games" in published.stdout and "no replays: no game is stored yet" in published.stdout
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'id="waiting"' in index and "No game of cli-league is stored yet" in index
    assert 'id="games"' in (tmp_path / "site" / "games.html").read_text(encoding="utf-8")


@pytest.mark.slow  # three games of the searching bots, twice through the command line
def test_the_built_in_ladder_runs_without_a_config_and_prints_its_leaderboard(tmp_path: Path) -> None:
    done = arena("tournament", "run", "--db", "ladder.db", "--deals", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "3 of 3 stored" in done.stdout
    assert "built-in-ladder" in done.stdout
    for bot in ("greedy-1", "greedy", "ismcts"):
        assert f" {bot} " in done.stdout
    again = arena("tournament", "run", "--db", "ladder.db", "--deals", "1", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "played 0 games (3 were already stored)" in again.stdout


@pytest.mark.slow
def test_the_built_in_ladder_ranks_its_three_bots_with_finite_intervals(tmp_path: Path) -> None:
    """The README's first command: node budgets make the games the same on any machine, and its
    ten deals are enough to rank greedy, ismcts (at its short budget) and greedy at level 1 with
    every interval finite and no fault."""
    done = arena("tournament", "run", "--db", "ladder.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "30 of 30 stored" in done.stdout and "too few games" not in done.stdout
    board = arena("leaderboard", "--db", "ladder.db", "--format", "json", cwd=tmp_path)
    assert board.returncode == 0, board.stderr
    standings = json.loads(board.stdout)["standings"]
    assert sorted(s["bot"] for s in standings) == ["greedy", "greedy-1", "ismcts"]
    assert standings[-1]["bot"] == "greedy-1"  # one decision ahead, below those that see a whole turn
    assert all(s["ci_low"] is not None and s["ci_high"] is not None for s in standings)
    assert all(s["flags"] == [] and s["faults"] == 0 for s in standings)


@pytest.mark.parametrize("columns", [60, pytest.param(80, marks=pytest.mark.slow)])  # 60 is the harder
def test_tables_stay_readable_on_a_narrow_terminal(league: Path, columns: int) -> None:
    """Every table fits the width without cutting an id, a name or a number short ('…')."""
    db = str(league / "league.db")
    with Store(league / "league.db") as store:
        ids = [g.placement.game_id for g in store.games()]
    names = ("first", "second", "third")
    commands: list[tuple[list[str], tuple[str, ...]]] = [
        (["games", "list", "--db", db], (*ids, *names)),
        (["leaderboard", "--db", db], names),
        (["tournament", "status", "--db", db], names),
        (["tournament", "plan", str(league / "league.toml"), "--games"], tuple(ids)),
        (["games"], ("wongar@2", "waroong@2")),
    ]
    for args, whole in commands:
        shown = arena(*args, cwd=league, columns=columns)
        assert shown.returncode == 0, shown.stderr
        table = [line for line in shown.stdout.splitlines() if line.startswith((" ", "┏", "┃", "┡", "│", "└"))]
        assert table and max(len(line) for line in table) <= columns, shown.stdout  # messages are never wrapped
        assert "…" not in shown.stdout, shown.stdout
        words = set(shown.stdout.replace("│", " ").replace(",", " ").replace("'", " ").split())
        assert all(w in words for w in whole), (args, shown.stdout)
