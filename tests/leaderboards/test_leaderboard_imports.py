"""Data flows one way, arena → leaderboards: the ratings need no store, runner or schedule."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import leaderboards

PACKAGE = Path(leaderboards.__file__).parent


def test_leaderboards_import_nothing_of_arena() -> None:
    """Not even inert text: :mod:`leaderboards.inert` holds it, and :mod:`arena.inert` re-exports it."""
    found: dict[str, str] = {}
    for source in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name == "arena" or name.startswith("arena."):
                    found[name] = source.name
    assert not found, f"leaderboards imports {found}"


def test_rating_games_loads_no_store_runner_or_schedule() -> None:
    program = (
        "import json, sys\n"
        "from leaderboards import RatedGame, RatingSettings, build_leaderboard, render_json\n"
        "games = [RatedGame('g', 'v', s, ('a', 'b', 'c')[s % 3:] + ('a', 'b', 'c')[:s % 3], (1, 2, 3))"
        " for s in range(12)]\n"
        "render_json(build_leaderboard(games, settings=RatingSettings(bootstrap_samples=5)))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('arena'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout))
    assert not {m for m in loaded if m == "arena" or m.startswith("arena.")}, loaded
