"""The matchmaker's rating state from a Plackett-Luce fit (:mod:`leaderboards.plackett_luce`): the
fitted ratings and their covariance by the Laplace approximation, the inverse of the negated
Hessian of the log-posterior at the fit (fast enough to recompute after every table, unlike the
leaderboard's bootstrap intervals)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from arena.league.matchmaking import EntrantKey, Ratings
from leaderboards.plackett_luce import PlackettLuceFit, PlackettLuceModel
from leaderboards.scale import ELO_MEAN, ELO_PER_THETA


def laplace_ratings(
    model: PlackettLuceModel,
    fit: PlackettLuceFit,
    prior_sd: float | None,
    keys: Sequence[EntrantKey],
) -> Ratings:
    """Ratings (Elo, mean 1500 in each connected group like ``fit``) of the items ``keys`` name
    (``keys[i]`` is item ``i``), with the covariance of the centred ratings; ``prior_sd`` in θ
    units, as the fit was made (``None``: no prior, a pseudo-inverse)."""
    raw = model.raw_params(fit)
    _, _, hessian = model.log_likelihood(raw, np.ones(model.n_games), hessian=True)
    assert hessian is not None
    if prior_sd is None:
        covariance = np.linalg.pinv(-hessian, hermitian=True)
    else:
        covariance = np.linalg.inv(np.eye(model.n_params) / prior_sd**2 - hessian)
    items = covariance[: model.n_items, : model.n_items]
    same = model.components[:, None] == model.components[None, :]
    centring = np.eye(model.n_items) - same / same.sum(axis=1, keepdims=True)
    centred = centring @ items @ centring.T
    return Ratings(
        tuple(keys),
        ELO_MEAN + ELO_PER_THETA * fit.theta,
        (centred + centred.T) / 2 * ELO_PER_THETA**2,
    )
