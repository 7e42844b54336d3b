"""Helpers for Wongar scenario tests: decide by action form, read what is offered."""

from __future__ import annotations

from engine.core import Wire
from engine.wongar.arrange import set_face_up, set_hand, staged
from engine.wongar.cards import TerritoryCard
from engine.wongar.state import WongarState

BOARD = (
    "Kangaroo", "Emu", "Serpent", "Goanna", "Hands", "Foot", "Turtle", "Dingo", "Fish", "Moon",
)


def act(state: WongarState, *form: Wire) -> None:
    """The seat to move plays the action with this form (checked)."""
    (seat,) = state.to_move()
    state.apply_checked(seat, state.table().id_of(*form))


def offered(state: WongarState) -> list[tuple[Wire, ...]]:
    """The forms of the legal actions of the seat to move, in id order."""
    (seat,) = state.to_move()
    return [state.table()[a].form for a in state.legal_actions(seat)]


def decision(state: WongarState) -> str:
    """The name of the pending decision."""
    pending = state.observation(0)["pending"]
    assert isinstance(pending, dict)
    return str(pending["decision"])


def quiet_game(players: int = 4, seed: int = 1, variant: str = "basic") -> WongarState:
    """A dealt game with seat 0 owning Ancestor and Boomerang, seat 1 the Elder, and every face-up
    card a Disc card (so nothing happens unless a test arranges it). Not begun."""
    state = staged(players, seed, variant)
    state.ancestor_owner = state.boomerang = 0
    state.elder_owner = 1
    for name in BOARD:
        set_face_up(state, name, TerritoryCard.DISC)
    return state


def empty_hands(state: WongarState) -> None:
    """Every seat's ritual hand goes back under the pile."""
    for seat in range(state.n):
        set_hand(state, seat, [])


def take_disc_and_stop(state: WongarState, where: str) -> None:
    """The seat to move takes the Disc card of ``where`` and forgoes the extras."""
    set_face_up(state, where, TerritoryCard.DISC)
    act(state, "take", where)
    if state.to_move() and decision(state) == "piece_extra":
        act(state, "stop")


def on(state: WongarState, where: str, seat: int) -> list[int]:
    """Seat's ``[discs, cubes, cylinders]`` on territory ``where``."""
    at = (state.board.index(where) * state.n + seat) * 3
    return state.pieces[at: at + 3]


def hand(state: WongarState, seat: int) -> list[int]:
    """Seat's ritual cards by kind: Disc, Cube, Cylinder, Double, Scorpion."""
    return state.hands[seat * 5: seat * 5 + 5]
