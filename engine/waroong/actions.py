"""The Waroong Wars action table: every decision is one small step (see the package docstring).

Ids are fixed per configuration. The part every mode shares comes first; Five Stars appends the
customer-card actions, whose ids depend on the number of players (one target action per other seat,
named by its distance to the left: 1 is the left neighbour).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.core import ActionTable, Wire

from .cards import CUSTOMERS, GROCERIES, MAIN_KINDS

#: The row holds at most this many open menu cards.
ROW_LIMIT = 6

PICK = 0  # ("pick", grocery): 7 ids, one per grocery kind
COOK = PICK + len(GROCERIES)  # ("cook", position): 6 ids, row positions 0 (left) .. 5
ADD_SAMBAL = COOK + ROW_LIMIT  # ("add", "sambal")
ADD_KERUPUK = ADD_SAMBAL + 1  # ("add", "kerupuk")
SERVE = ADD_KERUPUK + 1  # ("serve",)
END_TURN = SERVE + 1  # ("end-turn",)
KEEP = END_TURN + 1  # ("keep", grocery): 7 ids
KEEP_NOTHING = KEEP + len(GROCERIES)  # ("keep", "nothing")
BOSS = KEEP_NOTHING + 1  # ("boss", grocery): 5 ids, Five Stars only
THIEF_AT = BOSS + MAIN_KINDS  # ("thief", distance): players-1 ids, Five Stars only


@dataclass(frozen=True, slots=True)
class Layout:
    """The ids of the player-count dependent customer actions (all -1 in Street Vendor)."""

    players: int
    customers: bool
    thief: int
    charmer: int
    vip: int
    security_use: int
    security_pass: int
    businesswoman_use: int
    businesswoman_pass: int
    size: int


@cache
def layout(players: int, customers: bool) -> Layout:
    """The id layout for this player count and mode."""
    if not customers:
        return Layout(players, False, -1, -1, -1, -1, -1, -1, -1, BOSS)
    charmer = THIEF_AT + players - 1
    vip = charmer + players - 1
    return Layout(
        players,
        True,
        THIEF_AT,
        charmer,
        vip,
        vip + 1,
        vip + 2,
        vip + 3,
        vip + 4,
        vip + 5,
    )


@cache
def action_table(players: int, customers: bool) -> ActionTable:
    """The fixed action table for this player count and mode."""
    entries: list[tuple[tuple[Wire, ...], str]] = []
    entries += [(("pick", g), f"pick {g}") for g in GROCERIES]
    entries += [
        (("cook", p), f"cook the menu at row position {p} (0 = left)")
        for p in range(ROW_LIMIT)
    ]
    entries += [
        (("add", "sambal"), "add sambal to the dish"),
        (("add", "kerupuk"), "add kerupuk to the dish"),
    ]
    entries += [(("serve",), "serve the dish"), (("end-turn",), "end the cooking turn")]
    entries += [
        (("keep", g), f"keep one {g} for the next cooking phase") for g in GROCERIES
    ]
    entries += [(("keep", "nothing"), "keep nothing")]
    if customers:
        entries += [
            (("boss", g), f"use {CUSTOMERS[k]} for a {g} of the dish")
            for k, g in enumerate(GROCERIES[:MAIN_KINDS])
        ]
        others = range(1, players)
        entries += [
            (("thief", d), f"play Thief on the player {d} to the left") for d in others
        ]
        entries += [
            (("charmer", d), f"play Charmer on the player {d} to the left")
            for d in others
        ]
        entries += [(("vip",), "play VIP: reshuffle the open menus")]
        entries += [
            (("security", "use"), "play Security"),
            (("security", "pass"), "do not play Security"),
        ]
        entries += [
            (("businesswoman", "use"), "play Businesswoman: cook now"),
            (("businesswoman", "pass"), "do not play Businesswoman"),
        ]
    table = ActionTable(entries)
    assert len(table) == layout(players, customers).size
    return table
