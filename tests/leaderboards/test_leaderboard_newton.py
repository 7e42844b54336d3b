"""Fits the trust-region search leaves a rounding error short of the tolerance are finished by Newton
steps: they converge, reach the known maximum, and put no false note on the board. Each case here
stopped short before (scipy: "a bad approximation caused failure to predict improvement")."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from scipy.optimize import brentq

from lb_records import record
from leaderboards.build import build_leaderboard
from leaderboards.model import RatingSettings
from leaderboards.newton import FINISH_WITHIN, FloatArray, minimise
from leaderboards.pairwise import Comparisons, fit_pairwise
from leaderboards.plackett_luce import Finish, PlackettLuceModel
from leaderboards.scale import ELO_PER_THETA

#: The board's default prior in θ units.
PRIOR = RatingSettings().prior_sd / ELO_PER_THETA


def rotations(a: int, b: int, c: int) -> list[Finish]:
    """Items 0, 1, 2 finishing in cyclic order: ``a`` games 0>1>2, ``b`` games 1>2>0, ``c`` 2>0>1."""
    return (
        [Finish((0, 1, 2), (1, 2, 3))] * a
        + [Finish((1, 2, 0), (1, 2, 3))] * b
        + [Finish((2, 0, 1), (1, 2, 3))] * c
    )


def penalised_gradient(model: PlackettLuceModel, theta: np.ndarray, prior_sd: float | None) -> float:
    """The norm of the per-game gradient of the penalised log-likelihood at ``theta``."""
    grad = model.log_likelihood(theta, np.ones(model.n_games))[1]
    precision = 0.0 if prior_sd is None else 1.0 / prior_sd**2
    return float(np.linalg.norm(grad - precision * theta)) / model.n_games


def test_two_bots_pairwise_reach_the_root_of_their_gradient() -> None:
    # 6 points against 14, θ = (d/2, −d/2): the maximum solves 6σ(−d) − 14σ(d) = λd/2.
    data = Comparisons(
        np.array([0, 1], dtype=np.intp), np.array([1, 0], dtype=np.intp),
        np.array([-1, -1], dtype=np.intp), np.array([-1, -1], dtype=np.intp),
        np.array([6.0, 14.0]),
    )
    fit = fit_pairwise(data, 2, 0, np.zeros(2, dtype=np.intp), PRIOR)
    sigma = lambda x: 1.0 / (1.0 + math.exp(-x))  # noqa: E731
    gap = brentq(lambda d: 6 * sigma(-d) - 14 * sigma(d) - d / (2 * PRIOR**2), -5, 5, xtol=1e-15)
    assert fit.converged
    assert fit.theta.tolist() == pytest.approx([gap / 2, -gap / 2], abs=1e-12)


@pytest.mark.parametrize(
    ("prior_sd", "counts"),
    [(PRIOR, (1, 3, 5)), (PRIOR, (3, 2, 5)), (None, (3, 7, 4)), (None, (4, 3, 7))],
)
def test_three_bots_in_a_cycle_reach_their_maximum(
    prior_sd: float | None, counts: tuple[int, int, int]
) -> None:
    model = PlackettLuceModel(3, rotations(*counts))
    fit = model.fit(prior_sd=prior_sd)
    assert fit.converged and fit.iterations <= 100
    assert penalised_gradient(model, fit.theta, prior_sd) <= 1e-8
    assert float(fit.theta.sum()) == pytest.approx(0.0, abs=1e-12)


def test_a_small_board_the_search_left_short_has_no_note() -> None:
    games = [
        record(bots, ranks, seed=s)
        for s, (bots, ranks) in enumerate([
            (("B", "C", "D"), (1, 3, 2)), (("D", "C", "B"), (3, 2, 1)), (("C", "A", "D"), (2, 3, 1)),
            (("D", "C", "B"), (3, 1, 2)), (("C", "A", "B"), (3, 1, 2)), (("C", "A", "B"), (1, 3, 2)),
            (("A", "B", "D"), (1, 3, 2)), (("B", "A", "D"), (1, 2, 3)), (("D", "B", "C"), (1, 3, 2)),
            (("B", "C", "A"), (2, 1, 3)),
        ])
    ]
    assert build_leaderboard(games, settings=RatingSettings(bootstrap_samples=20)).notes == ()


def test_the_steps_counted_are_the_budget_the_fit_needs() -> None:
    # Trust-region steps and the Newton steps that finish them count alike: the budget a fit
    # reports is exactly enough to converge, and one step less is not.
    for counts in ((1, 3, 5), (3, 2, 5), (4, 3, 7)):
        model = PlackettLuceModel(3, rotations(*counts))
        needed = model.fit(prior_sd=PRIOR).iterations
        enough = model.fit(prior_sd=PRIOR, max_iterations=needed)
        short = model.fit(prior_sd=PRIOR, max_iterations=needed - 1)
        assert (enough.converged, enough.iterations) == (True, needed), counts
        assert (short.converged, short.iterations) == (False, needed - 1), counts


def exp_less_linear(c: float) -> tuple[
    Callable[[FloatArray], float], Callable[[FloatArray], FloatArray], Callable[[FloatArray], FloatArray]
]:
    """``f(x) = eˣ − c·x``, least at ``x = ln c``: its value, gradient and curvature."""
    return (
        lambda x: float(np.exp(x[0]) - c * x[0]),
        lambda x: np.array([np.exp(x[0]) - c]),
        lambda x: np.array([[np.exp(x[0])]]),
    )


def test_newton_steps_finish_a_search_stopped_short_and_stop_at_the_rounding_floor() -> None:
    # The search stops on rounding with a gradient of about 5e-15; a Newton step takes it to 1e-15,
    # the last a float allows here. Below that floor the fit stops, not converged, without spending
    # the rest of its budget on steps that gain nothing.
    value, gradient, curvature = exp_less_linear(5.0)
    done = minimise(value, gradient, curvature, np.zeros(1), 1e-15, 50)
    assert done.converged and done.x[0] == pytest.approx(math.log(5.0), abs=1e-15)
    floor = minimise(value, gradient, curvature, np.zeros(1), 1e-16, 50)
    assert not floor.converged and floor.iterations == done.iterations
    assert floor.x[0] == pytest.approx(math.log(5.0), abs=1e-15)


def test_a_search_stopped_far_from_the_minimum_is_not_finished() -> None:
    # With c = 7 the search stops on rounding with a gradient of about 2e-8: far above a tolerance
    # of 1e-15 (more than FINISH_WITHIN times), so no Newton step is taken and the fit is not
    # converged; with a tolerance the gap is within, Newton steps finish it.
    value, gradient, curvature = exp_less_linear(7.0)
    far = minimise(value, gradient, curvature, np.zeros(1), 1e-15, 50)
    assert not far.converged and float(np.abs(gradient(far.x))[0]) > 1e-15 * FINISH_WITHIN
    near = minimise(value, gradient, curvature, np.zeros(1), 1e-11, 50)
    assert near.converged and near.iterations == far.iterations + 1


def test_the_budget_bounds_every_step() -> None:
    value, gradient, curvature = exp_less_linear(5.0)
    short = minimise(value, gradient, curvature, np.zeros(1), 1e-15, 2)
    assert short.iterations == 2 and not short.converged
