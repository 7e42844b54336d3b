"""Every registered game's score breakdown adds up: on a game played to the end, each seat's
points over the rows sum to its final score; the replay data carries the breakdown (or the final
scores alone when a game's rows do not add up)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from arena.site.frames import final_breakdown
from arena_bot.wire_types import WireMap
from engine.core import Game, State
from engine.presentation import Presentation
from engine.registry import games
from tests.presentation.toy_game import GAME as TOY


def played(game: Game, seed: int) -> State:
    """A whole game of ``game`` at its smallest table of three or more, by seeded random choices."""
    config = game.configure(max(game.min_players, min(3, game.max_players)))
    state = game.start(config, seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("key", sorted(games()))
def test_every_games_breakdown_sums_to_its_final_scores(key: str) -> None:
    game = games()[key]
    state = played(game, seed=3)
    rows = game.presentation().score_breakdown(state, [event.data for event in state.log])
    scores = list(state.result().scores)
    assert rows, f"{key}: no row"
    for label, points in rows:
        assert isinstance(label, str) and label.strip(), f"{key}: a row without a label"
        assert len(points) == len(scores) and all(type(p) is int for p in points), f"{key}: {label}: {points}"
    assert [sum(column) for column in zip(*(points for _, points in rows))] == scores, f"{key}: {rows} vs {scores}"
    assert final_breakdown(game.presentation(), state) == [[label, points] for label, points in rows]


class Miscounted(Presentation):
    """A breakdown whose rows do not add up to the final scores."""

    def score_breakdown(self, state: State, events: Sequence[WireMap]) -> list[tuple[str, list[int]]]:
        return [("most pebbles", [1] * len(state.result().scores))]


def test_a_breakdown_that_does_not_add_up_gives_way_to_the_final_scores() -> None:
    state = played(TOY, seed=1)
    scores = list(state.result().scores)
    assert Presentation().score_breakdown(state, []) == [("final score", scores)]
    assert final_breakdown(Miscounted(), state) == [["final score", scores]]
    unfinished = TOY.start(TOY.configure(3), 0)
    assert final_breakdown(Presentation(), unfinished) is None
