"""Build a Waroong Wars position by hand: for scenario tests, puzzles and bot debugging.

:func:`stage` takes a freshly dealt state (for its configuration and seed), puts the named cards
where they are asked to be, returns every other card to its deck (or the menu box), and starts the
chosen phase through the engine's own code. Card totals are those of a real game, so every
invariant holds on a staged position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.core import ConfigError, seeded_rng

from .cards import CUSTOMER_COUNTS, CUSTOMERS, GROCERIES, GROCERY_COUNTS
from .phases import DRAFT
from .state import NO_CARD, WaroongState


class _Supply:
    """The cards of one kind-indexed deck not yet placed."""

    def __init__(
        self, what: str, names: tuple[str, ...], counts: Sequence[int]
    ) -> None:
        self.what, self.names, self.left = what, names, list(counts)

    def take(self, name: str) -> int:
        if name not in self.names:
            raise ConfigError(
                f"no {self.what} named {name!r}; known: {', '.join(self.names)}"
            )
        kind = self.names.index(name)
        if self.left[kind] <= 0:
            raise ConfigError(f"more {name!r} placed than the game has")
        self.left[kind] -= 1
        return kind

    def counts(self, names: Sequence[str]) -> list[int]:
        vector = [0] * len(self.names)
        for name in names:
            vector[self.take(name)] += 1
        return vector

    def rest(self) -> list[int]:
        return [kind for kind, count in enumerate(self.left) for _ in range(count)]


def _per_seat(
    values: Sequence[Sequence[str]], players: int, what: str
) -> list[Sequence[str]]:
    if len(values) > players:
        raise ConfigError(
            f"{what} given for {len(values)} seats, the game has {players}"
        )
    return [*values, *([()] * (players - len(values)))]


def stage(
    dealt: WaroongState,
    *,
    phase: Literal["shopping", "draft", "cooking"] = "cooking",
    hands: Sequence[Sequence[str]] = (),
    picks: Sequence[Sequence[str]] = (),
    kept: Sequence[str | None] = (),
    customers: Sequence[Sequence[str]] = (),
    row: Sequence[str] = (),
    menu_deck: Sequence[str] | None = None,
    cooked: Sequence[Sequence[str]] = (),
    grocery_top: Sequence[str] = (),
    customer_top: Sequence[str] = (),
    priority: int = 0,
) -> WaroongState:
    """A position of ``dealt``'s game with the given cards placed; raises :class:`ConfigError`.

    Per-seat arguments are lists by seat of card names. ``row`` is left to right; ``menu_deck`` and
    the ``*_top`` lists are top card first. Menus placed nowhere go to the box when ``menu_deck`` is
    given, else shuffled into the menu deck; other groceries and customer cards go under the given
    top cards, shuffled from the seed. Phases: ``shopping`` (a round begins: open a menu, deal,
    draft), ``draft`` (the given ``hands`` are mid-draft, no pick yet), ``cooking`` (the cooking
    phase begins at ``priority``, kept cards joining the picks, Businesswoman offers included).
    """
    rules, n = dealt.rules, dealt.rules.players
    st = WaroongState.empty(rules, dealt.config, dealt.seed)
    st.priority = priority
    st.rounds = 1
    groceries = _Supply("grocery", GROCERIES, GROCERY_COUNTS)
    cards = _Supply(
        "customer card",
        CUSTOMERS,
        CUSTOMER_COUNTS if rules.customers else [0] * len(CUSTOMERS),
    )
    dishes = tuple(d.name for d in rules.dishes)
    menus = _Supply(
        "dish", dishes, [rules.menu_deck.count(d) for d in range(len(dishes))]
    )
    st.hands = [groceries.counts(h) for h in _per_seat(hands, n, "hands")]
    st.picks = [groceries.counts(p) for p in _per_seat(picks, n, "picks")]
    st.kept = [
        NO_CARD if k is None else groceries.take(k)
        for k in [*kept, *([None] * (n - len(kept)))]
    ]
    st.customers = [cards.counts(c) for c in _per_seat(customers, n, "customers")]
    st.row = [menus.take(name) for name in row]
    st.cooked = [
        [(menus.take(name), 0, 0) for name in c] for c in _per_seat(cooked, n, "cooked")
    ]
    top_groceries = [groceries.take(name) for name in grocery_top]
    top_cards = [cards.take(name) for name in customer_top]
    if menu_deck is None:
        st.menus = menus.rest()
        seeded_rng(dealt.seed, "menus").shuffle(st.menus)
    else:
        st.menus = [menus.take(name) for name in reversed(menu_deck)]
        st.boxed = menus.rest()
    st.groceries = groceries.rest()
    seeded_rng(dealt.seed, "groceries").shuffle(st.groceries)
    st.groceries += reversed(top_groceries)
    st.customer_deck = cards.rest()
    seeded_rng(dealt.seed, "customers").shuffle(st.customer_deck)
    st.customer_deck += reversed(top_cards)
    if phase == "shopping":
        st.rounds = 0
        st.shopping()
    elif phase == "draft":
        st.phase = DRAFT
    else:
        st.start_cooking()
    return st
