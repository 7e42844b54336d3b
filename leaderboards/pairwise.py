"""Pairwise Elo: every pair of seats within a game as one Bradley–Terry comparison, ties half.

The cross-check beside the Plackett–Luce rating: it fits ``Σ points[i, j] · log σ(θ_i − θ_j)`` (points
``i`` scored against ``j``) by maximum likelihood, with the same optional Gaussian prior, and centres
θ within each connected component.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import minimize

FloatArray = NDArray[np.float64]
IndexArray = NDArray[np.intp]


def fit_pairwise(
    points: FloatArray, components: IndexArray, prior_sd: float | None = None
) -> FloatArray:
    """θ (natural-log units) from ``points[i, j]``: the points ``i`` scored against ``j``.

    ``components`` labels the connected component of every item; each is centred to mean 0.
    """
    n = points.shape[0]
    precision = 0.0 if prior_sd is None else 1.0 / prior_sd**2
    scale = max(float(points.sum()), 1.0)

    def terms(theta: FloatArray) -> tuple[float, FloatArray, FloatArray]:
        gap = theta[:, None] - theta[None, :]
        log_p = -np.logaddexp(0.0, -gap)
        p = np.exp(log_p)
        ll = float((points * log_p).sum())
        residual = points * (1.0 - p) - points.T * p
        grad = residual.sum(axis=1)
        weight = (points + points.T) * p * (1.0 - p)
        hess = weight - np.diag(weight.sum(axis=1))
        return ll, grad, hess

    def value(theta: FloatArray) -> float:
        return -(terms(theta)[0] - 0.5 * precision * float(theta @ theta)) / scale

    def gradient(theta: FloatArray) -> FloatArray:
        grad: FloatArray = -(terms(theta)[1] - precision * theta) / scale
        return grad

    def curvature(theta: FloatArray) -> FloatArray:
        hess: FloatArray = -(terms(theta)[2] - precision * np.eye(n)) / scale
        return hess

    result = minimize(
        value, np.zeros(n), jac=gradient, hess=curvature, method="trust-exact",
        options={"gtol": 1e-10, "maxiter": 200},
    )
    theta = np.asarray(result.x, dtype=np.float64)
    means = np.bincount(components, theta) / np.bincount(components)
    centred: FloatArray = theta - means[components]
    return centred
