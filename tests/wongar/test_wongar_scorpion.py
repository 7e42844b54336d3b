"""The Scorpion: track, phases, penalties one at a time, ritual reshuffles, both game ends."""

from __future__ import annotations

import random

from engine.core import Event
from engine.wongar.arrange import (
    clear_board,
    discard_from_pile,
    leave_in_stack,
    pile_on_top,
    set_face_up,
    set_hand,
    set_pieces,
    set_scorpion_aside,
    stack_on_top,
)
from engine.wongar.cards import RitualCard, TerritoryCard
from wongar_scenario import BOARD, act, empty_hands, hand, quiet_game, take_disc_and_stop

R = RitualCard
T = TerritoryCard


def _types(log: list[Event]) -> list[object]:
    return [e.data["type"] for e in log]


def test_ritual_scorpion_moves_track_sets_aside_replaces_and_penalises_strictly_lower() -> None:
    state = quiet_game()
    state.scores = [3, 5, 5, 0]
    pile_on_top(state, [R.SCORPION, R.CUBE])
    state.begin()  # the Elder's privilege: seat 1 draws
    assert state.track == 2
    assert state.ritual_aside == 1
    assert hand(state, 1)[R.CUBE] >= 1 and sum(hand(state, 1)) == 3
    assert state.scores == [3, 3, 5, 0], "two seats strictly lower (3 and 0), the equal 5 does not count"


def test_territory_scorpions_penalise_one_at_a_time_five_players() -> None:
    state = quiet_game(players=5)
    state.ancestor_owner = state.boomerang = 4  # round 2: the Ancestor passes to seat 0
    state.scores = [7, 5, 4, 3, 2]
    stack_on_top(state, "Kangaroo", [T.SCORPION, T.SCORPION, T.CUBE])
    for where in ("Emu", "Serpent", "Goanna", "Hands"):
        stack_on_top(state, where, [T.CUBE])
    pile_on_top(state, [R.DISC, R.DISC])
    state.begin()
    for where in ("Kangaroo", "Emu", "Serpent", "Goanna", "Hands"):
        take_disc_and_stop(state, where)
    assert state.round == 2 and state.start == 0
    assert state.track == 3
    assert state.taken[0 * 9 + T.SCORPION] == 2, "territory Scorpions stay face down with the start player"
    assert state.face_up[0] == T.CUBE
    assert state.scores == [2, 5, 4, 3, 2], "first Scorpion: 4 back (7 -> 3); second: 1 back (3 -> 2)"


def test_second_ritual_scorpion_reshuffles_pile_discards_and_both_scorpions() -> None:
    state = quiet_game()
    set_scorpion_aside(state)
    state.track = 2
    discard_from_pile(state, 10)
    pile_before = len(state.pile)
    pile_on_top(state, [R.SCORPION, R.CUBE])
    state.begin()
    assert "reshuffle" in _types(state.log)
    assert state.track == 3, "two Scorpions so far"
    assert sum(state.discard) == 0
    assert state.ritual_aside + state.pile.count(R.SCORPION) == 2
    assert len(state.pile) + sum(hand(state, 1)) - 2 == pile_before - 1 + 10 + 2


def test_only_scorpions_left_no_card_and_no_endless_draw() -> None:
    state = quiet_game()
    state.begin()
    set_scorpion_aside(state)
    state.track = 2
    empty_hands(state)
    set_hand(state, 2, [RitualCard(c) for c in state.pile if c != R.SCORPION])
    assert state.pile == [R.SCORPION]
    act(state, "take", "Emu")
    act(state, "draw_ritual")  # the Scorpion: reshuffled with the other; nothing else to draw
    assert state.track == 3
    assert sum(hand(state, 0)) == 0, "no card gained"
    assert state.pile.count(R.SCORPION) + state.ritual_aside == 2


def test_points_follow_the_phase_of_the_track() -> None:
    for space, points in ((5, 2), (6, 3), (10, 3), (11, 5), (15, 5)):
        state = quiet_game()
        set_face_up(state, "Moon", T.ANCESTOR)
        clear_board(state)
        set_pieces(state, "Foot", 2, disc=1)
        state.track = space
        state.begin()
        empty_hands(state)
        act(state, "take", "Moon")
        act(state, "ancestor_to", "Foot")
        assert state.scores == [0, 0, points, 0], f"space {space}"


def test_custom_track_and_points_knobs() -> None:
    from engine.wongar.arrange import staged

    state = staged(3, 4, scorpion_track="2/2/2", ceremony_points="1,1,1/9,9,9/20,20,20")
    assert state.last_space == 6
    state.track = 3
    assert state.phase() == 2
    assert state.points[1] == (9, 9, 9)


def test_scorpion_end_finishes_the_round() -> None:
    state = quiet_game()
    state.track = 14
    set_face_up(state, "Goanna", T.FOUR_RITUAL)
    pile_on_top(state, [R.DISC, R.SCORPION])  # the privilege takes the Disc
    state.begin()
    act(state, "take", "Goanna")
    assert state.track == 15 and state.end_reason == "scorpion"
    assert not state.is_over() and state.to_move() == (1,)
    for where in ("Emu", "Serpent", "Hands"):
        take_disc_and_stop(state, where)
    assert state.is_over()
    assert state.result().detail["end"] == "scorpion"
    assert state.result().detail["rounds"] == 1


def test_last_card_of_a_stack_ends_after_the_round() -> None:
    state = quiet_game()
    leave_in_stack(state, "Emu", 0)
    state.begin()
    take_disc_and_stop(state, "Emu")
    assert state.end_reason == "stack" and not state.is_over()
    for where in ("Kangaroo", "Serpent", "Hands"):
        assert not state.is_over()
        take_disc_and_stop(state, where)
    assert state.is_over()
    detail = state.result().detail
    assert (detail["rounds"], detail["end"], detail["scorpion_space"]) == (1, "stack", 1)
    assert detail["bonus"] == [8, 8, 8, 8], "one Disc card each: all tied"


def test_track_stays_on_its_last_space() -> None:
    state = quiet_game()
    state.track = 15
    state.end_reason = "scorpion"
    pile_on_top(state, [R.SCORPION, R.DISC])
    state.begin()
    assert state.track == 15
    assert BOARD[0] == state.board.names[0]


def test_a_revealed_setup_scorpion_is_no_longer_claimed_under_its_stack() -> None:
    emu = BOARD.index("Emu")
    seed = next(s for s in range(200) if quiet_game(seed=s).bottom_known[emu])
    state = quiet_game(seed=seed)
    stack = state.stacks[emu]
    state.territory_box += len(stack) - 1
    del stack[1:]  # only the setup Scorpion at the bottom is left
    assert stack == [T.SCORPION] and state.bottom_known[emu] == 1
    state.begin()
    for where in ("Emu", "Kangaroo", "Serpent", "Hands"):
        act(state, "take", where)
        act(state, "stop")
    obs = state.observation(0)
    assert obs["round"] == 2 and obs["stack_sizes"][emu] == 0  # type: ignore[index]
    assert obs["scorpions_under"][emu] == 0, "the Scorpion was revealed at round 2: none is left under"  # type: ignore[index]


def test_scorpions_under_never_exceeds_the_stack_in_random_games() -> None:
    from engine.wongar import GAME

    rng = random.Random(7)
    for seed in range(60):
        state = GAME.new_state(3 + seed % 3, seed=seed, variant=("basic", "initiated")[seed % 2])
        while not state.is_over():
            (seat,) = state.to_move()
            obs = state.observation(seat)
            under, sizes = obs["scorpions_under"], obs["stack_sizes"]
            assert isinstance(under, list) and isinstance(sizes, list)
            assert all(u <= z for u, z in zip(under, sizes)), f"seed {seed}: {under} under {sizes}"  # type: ignore[operator]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
