"""Confidence intervals and likelihood of superiority by resampling whole blocks of games.

A block is a deal played under all its seat rotations (or a single game when the schedule has no
duplicates). Each replicate draws as many blocks as there are, with replacement, weights every game by
how often its block was drawn, and re-fits from the full-data fit. The games are summarised once, at
that fit, by block: the gradient and the Hessian of every block. A replicate's weights then give its
own gradient and curvature at the full-data fit by matrix products, for a batch of replicates at a
time, and so its Newton step from there, with no pass over the games. One exact pass per replicate
then checks that step and finishes it by chord steps with the replicate's own step matrix (see
:meth:`PlackettLuceModel.refit`); with many games the Newton step already lands within the tolerance.
Replicates that drew the same blocks the same number of times are refitted once: a small league has
few distinct draws, so its intervals cost a handful of fits, not one per replicate.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from scipy.special import ndtr, stdtrit  # not scipy.stats: its import alone takes most of a second

from leaderboards.plackett_luce import PlackettLuceFit, PlackettLuceModel

FloatArray = NDArray[np.float64]
IndexArray = NDArray[np.intp]

REFIT_TOLERANCE = 3e-4
"""A replicate stops once a step moves no θ more than this (0.05 Elo). Its steps use its own
curvature at the full-data fit, so they converge fast and the replicate is then within a small
fraction of that of its exact optimum (at most 4e-5 on 60 deals of 3 seats, 2e-6 on 25,000 deals
of 4: ``tests/leaderboards/test_leaderboard_bootstrap.py``, ``benchmarks/ratings_speed.py``)."""

BATCH = 64
"""Replicates whose Newton steps are taken together (their weights are a (BATCH, blocks) matrix)."""


def bootstrap_thetas(
    model: PlackettLuceModel,
    fit: PlackettLuceFit,
    blocks: IndexArray,
    prior_sd: float | None,
    samples: int,
    seed: int,
) -> FloatArray:
    """(samples, items): θ of every item in every replicate, centred per component like ``fit``.

    ``blocks[g]`` is the block (``0 .. n_blocks-1``) of game ``g``; ``prior_sd`` in θ units.
    """
    rng = np.random.default_rng(seed)
    n_blocks = int(blocks.max()) + 1
    n = model.n_params
    precision = 0.0 if prior_sd is None else 1.0 / prior_sd**2
    optimum = model.raw_params(fit)
    by_block = model.gradient_by_group(optimum, blocks, n_blocks)
    hessians = model.hessian_by_group(optimum, blocks, n_blocks).T.tocsr()
    thetas = np.empty((samples, model.n_items))
    # A replicate is a function of its draw counts alone, and few blocks allow few distinct draws
    # (3 blocks: 10), so each distinct draw is refitted once: the same numbers, far fewer fits.
    refitted: dict[bytes, FloatArray] = {}
    for first in range(0, samples, BATCH):
        drawn = np.array(
            [
                np.bincount(rng.integers(0, n_blocks, n_blocks), minlength=n_blocks)
                for _ in range(min(BATCH, samples - first))
            ],
            dtype=np.float64,
        )
        # At the full-data optimum the reweighted gradient and curvature are sums over blocks.
        residual = drawn @ by_block - precision * optimum
        curvature = precision * np.eye(n) - np.asarray(hessians @ drawn.T).T.reshape(-1, n, n)
        # With a prior the curvature is positive definite; without, it is singular along each
        # component's common shift, which centring removes.
        matrices = np.linalg.inv(curvature) if precision else np.linalg.pinv(curvature, hermitian=True)
        starts = optimum + np.einsum("rij,rj->ri", matrices, residual)
        for k, weights in enumerate(drawn):
            key = weights.tobytes()
            if key not in refitted:
                refitted[key] = model.refit(
                    weights[blocks], prior_sd, starts[k], matrices[k], tolerance=REFIT_TOLERANCE
                ).theta
            thetas[first + k] = refitted[key]
    return thetas


def expanded_tail(confidence: float, blocks: int) -> float:
    """The tail probability of the expanded percentile interval (Hesterberg 2015) for ``blocks``
    resampled units: ``Φ(−√(n/(n−1))·t_{n−1}((1+confidence)/2))``, below ``(1−confidence)/2``.

    The plain percentile interval is too narrow with few blocks (it undercovers); this widens it
    by what the t distribution and the n/(n−1) bias of the bootstrap variance ask for.
    """
    if blocks < 2:
        return (1.0 - confidence) / 2.0
    t = float(stdtrit(blocks - 1, (1.0 + confidence) / 2.0))
    return float(ndtr(-math.sqrt(blocks / (blocks - 1)) * t))


def percentile_interval(
    samples: FloatArray, confidence: float, blocks: int | None = None
) -> tuple[FloatArray, FloatArray]:
    """The equal-tailed ``confidence`` interval of every column of ``samples``: the percentile
    method, expanded for ``blocks`` resampled units when given (see :func:`expanded_tail`)."""
    tail = 100.0 * (expanded_tail(confidence, blocks) if blocks else (1.0 - confidence) / 2.0)
    low = np.percentile(samples, tail, axis=0)
    high = np.percentile(samples, 100.0 - tail, axis=0)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def superiority(
    estimate: FloatArray, samples: FloatArray, components: IndexArray
) -> list[list[float | None]]:
    """``los[i][j]``: the likelihood that item ``i`` is stronger than item ``j``.

    A normal approximation: ``Φ((x_i − x_j) / sd(x_i − x_j))`` with the spread of the difference taken
    from the bootstrap ``samples``; ``None`` for items in different components (not comparable).
    """
    covariance = np.atleast_2d(np.cov(samples, rowvar=False))
    n = len(estimate)
    los: list[list[float | None]] = []
    for i in range(n):
        row: list[float | None] = []
        for j in range(n):
            if components[i] != components[j]:
                row.append(None)
                continue
            gap = float(estimate[i] - estimate[j])
            variance = float(covariance[i, i] + covariance[j, j] - 2 * covariance[i, j])
            if variance <= 1e-18:
                row.append(0.5 if abs(gap) < 1e-12 else float(gap > 0))
            else:
                row.append(0.5 * (1.0 + math.erf(gap / math.sqrt(2.0 * variance))))
        los.append(row)
    return los
