"""Position evaluation for the built-in bots: per game, each seat's estimated final points.

:func:`estimator` picks the game's function; :func:`margin` and :func:`rewards` turn the estimates
into what a greedy choice maximises and what a search backs up; :func:`playout_depth` says how far
a search plays on at random before it estimates.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import cast

from engine.core import State
from engine.waroong.state import WaroongState
from engine.wongar.state import WongarState

from . import waroong, wongar

Estimator = Callable[[State], list[float]]

#: Points of lead that make a reward of about 0.73 (and of deficit, 0.27).
REWARD_SCALE = 4.0


def _wongar(state: State) -> list[float]:
    return wongar.estimate(cast(WongarState, state))


def _waroong(state: State) -> list[float]:
    return waroong.estimate(cast(WaroongState, state))


_ESTIMATORS: dict[str, Estimator] = {"wongar": _wongar, "waroong": _waroong}
#: Random decisions a search plays past its tree before estimating, per game. In Wongar a random
#: placement or ceremony move mostly blurs the estimate; in Waroong a few random moves (the rest of
#: a draft step, a turn) show what a choice leads to.
_PLAYOUT_DEPTHS: dict[str, int] = {"wongar": 0, "waroong": 4}


def estimator(game: str) -> Estimator:
    """The estimate of each seat's final points for ``game`` (by name); ``KeyError`` if unknown."""
    return _ESTIMATORS[game]


def playout_depth(game: str) -> int:
    """How many random decisions a search plays past its tree in ``game`` (by name)."""
    return _PLAYOUT_DEPTHS.get(game, 4)


def margin(values: Sequence[float], seat: int) -> float:
    """``seat``'s lead over the best other seat (negative when behind)."""
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def rewards(values: Sequence[float]) -> list[float]:
    """Per seat, a reward in (0, 1): a logistic curve of its lead over the best other seat, so
    that winning counts most and every point of margin still counts a little."""
    return [1 / (1 + math.exp(-margin(values, seat) / REWARD_SCALE)) for seat in range(len(values))]
