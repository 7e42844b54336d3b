"""Shared helpers for the Waroong Wars scenario tests: staged positions and actions by form."""

from __future__ import annotations

from engine.core import Wire
from engine.waroong import GAME
from engine.waroong.staging import stage
from engine.waroong.state import WaroongState


def staged(
    players: int = 3,
    variant: str = "five-stars",
    seed: int = 1,
    keep_rule: str = "only-if-no-cook",
    **placed: object,
) -> WaroongState:
    """A position of a fresh game with the cards ``placed`` as :func:`stage` takes them."""
    dealt = GAME.new_state(players, seed, variant, keep_rule=keep_rule)
    assert isinstance(dealt, WaroongState)
    return stage(dealt, **placed)  # type: ignore[arg-type]


def act(state: WaroongState, seat: int, *form: Wire) -> None:
    """Play the action with this form for ``seat``, checked."""
    state.apply_checked(seat, state.table().id_of(*form))


def legal(state: WaroongState, seat: int) -> list[tuple[Wire, ...]]:
    """The legal actions of ``seat`` by form."""
    return [state.table()[a].form for a in state.legal_actions(seat)]


def held(state: WaroongState, seat: int, key: str) -> dict[str, int]:
    """The non-zero counts of an own-holdings observation field (``picks``, ``hand``, ``customers``)."""
    counts = state.observation(seat)[key]
    assert isinstance(counts, dict)
    return {name: n for name, n in counts.items() if isinstance(n, int) and n}


def event_types(state: WaroongState, seat: int, since: int = 0) -> list[Wire]:
    """The types of the events ``seat`` saw from log position ``since``."""
    events, _ = state.events(seat, since)
    return [e["type"] for e in events]


def row_seen(state: WaroongState, seat: int) -> list[str]:
    """The dish names of the open row, left to right, as ``seat`` sees them."""
    row = state.observation(seat)["row"]
    assert isinstance(row, list)
    names = []
    for entry in row:
        assert isinstance(entry, list) and isinstance(entry[0], str)
        names.append(entry[0])
    return names
