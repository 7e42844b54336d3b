"""The minimum of a smooth convex objective: Newton trust-region steps, finished by plain Newton steps.

scipy's trust-region search accepts a step by how much the objective's value fell. Near the minimum
that fall is lost in rounding, and the search may stop with the gradient still above the tolerance
("a bad approximation caused failure to predict improvement"), after which the fit would be reported
as not converged although it is within a rounding error of its answer. Plain Newton steps need only
the gradient and the curvature: from there, one or two reach the tolerance. A search that stops
further away (a gradient above :data:`FINISH_WITHIN` times the tolerance) is not finished: it is
reported as not converged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

#: Newton steps finish a search stopped with a gradient at most this many times the tolerance
#: (rounding stops it at up to about 200 times).
FINISH_WITHIN = 1e4


@dataclass(frozen=True, slots=True)
class Minimum:
    """Where the search stopped, after how many steps in all, and whether the gradient there is
    within the tolerance."""

    x: FloatArray
    iterations: int
    converged: bool


def minimise(
    value: Callable[[FloatArray], float],
    gradient: Callable[[FloatArray], FloatArray],
    curvature: Callable[[FloatArray], FloatArray],
    start: FloatArray,
    tolerance: float,
    max_iterations: int,
) -> Minimum:
    """Minimise the convex ``value`` from ``start`` until the gradient's norm is at most
    ``tolerance``, in at most ``max_iterations`` steps in all: trust-region steps, then, from within
    ``FINISH_WITHIN`` times the tolerance, Newton steps while each one shortens the gradient (a
    singular curvature, as without a prior, takes the least-norm step)."""
    from scipy.optimize import minimize  # scipy loads with the first fit, not with the command line

    result = minimize(
        value,
        start,
        jac=gradient,
        hess=curvature,
        method="trust-exact",
        options={"maxiter": max_iterations, "gtol": tolerance},
    )
    x = np.asarray(result.x, dtype=np.float64)
    iterations = int(result.nit)
    grad = gradient(x)
    size = float(np.linalg.norm(grad))
    while tolerance < size <= FINISH_WITHIN * tolerance and iterations < max_iterations:
        step = np.linalg.lstsq(curvature(x), grad, rcond=None)[0]
        candidate = x - step
        candidate_grad = gradient(candidate)
        candidate_size = float(np.linalg.norm(candidate_grad))
        if not candidate_size < size:
            break
        x, grad, size = candidate, candidate_grad, candidate_size
        iterations += 1
    return Minimum(x, iterations, size <= tolerance)
