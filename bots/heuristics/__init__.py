"""Position evaluation for the built-in bots: per game, each seat's estimated final points.

:func:`estimator` picks the game's function; :func:`margin` and :func:`rewards` turn the estimates
into what a greedy choice maximises and what a search backs up; :func:`playout` is how a search
plays on past its tree before it estimates, and :func:`finisher` how a greedy choice completes its
own turn before it scores it. A game with no estimate or playout of its own (one installed as a
package of its own) is played on at random to its end and scored by its final scores, so the
built-in search plays every registered game, only with no knowledge of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import cast

from engine.core import State
from engine.waroong.state import WaroongState
from engine.wongar.state import WongarState

from . import waroong, waroong_playout, wongar
from .margins import REWARD_SCALE, margin, rewards
from .turns import Estimator, Finisher, OutOfTime, as_it_is, finish_movers_turn, finish_turn, never, results

__all__ = [
    "REWARD_SCALE", "Estimator", "Finisher", "OutOfTime", "Playout", "as_it_is", "estimator", "finisher", "knows",
    "margin", "never", "playout", "random_finisher", "results", "rewards",
]

#: Plays a state on (in place) from where a search's tree ends, before the estimate.
Playout = Callable[[State, random.Random], None]


def _wongar(state: State) -> list[float]:
    return wongar.estimate(cast(WongarState, state))


def _waroong(state: State) -> list[float]:
    return waroong.estimate(cast(WaroongState, state))


_ESTIMATORS: dict[str, Estimator] = {"wongar": _wongar, "waroong": _waroong}


def _wongar_turn(state: State, rng: random.Random) -> None:
    """In Wongar the turn under way finished greedily (:mod:`.turns`): a position in the middle of
    a turn (a card taken, its extras or its ceremony's effect still to choose) is misjudged."""
    finish_movers_turn(state, _wongar)


def _waroong_round(state: State, rng: random.Random) -> None:
    """In Waroong Wars the rest of the round, every seat playing the quick policy: what a draft
    pick cooks shows only once the others have picked and the cooking turns are played."""
    waroong_playout.play_round(cast(WaroongState, state), rng)


_PLAYOUTS: dict[str, Playout] = {"wongar": _wongar_turn, "waroong": _waroong_round}


#: Games whose turns are finished before a greedy choice scores them.
_WHOLE_TURNS = frozenset({"wongar"})


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


def random_finisher(rng: random.Random) -> Finisher:
    """Plays the whole game on at random by ``rng``, not only the turn: how a greedy choice is
    judged in a game without an estimate of its own, by the final scores it reaches."""
    return lambda state, seat: _random_to_end(state, rng)


def finisher(game: str, estimate: Estimator | None = None) -> Finisher:
    """How a greedy choice finishes its own turn in ``game`` (by name) before it scores it: in
    Wongar the rest of the turn greedily (:mod:`.turns`) by ``estimate`` (by default the game's,
    :func:`estimator`); elsewhere nothing."""
    if game not in _WHOLE_TURNS:
        return as_it_is
    return partial(finish_turn, estimate=estimator(game) if estimate is None else estimate)
