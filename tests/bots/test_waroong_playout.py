"""The quick Waroong Wars playout a search runs past its tree: legal moves to the end of the round."""

from __future__ import annotations

import random

import pytest

from bots.heuristics.waroong_playout import play_round
from engine.waroong import GAME
from engine.waroong.phases import DRAFT
from engine.waroong.state import WaroongState


class _CheckedState(WaroongState):
    """A position whose trusted ``apply`` checks legality, so the playout cannot cheat."""

    __slots__ = ()

    def apply(self, seat: int, action: int) -> None:
        assert seat in self.to_move(), (seat, self.to_move())
        assert action in self.legal_actions(seat), (seat, action, self.legal_actions(seat))
        super().apply(seat, action)


def _checked(state: WaroongState) -> WaroongState:
    source = state.clone()
    copy = _CheckedState.__new__(_CheckedState)
    for name in WaroongState.__slots__:
        setattr(copy, name, getattr(source, name))
    return copy


@pytest.mark.parametrize("variant", ["five-stars", "street-vendor"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_playout_plays_legal_moves_to_the_next_round(players: int, variant: str) -> None:
    """From positions all through random games, the playout stops at the next round's draft or the
    end of the game, with every card still in play."""
    config = GAME.configure(players, variant)
    rng = random.Random(players)
    tried = 0
    for seed in range(2):
        state = GAME.start(config, 9400 + seed)
        while not state.is_over():
            if rng.random() < 0.3:
                played = _checked(state)
                play_round(played, rng)
                assert played.is_over() or (played.phase == DRAFT and played.rounds > state.rounds)
                assert played.inventory() == state.inventory()
                tried += 1
            seat = rng.choice(state.to_move())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert tried > 0
