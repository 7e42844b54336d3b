"""The rulebook's worked example (first round with Green, Red, Orange, Violet), replayed.

Seats: Green 0, Red 1, Orange 2, Violet 3 (clockwise). The example's territories A-E are mapped onto
the standard board so that its adjacencies hold (the Ancestor starts on B and steps to D, Red brings
a Cube from B into D):

    A = Kangaroo, B = Hands, C = Goanna, D = Emu, E = Dingo

Points follow the ceremony points table (docs/games/wongar.md, W12): an Ancestor ceremony in phase 1 gives 2 per majority (the example's
text says 4).
"""

from __future__ import annotations

from engine.wongar.arrange import clear_board, pile_on_top, set_face_up, set_hand, set_pieces, stack_on_top, staged
from engine.wongar.cards import RitualCard, TerritoryCard
from wongar_scenario import act, decision, hand, offered, on

R = RitualCard
T = TerritoryCard
GREEN, RED, ORANGE, VIOLET = 0, 1, 2, 3
A, B, C, D, E = "Kangaroo", "Hands", "Goanna", "Emu", "Dingo"


def test_worked_example_first_round_and_start_of_the_second() -> None:
    state = staged(4, seed=2000)
    state.ancestor_owner = state.boomerang = GREEN
    state.elder_owner = VIOLET
    assert state.board.names[state.ancestor_at] == B, "the Ancestor starts on B"
    clear_board(state)
    set_pieces(state, D, RED, disc=1)
    set_pieces(state, D, GREEN, cylinder=1)
    set_pieces(state, D, ORANGE, cylinder=1)
    set_pieces(state, B, RED, cube=1)
    for where, card in ((A, T.CUBE), (B, T.CYLINDER), (C, T.ANCESTOR), (D, T.DISC), (E, T.FOUR_RITUAL)):
        set_face_up(state, where, card)
    stack_on_top(state, C, [T.SCORPION, T.CUBE])
    for where in (B, D, E):
        stack_on_top(state, where, [T.DISC])
    set_hand(state, GREEN, [R.CYLINDER, R.CUBE])
    set_hand(state, RED, [R.CUBE, R.CYLINDER])
    set_hand(state, ORANGE, [R.CYLINDER, R.DISC])
    set_hand(state, VIOLET, [R.DISC, R.DISC])
    pile_on_top(state, [
        R.CUBE,  # Violet's privilege, round 1
        R.DISC, R.CUBE,  # Green's two draws
        R.CYLINDER, R.SCORPION, R.DISC, R.CUBE, R.CUBE,  # Orange's four, one a Scorpion
        R.CYLINDER,  # Violet's draw
        R.DISC,  # Violet's privilege, round 2
    ])

    state.begin()
    assert hand(state, VIOLET) == [2, 1, 0, 0, 0], "privilege of the Elder: Violet draws"
    assert state.to_move() == (GREEN,)

    # Green: the Cylinder card in B, a Cylinder there, then two ritual cards instead of pieces.
    act(state, "take", B)
    assert on(state, B, GREEN) == [0, 0, 1]
    act(state, "draw_ritual")
    act(state, "draw_ritual")
    assert hand(state, GREEN) == [1, 2, 1, 0, 0]

    # Red: the Ancestor card in C; the Ancestor steps from B to D; ceremony in D.
    act(state, "take", C)
    assert state.ancestor_owner == RED and state.boomerang == GREEN
    assert ("ancestor_to", D) in offered(state)
    act(state, "ancestor_to", D)
    assert state.observation(RED)["pending"] == {
        "decision": "ceremony_play", "seat": RED, "territory": D, "trigger": "Ancestor",
        "active": [GREEN, RED, ORANGE],
    }
    act(state, "play", "Cube")
    act(state, "move_in", "Cube", B)  # Red fetches the Cube from B into D
    assert state.to_move() == (ORANGE,)
    act(state, "play", "Cylinder")
    act(state, "remove", "Cylinder", GREEN)
    assert state.to_move() == (RED,), "Violet never took part; Green has no piece left in D"
    act(state, "pass")
    assert state.to_move() == (ORANGE,)
    act(state, "play", "Disc")
    act(state, "remove", "Disc", RED)
    scoring = [e.data for e in state.log if e.data["type"] == "scoring"]
    assert scoring[-1]["awards"] == [
        {"piece": "Cube", "seat": RED, "points": 2}, {"piece": "Cylinder", "seat": ORANGE, "points": 2},
    ]
    assert state.scores == [0, 2, 2, 0]

    # Orange: Four ritual cards in E, one of them a Scorpion: two players behind, two points back.
    assert state.to_move() == (ORANGE,) and decision(state) == "take"
    act(state, "take", E)
    assert state.track == 2
    assert state.ritual_aside == 1
    assert hand(state, ORANGE) == [1, 2, 1, 0, 0]
    assert state.scores == [0, 2, 0, 0]

    # Violet: the Disc card in D (the only Disc there now), one more Disc in A, one ritual card.
    act(state, "take", D)
    assert [on(state, D, s)[0] for s in range(4)] == [0, 0, 0, 1]
    act(state, "place", "Disc", A)
    act(state, "draw_ritual")
    assert on(state, A, VIOLET) == [1, 0, 0]
    assert hand(state, VIOLET)[R.CYLINDER] == 1

    # Second round: Red holds the Ancestor, takes the Boomerang, reveals B, C, D, E (A still open).
    assert state.round == 2
    assert (state.start, state.boomerang) == (RED, RED)
    reveals = [e.data for e in state.log if e.data["type"] == "reveal"]
    assert [(r["territory"], r["card"]) for r in reveals] == [
        (D, "Disc"), (C, "Scorpion"), (C, "Cube"), (B, "Disc"), (E, "Disc"),
    ], "in board order; the Scorpion in C is replaced at once"
    assert state.taken[RED * 9 + T.SCORPION] == 1, "Red keeps the Scorpion face down"
    assert state.track == 3
    assert state.face_up[state.board.index(C)] == T.CUBE
    assert state.scores == [0, -1, 0, 0], "three players strictly behind Red: three back"
    assert hand(state, VIOLET)[R.DISC] == 3, "then the privilege of the Elder"
    assert state.to_move() == (RED,)
