"""The Elo scale: strengths in natural-log units (θ) and Elo points.

A difference of ``d`` Elo points between two players means the stronger is expected to score
``1 / (1 + 10 ** (-d / 400))`` against the weaker; in θ units that is the logistic ``1 / (1 + e**-Δθ)``.
"""

from __future__ import annotations

import math

#: Elo points per unit of θ (natural-log strength): ``400 / ln 10`` ≈ 173.72.
ELO_PER_THETA = 400.0 / math.log(10.0)

#: The mean rating of every connected field.
ELO_MEAN = 1500.0


def theta_to_elo_points(theta: float) -> float:
    """A θ difference in Elo points."""
    return theta * ELO_PER_THETA


def elo_points_to_theta(points: float) -> float:
    """An Elo-point difference in θ units."""
    return points / ELO_PER_THETA
