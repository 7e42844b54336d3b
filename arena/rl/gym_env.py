"""Any registered game as a single-agent Gymnasium environment (docs/rl.md).

One seat (``seat``, 0 by default) learns; every other seat is played in this process by an
opponent (:mod:`arena.rl.opponents`, uniform random by default), made afresh for each deal with a
seed derived from the deal's. Observations, the action mask and rewards are those of the PettingZoo
environment (:mod:`arena.rl.pettingzoo_env`): ``{"observation", "action_mask"}`` as the observation,
the mask again as :meth:`ArenaGymEnv.action_masks` and ``info["action_mask"]``, the raw observation
as ``info["raw"]``, and the rank reward when the game ends (0 before). Seats deciding at the same
time decide in seat order, as there. An action outside the mask ends the episode at once with
:data:`ILLEGAL_REWARD` (``info["illegal"]`` names it); a step after the end raises ``ValueError``.
"""

from __future__ import annotations

import copy
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from arena.rl.common import DealSeeds, Observation, configure, observation_space, observe, rank_rewards
from arena.rl.opponents import Opponent, OpponentFactory, random_opponent
from engine.core import Game, State, derive_seed
from engine.registry import get_game

#: The reward of an action outside the mask, which ends the episode (the game left unfinished).
ILLEGAL_REWARD = -1.0


class ArenaGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of one game configuration against in-process opponents."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        variant: str | None = None,
        knobs: dict[str, object] | None = None,
        seat: int = 0,
        opponents: OpponentFactory = random_opponent,
        render_mode: str | None = None,
    ) -> None:
        self.game = get_game(game) if isinstance(game, str) else game
        self.config = configure(self.game, players, variant, knobs)
        if not 0 <= seat < self.config.players:
            raise ValueError(f"seat must be 0..{self.config.players - 1}, not {seat}")
        self.seat = seat
        self.encoder = self.game.encoder(self.config)
        self.actions = len(self.game.action_table(self.config))
        self.observation_space = observation_space(self.encoder, self.actions)
        self.action_space = spaces.Discrete(self.actions)
        self.render_mode = render_mode
        self._make_opponent = opponents
        self._opponents: dict[int, Opponent] = {}
        self._seeds = DealSeeds()
        self.state: State = self.game.start(self.config, 0)
        self._forfeited = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Deal from ``seed`` (see :class:`arena.rl.common.DealSeeds`) and play the opponents up to
        the learning seat's first decision."""
        super().reset(seed=seed)
        deal = self._seeds.next(seed)
        self.state = self.game.start(self.config, deal)
        self._forfeited = False
        self._opponents = {
            s: self._make_opponent(self.game, self.config, s, derive_seed(deal, "opponent", s))
            for s in range(self.config.players)
            if s != self.seat
        }
        self._play_opponents()
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` for the learning seat, then the opponents until it decides again or the
        game ends."""
        if self.state.is_over() or self._forfeited:
            raise ValueError("the episode is over: reset before stepping")
        if int(action) not in self.state.legal_actions(self.seat):
            self._forfeited = True
            return self._observe(), ILLEGAL_REWARD, True, False, {**self._info(), "illegal": int(action)}
        self.state.apply(self.seat, int(action))
        self._play_opponents()
        over = self.state.is_over()
        reward = rank_rewards(self.state.result())[self.seat] if over else 0.0
        return self._observe(), reward, over, False, self._info()

    def action_masks(self) -> NDArray[np.int8]:
        """The learning seat's legal actions as a 0/1 mask over the action table."""
        mask: NDArray[np.int8] = self._observe()["action_mask"]
        return mask

    def render(self) -> str | None:
        """The omniscient text picture (``render_mode="ansi"``)."""
        return self.state.render() if self.render_mode == "ansi" else None

    def _play_opponents(self) -> None:
        while not self.state.is_over():
            seat = self.state.to_move()[0]
            if seat == self.seat:
                return
            self.state.apply(seat, self._opponents[seat](self.state.observation(seat), self.state.legal_actions(seat)))

    def _observe(self) -> Observation:
        return observe(self.state, self.encoder, self.seat, self.actions)

    def _info(self) -> dict[str, Any]:
        """The raw observation (a copy: the engine may share unchanged parts between calls) and the mask."""
        return {"raw": copy.deepcopy(self.state.observation(self.seat)), "action_mask": self._observe()["action_mask"]}
