"""Waroong observations as vectors for learning agents (the engine's encoder hook).

Seats are counted from the observing seat: position 0 is the seat itself, 1 its left neighbour,
and so on, so one policy serves every seat. Groceries, customers and phases are in the game's own
order (:data:`~engine.waroong.cards.GROCERIES`, :data:`~engine.waroong.cards.CUSTOMERS`,
:data:`~engine.waroong.phases.PHASES`). Every field (docs/rl.md lists them): the phase, round,
priority, whose cooking turn it is and who has cooked, the dish under construction, a Thief or
Charmer awaiting an answer, a Businesswoman offer, the open menus (their points and groceries, by
row position), the decks, the boxed and cooked menus, menu points, the grocery discards, this
seat's hand, pick, picks, kept grocery and customers, every seat's counts of those, the used
customers, and the variant. Dish names are not encoded: a menu is its points and groceries.
"""

from __future__ import annotations

from engine.core import MatchConfig, Wire, WireMap
from engine.encoding import Builder, BuiltEncoder
from engine.wire import as_int, as_list, as_map, counts_by_name

from .actions import ROW_LIMIT
from .cards import CUSTOMERS, GROCERIES, MAIN_KINDS
from .phases import PHASES
from .rules import FIVE_STARS


class WaroongEncoder(BuiltEncoder):
    """The layout above for one configuration."""

    def __init__(self, config: MatchConfig, sample: WireMap) -> None:
        self.players = config.players
        super().__init__(sample)

    def build(self, observation: WireMap, out: Builder) -> None:
        o = observation
        n, me = self.players, as_int(o["seat"])
        seats = [(me + j) % n for j in range(n)]

        def per_seat(key: str, doc: str) -> None:
            values = as_list(o[key])
            out.numbers(key, (float(as_int(values[s])) for s in seats), f"{doc}, from this seat on")

        out.one_hot("phase", PHASES, o["phase"], "the phase")
        out.numbers("round", [as_int(o["round"])], "the round, from 1")
        out.one_hot("priority", seats, o["priority"], "the seat that cooks first this phase, from this seat on")
        out.one_hot("turn", seats, o["turn"], "the seat whose cooking turn it is (all 0 outside cooking)")
        done = as_list(o["done"])
        out.numbers("done", (bool(done[s]) for s in seats), "seats that have had their cooking turn, from this seat on")
        out.numbers("cooked_this_turn", [as_int(o["cooked_this_turn"])], "dishes served in this cooking turn")
        self._dish(o["dish"], out)
        security = as_map(o["security"]) if o["security"] is not None else {}
        out.one_hot("security.card", ("thief", "charmer"), security.get("card"), "a card awaiting its target's answer")
        out.one_hot("security.by", seats, security.get("by"), "who played it, from this seat on")
        out.one_hot("security.target", seats, security.get("target"), "its target, from this seat on")
        out.numbers("offer", [bool(o["offer"])], "1 when this seat is asked to play a Businesswoman now")
        row = as_list(o["row"])
        for i in range(ROW_LIMIT):
            menu = as_list(row[i]) if i < len(row) else []
            out.numbers(f"row[{i}].open", [bool(menu)], "1 when row position i holds a menu")
            out.numbers(f"row[{i}].points", [as_int(menu[1]) if menu else 0], "its points")
            needs = as_list(menu[2]) if menu else []
            out.numbers(f"row[{i}].groceries", (needs.count(g) for g in GROCERIES), "its groceries, by kind")
        out.numbers("menu_deck", [as_int(o["menu_deck"])], "menu cards left in the deck")
        out.numbers("boxed", [len(as_list(o["boxed"]))], "boxed dishes")
        cooked = as_list(o["cooked"])
        for j, s in enumerate(seats):
            menus = [as_list(m) for m in as_list(cooked[s])]
            out.numbers(f"cooked[{j}]", (len(menus), sum(as_int(m[1]) for m in menus), sum(as_int(m[2]) for m in menus)),
                        "the seat j places on: cooked menus, with sambal, with kerupuk")
        per_seat("menu_points", "menu points so far")
        out.numbers("grocery_deck", [as_int(o["grocery_deck"])], "groceries left in the deck")
        out.numbers("grocery_discards", counts_by_name(o["grocery_discards"], GROCERIES), "this phase's discarded groceries, by kind")
        out.numbers("hand", counts_by_name(o["hand"], GROCERIES), "this seat's draft hand, by kind")
        per_seat("hand_sizes", "draft hand sizes")
        out.one_hot("picked", GROCERIES, o["picked"], "this seat's pick of this draft step while others choose")
        out.numbers("picks", counts_by_name(o["picks"], GROCERIES), "this seat's picks, by kind")
        per_seat("pick_counts", "numbers of picks")
        out.one_hot("kept", GROCERIES, o["kept"], "this seat's kept grocery")
        per_seat("kept_counts", "1 for a seat holding a kept card")
        out.numbers("customers", counts_by_name(o["customers"], CUSTOMERS), "this seat's customer cards, by name")
        per_seat("customer_counts", "numbers of customer cards")
        out.numbers("customer_deck", [as_int(o["customer_deck"])], "customer cards left in the deck")
        out.numbers("used_customers", counts_by_name(o["used_customers"], CUSTOMERS), "used customer cards, by name")
        out.numbers("five_stars", [o["mode"] == FIVE_STARS], "1 in Five Stars")

    def _dish(self, value: Wire, out: Builder) -> None:
        dish = as_map(value) if value is not None else {}
        out.one_hot("dish.position", range(ROW_LIMIT), dish.get("position"), "the row position of the dish under construction")
        boss = as_list(dish.get("boss", []))
        out.numbers("dish.boss", (boss.count(c) for c in CUSTOMERS[:MAIN_KINDS]), "Boss cards chosen for it, boss-beras .. boss-petis")
        supplements = as_list(dish.get("supplements", []))
        out.numbers("dish.supplements", (supplements.count(g) for g in GROCERIES[MAIN_KINDS:]), "sambal and kerupuk added")
