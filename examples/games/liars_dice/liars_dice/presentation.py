"""Liar's Dice in words: each event as a sentence that names the seats, the running scores
(the seats each has outlasted so far), and its replay viewer (``viewer.js``/``viewer.css``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import State, WireMap
from engine.presentation import Presentation, package_text

from .state import LiarsDiceState
from .words import describe_event


class LiarsDicePresentation(Presentation):
    """Liar's Dice's words and its own replay viewer."""

    def event_text(self, event: WireMap, names: Sequence[str]) -> str:
        return describe_event(event, names)

    def running_scores(self, state: State) -> list[int]:
        if not isinstance(state, LiarsDiceState):
            return super().running_scores(state)
        return [int(s) for s in state.scores()]

    def viewer_script(self) -> str:
        return package_text("liars_dice", "viewer.js")

    def viewer_style(self) -> str:
        return package_text("liars_dice", "viewer.css")
