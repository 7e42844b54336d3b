"""Confidence intervals and likelihood of superiority by resampling whole blocks of games.

A block is a deal played under all its seat rotations (or a single game when the schedule has no
duplicates). Each replicate draws as many blocks as there are, with replacement, weights every game by
how often its block was drawn, and re-fits from the full-data fit: a first Newton step from
precomputed per-block gradients, then chord-Newton steps (see :meth:`PlackettLuceModel.refit`) with
the step matrix's diagonal corrected for the replicate's own curvature of each bot.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from scipy.special import ndtr, stdtrit  # not scipy.stats: its import alone takes most of a second

from leaderboards.plackett_luce import PlackettLuceFit, PlackettLuceModel

FloatArray = NDArray[np.float64]
IndexArray = NDArray[np.intp]

REFIT_TOLERANCE = 1e-4
"""A replicate stops once a step moves no θ more than this (0.017 Elo); the chord steps converge
fast, so the replicate is then within a small fraction of that of its exact optimum."""


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
    precision = 0.0 if prior_sd is None else 1.0 / prior_sd**2
    optimum = model.raw_params(fit)
    matrix = model.step_matrix(optimum, np.ones(model.n_games), prior_sd)
    by_block = model.gradient_by_group(optimum, blocks, n_blocks)
    # Each replicate corrects the step matrix's diagonal by how its weights change each bot's
    # curvature (1/new - 1/full): a bot whose blocks were drawn twice as often moves half as far
    # per unit of gradient. The exact curvature at the optimum is again a sum over blocks. This
    # halves the chord steps when bots have few blocks each (200 bots of 40 tables).
    by_block_curvature = model.curvature_by_group(optimum, blocks, n_blocks)[:, : model.n_items]
    full = precision + by_block_curvature.sum(axis=0)
    thetas = np.empty((samples, model.n_items))
    for replicate in range(samples):
        drawn = np.bincount(rng.integers(0, n_blocks, n_blocks), minlength=n_blocks)
        curvature = precision + drawn @ by_block_curvature
        diagonal = np.zeros(model.n_params)
        diagonal[: model.n_items] = np.where(curvature > 0, 1.0 / curvature - 1.0 / full, 0.0)
        # The first Newton step costs no pass over the games: the gradient at the full-data
        # optimum under the new weights is a sum of precomputed per-block gradients.
        residual = drawn @ by_block - precision * optimum
        start = optimum + matrix @ residual + diagonal * residual
        weights = drawn[blocks].astype(np.float64)
        thetas[replicate] = model.refit(
            weights, prior_sd, start, matrix, tolerance=REFIT_TOLERANCE, diagonal=diagonal
        ).theta
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
