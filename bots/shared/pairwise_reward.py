"""A search reward for rated play at tables of three or more: each seat's expected share of its
head-to-head results.

A rating from a multiplayer table counts every pair of seats as a game won, lost or drawn by their
final ranks, so a seat gains from finishing ahead of each other seat, not only from finishing
first. :func:`pairwise_rewards` scores a position the same way: per seat, the mean over the other
seats of a logistic curve of its lead over that seat (the curve of :func:`bots.heuristics.rewards`),
so second place ahead of a distant third is worth more than second place just ahead of it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bots.heuristics import REWARD_SCALE


def pairwise_rewards(values: Sequence[float]) -> list[float]:
    """Per seat, in (0, 1): the mean over the other seats of ``1 / (1 + exp(-lead / REWARD_SCALE))``."""
    n = len(values)
    if n < 2:
        return [0.5] * n
    earned = [0.0] * n
    for a in range(n):
        for b in range(a + 1, n):
            ahead = 1 / (1 + math.exp((values[b] - values[a]) / REWARD_SCALE))
            earned[a] += ahead
            earned[b] += 1 - ahead
    return [total / (n - 1) for total in earned]
