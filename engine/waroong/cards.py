"""The cards of Waroong Wars as data (docs/games/waroong.md, K1): groceries, customers and the menu lists.

Every card is a small integer *kind*; decks are lists of kinds and holdings are count vectors
indexed by kind, so copying a position is copying a few short lists.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Wire

#: Grocery kinds, in action-table order. Kinds 0-4 are main groceries, 5-6 supplements.
GROCERIES: tuple[str, ...] = (
    "beras",
    "daging",
    "sayur",
    "tahu",
    "petis",
    "sambal",
    "kerupuk",
)
#: How many of each grocery kind the 40-card grocery deck holds.
GROCERY_COUNTS: tuple[int, ...] = (8, 9, 7, 7, 5, 2, 2)
MAIN_KINDS = 5
SAMBAL = 5
KERUPUK = 6
SUPPLEMENTS: tuple[int, ...] = (SAMBAL, KERUPUK)

#: Customer kinds. Kinds 0-4 are the Boss cards, one per main grocery (same index as the grocery).
CUSTOMERS: tuple[str, ...] = (
    "boss-beras",
    "boss-daging",
    "boss-sayur",
    "boss-tahu",
    "boss-petis",
    "thief",
    "security",
    "charmer",
    "businesswoman",
    "vip",
    "celebrity",
)
THIEF = 5
SECURITY = 6
CHARMER = 7
BUSINESSWOMAN = 8
VIP = 9
CELEBRITY = 10
#: How many of each customer kind the 20-card customer deck holds.
CUSTOMER_COUNTS: tuple[int, ...] = (1, 1, 1, 1, 1, 3, 3, 3, 2, 2, 2)
#: End-of-game value of each unused customer card (points).
CUSTOMER_VALUES: tuple[int, ...] = (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True, slots=True)
class Dish:
    """A menu card: its name, the main groceries it needs as ``(kind, count)`` pairs, its points."""

    name: str
    needs: tuple[tuple[int, int], ...]
    points: int

    @property
    def groceries(self) -> list[str]:
        """The main groceries it needs, one name per card (e.g. ``["sayur", "sayur"]``)."""
        return [GROCERIES[kind] for kind, count in self.needs for _ in range(count)]


def _dish(name: str, points: int, *groceries: str) -> Dish:
    kinds = [GROCERIES.index(g) for g in groceries]
    needs = tuple((kind, kinds.count(kind)) for kind in sorted(set(kinds)))
    return Dish(name, needs, points)


#: The standard menu table (docs/games/waroong.md): 10 dishes, 2 copies of each.
STANDARD_DISHES: tuple[Dish, ...] = (
    _dish("Semanggi", 2, "sayur", "sayur"),
    _dish("Bebek Goreng", 2, "beras", "daging"),
    _dish("Lontong Balap", 4, "beras", "tahu", "petis"),
    _dish("Nasi Rawon", 4, "beras", "daging", "sayur"),
    _dish("Lontong Kupang", 4, "beras", "daging", "petis"),
    _dish("Nasi Krawu", 4, "beras", "daging", "tahu"),
    _dish("Tahu Tek", 6, "beras", "sayur", "tahu", "petis"),
    _dish("Rujak Cingur", 6, "daging", "sayur", "tahu", "petis"),
    _dish("Sate Klopo", 6, "beras", "daging", "daging", "tahu"),
    _dish("Tahu Campur", 6, "sayur", "daging", "tahu", "petis"),
)


@dataclass(frozen=True, slots=True)
class MenuList:
    """A menu list the ``menus`` knob can select: its dishes and the copies of each in the deck."""

    dishes: tuple[Dish, ...]
    copies: int

    @property
    def deck(self) -> tuple[int, ...]:
        """The menu deck as dish ids (indices into ``dishes``), unshuffled."""
        return tuple(d for d in range(len(self.dishes)) for _ in range(self.copies))


#: Menu lists by knob value.
MENU_LISTS: dict[str, MenuList] = {"standard": MenuList(STANDARD_DISHES, 2)}


def expand(counts: list[int] | tuple[int, ...]) -> list[int]:
    """The kinds of a count vector, one entry per card, ascending."""
    return [kind for kind, count in enumerate(counts) for _ in range(count)]


def named(names: tuple[str, ...], counts: list[int]) -> dict[str, Wire]:
    """A count vector as ``{name: count}`` over every kind (zeros included)."""
    return {name: counts[kind] for kind, name in enumerate(names)}


def expand_names(counts: list[int], names: tuple[str, ...] = GROCERIES) -> list[Wire]:
    """A count vector as a list of names, one per card."""
    return [names[kind] for kind in expand(counts)]
