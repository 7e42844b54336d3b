"""``greedy`` in a game with no estimate of its own (one installed as a package): each sampled
state of each action played on at random to the end and judged by the final scores, a flat Monte
Carlo search, not a choice among zeros."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import ModuleType

import pytest
from plugin_games import imported_kit_game

from arena_bot.sdk import Choice, Clock, clock_reading
from bots.greedy import greedy_policy
from bots.heuristics import knows
from bots.shared.match import Match

#: Deals played, and the nodes (sampled states, each a playout of every action) a decision.
DEALS = 24
NODES = 8


@pytest.fixture(scope="module")
def trick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The kit's game, scaffolded as ``mc_card`` and imported: unknown to the bots' heuristics."""
    with imported_kit_game("mc_card", tmp_path_factory.mktemp("kit")) as module:
        yield module


def test_greedy_judges_actions_by_playouts_and_beats_random(trick: ModuleType) -> None:
    game = trick.GAME
    assert not knows(game.name)
    config = game.configure(2, "high")
    greedy_places: list[int] = []
    values: set[float] = set()
    for deal in range(DEALS):
        seat = deal % 2
        choose = greedy_policy(Match(game, config, seat, random.Random(deal), NODES))
        state, rng = game.start(config, deal), random.Random(1000 + deal)
        while not state.is_over():
            mover = state.to_move()[0]
            legal = state.legal_actions(mover)
            if mover != seat:
                state.apply(mover, rng.choice(legal))
                continue
            picked = choose(state.observation(seat), tuple(legal), Clock(3600.0, 0.0, 0.0, "cpu", clock_reading("cpu")))
            if isinstance(picked, Choice):
                values.add(float(picked.info["value"]))
                picked = picked.action
            state.apply(seat, picked)
        greedy_places.append(state.result().ranks[seat])
    assert values - {0.0}, "every action was judged worth nothing: greedy chose at random"
    firsts = greedy_places.count(1)
    assert firsts >= DEALS * 3 / 4, f"greedy first in {firsts} of {DEALS} deals against a random seat"
