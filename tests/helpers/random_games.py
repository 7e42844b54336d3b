"""Whole games played through the engine alone by seeded random choices: fast known-answer inputs."""

from __future__ import annotations

import random

from arena_bot.wire_types import WireMap
from engine.core import State
from engine.registry import get_game


def played(game_name: str, variant: str, players: int, seed: int) -> tuple[State, list[WireMap]]:
    """A game of ``players`` played to the end by seeded random choices (every seat to move chooses
    in seat order), and every event of it in order."""
    game = get_game(game_name)
    state = game.start(game.configure(players, variant), seed)
    chooser = random.Random(seed)
    while not state.is_over():
        for seat in state.to_move():
            if seat in state.to_move():
                state.apply_checked(seat, chooser.choice(state.legal_actions(seat)))
    return state, [event.data for event in state.log]


def busy_wongar_root(seed: int, fewest: int = 5) -> tuple[State, int]:
    """A basic Wongar position at a table of three, reached by seeded random choices, where the seat
    to move has at least ``fewest`` actions, and that seat."""
    game = get_game("wongar")
    state = game.start(game.configure(3, None, {}), seed)
    chooser = random.Random(seed)
    while True:
        (seat,) = state.to_move()
        legal = state.legal_actions(seat)
        if len(legal) >= fewest:
            return state, seat
        state.apply(seat, chooser.choice(legal))
