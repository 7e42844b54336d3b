"""Wongar's components: piece kinds, territory cards, ritual cards, and how many of each exist.

The enums give every component a small integer; the engine's hot paths use those integers directly
(``int(Kind.DISC) == 0``), and the ``*_NAMES`` tuples give the names used in action forms and views.
"""

from __future__ import annotations

from enum import IntEnum


class Kind(IntEnum):
    """A kind of game piece (Tjurunga)."""

    DISC = 0
    CUBE = 1
    CYLINDER = 2


KINDS = 3
KIND_NAMES: tuple[str, ...] = ("Disc", "Cube", "Cylinder")
#: Pieces of each kind a player owns in all (supply + board), by :class:`Kind`.
PIECES_PER_PLAYER: tuple[int, ...] = (18, 15, 12)
#: Pieces of each kind every player puts into the bag (basic) or places by choice (Initiated).
STARTING_PIECES_PER_KIND = 4


class TerritoryCard(IntEnum):
    """A kind of territory card; the first three are the piece cards of the matching :class:`Kind`."""

    DISC = 0
    CUBE = 1
    CYLINDER = 2
    TRIPLE = 3
    FOUR_RITUAL = 4
    ANCESTOR = 5
    ELDER = 6
    ANCESTOR_AND_ELDER = 7
    SCORPION = 8


TERRITORY_CARD_KINDS = 9
TERRITORY_CARD_NAMES: tuple[str, ...] = (
    "Disc",
    "Cube",
    "Cylinder",
    "Triple",
    "Four ritual cards",
    "Ancestor",
    "Elder",
    "Ancestor and Elder",
    "Scorpion",
)
#: The 15 cards of every territory stack, by :class:`TerritoryCard`.
STACK_CARDS: tuple[int, ...] = (3, 2, 1, 1, 1, 2, 2, 1, 2)
#: Figure cards taken out of each stack for the Game for the Initiated (one Ancestor, one Elder).
INITIATED_FIGURE_CARDS_PER_STACK = 2


class RitualCard(IntEnum):
    """A kind of ritual card; the first three show the piece :class:`Kind` of the same number."""

    DISC = 0
    CUBE = 1
    CYLINDER = 2
    DOUBLE = 3
    SCORPION = 4


RITUAL_CARD_KINDS = 5
RITUAL_CARD_NAMES: tuple[str, ...] = ("Disc", "Cube", "Cylinder", "Double", "Scorpion")
#: The 43 ritual cards, by :class:`RitualCard`.
RITUAL_DECK: tuple[int, ...] = (14, 12, 10, 5, 2)
#: Points for each piece-kind majority of territory cards at the end of the game.
CARD_MAJORITY_BONUS = 8
