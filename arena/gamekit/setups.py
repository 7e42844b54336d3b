"""The setups of a game (every variant and player count, default knobs) and a seeded random policy."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core import Decision, Game, MatchConfig, State

#: Decisions after which a random playout counts as never ending.
PLAYOUT_LIMIT = 100_000


@dataclass(frozen=True, slots=True)
class Setup:
    """One configuration of one game."""

    game: Game
    config: MatchConfig

    @property
    def id(self) -> str:
        """``name@version-variant-Np``."""
        return f"{self.config.key}-{self.config.variant}-{self.config.players}p"


def game_setups(game: Game) -> list[Setup]:
    """Every variant and player count of ``game``, with default knobs."""
    return [
        Setup(game, game.configure(players, variant.name))
        for variant in game.variants
        for players in range(game.min_players, game.max_players + 1)
    ]


def random_decision(state: State, rng: random.Random) -> Decision:
    """A uniformly random legal decision of a uniformly random seat to move."""
    seat = rng.choice(state.to_move())
    return seat, rng.choice(state.legal_actions(seat))


class EndlessGame(AssertionError):
    """A random playout that did not end within :data:`PLAYOUT_LIMIT` decisions."""


def play_out(setup: Setup, seed: int, policy_seed: int) -> tuple[State, list[Decision]]:
    """Play the deal of ``seed`` to the end with the random policy seeded by ``policy_seed``; the final
    state and the decisions applied. Raises :class:`EndlessGame`."""
    state = setup.game.start(setup.config, seed)
    rng = random.Random(policy_seed)
    decisions: list[Decision] = []
    while not state.is_over():
        if len(decisions) >= PLAYOUT_LIMIT:
            raise EndlessGame(f"{setup.id} seed {seed}: no end after {PLAYOUT_LIMIT} decisions")
        seat, action = random_decision(state, rng)
        state.apply(seat, action)
        decisions.append((seat, action))
    return state, decisions
