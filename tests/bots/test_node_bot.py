"""The Node.js example bot of the bot authors' guide plays whole matches of every game without a fault.

Runs when ``node`` and ``npm`` are installed: the example is copied to a temporary folder and its
packages installed there with ``npm install`` (or used from ``docs/examples/node-bot/node_modules``
when they were installed in place).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from arena.clock import TimeControl
from arena.manifest import load_manifest, resolve_bot
from arena.referee import run_match
from engine.core import Game
from engine.registry import games

pytestmark = pytest.mark.sandbox

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "node-bot"


@pytest.fixture(scope="module")
def node_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a runnable copy of the example (its manifest is ``bot.toml`` there)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the Node.js example bot cannot run here")
    if (EXAMPLE / "node_modules" / "zeromq").is_dir() and (EXAMPLE / "node_modules" / "@msgpack").is_dir():
        return EXAMPLE
    folder = tmp_path_factory.mktemp("node-bot")
    for name in ("bot.js", "package.json", "bot.toml"):
        shutil.copy(EXAMPLE / name, folder / name)
    installed = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=folder, capture_output=True, text=True, timeout=300, check=False,
    )
    assert installed.returncode == 0, f"npm install failed:\n{installed.stdout}\n{installed.stderr}"
    return folder


@pytest.mark.parametrize("game", list(games().values()), ids=lambda g: g.key)
def test_the_node_bot_plays_a_full_match(game: Game, node_bot: Path, tmp_path: Path) -> None:
    config = game.configure(game.min_players)
    spec = load_manifest(node_bot / "bot.toml")
    seats = [spec] + [resolve_bot("random")] * (config.players - 1)
    record = run_match(game, config, 515, seats, TimeControl.parse("1s"), log_dir=tmp_path)
    assert record.faults == (), record.faults
    assert record.forfeited == ()
    mine = [d for d in record.decisions if d.seat == 0]
    assert mine and not any(d.fallback for d in mine)
    assert all(d.info is not None and isinstance(d.info.get("form"), list) for d in mine)
    assert len(record.ranks) == config.players
