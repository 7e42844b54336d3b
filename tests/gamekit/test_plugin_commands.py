"""An installed game through every command that names a game: a bot check, a tournament of the
built-in random bot (its referee and workers import the game), a replay and a published site."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from plugin_games import arena_command, install_kit_game, plugin_env

pytestmark = pytest.mark.slow

LEAGUE = """
name = "plugin-league"
game = "slow_card"
variant = "low"
table_size = 3
format = "round-robin"
deals = 2
time_control = "1s/20s"
seed = 7
concurrency = 2
{bots}
"""


def arena(env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([arena_command(), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600)


def test_an_installed_game_is_checked_played_replayed_and_published(tmp_path: Path) -> None:
    project = install_kit_game(tmp_path, "slow_card")
    env = plugin_env(tmp_path, project)

    checked = arena(env, "bot", "check", "random", "--game", "slow_card", "--players", "3")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "passed: the bot follows the protocol" in checked.stdout

    bots = "".join(f'\n[[bots]]\nname = "random-{n}"\nbot = "random"\nenv = {{ ARENA_SEED = "{n}" }}\n'
                   for n in range(1, 5))
    config = tmp_path / "league.toml"
    config.write_text(LEAGUE.format(bots=bots), encoding="utf-8")
    db = tmp_path / "league.db"
    ran = arena(env, "tournament", "run", str(config), "--db", str(db), cwd=tmp_path)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "played 24 games" in ran.stdout

    listed = arena(env, "games", "list", "--db", str(db), "--json")
    assert listed.returncode == 0, listed.stderr
    stored = [json.loads(line) for line in listed.stdout.splitlines()]
    assert len(stored) == 24 and all(not game["faults"] for game in stored)

    replayed = arena(env, "replay", stored[0]["id"], "--db", str(db), "--no-step")
    assert replayed.returncode == 0, replayed.stderr
    assert "decision 12/12" in replayed.stdout and "play the " in replayed.stdout

    site = tmp_path / "site"
    published = arena(env, "publish", "--db", str(db), "--out", str(site), "--samples", "50")
    assert published.returncode == 0, published.stdout + published.stderr
    board = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))
    assert "slow_card" in json.dumps(board)
    assert len(list((site / "games").glob("*.js"))) == 24
