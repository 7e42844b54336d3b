"""The board: ten territories, their neighbours, and the ``board`` knob that can replace them.

The knob's value is ``"standard"`` (the table in docs/games/wongar.md, W1) or a JSON object that maps each of exactly
ten territory names, in setup order (row by row, left to right), to the list of its neighbours, e.g.
``{"Kangaroo": ["Emu", "Goanna", "Hands"], ...}``. It must name ``Hands`` (where the Ancestor starts)
and ``Foot`` (where the Elder starts), be symmetric (A lists B exactly when B lists A), have no
territory next to itself, and be connected.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

TERRITORIES = 10
ANCESTOR_START = "Hands"
ELDER_START = "Foot"

STANDARD: dict[str, list[str]] = {
    "Kangaroo": ["Emu", "Goanna", "Hands"],
    "Emu": ["Kangaroo", "Serpent", "Hands", "Foot"],
    "Serpent": ["Emu", "Foot", "Turtle"],
    "Goanna": ["Kangaroo", "Hands", "Dingo"],
    "Hands": ["Kangaroo", "Emu", "Goanna", "Foot", "Dingo", "Fish"],
    "Foot": ["Emu", "Serpent", "Hands", "Turtle", "Fish", "Moon"],
    "Turtle": ["Serpent", "Foot", "Moon"],
    "Dingo": ["Goanna", "Hands", "Fish"],
    "Fish": ["Hands", "Foot", "Dingo", "Moon"],
    "Moon": ["Foot", "Turtle", "Fish"],
}


@dataclass(frozen=True, slots=True)
class Board:
    """Territories as indices ``0..9`` in setup order, with precomputed neighbourhoods (ascending)."""

    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    #: Territories at distance 1 or 2 (never the territory itself): where an Elder may go.
    within_two: tuple[tuple[int, ...], ...]
    hands: int
    foot: int

    def index(self, name: str) -> int:
        """The index of the territory called ``name``; ``ValueError`` if there is none."""
        return self.names.index(name)


def parse_board(raw: object) -> str:
    """Canonical value of the ``board`` knob: ``"standard"`` or compact JSON; ``ValueError`` if bad.

    ``raw`` is the string form, or (from a config file) the table itself as a mapping.
    """
    if isinstance(raw, dict):
        table: object = raw
    elif isinstance(raw, str):
        text = raw.strip()
        if text == "standard":
            return text
        try:
            table = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f'expected "standard" or a JSON object of territories: {exc}') from None
    else:
        raise ValueError(f'expected "standard" or a JSON object of territories, got {type(raw).__name__}')
    _validate(table)
    return json.dumps(table, separators=(",", ":"))


def _validate(table: object) -> None:
    if not isinstance(table, dict):
        raise ValueError("the board must be a JSON object mapping territory names to neighbour lists")
    if len(table) != TERRITORIES:
        raise ValueError(f"the board must have exactly {TERRITORIES} territories, not {len(table)}")
    for name, near in table.items():
        if not name.strip():
            raise ValueError("territory names must not be empty")
        if not isinstance(near, list) or not all(isinstance(n, str) for n in near):
            raise ValueError(f"neighbours of {name!r} must be a list of territory names")
        if len(set(near)) != len(near):
            raise ValueError(f"neighbours of {name!r} repeat a territory")
        for other in near:
            if other not in table:
                raise ValueError(f"{name!r} lists unknown neighbour {other!r}")
            if other == name:
                raise ValueError(f"{name!r} cannot be its own neighbour")
            if name not in table[other]:
                raise ValueError(f"not symmetric: {name!r} lists {other!r} but not the reverse")
    for needed in (ANCESTOR_START, ELDER_START):
        if needed not in table:
            raise ValueError(f"the board must have a territory called {needed!r}")
    first = next(iter(table))
    seen = {first}
    frontier = [first]
    while frontier:
        for other in table[frontier.pop()]:
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    if len(seen) != len(table):
        missing = sorted(set(table) - seen)
        raise ValueError(f"the board is not connected: {', '.join(missing)} cannot be reached")


@cache
def board_from_knob(value: str) -> Board:
    """The :class:`Board` for a canonical ``board`` knob value."""
    table: Mapping[str, list[str]] = STANDARD if value == "standard" else json.loads(value)
    names = tuple(table)
    near = tuple(tuple(sorted(names.index(o) for o in table[n])) for n in names)
    two = tuple(
        tuple(sorted({*near[t], *(u for v in near[t] for u in near[v])} - {t})) for t in range(len(names))
    )
    return Board(names, near, two, names.index(ANCESTOR_START), names.index(ELDER_START))
