"""The order stored records come in does not change a leaderboard: the bootstrap resamples blocks
numbered by the games, not by their order."""

from __future__ import annotations

import random

import pytest
from lb_records import duplicate_tournament

from leaderboards.build import build_leaderboard
from leaderboards.model import RatingSettings


def test_shuffled_records_give_the_same_intervals_and_superiority() -> None:
    games = duplicate_tournament({"A": 0.6, "B": 0.2, "C": 0.0, "D": -0.5}, 30, 3, seed=4)
    settings = RatingSettings(bootstrap_samples=60)
    shuffled = list(games)
    random.Random(1).shuffle(shuffled)
    assert shuffled != games
    first, second = build_leaderboard(games, settings=settings), build_leaderboard(
        shuffled, settings=settings
    )
    for one, other in zip(first.standings, second.standings, strict=True):
        assert one.bot == other.bot
        assert (one.ci_low, one.ci_high) == pytest.approx((other.ci_low, other.ci_high), abs=1e-6)
        assert one.los_next == pytest.approx(other.los_next, abs=1e-9)
    for row, other_row in zip(first.los, second.los, strict=True):
        assert row == pytest.approx(other_row, abs=1e-9)
