"""Fits the trust-region search leaves a rounding error short of the tolerance are finished by Newton
steps: they converge, reach the known maximum, and put no false note on the board. Each case here
stopped short before (scipy: "a bad approximation caused failure to predict improvement")."""

from __future__ import annotations

import math

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


def flat(x: FloatArray) -> float:
    """An objective value whose changes are all lost in rounding: the trust region can accept no
    step and stops where it started ("a bad approximation caused failure to predict improvement")."""
    return 1.0


def cosh_gradient(x: FloatArray) -> FloatArray:
    """The gradient of ``cosh(x − 3)``, least at 3."""
    return np.array([np.sinh(x[0] - 3.0)])


def cosh_curvature(x: FloatArray) -> FloatArray:
    return np.array([[np.cosh(x[0] - 3.0)]])


def test_newton_steps_finish_a_search_stopped_near_the_minimum() -> None:
    # Stopped 1e-7 from the minimum, within FINISH_WITHIN times a tolerance of 1e-10.
    stopped = minimise(flat, cosh_gradient, cosh_curvature, np.array([3.0 + 1e-7]), 1e-10, 100)
    assert stopped.converged and abs(stopped.x[0] - 3.0) <= 1e-10
    assert stopped.iterations < 100


def test_a_search_stopped_far_from_the_minimum_is_not_finished() -> None:
    # Stopped where it started: a gradient of 1e-7 is more than FINISH_WITHIN times a tolerance
    # of 1e-12, so no Newton step is taken and the fit is reported as not converged.
    start = np.array([3.0 + 1e-7])
    far = minimise(flat, cosh_gradient, cosh_curvature, start, 1e-12, 100)
    assert not far.converged and far.x.tolist() == start.tolist()
    assert 1e-12 * FINISH_WITHIN < float(np.abs(cosh_gradient(far.x))[0])


def test_newton_steps_stop_at_a_floor_of_the_gradient() -> None:
    # ½(x − 3)² + 1e-9·|x − 3|: its gradient is never shorter than 1e-9 (but at 3 itself), above a
    # tolerance of 5e-10. The first Newton step overshoots to 3 − 1e-9 and shortens the gradient; the
    # next would only mirror it, so the fit stops there without spending the rest of its budget.
    def gradient(x: FloatArray) -> FloatArray:
        return np.array([(x[0] - 3.0) + 1e-9 * np.sign(x[0] - 3.0)])

    searched = minimise(flat, gradient, lambda x: np.eye(1), np.array([3.0 + 1e-7]), 0.0, 100)
    floor = minimise(flat, gradient, lambda x: np.eye(1), np.array([3.0 + 1e-7]), 5e-10, 100)
    assert not floor.converged and floor.iterations == searched.iterations + 1
    assert floor.x[0] - 3.0 == pytest.approx(-1e-9, abs=1e-12)


def test_the_budget_bounds_every_step() -> None:
    def value(x: FloatArray) -> float:
        return float(np.cosh(x[0] - 3.0))

    short = minimise(value, cosh_gradient, cosh_curvature, np.zeros(1), 1e-12, 2)
    assert short.iterations == 2 and not short.converged
    done = minimise(value, cosh_gradient, cosh_curvature, np.zeros(1), 1e-12, 100)
    assert done.converged and abs(done.x[0] - 3.0) <= 1e-12
