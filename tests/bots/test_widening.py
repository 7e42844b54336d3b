"""Progressive widening: a seat whose actions a prior seeded searches only its best few by that
prior, ``1 + widening * sqrt(visits)`` of them, so a short search goes deep along the moves a
greedy seat would consider first."""

from __future__ import annotations

import random

import pytest

from bots import expert, ismcts
from bots.heuristics import estimator, finisher, never, playout
from bots.shared.tree_search import PRIOR_VISITS, Tuning, _considered, _iterate, _Node, _seed_root
from tests.helpers.random_games import busy_wongar_root

ESTIMATE = estimator("wongar")


def _ranked_node(ranked: list[int], visits: int) -> _Node:
    node = _Node()
    node.ranked[0] = ranked
    node.visits = visits
    return node


@pytest.mark.parametrize(("visits", "wanted"), [(0, [5]), (3, [3, 5]), (4, [3, 5, 7]), (100, [1, 3, 5, 7])])
def test_a_seat_considers_more_of_its_best_actions_as_its_node_is_visited(visits: int, wanted: list[int]) -> None:
    assert _considered(_ranked_node([5, 3, 7, 1], visits), 0, [1, 3, 5, 7], 1.0) == wanted


def test_without_widening_or_a_prior_a_seat_considers_every_legal_action() -> None:
    assert _considered(_ranked_node([5, 3, 7, 1], 0), 0, [1, 3, 5, 7], 0.0) == [1, 3, 5, 7]
    assert _considered(_ranked_node([5, 3, 7, 1], 0), 1, [2, 4], 1.0) == [2, 4]


def test_when_none_of_the_best_few_is_legal_in_this_deal_every_legal_action_is_considered() -> None:
    assert _considered(_ranked_node([5, 3, 7, 1], 0), 0, [2, 4], 1.0) == [2, 4]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_short_widening_search_spends_its_iterations_on_the_priors_best_root_actions(seed: int) -> None:
    """Nine iterations from a seeded root: the first goes to the prior's best action, and none goes
    past the three best (1 + sqrt(8) at the ninth); the others keep only their prior's visits."""
    root, seat = busy_wongar_root(seed)
    legal = tuple(root.legal_actions(seat))
    tuning = Tuning(finish=finisher("wongar"), node_prior=1, widening=1.0)
    tree = _Node()
    _seed_root(tree, root, seat, legal, ESTIMATE, tuning, never)
    ranked = tree.ranked[seat]
    assert sorted(ranked) == sorted(legal)
    rng = random.Random(seed)
    _iterate(tree, root.clone(), ESTIMATE, playout("wongar"), rng, tuning, never)
    assert tree.edges[(seat, ranked[0])].visits == PRIOR_VISITS + 1
    for _ in range(8):
        _iterate(tree, root.clone(), ESTIMATE, playout("wongar"), rng, tuning, never)
    searched = {action for action in legal if tree.edges[(seat, action)].visits > PRIOR_VISITS}
    assert searched <= set(ranked[:3])
    assert tree.visits == 9


def test_both_wongar_searches_widen_and_expert_searches_other_games_as_ismcts_does() -> None:
    assert ismcts.tuning_for("wongar").widening > 0 and expert.tuning_for("wongar").widening > 0
    assert expert.tuning_for("wongar").reward is not ismcts.tuning_for("wongar").reward
    assert expert.tuning_for("waroong") == ismcts.tuning_for("waroong") == Tuning()
