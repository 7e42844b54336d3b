"""Seeded random playouts for the conformance suite."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core import Decision, Game, MatchConfig, State


@dataclass(frozen=True)
class Setup:
    """One configuration of one registered game."""

    game: Game
    config: MatchConfig

    @property
    def id(self) -> str:
        return f"{self.config.key}-{self.config.variant}-{self.config.players}p"


def every_setup(games: dict[str, Game]) -> list[Setup]:
    """Every variant and player count of every game, with default knobs."""
    return [
        Setup(game, game.configure(players, variant.name))
        for game in games.values()
        for variant in game.variants
        for players in range(game.min_players, game.max_players + 1)
    ]


def random_decision(state: State, rng: random.Random) -> Decision:
    """A uniformly random legal decision of a uniformly random seat to move."""
    seat = rng.choice(state.to_move())
    return seat, rng.choice(state.legal_actions(seat))


def play_out(setup: Setup, seed: int, policy_seed: int, limit: int = 100_000) -> tuple[State, list[Decision]]:
    """Play a random game to the end; returns the final state and the decisions applied."""
    state = setup.game.start(setup.config, seed)
    rng = random.Random(policy_seed)
    decisions: list[Decision] = []
    while not state.is_over():
        assert len(decisions) < limit, f"{setup.id} seed {seed}: no end after {limit} decisions"
        seat, action = random_decision(state, rng)
        state.apply(seat, action)
        decisions.append((seat, action))
    return state, decisions
