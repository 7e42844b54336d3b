"""Which root action a search answers, from each action's visits and mean reward."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.shared.tree_search import answer

STANDINGS = {3: (40, 0.55), 5: (38, 0.61), 8: (12, 0.70), 9: (-1, 0.0)}


def test_a_floor_of_one_answers_the_most_visited() -> None:
    assert answer(STANDINGS, 1.0, random.Random(1)) == 3


def test_a_floor_of_zero_answers_the_best_mean() -> None:
    assert answer(STANDINGS, 0.0, random.Random(1)) == 8


def test_a_floor_between_answers_the_best_mean_of_the_well_visited() -> None:
    assert answer(STANDINGS, 0.5, random.Random(1)) == 5


def test_equal_means_go_to_the_more_visited_and_equal_visits_to_the_better_mean() -> None:
    assert answer({1: (3, 0.4), 2: (7, 0.4)}, 0.0, random.Random(1)) == 2
    assert answer({1: (9, 0.4), 2: (9, 0.5)}, 1.0, random.Random(1)) == 2


@settings(max_examples=100, deadline=None)  # no deadline: a busy machine must pass too
@given(
    st.dictionaries(st.integers(0, 60), st.tuples(st.integers(0, 500), st.floats(0.0, 1.0)), min_size=1),
    st.floats(0.0, 1.0),
    st.integers(0, 2**32),
)
def test_no_action_visited_enough_has_a_better_mean(
    standings: dict[int, tuple[int, float]], floor: float, seed: int
) -> None:
    chosen = answer(standings, floor, random.Random(seed))
    least = floor * max(visits for visits, _ in standings.values())
    visits, mean = standings[chosen]
    assert visits >= least
    assert all(m <= mean for v, m in standings.values() if v >= least)
