"""The search bot: certain answers, legal answers, repeatable with a node budget, and stronger than
the quick policy it plays out with."""

from __future__ import annotations

import random

import pytest
from staged import stage

from arena_bot.sdk import Choice, Clock, clock_reading
from bots.shared.match import Match
from liars_dice import GAME
from liars_dice.bot import search_policy
from liars_dice.heuristics import quick_action
from liars_dice.rules import CHALLENGE
from liars_dice.search import candidates
from liars_dice.state import LiarsDiceState


def roomy_clock() -> Clock:
    """A clock no node-budgeted search here comes near (so only the budget stops it)."""
    return Clock(60.0, 600.0, 0.0, "wall", clock_reading("wall"))


def decide(state: LiarsDiceState, seat: int, nodes: int, seed: int) -> Choice:
    match = Match(GAME, state.config, seat, random.Random(seed), nodes)
    answer = search_policy(match)(state.observation(seat), tuple(state.legal_actions(seat)), roomy_clock())
    assert isinstance(answer, Choice)
    return answer


def test_an_impossible_bid_is_challenged() -> None:
    """Seat 1 holds a 3 of the two dice on the table: 2 fives cannot be there."""
    state = stage([[5], [3]])
    state.apply(0, state.table().id_of("bid", 2, 5))
    assert state.legal_actions(1) == [CHALLENGE, state.table().id_of("bid", 2, 6)]
    answer = decide(state, 1, nodes=60, seed=1)
    assert answer.action == CHALLENGE
    assert answer.info["nodes"] == 60


def test_a_certain_bid_is_not_challenged() -> None:
    """Seat 1 holds three fives: a bid of 3 fives is certain, so it raises instead."""
    state = stage([[2, 2, 4], [5, 5, 5]])
    state.apply(0, state.table().id_of("bid", 3, 5))
    assert decide(state, 1, nodes=400, seed=2).action != CHALLENGE


def test_candidates_are_the_challenge_and_the_cheapest_raises_per_face() -> None:
    state = stage([[2, 2, 4], [5, 5, 5]])
    state.apply(0, state.table().id_of("bid", 3, 5))
    table = state.table()
    forms = [table[a].form for a in candidates(state, tuple(state.legal_actions(1)))]
    assert forms[0] == ("challenge",)
    assert ("bid", 3, 6) in forms and ("bid", 4, 1) in forms and ("bid", 6, 1) in forms
    assert ("bid", 5, 6) in forms and ("bid", 6, 6) not in forms and len(forms) == 1 + 6 * 3


@pytest.mark.parametrize("variant", ["standard", "wild-ones"])
def test_with_a_node_budget_the_same_start_gives_the_same_answers(variant: str) -> None:
    state = GAME.start(GAME.configure(3, variant), 4)
    assert isinstance(state, LiarsDiceState)
    for _ in range(12):
        if state.is_over():
            break
        seat = state.to_move()[0]
        first, again = decide(state, seat, 30, seed=9), decide(state, seat, 30, seed=9)
        assert first.action == again.action and first.info["value"] == again.info["value"]
        assert first.action in state.legal_actions(seat)
        state.apply(seat, first.action)


def test_the_search_beats_the_quick_policy_it_plays_out_with() -> None:
    """Ten seeded two-player games, seats alternating: the search (200 tries a decision) wins most."""
    wins = 0
    for game in range(10):
        state = GAME.start(GAME.configure(2, knobs={"dice": 3}), game)
        assert isinstance(state, LiarsDiceState)
        searcher = game % 2
        rng = random.Random(game)
        while not state.is_over():
            seat = state.to_move()[0]
            if seat == searcher:
                action = decide(state, seat, 200, seed=game).action
            else:
                action = quick_action(state, seat, rng)
            state.apply_checked(seat, action)
        wins += state.result().ranks[searcher] == 1
    assert wins >= 7
