"""The paired sequential test of a head-to-head comparison: a candidate against a baseline.

Each observation is one deal played twice, in all its seat rotations, with the same opponents in
the same seats: once with the candidate, once with the baseline in its place. Its value is the
difference ``d = s_c - s_b`` of the two duplicate-block scores (each the pairwise score against the
opponents over the block, in ``0..1``), so ``d`` lies in ``-1..1`` and whatever the deal and the
opponents did to both cancels. Deals are independent, so the ``d`` are independent and identically
distributed, whatever their (discrete, unknown) distribution.

The hypotheses are about ``E[d]``. A candidate ``elo`` points stronger than the baseline, against
opponents as strong as the baseline, scores ``elo_to_score(elo)`` against them where the baseline
scores 1/2 (under the Plackett–Luce model the chance of finishing above an opponent is the
logistic of the rating gap), so ``H_i: E[d] = elo_to_score(elo_i) - 1/2``. The test runs on the
paired score ``x = (1 + d) / 2`` in ``0..1``, whose mean under ``H_i`` is
``m_i = (1/2 + elo_to_score(elo_i)) / 2``. Against opponents much stronger or weaker than both bots
the same gain in skill moves ``d`` less, so the test then reads it as fewer Elo.

The test is the generalised SPRT of a normal model with unknown variance (the form the pentanomial
tests of chess testing frameworks approximate): under ``H_i`` the maximum-likelihood variance is
``v_i = mean((x - m_i)^2)``, and

    LLR = (n / 2) · log(v0 / v1),

compared with Wald's bounds. Its strength is the point of pairing: it grows as
``n (m1 - m0)^2 / (2 var(x))`` near the hypotheses, so the more the twin games cancel, the faster
it decides. The distribution-free test of :mod:`leaderboards.sprt` cannot do this: whatever the
spread of ``d``, H0 may explain a positive mean by a little unseen mass at ``d = -1``, so (for
``elo0 = 0``) its LLR grows at most as ``n · log(1 + E[d])``, however steady ``d`` is.
:data:`PAIRED_PSEUDO_COUNT` pairs at each end (``d = -1`` and ``d = +1``) keep the variances
positive and stop a short run of identical differences (all 0 when the twins play alike) from deciding on a variance of nearly 0;
their weight fades as pairs accumulate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from numpy.typing import NDArray

from leaderboards.sprt import SprtSettings, elo_to_score, score_to_elo, verdict

#: Weight, in deal pairs, of the pseudo-observations at each end of the paired score (0 and 1).
PAIRED_PSEUDO_COUNT = 0.05
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class PairedResult:
    """Where the test of ``candidate`` against ``baseline`` stands after ``pairs`` complete deal
    pairs: the LLR, the mean score ``difference`` with its 95% ``interval`` (``None`` before two
    pairs), and the ``verdict`` (``"H1"``: at least ``elo1`` better, ``"H0"``: not better than
    ``elo0``, ``None``: keep playing)."""

    candidate: str
    baseline: str
    settings: SprtSettings
    pairs: int
    difference: float | None
    interval: tuple[float, float] | None
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
        """The Elo gap the mean difference stands for, against opponents of the baseline's
        strength (``None`` before any pair or at a difference of ±1/2 or beyond)."""
        if self.difference is None or not -0.5 < self.difference < 0.5:
            return None
        return score_to_elo(0.5 + self.difference)

    def describe(self) -> str:
        """One line: LLR and bounds, the difference with its interval, pairs, verdict."""
        verdict = {"H1": "H1 accepted (candidate better)", "H0": "H0 accepted (not better)"}.get(
            self.verdict or "", "running"
        )
        difference = "none yet" if self.difference is None else f"{self.difference:+.4f}"
        if self.interval is not None:
            difference += f" (95% {self.interval[0]:+.4f} .. {self.interval[1]:+.4f})"
        if self.elo is not None:
            difference += f", Elo {self.elo:+.1f}"
        return (
            f"SPRT {self.candidate} vs {self.baseline} [{self.settings.elo0:g}, "
            f"{self.settings.elo1:g}] alpha {self.settings.alpha:g} beta {self.settings.beta:g}: "
            f"LLR {self.llr:.2f} ({self.lower:.2f}, {self.upper:.2f}); score difference "
            f"{difference} after {self.pairs} deal pairs: {verdict}"
        )


def paired_mean(elo: float) -> float:
    """The mean paired score ``(1 + d) / 2`` of a candidate ``elo`` points above the baseline."""
    return (0.5 + elo_to_score(elo)) / 2


def paired_llr(
    values: NDArray[np.float64], counts: NDArray[np.float64], m0: float, m1: float
) -> NDArray[np.float64]:
    """The LLR of ``E[x] = m1`` against ``E[x] = m0`` for each row of ``counts`` (``counts[..., j]``
    paired scores ``values[j]`` in ``0..1``; leading batch axes allowed); 0 for a row without
    observations."""
    values = np.concatenate([np.asarray(values, float), [0.0, 1.0]])
    counts = np.asarray(counts, float)
    pseudo = np.full((*counts.shape[:-1], 2), PAIRED_PSEUDO_COUNT)
    weights = np.concatenate([counts, pseudo], axis=-1)
    total = weights.sum(axis=-1)
    v0 = (weights * (values - m0) ** 2).sum(axis=-1) / total
    v1 = (weights * (values - m1) ** 2).sum(axis=-1) / total
    llr: NDArray[np.float64] = counts.sum(axis=-1) / 2 * np.log(v0 / v1)
    return llr


def paired_sprt(
    candidate: str, baseline: str, differences: Mapping[float, int], settings: SprtSettings
) -> PairedResult:
    """The test after deal pairs whose difference was ``d`` ``differences[d]`` times."""
    pairs = sum(differences.values())
    if pairs == 0:
        return PairedResult(candidate, baseline, settings, 0, None, None, 0.0, None)
    values = np.array(sorted(differences), dtype=float)
    counts = np.array([differences[v] for v in sorted(differences)], dtype=float)
    llr = float(paired_llr((1 + values) / 2, counts, paired_mean(settings.elo0),
                           paired_mean(settings.elo1)))
    mean, interval = mean_interval(differences)
    return PairedResult(candidate, baseline, settings, pairs, mean, interval, llr,
                        verdict(llr, settings))


def mean_interval(
    observed: Mapping[float, int]
) -> tuple[float | None, tuple[float, float] | None]:
    """The mean of observations (value ``v`` seen ``observed[v]`` times) and its normal 95%
    interval from their sample spread (``None`` before one, resp. two, observations)."""
    n = sum(observed.values())
    if n == 0:
        return None, None
    mean = sum(v * c for v, c in observed.items()) / n
    if n == 1:
        return mean, None
    variance = sum(c * (v - mean) ** 2 for v, c in observed.items()) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return mean, (mean - half, mean + half)
