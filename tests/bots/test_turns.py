"""Finishing a turn before it is scored: where it stops, what it plays, and which games use it."""

from __future__ import annotations

import random

import pytest

from bots.heuristics import estimator, finisher, margin
from bots.heuristics.turns import best_step, finish_movers_turn, finish_turn, results
from engine.core import State
from engine.registry import get_game
from engine.wongar.state import Pending, WongarState

WONGAR = estimator("wongar")


def _mid_turn_positions(seed: int, wanted: int = 12) -> list[WongarState]:
    """Wongar positions, played at random from ``seed``, where a seat has taken a card and is to
    decide again in the same turn."""
    state = get_game("wongar").new_state(3, seed)
    assert isinstance(state, WongarState)
    rng = random.Random(seed)
    found: list[WongarState] = []
    previous = -1
    while not state.is_over() and len(found) < wanted:
        (seat,) = state.to_move()
        if seat == previous and state.pending != Pending.SETUP_PLACE:
            clone = state.clone()
            assert isinstance(clone, WongarState)
            found.append(clone)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        previous = seat
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_finished_turn_ends_with_another_seat_to_move_or_the_game_over(seed: int) -> None:
    positions = _mid_turn_positions(seed)
    assert positions
    for state in positions:
        (seat,) = state.to_move()
        finish_turn(state, seat, WONGAR)
        assert state.is_over() or state.to_move() != (seat,)


def test_each_decision_of_the_finished_turn_is_the_best_one_step_margin() -> None:
    for state in _mid_turn_positions(4, wanted=6):
        (seat,) = state.to_move()
        legal = state.legal_actions(seat)
        chosen = best_step(state, seat, legal, WONGAR)
        values = {}
        for action in legal:
            after = state.clone()
            after.apply(seat, action)
            values[action] = margin(WONGAR(after), seat)
        assert values[chosen] == max(values.values())
        assert chosen == min(a for a in legal if values[a] == values[chosen])  # ties: the lowest id


def test_results_estimate_each_action_on_a_copy_in_order_and_stop_when_out_of_time() -> None:
    state = _mid_turn_positions(8, wanted=1)[0]
    (seat,) = state.to_move()
    legal = state.legal_actions(seat)
    assert len(legal) >= 3
    before = state.observation(seat)
    finish = finisher("wongar")

    scored = list(results(state, seat, legal, WONGAR, finish))
    assert [action for action, _ in scored] == legal
    assert state.observation(seat) == before  # each action played on a copy
    for action, estimates in scored:
        after = state.clone()
        after.apply(seat, action)
        finish(after, seat)
        assert estimates == WONGAR(after)

    asked = iter(range(1, len(legal) + 1))
    cut = list(results(state, seat, legal, WONGAR, finish, lambda: next(asked) >= 2))
    assert cut == scored[:2]  # asked after each action, stopped after the one at which it said yes


def test_another_seats_turn_is_left_alone() -> None:
    state = _mid_turn_positions(5, wanted=1)[0]
    (seat,) = state.to_move()
    before = state.observation(seat)
    finish_turn(state, (seat + 1) % 3, WONGAR)
    assert state.observation(seat) == before


def test_the_movers_turn_is_finished_by_the_search_playout() -> None:
    state = _mid_turn_positions(6, wanted=1)[0]
    (seat,) = state.to_move()
    finish_movers_turn(state, WONGAR)
    assert state.is_over() or state.to_move() != (seat,)


def test_greedy_finishes_turns_in_wongar_and_scores_waroong_decisions_where_they_leave_the_game() -> None:
    wongar = _mid_turn_positions(7, wanted=1)[0]
    (seat,) = wongar.to_move()
    finisher("wongar")(wongar, seat)
    assert wongar.to_move() != (seat,)

    waroong: State = get_game("waroong").new_state(3, 7)
    seat = waroong.to_move()[0]
    before = waroong.observation(seat)
    finisher("waroong")(waroong, seat)
    assert waroong.observation(seat) == before
