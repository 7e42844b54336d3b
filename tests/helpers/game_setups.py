"""Every configuration of every registered game, for tests parametrized over the registry."""

from __future__ import annotations

from arena.gamekit.setups import Setup as Setup, game_setups
from engine.registry import games


def every_setup() -> list[Setup]:
    """Every variant and player count of every registered game, with default knobs."""
    return [setup for game in games().values() for setup in game_setups(game)]
