"""Seeded random playouts for the conformance suite."""

from __future__ import annotations

import random

from game_setups import Setup

from engine.core import Decision, State


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
