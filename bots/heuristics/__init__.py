"""Position evaluation for the built-in bots: per game, each seat's estimated final points.

:func:`estimator` picks the game's function; :func:`margin` and :func:`rewards` turn the estimates
into what a greedy choice maximises and what a search backs up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from engine.core import State
from engine.waroong.state import WaroongState
from engine.wongar.state import WongarState

from . import waroong, wongar

Estimator = Callable[[State], list[float]]

#: Weight of the rank in a reward; the rest is the score relative to the spread of scores.
RANK_WEIGHT = 0.75


def _wongar(state: State) -> list[float]:
    return wongar.estimate(cast(WongarState, state))


def _waroong(state: State) -> list[float]:
    return waroong.estimate(cast(WaroongState, state))


_ESTIMATORS: dict[str, Estimator] = {"wongar": _wongar, "waroong": _waroong}


def estimator(game: str) -> Estimator:
    """The estimate of each seat's final points for ``game`` (by name); ``KeyError`` if unknown."""
    return _ESTIMATORS[game]


def margin(values: Sequence[float], seat: int) -> float:
    """``seat``'s lead over the best other seat (negative when behind)."""
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def rewards(values: Sequence[float]) -> list[float]:
    """Per seat, a reward in [0, 1]: mostly rank (ties shared), partly the normalised score."""
    n = len(values)
    low, high = min(values), max(values)
    spread = high - low
    out = []
    for mine in values:
        above = sum(1 for v in values if v > mine)
        tied = sum(1 for v in values if v == mine) - 1
        rank_reward = (n - 1 - above - tied / 2) / (n - 1)
        score_reward = (mine - low) / spread if spread > 0 else 0.5
        out.append(RANK_WEIGHT * rank_reward + (1 - RANK_WEIGHT) * score_reward)
    return out
