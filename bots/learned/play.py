"""Any vector policy as a bot: encode the observation as the environments do, mask, decide, answer.

A vector policy is a callable ``(vector, mask) -> action id``: ``vector`` is the seat's observation
encoded by the game's encoder (``Game.encoder(config)``, float32), ``mask`` the int8 0/1 mask over
the whole action table of the legal actions; exactly what :mod:`arena.rl` environments give a
learner. :func:`serve_vector_policy` plays it over the protocol, building it afresh for each match;
an action outside the mask ends the bot with a one-line message (the referee records a crash).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arena_bot.sdk import BotExit, Clock
from bots.learned.network import Network
from bots.shared.match import Match, Policy, serve
from engine.core import WireMap

#: Picks an action id from the encoded observation and the legal-action mask.
VectorPolicy = Callable[[NDArray[np.float32], NDArray[np.int8]], int]


def softmax_policy(network: Network, rng: random.Random, best: bool = False) -> VectorPolicy:
    """``network``'s masked softmax: an action drawn with its probability from ``rng`` or, with
    ``best``, the most probable legal action (the lowest id among equals). Never an illegal one."""

    def decide(vector: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        probabilities = network.probabilities(vector, mask)
        if best:
            return int(np.argmax(np.where(mask.astype(bool), probabilities, -1.0)))
        return draw(probabilities, rng)

    return decide


def draw(probabilities: NDArray[np.floating[Any]], rng: random.Random) -> int:
    """An index drawn with ``probabilities`` (non-negative, not all 0) from one ``rng`` number;
    an index of probability 0 is never drawn."""
    cumulative = np.cumsum(probabilities)
    return int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))


def serve_vector_policy(name: str, version: str, policy_for: Callable[[Match], VectorPolicy]) -> int:
    """Play until the referee says bye with ``policy_for(match)`` in each match; the exit status.
    ``policy_for`` may raise :class:`arena_bot.sdk.BotExit` to refuse a match (one line, status 1)."""
    return serve(name, version, vector_bot(policy_for))


def vector_bot(policy_for: Callable[[Match], VectorPolicy]) -> Callable[[Match], Policy]:
    """The bot's ``choose`` for each match: the observation encoded, the mask made from ``legal``,
    the match's vector policy asked; :class:`arena_bot.sdk.BotExit` if it answers an illegal action."""

    def match_policy(match: Match) -> Policy:
        encoder = match.game.encoder(match.config)
        actions = len(match.game.action_table(match.config))
        decide = policy_for(match)

        def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int:
            mask = np.zeros(actions, np.int8)
            mask[list(legal)] = 1
            action = decide(np.asarray(encoder.encode(observation), np.float32), mask)
            if action not in legal:
                raise BotExit(f"the policy chose action {action}, which is not legal now")
            return action

        return choose

    return match_policy
