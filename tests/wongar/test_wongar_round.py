"""The round: start player and the pass-left, the Elder's privilege, reveals, the card bonus."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.wongar.arrange import leave_in_stack, pile_on_top, set_face_up, stack_on_top
from engine.wongar.cards import RitualCard, TerritoryCard
from wongar_scenario import BOARD, act, empty_hands, hand, quiet_game, take_disc_and_stop

R = RitualCard
T = TerritoryCard


def test_ancestor_passes_left_when_its_owner_started_the_last_round() -> None:
    state = quiet_game()
    state.ancestor_owner = state.boomerang = 2
    state.begin()
    assert state.start == 2 and state.to_move() == (2,)
    for where in ("Kangaroo", "Emu", "Serpent", "Goanna"):
        take_disc_and_stop(state, where)
    assert state.round == 2
    assert (state.ancestor_owner, state.boomerang, state.start) == (3, 3, 3)
    assert state.to_move() == (3,)


def test_new_ancestor_owner_starts_without_passing() -> None:
    state = quiet_game()
    set_face_up(state, "Moon", T.ANCESTOR)
    state.begin()
    empty_hands(state)
    take_disc_and_stop(state, "Kangaroo")
    act(state, "take", "Moon")  # seat 1 takes the Ancestor
    act(state, "ancestor_to", "Kangaroo")
    assert state.boomerang == 0, "the Boomerang stays until the round is over"
    take_disc_and_stop(state, "Emu")
    take_disc_and_stop(state, "Serpent")
    assert state.round == 2
    assert (state.ancestor_owner, state.boomerang, state.start) == (1, 1, 1)


def test_start_player_reveals_only_empty_places() -> None:
    state = quiet_game()
    stack_on_top(state, "Kangaroo", [T.CUBE])
    stack_on_top(state, "Emu", [T.TRIPLE])
    state.begin()
    before = list(state.face_up)
    for where in ("Kangaroo", "Emu", "Hands", "Fish"):
        take_disc_and_stop(state, where)
    assert state.face_up[0] == T.CUBE and state.face_up[1] == T.TRIPLE
    untouched = [t for t, name in enumerate(BOARD) if name not in ("Kangaroo", "Emu", "Hands", "Fish")]
    assert all(state.face_up[t] == before[t] for t in untouched)
    assert all(card >= 0 for card in state.face_up)


def test_elder_privilege_each_round() -> None:
    state = quiet_game()
    empty_hands(state)
    pile_on_top(state, [R.CYLINDER, R.CUBE])
    state.begin()
    assert hand(state, 1) == [0, 0, 1, 0, 0], "round 1: the Elder's owner draws one"
    for where in ("Kangaroo", "Emu", "Serpent", "Goanna"):
        take_disc_and_stop(state, where)
    assert hand(state, 1) == [0, 1, 1, 0, 0], "round 2 again"
    assert [e.data["seat"] for e in state.log if e.data["type"] == "privilege"] == [1, 1]


def test_card_majority_bonus_with_ties() -> None:
    state = quiet_game()
    leave_in_stack(state, "Moon", 0)
    set_face_up(state, "Emu", T.CUBE)
    set_face_up(state, "Serpent", T.TRIPLE)
    state.begin()
    take_disc_and_stop(state, "Moon")
    take_disc_and_stop(state, "Kangaroo")
    act(state, "take", "Emu")
    act(state, "stop")
    act(state, "take", "Serpent")
    for where in ("Goanna", "Goanna", "Goanna"):
        act(state, "place", "Disc", where)
    assert state.is_over()
    result = state.result()
    assert result.detail["bonus"] == [8, 8, 8, 0], "Discs tied 1-1: both; Cube: seat 2; Triple counts nothing"
    assert result.scores == (8, 8, 8, 0)
    assert result.ranks == (1, 1, 1, 4)


def test_an_illegal_action_is_named_by_its_label() -> None:
    state = quiet_game()
    state.begin()
    (seat,) = state.to_move()
    action = state.table().id_of("pass")
    with pytest.raises(IllegalAction, match=rf"action {action} \(pass \(leave this ceremony\)\) is not legal for seat {seat} now"):
        state.apply_checked(seat, action)
    with pytest.raises(IllegalAction, match=r"action 99999 \(<unknown action 99999>\)"):
        state.apply_checked(seat, 99999)
