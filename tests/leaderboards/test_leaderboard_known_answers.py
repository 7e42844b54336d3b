"""Known answers for the statistics behind a board: the Elo scale, the interval's tails, the
likelihood of superiority from a known covariance, and the prior at the optimum of a fit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lb_records import ordered
from leaderboards.bootstrap import expanded_tail, percentile_interval, superiority
from leaderboards.build import build_leaderboard
from leaderboards.model import RatingSettings
from leaderboards.scale import ELO_MEAN, ELO_PER_THETA, elo_points_to_theta, theta_to_elo_points


def test_the_elo_scale() -> None:
    assert ELO_PER_THETA == pytest.approx(173.71779276130073, rel=1e-15)
    assert ELO_MEAN == 1500.0
    assert theta_to_elo_points(math.log(10.0)) == pytest.approx(400.0, rel=1e-15)
    assert elo_points_to_theta(400.0) == pytest.approx(2.302585092994046, rel=1e-15)
    assert theta_to_elo_points(-2.0) == pytest.approx(-347.43558552260146, rel=1e-15)
    # 200 Elo points: the stronger scores 1 / (1 + 10^(-1/2)) ≈ 0.7597.
    assert 1 / (1 + math.exp(-elo_points_to_theta(200.0))) == pytest.approx(0.7597469266479578, rel=1e-12)


def test_the_expanded_tail_of_a_95_percent_interval() -> None:
    # Φ(−√(10/9) · t₉(0.975)) with t₉(0.975) = 2.2621571627982.
    assert expanded_tail(0.95, 10) == pytest.approx(0.008550639024406366, rel=1e-9)
    assert expanded_tail(0.95, 1) == pytest.approx(0.025, rel=1e-15)
    assert expanded_tail(0.90, 1) == pytest.approx(0.05, rel=1e-15)
    assert expanded_tail(0.95, 0) == pytest.approx(0.025, rel=1e-15)
    assert expanded_tail(0.95, 10**7) == pytest.approx(0.025, rel=1e-5)  # the plain tail in the limit
    assert expanded_tail(0.95, 2) < expanded_tail(0.95, 3) < 0.025


def test_a_95_percent_percentile_interval_cuts_two_and_a_half_percent_each_side() -> None:
    samples = np.column_stack([np.arange(1001.0), -np.arange(1001.0)])
    low, high = percentile_interval(samples, 0.95)
    assert low == pytest.approx([25.0, -975.0], abs=1e-9) and high == pytest.approx([975.0, -25.0], abs=1e-9)
    low, high = percentile_interval(samples, 0.90)
    assert low == pytest.approx([50.0, -950.0], abs=1e-9) and high == pytest.approx([950.0, -50.0], abs=1e-9)
    # Expanded for 10 blocks: 0.855% each side.
    low, high = percentile_interval(samples, 0.95, blocks=10)
    assert low[0] == pytest.approx(8.550639024406366, rel=1e-9)
    assert high[0] == pytest.approx(1000 - 8.550639024406366, rel=1e-9)
    assert low.dtype == np.float64 and high.dtype == np.float64


def test_superiority_uses_the_variance_of_the_difference() -> None:
    # Columns x and y = x + z with x, z uncorrelated and of sample variance 4/3: var(y − x) = 4/3,
    # while var(x) + var(y) = 4 (the covariance, 4/3, counts twice).
    x = np.array([1.0, -1.0, 1.0, -1.0])
    z = np.array([1.0, 1.0, -1.0, -1.0])
    samples = np.column_stack([x, x + z, np.full(4, 7.0)])
    los = superiority(np.array([0.0, 1.0, 3.0]), samples, np.array([0, 0, 0]))
    assert los[1][0] == pytest.approx(0.8067618846143836, rel=1e-12)  # Φ(1 / √(4/3))
    assert los[0][1] == pytest.approx(1 - 0.8067618846143836, rel=1e-12)
    assert los[0][0] == 0.5 and los[1][1] == 0.5
    # A column that never moves: the gap's spread is that of the other column alone (var 4/3).
    assert los[2][0] == pytest.approx(0.9953126157702825, rel=1e-12)  # Φ(3 / √(4/3))


def test_superiority_without_spread_and_across_groups() -> None:
    fixed = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    los = superiority(np.array([1.0, 0.0, 0.0]), fixed, np.array([0, 0, 1]))
    assert los[0][1] == 1.0 and los[1][0] == 0.0 and los[0][0] == 0.5
    assert los[0][2] is None and los[2][0] is None and los[1][2] is None
    assert los[2][2] == 0.5


def two_bots() -> list:  # type: ignore[type-arg]
    """A beat B three times, B beat A once (two-seat games, each its own deal)."""
    return [ordered(["A", "B"], seed) for seed in range(3)] + [ordered(["B", "A"], 9)]


@pytest.mark.parametrize("prior_sd", [200.0, 1000.0])
def test_the_prior_in_elo_points_balances_the_likelihood_at_the_fit(prior_sd: float) -> None:
    board = build_leaderboard(two_bots(), settings=RatingSettings(seat_terms=False, prior_sd=prior_sd,
                                                                  bootstrap_samples=20))
    elo = {s.bot: s.elo for s in board.standings}
    assert elo["A"] + elo["B"] == pytest.approx(2 * ELO_MEAN, abs=1e-9)
    # At the optimum, for θ_A = −θ_B = d/2 and a prior N(0, τ²) on each, with τ the prior in θ units:
    # 3·(1 − σ(d)) − σ(d) = d / (2τ²).
    d = (elo["A"] - elo["B"]) / ELO_PER_THETA
    tau = prior_sd / ELO_PER_THETA
    win = 1 / (1 + math.exp(-d))
    assert 3 * (1 - win) - win == pytest.approx(d / (2 * tau**2), abs=1e-6)
    # Without the prior the gap is ln 3 (σ(d) = 3/4): the prior pulls it in, more for a tighter prior.
    assert 0 < d < math.log(3)


def test_the_prior_known_gaps() -> None:
    gaps = []
    for prior_sd in (200.0, 1000.0):
        board = build_leaderboard(two_bots(), settings=RatingSettings(seat_terms=False, prior_sd=prior_sd,
                                                                      bootstrap_samples=20))
        elo = {s.bot: s.elo for s in board.standings}
        gaps.append(elo["A"] - elo["B"])
    assert gaps[0] == pytest.approx(130.3394902611768, abs=1e-4)
    assert gaps[1] == pytest.approx(187.1043646893586, abs=1e-4)


def test_the_default_interval_is_95_percent() -> None:
    assert RatingSettings().confidence == 0.95
    board = build_leaderboard(two_bots(), settings=RatingSettings(seat_terms=False, bootstrap_samples=40))
    wide = {s.bot: (s.ci_low, s.ci_high) for s in board.standings}
    narrow_board = build_leaderboard(two_bots(), settings=RatingSettings(seat_terms=False, bootstrap_samples=40,
                                                                         confidence=0.5))
    narrow = {s.bot: (s.ci_low, s.ci_high) for s in narrow_board.standings}
    for bot in ("A", "B"):
        low, high = wide[bot]
        narrow_low, narrow_high = narrow[bot]
        assert low is not None and high is not None and narrow_low is not None and narrow_high is not None
        assert low <= narrow_low < narrow_high <= high
