"""Pairwise Elo: every pair of seats within a game as one Bradley–Terry comparison, ties half.

The cross-check beside the Plackett–Luce rating. A comparison of bot ``i`` in seat ``a`` with bot ``j``
in seat ``b`` of the same game has ``P(i above j) = σ(θ_i + σ_a − θ_j − σ_b)``, where ``σ_a`` is the seat
term of seat ``a`` at that kind of table (game and table size) when seat terms are on, as in the
Plackett–Luce fit; a strong first seat then no longer compresses the ratings. The fit maximises
``Σ points · log P`` with the same optional Gaussian prior on every parameter (Newton steps,
analytic gradient and Hessian), and centres θ within each connected component.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import csr_matrix

from leaderboards.newton import minimise
from leaderboards.stats import TableResults

FloatArray = NDArray[np.float64]
IndexArray = NDArray[np.intp]

#: The fit has converged when the gradient of the per-point objective is no longer than this.
TOLERANCE = 1e-10


@dataclass(frozen=True, slots=True)
class Comparisons:
    """Seat pairs of different bots, aggregated: row ``r`` is bot ``first[r]`` in seat parameter
    ``first_seat[r]`` against ``second[r]`` in ``second_seat[r]`` (``-1``: no seat term), with the
    ``points`` the first scored (1 per game finished above, 1/2 per tie). Both directions appear."""

    first: IndexArray
    second: IndexArray
    first_seat: IndexArray
    second_seat: IndexArray
    points: FloatArray


@dataclass(frozen=True, slots=True)
class PairwiseFit:
    """θ (natural-log units, centred per component) and whether the optimiser converged."""

    theta: FloatArray
    converged: bool


def comparisons(tables: Sequence[TableResults], seat_base: Mapping[tuple[str, int], int]) -> Comparisons:
    """Every comparison in ``tables``; ``seat_base[(game, players)]`` is the first seat parameter
    of that kind of table (kinds not in it get no seat terms)."""
    keys: list[IndexArray] = []
    scores: list[FloatArray] = []
    for table in tables:
        base = np.array([seat_base.get((str(g), table.players), -1) for g in table.game], dtype=np.intp)
        for a in range(table.players):
            for b in range(table.players):
                other = table.bots[:, a] != table.bots[:, b]
                if a == b or not other.any():
                    continue
                mine, theirs = table.ranks[other, a], table.ranks[other, b]
                seat_a = np.where(base[other] < 0, -1, base[other] + a)
                seat_b = np.where(base[other] < 0, -1, base[other] + b)
                keys.append(np.stack([table.bots[other, a], table.bots[other, b], seat_a, seat_b], axis=1))
                scores.append(np.where(mine < theirs, 1.0, np.where(mine == theirs, 0.5, 0.0)))
    if not keys:
        empty = np.zeros(0, dtype=np.intp)
        return Comparisons(empty, empty, empty, empty, np.zeros(0))
    rows = np.concatenate(keys)
    # One integer per row, ordered as the rows are (seats shifted by one so that -1 sorts first):
    # sorting integers is many times faster than sorting rows.
    bots = int(rows[:, :2].max()) + 1
    seats = int(rows[:, 2:].max()) + 2
    codes = ((rows[:, 0] * bots + rows[:, 1]) * seats + rows[:, 2] + 1) * seats + rows[:, 3] + 1
    unique, inverse = np.unique(codes, return_inverse=True)
    points = np.asarray(np.bincount(inverse, np.concatenate(scores), len(unique)), dtype=np.float64)
    seat_b = unique % seats - 1
    seat_a = unique // seats % seats - 1
    second = unique // seats**2 % bots
    first = unique // seats**2 // bots
    return Comparisons(first, second, seat_a, seat_b, points)


def fit_pairwise(
    data: Comparisons, n_bots: int, n_seat_params: int, components: IndexArray,
    prior_sd: float | None = None, max_iterations: int = 100,
) -> PairwiseFit:
    """Maximum (penalised) likelihood θ of ``n_bots`` bots from ``data`` in at most
    ``max_iterations`` Newton steps; ``components`` labels the connected component of every bot,
    each centred to mean 0."""
    n = n_bots + n_seat_params
    rows = len(data.points)
    at = np.arange(rows)
    # Sparse: each row has at most four non-zeros (two bots, two seat terms); duplicates add up.
    entries = [(at, data.first, 1.0), (at, data.second, -1.0)]
    for seats, sign in ((data.first_seat, 1.0), (data.second_seat, -1.0)):
        mine = seats >= 0
        entries.append((at[mine], n_bots + seats[mine], sign))
    design = csr_matrix(
        (
            np.concatenate([np.full(len(r), sign) for r, _, sign in entries]),
            (np.concatenate([r for r, _, _ in entries]), np.concatenate([c for _, c, _ in entries])),
        ),
        shape=(rows, n),
    )
    precision = 0.0 if prior_sd is None else 1.0 / prior_sd**2
    scale = max(float(data.points.sum()), 1.0)

    def value(beta: FloatArray) -> float:
        log_p = -np.logaddexp(0.0, -(design @ beta))
        return -(float(data.points @ log_p) - 0.5 * precision * float(beta @ beta)) / scale

    def gradient(beta: FloatArray) -> FloatArray:
        p = 1.0 / (1.0 + np.exp(-(design @ beta)))
        grad: FloatArray = -(design.T @ (data.points * (1.0 - p)) - precision * beta) / scale
        return grad

    def curvature(beta: FloatArray) -> FloatArray:
        p = 1.0 / (1.0 + np.exp(-(design @ beta)))
        weight = data.points * p * (1.0 - p)
        hess: FloatArray = ((design.T @ design.multiply(weight[:, None])).toarray()
                            + precision * np.eye(n)) / scale
        return hess

    found = minimise(value, gradient, curvature, np.zeros(n), TOLERANCE, max_iterations)
    theta = found.x[:n_bots]
    means = np.bincount(components, theta) / np.bincount(components)
    return PairwiseFit(theta - means[components], found.converged)
