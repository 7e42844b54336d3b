"""Waroong Wars in words and pictures: the phase in plain words, the running scores (customer
cards in hand included), and the site's viewer (``viewer.js``, ``viewer.css`` beside this module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core import State
from engine.presentation import Presentation, movers_text, package_text, plain

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


class WaroongPresentation(Presentation):
    """Waroong Wars' words: the phase says what the seats to move are doing."""

    def next_text(self, state: State, names: Sequence[str]) -> str:
        if state.is_over():
            return "game over"
        phase = str(state.observation(state.to_move()[0]).get("phase", ""))
        return f"{movers_text(state, names)} to {PHASES.get(phase, plain(phase))}"

    def running_scores(self, state: State) -> list[int]:
        if not isinstance(state, WaroongState):
            return super().running_scores(state)
        return [int(s) for s in state.scores()]

    def viewer_script(self) -> str:
        return package_text("engine.waroong", "viewer.js")

    def viewer_style(self) -> str:
        return package_text("engine.waroong", "viewer.css")
