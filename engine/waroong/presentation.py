"""Waroong Wars in words and pictures: the phase in plain words, the private events with whose they
are, the running scores (customer cards in hand included), where the final scores came from, and the
site's viewer (``viewer.js``, ``viewer.css`` beside this module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena_bot.wire_types import WireMap
from engine.core import State
from engine.presentation import EventWords, Presentation, movers_text, package_text, plain, seat_name, value_text

from .cards import CELEBRITY, CUSTOMER_VALUES
from .state import WaroongState

#: The phases in plain words (what the seats to move are doing).
PHASES: Mapping[str, str] = {
    "draft": "pick groceries",
    "cook": "cook a menu or end the turn",
    "dish": "serve the dish",
    "keep": "keep a grocery or not",
    "security": "answer the Security card",
    "businesswoman": "answer the Businesswoman's offer",
}


#: Events in plain words, by type: ``(event, names) -> text``; a seat's own private events name it.
EVENTS: Mapping[str, EventWords] = {
    "dealt": lambda e, n: f"{seat_name(e, n)} was dealt {value_text(e.get('hand'))}",
    "picked": lambda e, n: f"{seat_name(e, n)} picked {value_text(e.get('grocery'))}",
    "passed": lambda e, n: f"the hands passed left ({value_text(e.get('left'))} cards each)",
    "turn": lambda e, n: f"{seat_name(e, n)} cooks",
    "cooked": lambda e, n: (f"{seat_name(e, n)} cooked {value_text(e.get('dish'))} for {value_text(e.get('points'))} points"
                            + (f" with {value_text(e.get('supplements'))}" if e.get("supplements") else "")
                            + (f", using {plain(value_text(e.get('boss')))}" if e.get("boss") else "")),
    "customer-drawn": lambda e, n: f"{seat_name(e, n)} drew a customer card",
    "drew": lambda e, n: f"{seat_name(e, n)} drew the customer card {plain(str(e.get('customer')))}",
    "kept": lambda e, n: f"{seat_name(e, n)} kept {value_text(e.get('grocery'))}",
    "turn-over": lambda e, n: (f"{seat_name(e, n)} ended the turn" + (", keeping a grocery" if e.get("kept") else "")
                               + (f", discarding {value_text(e.get('discarded'))}" if e.get("discarded") else "")),
    "stolen-card": lambda e, n: f"the Thief of {seat_name(e, n, 'by')} took {value_text(e.get('grocery'))} from {seat_name(e, n, 'target')}",
    "charmed-card": lambda e, n: (f"the Charmer of {seat_name(e, n, 'by')} took the customer card "
                                  f"{plain(str(e.get('customer')))} from {seat_name(e, n, 'target')}"),
    "businesswoman-declined": lambda e, n: f"{seat_name(e, n)} declined the Businesswoman's offer",
}


class WaroongPresentation(Presentation):
    """Waroong Wars' words: the phase says what the seats to move are doing; the private events
    say whose they are."""

    events = EVENTS

    def next_text(self, state: State, names: Sequence[str]) -> str:
        if state.is_over():
            return "game over"
        phase = str(state.observation(state.to_move()[0]).get("phase", ""))
        return f"{movers_text(state, names)} to {PHASES.get(phase, plain(phase))}"

    def running_scores(self, state: State) -> list[int]:
        if not isinstance(state, WaroongState):
            return super().running_scores(state)
        return [int(s) for s in state.scores()]

    def score_breakdown(self, state: State, events: Sequence[WireMap]) -> list[tuple[str, list[int]]]:
        """Where the final scores came from: the cooked dishes' points, their sambal and kerupuk
        supplements, and (Five Stars) the unused customer cards, 1 each, Celebrities 3 each. Rows
        in which nobody scored are left out; the columns sum to the final scores."""
        assert isinstance(state, WaroongState), "a Waroong presentation reads Waroong states"
        dishes = state.rules.dishes
        rows = [
            ("dishes cooked", [sum(dishes[d].points for d, _, _ in menus) for menus in state.cooked]),
            ("sambal and kerupuk supplements", [sum(s + k for _, s, k in menus) for menus in state.cooked]),
            ("unused customer cards (1 each)",
             [sum(c * v for i, (c, v) in enumerate(zip(cards, CUSTOMER_VALUES)) if i != CELEBRITY) for cards in state.customers]),
            ("unused Celebrities (3 each)", [cards[CELEBRITY] * CUSTOMER_VALUES[CELEBRITY] for cards in state.customers]),
        ]
        return [(label, points) for label, points in rows if any(points)]

    def viewer_script(self) -> str:
        return package_text("engine.waroong", "viewer.js")

    def viewer_style(self) -> str:
        return package_text("engine.waroong", "viewer.css")
