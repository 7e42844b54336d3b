"""Territory cards: piece cards, Triple, Four ritual cards, and the figure cards."""

from __future__ import annotations

from engine.wongar.arrange import clear_board, pile_on_top, set_face_up, set_pieces, set_supply
from engine.wongar.cards import RitualCard, TerritoryCard
from wongar_scenario import BOARD, act, decision, empty_hands, hand, offered, on, quiet_game

R = RitualCard
T = TerritoryCard


def test_piece_card_places_one_in_its_territory_then_place_or_draw() -> None:
    state = quiet_game()
    state.begin()
    empty_hands(state)
    pile_on_top(state, [R.CUBE])
    act(state, "take", "Kangaroo")
    assert on(state, "Kangaroo", 0)[0] >= 1
    assert state.supply[0:3] == [13, 11, 8]
    assert state.taken[0 * 9 + T.DISC] == 1
    assert decision(state) == "piece_extra"
    assert offered(state) == [("place", "Disc", t) for t in BOARD] + [("draw_ritual",), ("stop",)]
    before = on(state, "Moon", 0)[0]
    act(state, "place", "Disc", "Moon")
    assert on(state, "Moon", 0)[0] == before + 1
    act(state, "draw_ritual")
    assert hand(state, 0) == [0, 1, 0, 0, 0]
    assert state.to_move() == (1,), "two extras used: the turn passes"


def test_piece_card_stop_forgoes_the_rest() -> None:
    state = quiet_game()
    state.begin()
    act(state, "take", "Emu")
    act(state, "stop")
    assert state.to_move() == (1,)
    assert state.supply[0:3] == [13, 11, 8]


def test_no_piece_of_that_kind_left_only_draws_remain() -> None:
    state = quiet_game()
    state.begin()
    empty_hands(state)
    set_supply(state, 0, 0, 11, 8)
    before = on(state, "Emu", 0)
    act(state, "take", "Emu")
    assert on(state, "Emu", 0) == before, "no Disc in supply: nothing placed"
    assert offered(state) == [("draw_ritual",), ("stop",)]
    act(state, "draw_ritual")
    act(state, "draw_ritual")
    assert sum(hand(state, 0)) == 2
    assert state.to_move() == (1,)


def test_triple_splits_one_kind_and_stops_when_supply_runs_short() -> None:
    state = quiet_game()
    set_face_up(state, "Serpent", T.TRIPLE)
    state.begin()
    set_supply(state, 0, 5, 2, 0)
    act(state, "take", "Serpent")
    assert decision(state) == "triple"
    forms = offered(state)
    assert ("place", "Disc", "Moon") in forms and ("place", "Cube", "Moon") in forms
    assert not any(f[1] == "Cylinder" for f in forms), "no Cylinder left in supply"
    assert ("draw_ritual",) not in forms and ("stop",) not in forms
    act(state, "place", "Cube", "Emu")
    assert {f[1] for f in offered(state)} == {"Cube"}, "the first piece fixes the kind"
    act(state, "place", "Cube", "Moon")
    assert state.supply[0:3] == [5, 0, 0]
    assert state.to_move() == (1,), "only two Cubes: the Triple ends short"


def test_triple_places_three_and_never_draws() -> None:
    state = quiet_game()
    set_face_up(state, "Serpent", T.TRIPLE)
    state.begin()
    empty_hands(state)
    act(state, "take", "Serpent")
    for where in ("Emu", "Emu", "Dingo"):
        act(state, "place", "Cylinder", where)
    assert state.supply[0:3] == [14, 11, 5]
    assert hand(state, 0) == [0, 0, 0, 0, 0]
    assert state.to_move() == (1,)


def test_four_ritual_cards_draws_four() -> None:
    state = quiet_game()
    set_face_up(state, "Goanna", T.FOUR_RITUAL)
    state.begin()
    empty_hands(state)
    pile_on_top(state, [R.DISC, R.DOUBLE, R.CUBE, R.DISC])
    act(state, "take", "Goanna")
    assert hand(state, 0) == [2, 1, 0, 1, 0]
    assert state.to_move() == (1,)


def test_ancestor_moves_to_an_adjacent_territory_only() -> None:
    state = quiet_game()
    state.ancestor_owner = state.boomerang = 2
    state.elder_owner = 1
    set_face_up(state, "Moon", T.ANCESTOR)
    state.begin()
    act(state, "take", "Emu")
    act(state, "stop")
    act(state, "take", "Serpent")
    act(state, "stop")
    act(state, "take", "Moon")
    assert state.ancestor_owner == 0, "the taker receives the Ancestor"
    assert decision(state) == "ancestor_move"
    assert offered(state) == [
        ("ancestor_to", t) for t in ("Kangaroo", "Emu", "Goanna", "Foot", "Dingo", "Fish")
    ]


def test_elder_moves_one_or_two_never_staying() -> None:
    state = quiet_game()
    state.elder_at = state.board.index("Kangaroo")
    set_face_up(state, "Moon", T.ELDER)
    state.begin()
    act(state, "take", "Moon")
    assert state.elder_owner == 0
    assert offered(state) == [
        ("elder_to", t) for t in ("Emu", "Serpent", "Goanna", "Hands", "Foot", "Dingo", "Fish")
    ]


def test_ancestor_and_elder_both_figures_to_the_cards_territory_with_its_column() -> None:
    state = quiet_game()
    set_face_up(state, "Dingo", T.ANCESTOR_AND_ELDER)
    state.ancestor_owner = 2
    clear_board(state)
    set_pieces(state, "Dingo", 3, disc=1, cylinder=2)
    state.begin()
    empty_hands(state)
    act(state, "take", "Dingo")
    dingo = state.board.index("Dingo")
    assert (state.ancestor_at, state.elder_at) == (dingo, dingo)
    assert (state.ancestor_owner, state.elder_owner) == (0, 0)
    assert state.scores == [0, 0, 0, 8], "phase 1 Ancestor-and-Elder: 4 per majority, two kinds"
    assert state.to_move() == (1,)


def test_figure_moved_onto_the_other_scores_with_its_own_column() -> None:
    state = quiet_game()
    set_face_up(state, "Moon", T.ANCESTOR)
    clear_board(state)
    set_pieces(state, "Foot", 3, cube=1)
    state.begin()
    empty_hands(state)
    act(state, "take", "Moon")
    act(state, "ancestor_to", "Foot")
    assert state.ancestor_at == state.elder_at
    assert state.scores == [0, 0, 0, 2], "Ancestor column (2), not Ancestor-and-Elder (4)"


def test_elder_ceremony_uses_the_elder_column() -> None:
    state = quiet_game()
    set_face_up(state, "Moon", T.ELDER)
    clear_board(state)
    set_pieces(state, "Turtle", 2, disc=1)
    state.begin()
    empty_hands(state)
    act(state, "take", "Moon")
    act(state, "elder_to", "Turtle")
    assert state.scores == [0, 0, 3, 0]


def test_taken_stack_offers_nothing_until_the_next_reveal() -> None:
    state = quiet_game()
    state.begin()
    act(state, "take", "Kangaroo")
    act(state, "stop")
    assert ("take", "Kangaroo") not in offered(state)
    assert len(offered(state)) == 9
