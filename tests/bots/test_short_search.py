"""A search too short to tell its actions apart keeps its prior's choice: in Wongar a few
iterations choose among the prior's near-equals by noise, so a search of fewer than
``Tuning.min_iterations`` (one cut short by the clock) answers its root prior's best."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bots import expert, ismcts
from bots.heuristics import estimator, playout, results
from bots.shared.levels import level_nodes
from bots.shared.tree_search import Tuning, search
from engine.core import State
from tests.helpers.random_games import busy_wongar_root

ESTIMATE = estimator("wongar")
TUNING = ismcts.tuning_for("wongar")


def _priors_best(root: State, seat: int, legal: tuple[int, ...], tuning: Tuning) -> int:
    """The action whose whole turn the prior scores best (ties: the lowest id)."""
    scored = [(-tuning.reward(estimates)[seat], action)
              for action, estimates in results(root, seat, legal, ESTIMATE, tuning.finish)]
    return min(scored)[1]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_search_shorter_than_its_fewest_iterations_answers_its_priors_best(seed: int) -> None:
    root, seat = busy_wongar_root(seed)
    legal = tuple(root.legal_actions(seat))
    tuning = replace(TUNING, min_iterations=10)
    best = _priors_best(root, seat, legal, tuning)
    for search_seed in range(3):
        verdict = search(root, seat, legal, ESTIMATE, playout("wongar"), lambda done: done < 9,
                         random.Random(search_seed), tuning=tuning)
        assert (verdict.action, verdict.iterations) == (best, 9)


def test_a_search_of_its_fewest_iterations_answers_by_its_own_rule() -> None:
    """Over a few positions and seeds, ten iterations of a search whose fewest is ten move off the
    prior's best somewhere, as the same search does without the floor."""
    moved = 0
    for seed in range(1, 7):
        root, seat = busy_wongar_root(seed)
        legal = tuple(root.legal_actions(seat))
        best = _priors_best(root, seat, legal, TUNING)
        for search_seed in range(3):
            floored = search(root, seat, legal, ESTIMATE, playout("wongar"), lambda done: done < 10,
                             random.Random(search_seed), tuning=replace(TUNING, min_iterations=10))
            free = search(root, seat, legal, ESTIMATE, playout("wongar"), lambda done: done < 10,
                          random.Random(search_seed), tuning=replace(TUNING, min_iterations=0))
            assert floored.action == free.action
            moved += floored.action != best
    assert moved > 0


def test_every_level_of_the_wongar_searches_searches_and_other_games_have_no_floor() -> None:
    fewest = level_nodes("ismcts", "wongar", 1)
    assert 0 < ismcts.tuning_for("wongar").min_iterations <= fewest
    assert expert.tuning_for("wongar").min_iterations == ismcts.tuning_for("wongar").min_iterations
    assert ismcts.tuning_for("waroong").min_iterations == 0
