"""The Game for the Initiated: setup, opening placement, figure cards, own Double, chosen draws."""

from __future__ import annotations

from engine.wongar import GAME
from engine.wongar.arrange import (
    clear_board,
    discard_from_pile,
    set_face_up,
    set_hand,
    set_pieces,
    skip_opening_placement,
    stack_on_top,
    staged,
)
from engine.wongar.cards import KIND_NAMES, STACK_CARDS, RitualCard, TerritoryCard
from engine.wongar.state import WongarState
from wongar_scenario import BOARD, act, decision, hand, offered, on

R = RitualCard
T = TerritoryCard


def initiated(players: int = 4, seed: int = 3) -> WongarState:
    """Dealt Initiated game, seat 0 Ancestor and Boomerang, seat 1 Elder, every face-up card a Disc."""
    state = staged(players, seed, "initiated")
    state.ancestor_owner = state.boomerang = 0
    state.elder_owner = 1
    skip_opening_placement(state)
    for name in BOARD:
        set_face_up(state, name, T.DISC)
    return state


def keep_only_doubles(state: WongarState) -> None:
    """Every seat keeps just its own Double."""
    for s in range(state.n):
        set_hand(state, s, [R.DOUBLE])


def test_initiated_setup() -> None:
    state = staged(4, 8, "initiated")
    for t in range(10):
        cards = state.stacks[t] + [state.face_up[t]]
        expected = list(STACK_CARDS)
        expected[T.ANCESTOR] -= 1
        expected[T.ELDER] -= 1
        assert [cards.count(c) for c in range(9)] == expected
        assert state.face_up[t] != T.SCORPION
    assert state.figure_cards == [1] * 8
    assert state.territory_box == 20 - 8
    for s in range(4):
        assert hand(state, s)[R.DOUBLE] == 1 and sum(hand(state, s)) == 3
    assert R.DOUBLE not in state.pile and R.SCORPION not in state.pile
    assert len(state.pile) == 36 - 8
    assert state.ritual_out == [0, 0, 0, 1, 2]
    assert sum(state.pieces) == 0
    assert state.supply == [18, 15, 12] * 4
    assert state.setup_left == [4, 4, 4] * 4


def test_opening_placement_one_at_a_time_from_the_ancestor_owner() -> None:
    state = GAME.new_state(4, seed=12, variant="initiated")
    assert isinstance(state, WongarState)
    first = state.ancestor_owner
    assert state.to_move() == (first,)
    assert decision(state) == "setup_place"
    assert len(offered(state)) == 30
    order = []
    for i in range(48):
        (seat,) = state.to_move()
        order.append(seat)
        kind = KIND_NAMES[i // 16 % 3]
        act(state, "place", kind, BOARD[i % 10])
    assert order == [(first + i) % 4 for i in range(48)]
    assert sum(state.pieces) == 48
    for s in range(4):
        assert state.supply[s * 3: s * 3 + 3] == [14, 11, 8]
    assert decision(state) == "choose_ritual", "then the Elder's owner chooses a ritual card"
    assert state.to_move() == (state.elder_owner,)


def test_the_opening_placement_shows_the_ancestor_owner_as_start_player() -> None:
    for seed in range(12):
        state = GAME.new_state(4, seed=seed, variant="initiated")
        assert isinstance(state, WongarState)
        owner = state.ancestor_owner
        for seat in range(4):
            obs = state.observation(seat)
            assert obs["start_player"] == owner and obs["ancestor"] == {"territory": "Hands", "owner": owner}
    assert any(GAME.new_state(4, seed=s, variant="initiated").observation(0)["start_player"] != 0 for s in range(12))


def test_a_used_up_kind_cannot_be_placed_in_the_opening() -> None:
    state = staged(3, 2, "initiated")
    state.setup_left[:] = [0, 1, 0] * 3
    state.ancestor_owner = 0
    state.begin()
    assert offered(state) == [("place", "Cube", t) for t in BOARD]


def test_privilege_choice_sees_the_pile_only_while_choosing() -> None:
    state = initiated()
    state.begin()
    assert decision(state) == "choose_ritual" and state.to_move() == (1,)
    before = hand(state, 1)[R.CYLINDER]
    pile = state.observation(1)["pile"]
    assert pile == {k: state.pile.count(i) for i, k in enumerate(KIND_NAMES)}
    assert "pile" not in state.observation(0)
    act(state, "choose", "Cylinder")
    assert hand(state, 1)[R.CYLINDER] == before + 1
    assert "pile" not in state.observation(1)
    assert state.to_move() == (0,) and decision(state) == "take"


def test_figure_cards_replace_taking_and_are_used_once() -> None:
    state = initiated()
    clear_board(state)
    set_pieces(state, "Kangaroo", 2, cube=1)
    for where in ("Emu", "Serpent", "Goanna"):
        stack_on_top(state, where, [T.DISC])
    state.begin()
    act(state, "choose", "Disc")
    assert offered(state)[-2:] == [("play_card", "Ancestor"), ("play_card", "Elder")]
    keep_only_doubles(state)
    act(state, "play_card", "Ancestor")
    assert decision(state) == "ancestor_move"
    act(state, "ancestor_to", "Kangaroo")
    assert state.to_move() == (2,), "seat 2 (its Cube is there) could play its Double"
    act(state, "pass")
    assert state.scores == [0, 0, 2, 0]
    assert all(card == T.DISC for card in state.face_up), "no territory card was taken"
    assert state.figure_cards[0:2] == [0, 1]
    for where in ("Emu", "Serpent", "Goanna"):
        act(state, "take", where)
        act(state, "stop")
    assert state.round == 2
    act(state, "choose", "Disc")
    assert state.start == 1, "seat 0 held the Ancestor and the Boomerang: the Ancestor passed left"
    for where in ("Emu", "Serpent", "Goanna"):
        act(state, "take", where)
        act(state, "stop")
    assert state.to_move() == (0,)
    assert offered(state)[-1] == ("play_card", "Elder")
    act(state, "play_card", "Elder")
    assert decision(state) == "elder_move"
    assert state.elder_owner == 0


def test_own_double_leaves_the_game_when_played() -> None:
    state = initiated()
    clear_board(state)
    set_pieces(state, "Emu", 0, disc=1)
    set_pieces(state, "Emu", 2, disc=2)
    state.begin()
    act(state, "choose", "Disc")
    keep_only_doubles(state)
    set_face_up(state, "Moon", T.ELDER)
    act(state, "take", "Moon")
    act(state, "elder_to", "Emu")
    act(state, "play", "Double")
    act(state, "remove", "Disc", 2)
    act(state, "remove", "Disc", 2)
    assert on(state, "Emu", 2) == [0, 0, 0]
    assert state.ritual_out[R.DOUBLE] == 2 and state.discard[R.DOUBLE] == 0
    assert state.observation(1)["double_held"] == [False, True, True, True]
    assert state.scores == [3, 0, 0, 0]


def test_piece_card_extras_and_four_cards_are_chosen_from_the_pile() -> None:
    state = initiated()
    set_face_up(state, "Goanna", T.FOUR_RITUAL)
    state.begin()
    act(state, "choose", "Disc")
    keep_only_doubles(state)
    act(state, "take", "Kangaroo")
    forms = offered(state)
    assert forms[-4:] == [("choose", "Disc"), ("choose", "Cube"), ("choose", "Cylinder"), ("stop",)]
    assert ("draw_ritual",) not in forms
    assert "pile" in state.observation(0)
    act(state, "choose", "Cube")
    act(state, "choose", "Cube")
    assert hand(state, 0) == [0, 2, 0, 1, 0]
    act(state, "take", "Goanna")
    for kind in ("Cylinder", "Cylinder", "Disc", "Cylinder"):
        assert decision(state) == "choose_ritual"
        act(state, "choose", kind)
    assert hand(state, 1) == [1, 0, 3, 1, 0]
    assert state.to_move() == (2,)


def test_empty_pile_takes_the_discards_and_nothing_gives_no_card() -> None:
    state = initiated()
    state.begin()
    act(state, "choose", "Disc")
    keep_only_doubles(state)
    discard_from_pile(state, 5)
    set_hand(state, 3, [RitualCard(c) for c in state.pile] + [R.DOUBLE])
    assert state.pile == [] and sum(state.discard) == 5
    act(state, "take", "Kangaroo")
    act(state, "stop")
    assert hand(state, 1) == [0, 0, 0, 1, 0]
    act(state, "take", "Emu")
    assert len(state.pile) == 5 and sum(state.discard) == 0, "the discards became the pile"
    kinds = sorted({KIND_NAMES[c] for c in state.pile})
    assert [f for f in offered(state) if f[0] == "choose"] == [("choose", k) for k in KIND_NAMES if k in kinds]


def test_no_card_left_at_all_skips_the_privilege() -> None:
    state = initiated()
    keep_only_doubles(state)
    set_hand(state, 3, [RitualCard(c) for c in state.pile] + [R.DOUBLE])
    state.begin()
    assert decision(state) == "take", "nothing to choose: the privilege gives no card"
    assert state.to_move() == (0,)


def test_territory_scorpions_only_move_the_track() -> None:
    state = initiated()
    state.scores = [9, 0, 0, 0]
    stack_on_top(state, "Kangaroo", [T.SCORPION, T.CUBE])
    for where in ("Emu", "Serpent", "Goanna"):
        stack_on_top(state, where, [T.CUBE])
    state.ancestor_owner = state.boomerang = 3
    state.begin()
    act(state, "choose", "Disc")
    for where in ("Kangaroo", "Emu", "Serpent", "Goanna"):
        act(state, "take", where)
        act(state, "stop")
    assert state.round == 2 and state.start == 0
    assert state.track == 2
    assert state.scores == [9, 0, 0, 0], "no penalty in the Game for the Initiated"
    assert state.territory_aside == 1 and state.taken[0 * 9 + T.SCORPION] == 0
    assert state.face_up[0] == T.CUBE
