"""Arena knows no particular game: every word and picture of a seed game lives in its own package,
as a third-party game's would, and Arena reads them through the presentation hook."""

from __future__ import annotations

import re
from pathlib import Path

import arena
from arena.site.viewers import viewer_of
from engine.registry import games

ARENA = Path(arena.__file__).resolve().parent


def seed_games() -> list[str]:
    """The names and titles of the games that come with the engine."""
    return sorted({word for g in games().values() if type(g).__module__.startswith("engine.")
                   for word in (g.name, g.title)})


def test_no_file_under_arena_names_a_seed_game() -> None:
    words = seed_games()
    assert len(words) >= 2
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    files = [p for p in ARENA.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert len(files) > 50
    found = [f"{p.relative_to(ARENA)}: {m.group(0)}" for p in files
             if (m := pattern.search(p.name + "\n" + p.read_bytes().decode("utf-8", "replace")))]
    assert found == []


def test_the_seed_games_ship_their_own_viewers() -> None:
    for game in games().values():
        if not type(game).__module__.startswith("engine."):
            continue
        viewer = viewer_of(game)
        assert viewer.script == f"{game.name}.viewer.js" and viewer.style == f"{game.name}.viewer.css"
        assert f'R.games.{game.name} = function' in viewer.files[viewer.script]
        assert viewer.files[viewer.style].startswith("/*")
