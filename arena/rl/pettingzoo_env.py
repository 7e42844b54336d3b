"""Any registered game as a PettingZoo AEC environment (docs/rl.md).

Agents are ``seat_0 .. seat_{n-1}``. Each observation is ``{"observation": float32 vector of the
game's encoder, "action_mask": int8 mask over the game's whole action table}``; the action space is
``Discrete(len(action table))``. Seats that decide at the same time (a simultaneous choice) are
asked one at a time in seat order, each choice applied as it is made; the engine keeps a seat's
choice out of every other seat's view until all have chosen, so no seat learns an earlier one.
The reward comes once, when the game ends (:func:`arena.rl.common.rank_rewards`); ``infos[agent]``
holds the seat's raw observation (``"raw"``) and its legal actions (``"legal"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.rl.common import DealSeeds, Observation, configure, observation_space, observe, rank_rewards
from engine.core import Game, State
from engine.registry import get_game


def agent_name(seat: int) -> str:
    """The agent playing ``seat``."""
    return f"seat_{seat}"


class ArenaAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """One game, variant, player count and knobs as an AEC environment."""

    metadata = {"render_modes": ["ansi"], "name": "arena_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        variant: str | None = None,
        knobs: dict[str, object] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = get_game(game) if isinstance(game, str) else game
        self.config = configure(self.game, players, variant, knobs)
        self.encoder = self.game.encoder(self.config)
        self.actions = len(self.game.action_table(self.config))
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.config.players)]
        self.observation_spaces = {a: observation_space(self.encoder, self.actions) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.actions) for a in self.possible_agents}
        self._seeds = DealSeeds()
        self.state: State = self.game.start(self.config, 0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game from ``seed`` (see :class:`arena.rl.common.DealSeeds`)."""
        self.state = self.game.start(self.config, self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._refresh_infos()
        self.agent_selection = agent_name(self.state.to_move()[0])

    def observe(self, agent: str) -> Observation:
        return observe(self.state, self.encoder, self.possible_agents.index(agent), self.actions)

    def step(self, action: int | None) -> None:
        """Play ``action`` for the selected agent; raises ``ValueError`` if it is not legal now."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        if action is None or int(action) not in self.state.legal_actions(seat):
            raise ValueError(f"action {action!r} is not legal for {agent} now")
        self.state.apply(seat, int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_over():
            for a, reward in zip(self.possible_agents, rank_rewards(self.state.result()), strict=True):
                self.rewards[a] = reward
                self.terminations[a] = True
        else:
            self.agent_selection = agent_name(self.state.to_move()[0])
        self._refresh_infos()
        self._accumulate_rewards()

    def _refresh_infos(self) -> None:
        self.infos = {
            a: {"raw": self.state.observation(s), "legal": self.state.legal_actions(s)}
            for s, a in enumerate(self.possible_agents)
            if a in self.agents
        }

    def render(self) -> str | None:
        """The omniscient text picture (``render_mode="ansi"``)."""
        return self.state.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""


def env(game: str | Game, **kwargs: Any) -> ArenaAECEnv:
    """``ArenaAECEnv(game, ...)`` (PettingZoo's constructor convention)."""
    return ArenaAECEnv(game, **kwargs)
