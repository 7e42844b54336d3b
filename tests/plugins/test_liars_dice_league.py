"""A real round-robin of Liar's Dice run by name through ``arena tournament run``: two seeded
random bots and the package's search bot, two seats a table, then the leaderboard."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from liars_dice_setup import ARENA, search_manifest

pytestmark = pytest.mark.slow


def test_the_search_bot_tops_a_round_robin_against_random_bots(tmp_path: Path) -> None:
    manifest = search_manifest(tmp_path, nodes=60)
    (tmp_path / "league.toml").write_text(
        "\n".join([
            'name = "liars-dice-league"',
            'game = "liars_dice"',
            'variant = "standard"',
            "table_size = 2",
            'format = "round-robin"',
            "deals = 4",
            'time_control = "5s"',
            "seed = 7",
            "concurrency = 2",
            "trusted = true",
            "[knobs]",
            "dice = 3",
            '[[bots]]\nname = "random-1"\nbot = "random"\nenv = { ARENA_SEED = "1" }',
            '[[bots]]\nname = "random-2"\nbot = "random"\nenv = { ARENA_SEED = "2" }',
            f'[[bots]]\nname = "liars-dice-search"\nbot = "{manifest}"',
        ]) + "\n",
        encoding="utf-8",
    )

    def arena(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*ARENA, *args], cwd=tmp_path, capture_output=True, text=True, timeout=600)

    done = arena("tournament", "run", "league.toml", "--db", "league.db")
    assert done.returncode == 0, done.stderr
    board = arena("leaderboard", "--db", "league.db", "--format", "json")
    assert board.returncode == 0, board.stderr
    standings = json.loads(board.stdout)["standings"]
    assert [s["bot"] for s in standings][0] == "liars-dice-search"
    games = {s["bot"]: s["games"] for s in standings}
    assert games == {"random-1": 16, "random-2": 16, "liars-dice-search": 16}, "3 tables x 4 deals x 2 seatings"
    assert all(s["faults"] == 0 for s in standings)
