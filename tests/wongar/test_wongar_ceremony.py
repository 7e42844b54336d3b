"""Ceremonies: who takes part and in what order, options A/B/C, the Double, dropping out, scoring."""

from __future__ import annotations

from collections.abc import Sequence

from engine.wongar.arrange import clear_board, set_face_up, set_hand, set_pieces
from engine.wongar.cards import RitualCard, TerritoryCard
from engine.wongar.state import WongarState
from wongar_scenario import act, decision, empty_hands, offered, on, quiet_game

R = RitualCard
T = TerritoryCard
EMU_NEAR = ("Kangaroo", "Serpent", "Hands", "Foot")


def elder_ceremony_at_emu(
    pieces: Sequence[tuple[str, int, int, int, int]],
    hands: dict[int, list[RitualCard]],
    ancestor_owner: int = 0,
) -> WongarState:
    """Seat 0 takes an Elder card and moves the Elder to Emu; ``pieces`` are (territory, seat, d, c, y)."""
    state = quiet_game()
    state.ancestor_owner = state.boomerang = ancestor_owner
    set_face_up(state, "Moon", T.ELDER)
    clear_board(state)
    for where, seat, d, c, y in pieces:
        set_pieces(state, where, seat, d, c, y)
    state.begin()
    for where in ("Goanna", "Dingo", "Turtle"):  # seats before seat 0 take cards far from Emu
        if state.to_move() == (0,):
            break
        act(state, "take", where)
        act(state, "stop")
    empty_hands(state)
    for seat, cards in hands.items():
        set_hand(state, seat, cards)
    act(state, "take", "Moon")
    act(state, "elder_to", "Emu")
    return state


def test_owner_opens_else_first_participant_clockwise_and_passing_drops_out() -> None:
    state = elder_ceremony_at_emu(
        [("Emu", 2, 1, 0, 0), ("Emu", 3, 0, 1, 0), ("Kangaroo", 2, 0, 1, 0)],
        {0: [R.DISC], 2: [R.CUBE, R.CUBE], 3: [R.CUBE]},
    )
    pending = state.observation(0)["pending"]
    assert pending == {
        "decision": "ceremony_play", "seat": 2, "territory": "Emu", "trigger": "Elder", "active": [2, 3],
    }, "seat 0 owns the Ancestor but has no piece in Emu: seat 2 opens"
    act(state, "play", "Cube")
    act(state, "move_in", "Cube", "Kangaroo")
    assert state.to_move() == (3,)
    act(state, "pass")
    assert state.to_move() == (2,), "seat 3 passed: out for the rest of the ceremony"
    act(state, "play", "Cube")
    act(state, "move_out", "Cube", "Foot")
    assert state.to_move() == (1,), "nobody left: scored, next turn"
    assert state.scores == [0, 0, 3, 3], "Disc to seat 2; Cubes tied 1-1, seat 2 is met first from seat 0"


def test_options_a_b_c_and_automatic_drop_out() -> None:
    state = elder_ceremony_at_emu(
        [("Emu", 0, 1, 0, 0), ("Emu", 2, 2, 1, 0), ("Emu", 3, 1, 0, 0), ("Kangaroo", 0, 0, 1, 0)],
        {0: [R.DISC, R.CUBE, R.CYLINDER], 2: [R.CUBE], 3: []},
    )
    assert state.to_move() == (0,)
    assert offered(state) == [("play", "Disc"), ("play", "Cube"), ("pass",)], "no Cylinder anywhere near"
    act(state, "play", "Disc")
    assert decision(state) == "ceremony_effect"
    assert offered(state) == [("remove", "Disc", 2), ("remove", "Disc", 3)] + [
        ("move_out", "Disc", t) for t in EMU_NEAR
    ]
    act(state, "remove", "Disc", 2)  # A
    assert on(state, "Emu", 2) == [1, 1, 0] and state.supply[2 * 3] == 17
    assert state.discard[R.DISC] >= 1
    assert state.to_move() == (2,)
    assert offered(state) == [("play", "Cube"), ("pass",)]
    act(state, "play", "Cube")
    act(state, "move_out", "Cube", "Hands")  # B
    assert on(state, "Emu", 2) == [1, 0, 0] and on(state, "Hands", 2) == [0, 1, 0]
    assert state.to_move() == (0,), "seat 3 has no card: it is skipped"
    act(state, "play", "Cube")
    assert offered(state) == [("move_in", "Cube", "Kangaroo")]
    act(state, "move_in", "Cube", "Kangaroo")  # C
    assert on(state, "Emu", 0) == [1, 1, 0]
    skips = [e.data for e in state.log if e.data["type"] == "skip"]
    assert {"type": "skip", "seat": 3, "reason": "no playable card"} in skips
    assert not [e for e in state.log if e.data["type"] == "drop_out"], "skipped, never out"
    assert state.to_move() == (1,), "nobody can play any more: the ceremony scored"
    assert state.scores == [6, 0, 0, 0], "Discs tied 1-1-1: the Ancestor's owner wins; the Cube too"


def test_a_participant_without_a_playable_card_is_skipped_not_out() -> None:
    """docs/games/wongar.md W10: the board may change and make a skipped participant's card playable."""
    state = elder_ceremony_at_emu(
        [("Emu", 0, 1, 0, 0), ("Emu", 2, 1, 0, 0), ("Kangaroo", 0, 0, 1, 0)],
        {0: [R.CUBE], 2: [R.CUBE]},
        ancestor_owner=1,
    )
    assert state.to_move() == (0,), "from seat 1: seat 2 has no Cube to affect, so seat 0 plays first"
    assert {"type": "skip", "seat": 2, "reason": "no playable card"} in [e.data for e in state.log]
    pending = state.observation(0)["pending"]
    assert isinstance(pending, dict) and pending["active"] == [0, 2], "the skipped seat is still in"
    act(state, "play", "Cube")
    act(state, "move_in", "Cube", "Kangaroo")
    assert state.to_move() == (2,), "a Cube is in Emu now: seat 2's Cube card has become playable"
    assert offered(state) == [("play", "Cube"), ("pass",)]
    act(state, "play", "Cube")
    act(state, "remove", "Cube", 0)
    assert on(state, "Emu", 0) == [1, 0, 0]
    assert state.scores == [0, 0, 3, 0], "Discs tied: seat 2 is met first from seat 1; no Cube is left"


def test_passing_while_able_to_play_puts_a_participant_out() -> None:
    state = elder_ceremony_at_emu(
        [("Emu", 0, 1, 0, 0), ("Emu", 2, 1, 0, 0), ("Kangaroo", 0, 0, 1, 0)],
        {0: [R.CUBE], 2: [R.DISC, R.CUBE]},
        ancestor_owner=1,
    )
    assert state.to_move() == (2,)
    act(state, "pass")
    act(state, "play", "Cube")
    act(state, "move_in", "Cube", "Kangaroo")
    assert decision(state) == "take", "seat 2 passed: out, though its Cube card could remove seat 0's Cube"
    assert state.scores == [3, 0, 3, 0], "the Cube stays with seat 0; Discs tied go to seat 2"


def test_double_removes_two_of_one_kind_from_two_players() -> None:
    state = elder_ceremony_at_emu(
        [("Emu", 0, 1, 0, 0), ("Emu", 1, 1, 0, 0), ("Emu", 2, 1, 1, 0)], {0: [R.DOUBLE]},
    )
    act(state, "play", "Double")
    forms = offered(state)
    assert ("remove", "Cube", 2) in forms and ("move_out", "Disc", "Foot") in forms
    act(state, "remove", "Disc", 1)
    assert offered(state) == [("remove", "Disc", 2)], "the second piece: same kind, same option"
    act(state, "remove", "Disc", 2)
    assert on(state, "Emu", 1) == [0, 0, 0] and on(state, "Emu", 2) == [0, 1, 0]
    assert state.discard[R.DOUBLE] == 1, "basic game: a played Double goes to the discards"


def test_double_moves_two_out_to_two_neighbours() -> None:
    state = elder_ceremony_at_emu([("Emu", 0, 0, 2, 0)], {0: [R.DOUBLE]})
    act(state, "play", "Double")
    act(state, "move_out", "Cube", "Serpent")
    assert offered(state) == [("move_out", "Cube", t) for t in EMU_NEAR]
    act(state, "move_out", "Cube", "Foot")
    assert on(state, "Serpent", 0)[1] == 1 and on(state, "Foot", 0)[1] == 1
    assert on(state, "Emu", 0) == [0, 0, 0]
    assert state.scores == [0, 0, 0, 0], "nothing left in Emu to score"


def test_double_brings_two_in_from_two_neighbours() -> None:
    state = elder_ceremony_at_emu(
        [("Emu", 0, 1, 0, 0), ("Kangaroo", 0, 0, 0, 1), ("Hands", 0, 0, 0, 1)], {0: [R.DOUBLE]},
    )
    act(state, "play", "Double")
    act(state, "move_in", "Cylinder", "Kangaroo")
    assert offered(state) == [("move_in", "Cylinder", "Hands")]
    act(state, "move_in", "Cylinder", "Hands")
    assert on(state, "Emu", 0) == [1, 0, 2]
    assert state.scores == [6, 0, 0, 0]


def test_double_where_only_one_fits_uses_one() -> None:
    state = elder_ceremony_at_emu([("Emu", 0, 1, 0, 0), ("Emu", 1, 1, 0, 0)], {0: [R.DOUBLE], 1: [R.DISC]})
    act(state, "play", "Double")
    act(state, "remove", "Disc", 1)
    assert decision(state) == "take", "no second Disc of an opponent: the Double is done"
    assert state.to_move() == (1,)
    assert state.scores == [3, 0, 0, 0]
    drops = [e.data["seat"] for e in state.log if e.data["type"] == "drop_out"]
    assert 1 in drops, "seat 1 lost its last piece there"


def test_tie_goes_clockwise_from_the_ancestor_owner() -> None:
    state = elder_ceremony_at_emu(
        [("Emu", 0, 1, 1, 0), ("Emu", 3, 1, 0, 0), ("Emu", 1, 0, 1, 0)], {}, ancestor_owner=1,
    )
    assert state.scores == [0, 3, 0, 3], "Discs 0 vs 3: seat 3 comes first from seat 1; Cubes: the owner"


def test_points_only_for_majorities_of_present_kinds() -> None:
    state = elder_ceremony_at_emu([("Emu", 2, 0, 0, 2), ("Emu", 3, 0, 0, 1)], {})
    assert state.scores == [0, 0, 3, 0]
