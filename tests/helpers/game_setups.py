"""Every configuration of every registered game, for tests parametrized over the registry."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Game, MatchConfig
from engine.registry import games


@dataclass(frozen=True)
class Setup:
    """One configuration of one registered game."""

    game: Game
    config: MatchConfig

    @property
    def id(self) -> str:
        return f"{self.config.key}-{self.config.variant}-{self.config.players}p"


def every_setup() -> list[Setup]:
    """Every variant and player count of every registered game, with default knobs."""
    return [
        Setup(game, game.configure(players, variant.name))
        for game in games().values()
        for variant in game.variants
        for players in range(game.min_players, game.max_players + 1)
    ]
