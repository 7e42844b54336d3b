"""Liar's Dice positions staged with chosen dice, for known-answer tests."""

from __future__ import annotations

from liars_dice import GAME
from liars_dice.state import LiarsDiceState


def stage(dice: list[list[int]], variant: str = "standard", turn: int = 0) -> LiarsDiceState:
    """A fresh round in which seat ``s`` holds ``dice[s]`` and ``turn`` is to open (every seat
    started with as many dice as the largest hand; an empty hand is a seat that is out)."""
    size = max(len(d) for d in dice)
    state = GAME.new_state(len(dice), seed=1, variant=variant, dice=size)
    assert isinstance(state, LiarsDiceState)
    state.dice = [list(d) for d in dice]
    state.out = [s for s, d in enumerate(dice) if not d]
    state.turn = turn
    return state
