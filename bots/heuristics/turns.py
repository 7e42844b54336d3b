"""Finishing a turn: a seat's remaining decisions of its own turn, each taken greedily.

In games where one turn is several decisions of the same seat (Wongar: take a card, then its extras,
its choice, a figure's move, a ceremony's effect), the estimate of a position in the middle of a
turn misjudges it: a ceremony card looks worthless until its effect is chosen. Finishing the turn
first, each further decision the one whose one-step result the estimate likes best, lets a bot
score whole turns. It stops as soon as another seat is to move, several seats are (a simultaneous
step), or the game is over.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import State

from .margins import margin

#: Each seat's estimated final points in a state.
Estimator = Callable[[State], list[float]]

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
    for action in legal:
        after = state.clone()
        after.apply(seat, action)
        value = margin(estimate(after), seat)
        if value > top:
            best, top = action, value
    return best


def finish_movers_turn(state: State, estimate: Estimator) -> None:
    """:func:`finish_turn` for the one seat to move, if exactly one is."""
    movers = state.to_move()
    if len(movers) == 1:
        finish_turn(state, movers[0], estimate)
