"""Block bootstrap: replicates match exact refits; intervals and superiority behave."""

from __future__ import annotations

import numpy as np
import pytest

from leaderboards.bootstrap import bootstrap_thetas, percentile_interval, superiority
from leaderboards.plackett_luce import Finish, PlackettLuceModel


def duplicate_games(seed: int, deals: int) -> tuple[PlackettLuceModel, np.ndarray]:
    rng = np.random.default_rng(seed)
    strengths = np.array([0.8, 0.3, 0.0, -0.4, -0.7])
    finishes, blocks = [], []
    for deal in range(deals):
        table = rng.choice(5, 3, replace=False)
        for shift in range(3):
            seated = np.roll(table, shift)
            noisy = strengths[seated] + rng.gumbel(size=3)
            ranks = np.argsort(np.argsort(-noisy)) + 1
            finishes.append(Finish(tuple(int(i) for i in seated), tuple(int(r) for r in ranks), 0))
            blocks.append(deal)
    return PlackettLuceModel(5, finishes, [3]), np.array(blocks, dtype=np.intp)


def test_replicates_match_exact_fits_of_the_same_resample() -> None:
    model, blocks = duplicate_games(1, 60)
    prior = 5.0
    fit = model.fit(prior_sd=prior)
    samples = bootstrap_thetas(model, fit, blocks, prior, 5, seed=3)
    rng = np.random.default_rng(3)  # the same draws, fitted from scratch
    for replicate in samples:
        drawn = np.bincount(rng.integers(0, 60, 60), minlength=60)
        exact = model.fit(drawn[blocks].astype(float), prior)
        np.testing.assert_allclose(replicate, exact.theta, atol=1e-4)
    assert not np.allclose(samples[0], samples[1])


def test_replicates_without_a_prior_match_exact_fits() -> None:
    model, blocks = duplicate_games(4, 60)
    fit = model.fit()
    samples = bootstrap_thetas(model, fit, blocks, None, 4, seed=5)
    rng = np.random.default_rng(5)
    for replicate in samples:
        drawn = np.bincount(rng.integers(0, 60, 60), minlength=60)
        exact = model.fit(drawn[blocks].astype(float))
        assert exact.converged
        np.testing.assert_allclose(replicate, exact.theta, atol=1e-4)
    assert not np.allclose(samples[0], samples[1])


def test_intervals_cover_the_estimate_and_are_repeatable() -> None:
    model, blocks = duplicate_games(2, 80)
    fit = model.fit(prior_sd=5.0)
    first = bootstrap_thetas(model, fit, blocks, 5.0, 50, seed=7)
    again = bootstrap_thetas(model, fit, blocks, 5.0, 50, seed=7)
    np.testing.assert_array_equal(first, again)
    low, high = percentile_interval(first, 0.95)
    assert np.all(low < fit.theta) and np.all(fit.theta < high)
    narrow_low, narrow_high = percentile_interval(first, 0.5)
    assert np.all(high - low > narrow_high - narrow_low)


def test_superiority_follows_the_gap_and_its_spread() -> None:
    samples = np.array([[1.0, 0.0, 5.0], [1.2, 0.1, 5.0], [0.8, -0.1, 5.0], [1.1, 0.05, 5.0]])
    estimate = np.array([1.0, 0.0, 5.0])
    los = superiority(estimate, samples, np.array([0, 0, 1]))
    assert los[0][1] is not None and los[0][1] > 0.99
    assert los[1][0] == pytest.approx(1 - los[0][1])
    assert los[0][0] == 0.5
    assert los[0][2] is None and los[2][1] is None


def test_a_small_league_refits_each_distinct_draw_once_and_matches_exact_fits() -> None:
    model, blocks = duplicate_games(6, 3)  # 9 games in 3 deals: only 10 distinct draws
    prior = 5.0
    fit = model.fit(prior_sd=prior)
    samples = bootstrap_thetas(model, fit, blocks, prior, 1000, seed=2)
    distinct = np.unique(samples.round(12), axis=0)
    assert 2 <= len(distinct) <= 10
    rng = np.random.default_rng(2)  # the same draws, fitted from scratch
    for replicate in samples[:64]:
        drawn = np.bincount(rng.integers(0, 3, 3), minlength=3)
        exact = model.fit(drawn[blocks].astype(float), prior)
        # a third of an Elo point: the refit tolerance, on so few games, stops this far away
        np.testing.assert_allclose(replicate, exact.theta, atol=2e-3)

