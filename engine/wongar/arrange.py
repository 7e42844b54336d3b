"""Hand-built positions: deal a real game, then rearrange it before (or between) decisions.

For scenario tests and analysis. :func:`staged` deals a game without beginning it (no Elder's
privilege yet, no Initiated placement); the functions below move pieces and cards between their real
places, so every piece and card stays accounted for (:meth:`WongarState.inventory` is unchanged).
Public fields may also be set directly: ``scores``, ``track`` (Scorpion space, 1-based),
``ancestor_at``/``elder_at`` (territory index), ``ancestor_owner``/``elder_owner``/``boomerang``
(seat). Then call :meth:`WongarState.begin`.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import EngineError
from engine.wongar.cards import RitualCard, TerritoryCard
from engine.wongar.game import WongarGame
from engine.wongar.state import WongarState


def staged(players: int, seed: int, variant: str = "basic", **knobs: object) -> WongarState:
    """A dealt, not yet begun game (knobs validated as for a real match)."""
    config = WongarGame().configure(players, variant, knobs)
    return WongarState(config, seed)


def territory(state: WongarState, name: str) -> int:
    """The index of the territory called ``name``."""
    return state.board.index(name)


def clear_board(state: WongarState) -> None:
    """Return every piece on the board to its owner's supply."""
    n = state.n
    for t in range(len(state.board.names)):
        for s in range(n):
            set_pieces(state, state.board.names[t], s)


def set_pieces(state: WongarState, where: str, seat: int, disc: int = 0, cube: int = 0, cylinder: int = 0) -> None:
    """Make ``seat``'s pieces on ``where`` exactly these counts, moving the difference from/to supply."""
    n = state.n
    t = territory(state, where)
    for k, want in enumerate((disc, cube, cylinder)):
        at = (t * n + seat) * 3 + k
        change = want - state.pieces[at]
        if change > state.supply[seat * 3 + k]:
            raise EngineError(f"seat {seat} has too few pieces of kind {k} in supply")
        state.pieces[at] = want
        state.supply[seat * 3 + k] -= change


def set_supply(state: WongarState, seat: int, disc: int, cube: int, cylinder: int) -> None:
    """Leave exactly these pieces in ``seat``'s supply; the rest go onto the board's first territory."""
    for k, want in enumerate((disc, cube, cylinder)):
        extra = state.supply[seat * 3 + k] - want
        if extra < 0:
            raise EngineError(f"seat {seat} has only {state.supply[seat * 3 + k]} pieces of kind {k}")
        state.supply[seat * 3 + k] = want
        state.pieces[seat * 3 + k] += extra


def skip_opening_placement(state: WongarState) -> None:
    """Initiated: leave the opening pieces in supply and go straight to round 1 on :meth:`begin`."""
    state.setup_left[:] = [0] * len(state.setup_left)


def set_hand(state: WongarState, seat: int, cards: Sequence[RitualCard]) -> None:
    """Give ``seat`` exactly ``cards``: its hand goes under the pile, the cards come from the pile."""
    for r in range(5):
        state.pile[0:0] = [r] * state.hands[seat * 5 + r]
        state.hands[seat * 5 + r] = 0
    for card in cards:
        if int(card) not in state.pile:
            raise EngineError(f"no {card.name} left in the ritual pile")
        state.pile.remove(int(card))
        state.hands[seat * 5 + int(card)] += 1


def pile_on_top(state: WongarState, cards: Sequence[RitualCard]) -> None:
    """Put ``cards`` on top of the ritual pile, ``cards[0]`` drawn first."""
    for card in cards:
        if int(card) not in state.pile:
            raise EngineError(f"no {card.name} left in the ritual pile")
        state.pile.remove(int(card))
    state.pile.extend(int(c) for c in reversed(cards))


def discard_from_pile(state: WongarState, count: int | None = None) -> None:
    """Move ``count`` (default: all) non-Scorpion cards from the bottom of the pile onto the discards."""
    keep: list[int] = []
    moved = 0
    for card in state.pile:
        if card != int(RitualCard.SCORPION) and (count is None or moved < count):
            state.discard[card] += 1
            moved += 1
        else:
            keep.append(card)
    state.pile[:] = keep


def set_scorpion_aside(state: WongarState) -> None:
    """Take one Scorpion out of the pile and set it aside, as if drawn earlier."""
    state.pile.remove(int(RitualCard.SCORPION))
    state.ritual_aside += 1


def set_face_up(state: WongarState, where: str, card: TerritoryCard) -> None:
    """Make ``card`` the face-up card of ``where``, swapping it with one from that stack."""
    t = territory(state, where)
    if state.face_up[t] == int(card):
        return
    stack = state.stacks[t]
    at = _find(state, t, int(card))
    if state.face_up[t] >= 0:
        stack[at] = state.face_up[t]
    else:
        del stack[at]
    state.face_up[t] = int(card)


def stack_on_top(state: WongarState, where: str, cards: Sequence[TerritoryCard]) -> None:
    """Put ``cards`` on top of the face-down stack of ``where``, ``cards[0]`` revealed first."""
    t = territory(state, where)
    stack = state.stacks[t]
    for card in cards:
        del stack[_find(state, t, int(card))]
    stack.extend(int(c) for c in reversed(cards))


def leave_in_stack(state: WongarState, where: str, count: int) -> None:
    """Put all but the top ``count`` cards of the stack of ``where`` back into the box (out of the game)."""
    t = territory(state, where)
    stack = state.stacks[t]
    state.territory_box += len(stack) - count
    del stack[: len(stack) - count]
    state.bottom_known[t] = min(state.bottom_known[t], len(stack))


def _find(state: WongarState, t: int, card: int) -> int:
    """Index of ``card`` in stack ``t``, preferring cards above the known bottom Scorpions."""
    stack = state.stacks[t]
    known = state.bottom_known[t]
    for i in range(len(stack) - 1, known - 1, -1):
        if stack[i] == card:
            return i
    for i in range(known):
        if stack[i] == card:
            state.bottom_known[t] -= 1
            return i
    raise EngineError(f"no such territory card left in the stack of {state.board.names[t]}")


__all__ = [
    "clear_board", "discard_from_pile", "leave_in_stack", "pile_on_top", "set_face_up",
    "set_hand", "set_pieces", "set_scorpion_aside", "set_supply", "skip_opening_placement", "stack_on_top", "staged",
    "territory",
]
