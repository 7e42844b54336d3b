"""The validated rules of one Waroong Wars configuration, shared (read-only) by every state of a match."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.core import ActionTable, MatchConfig

from .actions import Layout, action_table, layout
from .cards import MENU_LISTS, Dish

FIVE_STARS = "five-stars"
STREET_VENDOR = "street-vendor"
KEEP_IF_NO_COOK = "only-if-no-cook"
KEEP_ALWAYS = "always"


@dataclass(frozen=True, slots=True)
class Rules:
    """What a configuration decides: players, mode, keep rule, the menu list and the action ids."""

    players: int
    customers: bool
    keep_always: bool
    dishes: tuple[Dish, ...]
    menu_deck: tuple[int, ...]
    layout: Layout
    table: ActionTable


@cache
def _rules(players: int, variant: str, menus: str, keep_rule: str) -> Rules:
    menu_list = MENU_LISTS[menus]
    customers = variant == FIVE_STARS
    return Rules(
        players=players,
        customers=customers,
        keep_always=keep_rule == KEEP_ALWAYS,
        dishes=menu_list.dishes,
        menu_deck=menu_list.deck,
        layout=layout(players, customers),
        table=action_table(players, customers),
    )


def rules_of(config: MatchConfig) -> Rules:
    """The rules of an already validated ``config``."""
    return _rules(
        config.players,
        config.variant,
        str(config.knobs["menus"]),
        str(config.knobs["keep_rule"]),
    )
