"""Liar's Dice in words: each event as a sentence that names the seats, and the running scores
(the seats each has outlasted so far)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import State, WireMap
from engine.presentation import Presentation

from .state import LiarsDiceState
from .words import describe_event


class LiarsDicePresentation(Presentation):
    """Liar's Dice's words; the site shows it with the generic view."""

    def event_text(self, event: WireMap, names: Sequence[str]) -> str:
        return describe_event(event, names)

    def running_scores(self, state: State) -> list[int]:
        if not isinstance(state, LiarsDiceState):
            return super().running_scores(state)
        return [int(s) for s in state.scores()]
