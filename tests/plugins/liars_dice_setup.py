"""The installed Liar's Dice package (``pip install ./examples/games/liars_dice``) as Arena sees it:
found by the registry through its ``arena.games`` entry point."""

from __future__ import annotations

import sys
from pathlib import Path

from arena.manifest import BotSpec
from liars_dice import GAME
from protocols.messages import ENV_NODES

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
