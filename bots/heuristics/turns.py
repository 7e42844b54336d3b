"""Finishing a turn: a seat's remaining decisions of its own turn, each taken greedily.

In games where one turn is several decisions of the same seat (Wongar: take a card, then its extras,
its choice, a figure's move, a ceremony's effect), the estimate of a position in the middle of a
turn misjudges it: a ceremony card looks worthless until its effect is chosen. Finishing the turn
first, each further decision the one whose one-step result the estimate likes best, lets a bot
score whole turns. It stops as soon as another seat is to move, several seats are (a simultaneous
step), or the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from engine.core import State

from .margins import margin

#: Each seat's estimated final points in a state.
Estimator = Callable[[State], list[float]]
#: Finishes a seat's turn (in place) before its result is scored.
Finisher = Callable[[State, int], None]
#: Whether a clock-driven decision's time is up.
OutOfTime = Callable[[], bool]


def never() -> bool:
    """Never out of time: a decision by nodes alone."""
    return False


def as_it_is(state: State, seat: int) -> None:
    """Nothing to finish: a decision is scored where it leaves the game (in Waroong Wars finishing
    the cooking turn greedily first measured no stronger)."""


#: Decisions of one turn finished at most (a guard: a game's turn is far shorter).
MOST_DECISIONS = 64


def finish_turn(state: State, seat: int, estimate: Estimator) -> None:
    """Play ``seat``'s remaining decisions of its turn on ``state`` (in place), each the one whose
    one-step result has the best :func:`~bots.heuristics.margins.margin` for ``seat`` (ties: the
    lowest action id, so a finished turn depends on the position alone)."""
    for _ in range(MOST_DECISIONS):
        if state.to_move() != (seat,):
            return
        legal = state.legal_actions(seat)
        state.apply(seat, legal[0] if len(legal) == 1 else best_step(state, seat, legal, estimate))


def best_step(state: State, seat: int, legal: list[int], estimate: Estimator) -> int:
    """The first action of ``legal`` whose one-step result has the best margin for ``seat``."""
    best, top = legal[0], float("-inf")
    for action, estimates in results(state, seat, legal, estimate):
        value = margin(estimates, seat)
        if value > top:
            best, top = action, value
    return best


def results(
    state: State, seat: int, actions: Iterable[int], estimate: Estimator, finish: Finisher = as_it_is,
    out_of_time: OutOfTime = never,
) -> Iterator[tuple[int, list[float]]]:
    """Each of ``seat``'s ``actions`` in order with the estimate of its result on a copy of
    ``state``, the turn then finished by ``finish``; after each, stop if ``out_of_time()`` says so
    (a whole turn finished for every action of a large decision can outlast a short move)."""
    for action in actions:
        after = state.clone()
        after.apply(seat, action)
        finish(after, seat)
        yield action, estimate(after)
        if out_of_time():
            return


def finish_movers_turn(state: State, estimate: Estimator) -> None:
    """:func:`finish_turn` for the one seat to move, if exactly one is."""
    movers = state.to_move()
    if len(movers) == 1:
        finish_turn(state, movers[0], estimate)
