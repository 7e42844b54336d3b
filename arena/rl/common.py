"""What both environments share: the vectors, the action mask, the rewards and the spaces."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from engine.core import Game, MatchConfig, Result, State
from engine.encoding import Encoder

#: The two entries of every observation: the encoded view and the legal actions.
Observation = dict[str, NDArray[Any]]


def observation_space(encoder: Encoder, actions: int) -> spaces.Dict:
    """``{"observation": Box(size) float32, "action_mask": Box(actions) int8 in {0, 1}}``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, (encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        }
    )


def observe(state: State, encoder: Encoder, seat: int, actions: int) -> Observation:
    """``seat``'s encoded observation and its action mask (all 0 when it is not to move)."""
    mask = np.zeros(actions, np.int8)
    mask[state.legal_actions(seat)] = 1
    vector = np.asarray(encoder.encode(state.observation(seat)), np.float32)
    return {"observation": vector, "action_mask": mask}


def rank_rewards(result: Result) -> list[float]:
    """Each seat's reward for a finished game: the seats it ranks ahead of, minus the seats ranked
    ahead of it, over ``players - 1``. In [-1, 1], summing to 0 (a two-seat win is +1, a loss -1,
    a tie 0)."""
    ranks = result.ranks
    others = max(len(ranks) - 1, 1)
    return [sum((r > mine) - (r < mine) for r in ranks) / others for mine in ranks]


def configure(game: Game, players: int | None, variant: str | None, knobs: dict[str, object] | None) -> MatchConfig:
    """The validated configuration (``players`` defaults to the game's fewest)."""
    return game.configure(game.min_players if players is None else players, variant, knobs)


class DealSeeds:
    """The seed of each deal: ``reset(seed=s)`` deals from ``s``; a reset without a seed deals from
    the next number of a generator seeded by the last seed given (by the operating system's entropy
    before any was given)."""

    def __init__(self) -> None:
        self._rng = random.Random()

    def next(self, seed: int | None) -> int:
        """The deal's seed for a reset given ``seed``."""
        if seed is not None:
            self._rng = random.Random(seed)
            return seed
        return self._rng.getrandbits(62)
