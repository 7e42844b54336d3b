"""Plackett–Luce fit: known answers, agreement with choix, derivatives, ties, seat terms, prior."""

from __future__ import annotations

import math

import choix
import numpy as np
import pytest
from scipy.optimize import check_grad

from leaderboards.errors import LeaderboardError
from leaderboards.plackett_luce import Finish, PlackettLuceModel
from leaderboards.scale import ELO_PER_THETA


def finish_of(order: tuple[int, ...], seat_group: int = -1) -> Finish:
    """A strict finishing order (best first) of items seated 0, 1, 2, ... in item order."""
    ranks = [0] * len(order)
    for place, item in enumerate(order):
        ranks[item] = place + 1
    return Finish(items=tuple(range(len(order))), ranks=tuple(ranks), seat_group=seat_group)


def test_meeple_pentathlon_plackett_luce_elo() -> None:
    # Settings: no seat terms, no prior (plain maximum likelihood), ratings centred to mean 0.
    a, b, c = 0, 1, 2
    orders = [(a, b, c), (a, c, b), (c, a, b), (c, a, b), (b, c, a)]
    fit = PlackettLuceModel(3, [finish_of(o) for o in orders]).fit()
    elo = fit.theta * ELO_PER_THETA
    assert fit.converged
    assert elo[a] == pytest.approx(52.15, abs=0.005)
    assert elo[c] == pytest.approx(52.15, abs=0.005)
    assert elo[b] == pytest.approx(-104.30, abs=0.005)


@pytest.mark.parametrize(("wins", "draws", "losses"), [(76, 0, 24), (50, 20, 30), (10, 80, 10)])
def test_two_players_reduce_to_logistic_elo(wins: int, draws: int, losses: int) -> None:
    # Settings: no seat terms, no prior. A draw is half a point: the rating gap is the logit of the score.
    games = [finish_of((0, 1))] * wins + [finish_of((1, 0))] * losses
    games += [Finish(items=(0, 1), ranks=(1, 1))] * draws
    fit = PlackettLuceModel(2, games).fit()
    score = (wins + draws / 2) / (wins + draws + losses)
    gap = (fit.theta[0] - fit.theta[1]) * ELO_PER_THETA
    assert gap == pytest.approx(400 * math.log10(score / (1 - score)), abs=1e-6)


def test_a_76_percent_score_is_about_200_elo() -> None:
    games = [finish_of((0, 1))] * 76 + [finish_of((1, 0))] * 24
    fit = PlackettLuceModel(2, games).fit()
    assert (fit.theta[0] - fit.theta[1]) * ELO_PER_THETA == pytest.approx(200, abs=1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_agrees_with_choix_on_random_rankings(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_items = 8
    strengths = rng.normal(0, 1, n_items)
    rankings: list[tuple[int, ...]] = []
    for _ in range(150):
        size = int(rng.integers(2, 6))
        items = rng.choice(n_items, size, replace=False)
        noisy = strengths[items] + rng.gumbel(size=size)
        rankings.append(tuple(int(i) for i in items[np.argsort(-noisy)]))
    reference = choix.ilsr_rankings(n_items, rankings, alpha=0.0, max_iter=100_000, tol=1e-14)
    finishes = [
        Finish(items=ranking, ranks=tuple(range(1, len(ranking) + 1))) for ranking in rankings
    ]
    fit = PlackettLuceModel(n_items, finishes).fit()
    assert fit.converged
    np.testing.assert_allclose(fit.theta, reference - reference.mean(), rtol=0, atol=1e-6)


def random_model(seed: int) -> tuple[PlackettLuceModel, np.ndarray, np.ndarray]:
    """Games of 2-5 seats with random ties over two seat groups per size, random weights and params."""
    rng = np.random.default_rng(seed)
    finishes = []
    for _ in range(120):
        seats = int(rng.integers(2, 6))
        items = tuple(int(i) for i in rng.choice(7, seats, replace=False))
        ranks = tuple(int(r) for r in rng.integers(1, 4, seats))
        finishes.append(Finish(items, ranks, seat_group=2 * (seats - 2) + int(rng.integers(0, 2))))
    model = PlackettLuceModel(7, finishes, [2, 2, 3, 3, 4, 4, 5, 5])
    return model, rng.random(120) * 2, rng.normal(0, 1, model.n_params)


@pytest.mark.parametrize("seed", [4, 5])
def test_gradient_and_hessian_match_finite_differences(seed: int) -> None:
    model, weights, params = random_model(seed)

    def value(x: np.ndarray) -> float:
        return model.log_likelihood(x, weights)[0]

    def gradient(x: np.ndarray) -> np.ndarray:
        return model.log_likelihood(x, weights)[1]

    assert check_grad(value, gradient, params) < 1e-4
    hessian = model.log_likelihood(params, weights, hessian=True)[2]
    assert hessian is not None
    step = 1e-6
    numeric = np.array(
        [
            (gradient(params + step * unit) - gradient(params - step * unit)) / (2 * step)
            for unit in np.eye(len(params))
        ]
    )
    np.testing.assert_allclose(hessian, numeric, atol=1e-4)


def test_a_tie_scores_the_mean_log_likelihood_of_its_strict_orders() -> None:
    theta = np.array([0.3, -0.2, 0.5])
    tied = PlackettLuceModel(3, [Finish(items=(0, 1, 2), ranks=(1, 1, 3))])
    first = PlackettLuceModel(3, [finish_of((0, 1, 2))])
    second = PlackettLuceModel(3, [finish_of((1, 0, 2))])
    one = np.ones(1)
    expected = (first.log_likelihood(theta, one)[0] + second.log_likelihood(theta, one)[0]) / 2
    assert tied.log_likelihood(theta, one)[0] == pytest.approx(expected, abs=1e-12)
    e = np.exp(theta)
    by_hand = (
        math.log(e[0] / e.sum()) + math.log(e[1] / (e[1] + e[2]))
        + math.log(e[1] / e.sum()) + math.log(e[0] / (e[0] + e[2]))
    ) / 2
    assert tied.log_likelihood(theta, one)[0] == pytest.approx(by_hand, abs=1e-12)


def test_seat_terms_recover_a_seat_advantage() -> None:
    rng = np.random.default_rng(7)
    strengths = np.array([0.6, 0.2, -0.1, -0.7])
    seat_bonus = np.array([0.5, 0.0, 0.0, -0.5])
    finishes = []
    for _ in range(4000):
        items = rng.permutation(4)
        noisy = strengths[items] + seat_bonus + rng.gumbel(size=4)
        ranks = np.argsort(np.argsort(-noisy)) + 1
        finishes.append(Finish(tuple(int(i) for i in items), tuple(int(r) for r in ranks), 0))
    fit = PlackettLuceModel(4, finishes, [4]).fit()
    np.testing.assert_allclose(fit.seat_terms[0], seat_bonus, atol=0.1)
    np.testing.assert_allclose(fit.theta, strengths - strengths.mean(), atol=0.1)


def test_prior_keeps_a_bot_that_won_everything_finite_and_shrinks() -> None:
    games = [finish_of((0, 2, 1))] + [finish_of((0, 1, 2))] * 4
    weak_prior = PlackettLuceModel(3, games).fit(prior_sd=1000 / ELO_PER_THETA)
    assert weak_prior.converged
    assert np.all(np.isfinite(weak_prior.theta))
    assert weak_prior.theta[0] > weak_prior.theta[1] + 2  # far ahead, yet finite
    strong_prior = PlackettLuceModel(3, games).fit(prior_sd=0.5)
    assert strong_prior.theta[0] < weak_prior.theta[0]


def test_refit_from_a_nearby_fit_matches_a_full_fit() -> None:
    model, _, _ = random_model(8)
    ones = np.ones(model.n_games)
    prior = 3.0
    base = model.fit(ones, prior)
    start = model.raw_params(base)
    hessian = model.log_likelihood(start, ones, hessian=True)[2]
    assert hessian is not None
    matrix = np.asarray(np.linalg.inv(np.eye(model.n_params) / prior**2 - hessian), dtype=np.float64)
    rng = np.random.default_rng(9)
    weights = np.bincount(rng.integers(0, model.n_games, model.n_games), minlength=model.n_games)
    quick = model.refit(weights.astype(float), prior, start, matrix, tolerance=1e-9)
    full = model.fit(weights.astype(float), prior)
    np.testing.assert_allclose(quick.theta, full.theta, atol=1e-6)
    for a, b in zip(quick.seat_terms, full.seat_terms, strict=True):
        np.testing.assert_allclose(a, b, atol=1e-6)


def test_disconnected_items_are_centred_per_component() -> None:
    games = [Finish((0, 1), (1, 2))] * 3 + [Finish((1, 0), (1, 2))]
    games += [Finish((2, 3), (1, 2))] + [Finish((3, 2), (1, 2))] * 2
    model = PlackettLuceModel(4, games)
    assert model.components[0] == model.components[1] != model.components[2] == model.components[3]
    fit = model.fit()
    assert fit.theta[0] + fit.theta[1] == pytest.approx(0, abs=1e-9)
    assert fit.theta[2] + fit.theta[3] == pytest.approx(0, abs=1e-9)
    assert fit.theta[0] - fit.theta[1] == pytest.approx(math.log(3), abs=1e-6)


@pytest.mark.parametrize(
    ("finishes", "sizes", "message"),
    [
        ([], [], "no games"),
        ([Finish((0,), (1,))], [], "two seats"),
        ([Finish((0, 5), (1, 2))], [], "item outside"),
        ([Finish((0, 1), (1, 2), seat_group=0)], [3], "another table size"),
        ([Finish((0, 1), (1, 2), seat_group=1)], [2], "no seat group"),
    ],
)
def test_bad_finishes_are_refused(finishes: list[Finish], sizes: list[int], message: str) -> None:
    with pytest.raises(LeaderboardError, match=message):
        PlackettLuceModel(2, finishes, sizes)


def test_gradient_by_group_reweights_by_matrix_product() -> None:
    model, _, params = random_model(10)
    rng = np.random.default_rng(11)
    groups = rng.integers(0, 30, model.n_games).astype(np.intp)
    counts = rng.integers(0, 4, 30).astype(float)
    by_group = model.gradient_by_group(params, groups, 30)
    expected = model.log_likelihood(params, counts[groups])[1]
    np.testing.assert_allclose(counts @ by_group, expected, atol=1e-10)


def test_hessian_by_group_reweights_by_matrix_product() -> None:
    model, _, params = random_model(10)
    rng = np.random.default_rng(12)
    groups = rng.integers(0, 30, model.n_games).astype(np.intp)
    counts = rng.integers(0, 4, 30).astype(float)
    by_group = model.hessian_by_group(params, groups, 30)
    assert by_group.shape == (30, model.n_params**2)
    expected = model.log_likelihood(params, counts[groups], hessian=True)[2]
    assert expected is not None
    np.testing.assert_allclose((counts @ by_group).reshape(expected.shape), expected, atol=1e-10)
