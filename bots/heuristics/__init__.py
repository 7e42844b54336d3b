"""Position evaluation for the built-in bots: per game, each seat's estimated final points.

:func:`estimator` picks the game's function; :func:`margin` and :func:`rewards` turn the estimates
into what a greedy choice maximises and what a search backs up; :func:`playout` is how a search
plays on past its tree before it estimates. A game with neither (one installed as a package of
its own) is played on at random to its end and scored by its final scores, so the built-in
search plays every registered game, only with no knowledge of it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import cast

from engine.core import State
from engine.waroong.state import WaroongState
from engine.wongar.state import WongarState

from . import waroong, waroong_playout, wongar

Estimator = Callable[[State], list[float]]
#: Plays a state on (in place) from where a search's tree ends, before the estimate.
Playout = Callable[[State, random.Random], None]

#: Points of lead that make a reward of about 0.73 (and of deficit, 0.27).
REWARD_SCALE = 4.0


def _wongar(state: State) -> list[float]:
    return wongar.estimate(cast(WongarState, state))


def _waroong(state: State) -> list[float]:
    return waroong.estimate(cast(WaroongState, state))


_ESTIMATORS: dict[str, Estimator] = {"wongar": _wongar, "waroong": _waroong}


def _stay(state: State, rng: random.Random) -> None:
    """No playout: in Wongar a placement or ceremony move played quickly mostly blurs the estimate."""


def _waroong_round(state: State, rng: random.Random) -> None:
    """In Waroong Wars the rest of the round, every seat playing the quick policy: what a draft
    pick cooks shows only once the others have picked and the cooking turns are played."""
    waroong_playout.play_round(cast(WaroongState, state), rng)


_PLAYOUTS: dict[str, Playout] = {"wongar": _stay, "waroong": _waroong_round}


def _final_scores(state: State) -> list[float]:
    """A game's final scores once it is over; before, no seat told apart (every estimate 0)."""
    if state.is_over():
        return [float(score) for score in state.result().scores]
    return [0.0] * state.config.players


def _random_to_end(state: State, rng: random.Random) -> None:
    """Play on to the end, each decision a uniformly random legal one of a random seat to move."""
    while not state.is_over():
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def knows(game: str) -> bool:
    """Whether ``game`` (by name) has an estimate of its own here (else the final scores stand in)."""
    return game in _ESTIMATORS


def estimator(game: str) -> Estimator:
    """The estimate of each seat's final points for ``game`` (by name); the final scores for a
    game without an estimate of its own."""
    return _ESTIMATORS.get(game, _final_scores)


def playout(game: str) -> Playout:
    """How a search plays on past its tree in ``game`` (by name); at random to the end for a game
    without a playout of its own."""
    return _PLAYOUTS.get(game, _random_to_end)


def margin(values: Sequence[float], seat: int) -> float:
    """``seat``'s lead over the best other seat (negative when behind)."""
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def rewards(values: Sequence[float]) -> list[float]:
    """Per seat, a reward in (0, 1): a logistic curve of its lead over the best other seat, so
    that winning counts most and every point of margin still counts a little."""
    return [1 / (1 + math.exp(-margin(values, seat) / REWARD_SCALE)) for seat in range(len(values))]
