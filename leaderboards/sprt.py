"""A generalised sequential probability ratio test (GSPRT) on duplicate-block scores.

Each observation is a block score in ``0..1`` (for a gauntlet: the candidate's pairwise score
against the pool over one deal's rotations, so deal luck cancels). Its distribution is unknown and
discrete, so the test is the generalised SPRT of the pentanomial tests of chess testing frameworks,
carried to any finite set of score values: under each hypothesis ``H_i: E[score] = s_i`` the
distribution is the maximum-likelihood one over the observed values with mean ``s_i``
(``p_j = f_j / (1 + λ (a_j - s_i))``, ``λ`` solving ``Σ p_j = 1``), and

    LLR = Σ_j n_j · log(p1_j / p0_j),

compared with Wald's bounds ``log(β / (1 - α))`` (accept H0) and ``log((1 - β) / α)`` (accept H1).
The Elo hypotheses map to scores by the logistic curve, ``s = 1 / (1 + 10^(-elo/400))``: under the
Plackett–Luce model the chance of finishing above an opponent is exactly that of the rating gap.
When 0 or 1 never occurred, a pseudo-count of :data:`PSEUDO_COUNT` at that end keeps the
maximum-likelihood distributions defined (as those frameworks regularise empty cells).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

#: Weight given to an unobserved extreme score (0 or 1).
PSEUDO_COUNT = 1e-3
_BISECTIONS = 64


class SprtError(ValueError):
    """Hypotheses or error rates that define no test."""


@dataclass(frozen=True, slots=True)
class SprtSettings:
    """The test: H0 ``elo = elo0`` against H1 ``elo = elo1`` (``elo0 < elo1``), with false-positive
    rate ``alpha`` (accepting H1 when H0 holds) and false-negative rate ``beta``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not all(math.isfinite(v) for v in (self.elo0, self.elo1)):
            raise SprtError("elo0 and elo1 must be finite")
        if not self.elo0 < self.elo1:
            raise SprtError(f"elo0 ({self.elo0:g}) must be below elo1 ({self.elo1:g})")
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < rate < 0.5:
                raise SprtError(f"{name} must be between 0 and 0.5, not {rate:g}")

    @property
    def lower(self) -> float:
        """The bound at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The bound at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def to_plain(self) -> dict[str, float]:
        """As in the config file."""
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}


@dataclass(frozen=True, slots=True)
class SprtResult:
    """Where the test of ``candidate`` stands after ``blocks`` complete blocks: the LLR, the bounds,
    the mean block ``score`` and its Elo, and the ``verdict`` (``"H1"``: at least ``elo1`` better,
    ``"H0"``: not better than ``elo0``, ``None``: keep playing)."""

    candidate: str
    settings: SprtSettings
    blocks: int
    score: float | None
    llr: float
    verdict: str | None

    @property
    def lower(self) -> float:
        return self.settings.lower

    @property
    def upper(self) -> float:
        return self.settings.upper

    @property
    def elo(self) -> float | None:
        """The Elo gap the mean block score stands for (``None`` at 0, 1 or before any block)."""
        if self.score is None or not 0 < self.score < 1:
            return None
        return score_to_elo(self.score)

    def describe(self) -> str:
        """One line: LLR, bounds, verdict."""
        verdict = {"H1": "H1 accepted (passed)", "H0": "H0 accepted (failed)"}.get(
            self.verdict or "", "running"
        )
        return (
            f"SPRT {self.candidate} [{self.settings.elo0:g}, {self.settings.elo1:g}] "
            f"alpha {self.settings.alpha:g} beta {self.settings.beta:g}: LLR {self.llr:.2f} "
            f"({self.lower:.2f}, {self.upper:.2f}) after {self.blocks} blocks: {verdict}"
        )


def elo_to_score(elo: float) -> float:
    """The expected pairwise score of a rating gap of ``elo`` points."""
    return float(1.0 / (1.0 + 10.0 ** (-elo / 400.0)))


def score_to_elo(score: float) -> float:
    """Inverse of :func:`elo_to_score` (``score`` strictly between 0 and 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def _regularised(
    values: NDArray[np.float64], counts: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Values with 0 and 1 appended, their counts with :data:`PSEUDO_COUNT` where an end is empty
    (``counts`` may carry leading batch axes)."""
    values = np.concatenate([values, [0.0, 1.0]])
    at_zero = np.where(counts[..., values[:-2] == 0.0].sum(axis=-1) > 0, 0.0, PSEUDO_COUNT)
    at_one = np.where(counts[..., values[:-2] == 1.0].sum(axis=-1) > 0, 0.0, PSEUDO_COUNT)
    counts = np.concatenate([counts, at_zero[..., None], at_one[..., None]], axis=-1)
    return values, counts


def _log_mle_factor(
    values: NDArray[np.float64], freq: NDArray[np.float64], mean: float
) -> NDArray[np.float64]:
    """``log(1 + λ (a_j - s))`` for the maximum-likelihood distribution with mean ``s``: ``λ``
    found by bisection on the decreasing ``g(λ) = Σ f_j (a_j - s) / (1 + λ (a_j - s))``."""
    d = values - mean
    lo = np.full(freq.shape[:-1], -1.0 / (1.0 - mean))
    hi = np.full(freq.shape[:-1], 1.0 / mean)
    for _ in range(_BISECTIONS):
        mid = (lo + hi) / 2
        g = (freq * d / (1.0 + mid[..., None] * d)).sum(axis=-1)
        lo = np.where(g > 0, mid, lo)
        hi = np.where(g > 0, hi, mid)
    lam = (lo + hi) / 2
    factor: NDArray[np.float64] = np.log1p(lam[..., None] * d)
    return factor


def llr_batch(
    values: NDArray[np.float64], counts: NDArray[np.float64], settings: SprtSettings
) -> NDArray[np.float64]:
    """The LLR for each row of ``counts`` (``counts[..., j]`` observations of score
    ``values[j]``); 0 for a row without observations."""
    return llr_at_means(values, counts, elo_to_score(settings.elo0), elo_to_score(settings.elo1))


def llr_at_means(
    values: NDArray[np.float64], counts: NDArray[np.float64], s0: float, s1: float
) -> NDArray[np.float64]:
    """As :func:`llr_batch`, for the hypotheses ``E[score] = s0`` against ``E[score] = s1``
    (both strictly between 0 and 1)."""
    values, counts = _regularised(np.asarray(values, float), np.asarray(counts, float))
    total = counts.sum(axis=-1, keepdims=True)
    freq = counts / total
    # log p1_j - log p0_j = log(1 + λ0 (a_j - s0)) - log(1 + λ1 (a_j - s1))
    ratio = _log_mle_factor(values, freq, s0) - _log_mle_factor(values, freq, s1)
    real = counts.copy()
    real[..., -2:] = 0.0  # the pseudo-counts shape the distributions; they are not observations
    llr: NDArray[np.float64] = (real * ratio).sum(axis=-1)
    return llr


def sprt(candidate: str, scores: Mapping[float, int], settings: SprtSettings) -> SprtResult:
    """The test of ``candidate`` after blocks scoring ``score`` ``scores[score]`` times."""
    blocks = sum(scores.values())
    if blocks == 0:
        return SprtResult(candidate, settings, 0, None, 0.0, None)
    values = np.array(sorted(scores), dtype=float)
    counts = np.array([scores[v] for v in sorted(scores)], dtype=float)
    llr = float(llr_batch(values, counts, settings))
    mean = float((values * counts).sum() / blocks)
    return SprtResult(candidate, settings, blocks, mean, llr, verdict(llr, settings))


def verdict(llr: float, settings: SprtSettings) -> str | None:
    """``"H1"`` at or above the upper bound, ``"H0"`` at or below the lower, else ``None``."""
    if llr >= settings.upper:
        return "H1"
    if llr <= settings.lower:
        return "H0"
    return None
