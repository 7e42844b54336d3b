"""Plackett–Luce known answers at the edges: the log-likelihood of a known fit, strengths far from
zero, refits started at their optimum, the raw layout of a fit, and refusals with their exact text."""

from __future__ import annotations

import math

import numpy as np
import pytest

from leaderboards.errors import LeaderboardError
from leaderboards.plackett_luce import Finish, PlackettLuceModel


def series(wins: int, losses: int) -> list[Finish]:
    """Item 0 against item 1: ``wins`` games won by 0, ``losses`` won by 1."""
    return [Finish((0, 1), (1, 2))] * wins + [Finish((0, 1), (2, 1))] * losses


def seated(seed: int) -> PlackettLuceModel:
    """Three-seat games with a seat group and some ties, items 0..4."""
    rng = np.random.default_rng(seed)
    finishes = []
    for _ in range(90):
        items = tuple(int(i) for i in rng.choice(5, 3, replace=False))
        finishes.append(Finish(items, tuple(int(r) for r in rng.integers(1, 4, 3)), seat_group=0))
    return PlackettLuceModel(5, finishes, [3])


def test_fit_reports_the_log_likelihood_at_its_maximum() -> None:
    fit = PlackettLuceModel(2, series(3, 1)).fit()
    assert fit.theta[0] - fit.theta[1] == pytest.approx(math.log(3), abs=1e-6)
    assert fit.log_likelihood == pytest.approx(3 * math.log(0.75) + math.log(0.25), abs=1e-9)
    assert fit.converged


def test_a_strong_prior_is_still_fitted_to_its_maximum() -> None:
    # With θ = (d/2, −d/2) and precision λ, the maximum solves 3σ(−d) − σ(d) = λd/2.
    sd = 0.1
    fit = PlackettLuceModel(2, series(3, 1)).fit(prior_sd=sd)
    d = fit.theta[0] - fit.theta[1]
    sigma = 1 / (1 + math.exp(-d))
    assert 3 * (1 - sigma) - sigma == pytest.approx(d / (2 * sd**2), abs=1e-6)
    assert 0 < d < 0.05 and fit.converged


def test_log_likelihood_returns_a_hessian_only_when_asked() -> None:
    model = seated(1)
    params = np.zeros(model.n_params)
    assert model.log_likelihood(params, np.ones(model.n_games))[2] is None
    hessian = model.log_likelihood(params, np.ones(model.n_games), hessian=True)[2]
    assert hessian is not None and hessian.shape == (model.n_params, model.n_params)


def test_strengths_far_from_zero_keep_the_log_likelihood_exact() -> None:
    # One game far above zero and one far below: each is log σ(1), whatever the offset.
    model = PlackettLuceModel(4, [Finish((0, 1), (1, 2)), Finish((2, 3), (1, 2))])
    params = np.array([800.0, 799.0, -799.0, -800.0])
    value, gradient, _ = model.log_likelihood(params, np.ones(2))
    assert value == pytest.approx(2 * -math.log1p(math.exp(-1)), abs=1e-12)
    expected = 1 - 1 / (1 + math.exp(-1))
    np.testing.assert_allclose(gradient, [expected, -expected, expected, -expected], atol=1e-12)


def test_raw_params_of_a_fit_give_its_log_likelihood() -> None:
    model = seated(2)
    fit = model.fit(prior_sd=2.0)
    raw = model.raw_params(fit)
    assert raw.shape == (model.n_params,)
    assert model.log_likelihood(raw, np.ones(model.n_games))[0] == pytest.approx(fit.log_likelihood, abs=1e-9)


def test_refit_started_at_its_optimum_returns_it_after_one_step() -> None:
    model = seated(3)
    weights = np.random.default_rng(4).integers(0, 3, model.n_games).astype(float)
    prior = 2.0
    fit = model.fit(weights, prior, tolerance=1e-12)
    optimum = model.raw_params(fit)
    hessian = model.log_likelihood(optimum, weights, hessian=True)[2]
    assert hessian is not None
    matrix = np.asarray(np.linalg.inv(np.eye(model.n_params) / prior**2 - hessian), dtype=np.float64)
    again = model.refit(weights, prior, optimum, matrix)
    assert again.iterations == 1 and again.converged is True
    np.testing.assert_allclose(again.theta, fit.theta, atol=1e-9)
    np.testing.assert_allclose(again.seat_terms[0], fit.seat_terms[0], atol=1e-9)
    assert again.log_likelihood == pytest.approx(fit.log_likelihood, abs=1e-9)


def test_refit_by_default_goes_to_within_its_tolerance_from_afar() -> None:
    model = seated(5)
    weights = np.ones(model.n_games)
    fit = model.fit(weights, None, tolerance=1e-12)
    hessian = model.log_likelihood(model.raw_params(fit), weights, hessian=True)[2]
    assert hessian is not None
    matrix = np.asarray(np.linalg.pinv(-hessian), dtype=np.float64)
    far = model.refit(weights, None, np.zeros(model.n_params), matrix)
    assert far.iterations > 1
    np.testing.assert_allclose(far.theta, fit.theta, atol=1e-5)


def test_hessian_by_group_keeps_empty_groups() -> None:
    model = seated(6)
    groups = np.arange(model.n_games, dtype=np.intp) % 4  # groups 0..3 used, 4 and 5 empty
    by_group = model.hessian_by_group(np.zeros(model.n_params), groups, 6)
    assert by_group.shape == (6, model.n_params**2)
    assert by_group[4:].nnz == 0


@pytest.mark.parametrize(
    ("finishes", "message"),
    [
        ([Finish((0, 1), (1, 2)), Finish((1, 2), (1, 2))], "game 1: an item outside 0..1"),
        ([Finish((0, 1), (1, 2)), Finish((-1, 0), (2, 1))], "game 1: an item outside 0..1"),
    ],
)
def test_items_out_of_range_are_refused_with_the_game_number(finishes: list[Finish], message: str) -> None:
    with pytest.raises(LeaderboardError) as refused:
        PlackettLuceModel(2, finishes)
    assert str(refused.value) == message


def test_a_tie_of_eight_seats_is_rated_and_of_nine_refused() -> None:
    eight = PlackettLuceModel(8, [Finish(tuple(range(8)), (1,) * 8)])
    assert eight.n_games == 1
    with pytest.raises(LeaderboardError) as refused:
        PlackettLuceModel(9, [Finish(tuple(range(9)), (1,) * 9)])
    assert str(refused.value) == "a tie among 9 seats is too large to rate"


def strict(*strengths: float) -> float:
    """The log-probability of finishing in the order given (best first)."""
    e = [math.exp(s) for s in strengths]
    return sum(math.log(e[j] / sum(e[j:])) for j in range(len(e)))


@pytest.mark.parametrize(
    ("ranks", "orders"),
    [
        ((1, 2, 2), [(0, 1, 2), (0, 2, 1)]),  # a tie below the winner
        ((2, 1, 2), [(1, 0, 2), (1, 2, 0)]),
        ((1, 1, 2), [(0, 1, 2), (1, 0, 2)]),  # a tie for the win
        ((3, 1, 1), [(1, 2, 0), (2, 1, 0)]),
    ],
)
def test_a_tie_scores_the_mean_over_its_strict_orders(ranks: tuple[int, ...], orders: list[tuple[int, ...]]) -> None:
    theta = np.array([0.4, 1.0, -0.7])
    model = PlackettLuceModel(3, [Finish((0, 1, 2), ranks)])
    value = model.log_likelihood(theta, np.ones(1))[0]
    assert value == pytest.approx(sum(strict(*theta[list(o)]) for o in orders) / len(orders), abs=1e-12)


@pytest.mark.parametrize(
    ("finishes", "sizes", "message"),
    [
        ([], [], "no games to rate"),
        ([Finish((0, 1), (1, 2), 0), Finish((0, 1), (1, 2), 1)], [2], "game 1: no seat group 1"),
        ([Finish((0, 1), (1, 2), 0), Finish((0, 1, 2), (1, 2, 3), 0)], [2],
         "game 1: its seat group is for another table size"),
        ([Finish((0, 1, 2), (1, 2, 3), 1), Finish((0, 1, 2), (1, 2, 3), 0)], [3, 2],
         "game 0: its seat group is for another table size"),
    ],
)
def test_bad_seat_groups_are_refused_with_the_game_number(
    finishes: list[Finish], sizes: list[int], message: str
) -> None:
    with pytest.raises(LeaderboardError) as refused:
        PlackettLuceModel(3, finishes, sizes)
    assert str(refused.value) == message
