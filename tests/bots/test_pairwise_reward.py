"""Known answers of the expert's search reward: each seat's mean head-to-head share."""

from __future__ import annotations

import math

import pytest

from bots.heuristics import REWARD_SCALE, rewards
from bots.shared.pairwise_reward import pairwise_rewards


def test_two_seats_get_the_ismcts_reward() -> None:
    assert pairwise_rewards([7.0, 3.0]) == pytest.approx(rewards([7.0, 3.0]))


def test_equal_seats_get_one_half_each() -> None:
    assert pairwise_rewards([5.0, 5.0, 5.0, 5.0]) == pytest.approx([0.5] * 4)


def test_each_pair_counts_once_and_the_shares_add_up_to_half_the_pairs() -> None:
    values = [10.0, 6.0, 2.0]
    got = pairwise_rewards(values)

    def ahead(a: float, b: float) -> float:
        return 1 / (1 + math.exp(-(a - b) / REWARD_SCALE))

    assert got[0] == pytest.approx((ahead(10, 6) + ahead(10, 2)) / 2)
    assert got[1] == pytest.approx((ahead(6, 10) + ahead(6, 2)) / 2)
    assert sum(got) == pytest.approx(len(values) / 2)


def test_second_place_is_worth_more_far_ahead_of_third_than_just_ahead() -> None:
    assert pairwise_rewards([10.0, 6.0, -4.0])[1] > pairwise_rewards([10.0, 6.0, 5.0])[1]
    # ismcts's reward sees only the lead over the best other seat: the same in both.
    assert rewards([10.0, 6.0, -4.0])[1] == rewards([10.0, 6.0, 5.0])[1]
