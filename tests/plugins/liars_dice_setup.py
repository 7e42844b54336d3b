"""The installed Liar's Dice package (``pip install -e examples/games/liars_dice``) as Arena sees it.

:data:`DISCOVERED` says whether the registry finds the game through its ``arena.games`` entry
point; the tests of ``arena play`` and ``arena tournament run`` by the game's name are expected
to fail (strictly) while it does not, and must pass as soon as it does.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena.manifest import BotSpec
from engine.registry import games
from liars_dice import GAME
from protocols.messages import ENV_NODES

#: Whether the registry lists Liar's Dice (entry-point discovery of plugin games).
DISCOVERED = GAME.key in games()

#: Marks a test that runs the game by its name through the registry.
NEEDS_DISCOVERY = pytest.mark.xfail(
    not DISCOVERED,
    reason="engine.registry does not yet discover games through the arena.games entry point",
    strict=True,
)


#: The ``arena`` command line in a fresh interpreter of this Python, as an argument list.
ARENA = [sys.executable, "-c", "from arena.cli.app import main; main()"]


def search_bot(nodes: int, name: str = "liars-dice-search") -> BotSpec:
    """The package's search bot as a trusted process of this Python, thinking ``nodes`` tries a decision."""
    return BotSpec(name, (sys.executable, "-m", "liars_dice.bot"), env={ENV_NODES: str(nodes)},
                   version="1", trusted=True)


def search_manifest(folder: Path, nodes: int, name: str = "liars-dice-search") -> Path:
    """A manifest of the search bot (trusted, this Python) in ``folder``; its path."""
    path = folder / f"{name}.toml"
    path.write_text(
        f'name = "{name}"\nversion = "1"\ncommand = ["{sys.executable}", "-m", "liars_dice.bot"]\n'
        f"trusted = true\nnodes = {nodes}\n",
        encoding="utf-8",
    )
    return path
