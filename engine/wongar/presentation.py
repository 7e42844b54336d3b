"""Wongar in words and pictures: the pending decision in plain words, the running scores, and the
site's viewer (``viewer.js``, ``viewer.css`` beside this module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core import State
from engine.presentation import Presentation, package_text
from engine.wongar.state import WongarState

#: The pending decisions in plain words.
DECISIONS: Mapping[str, str] = {
    "not_started": "set up",
    "setup_place": "place an opening piece",
    "take": "take a territory card",
    "piece_extra": "place the card's pieces",
    "triple": "place the Triple's pieces",
    "choose_ritual": "choose ritual cards",
    "ancestor_move": "move the Ancestor",
    "elder_move": "move the Elder",
    "ceremony_play": "play a ritual card in the ceremony",
    "ceremony_effect": "carry out the ritual card",
}

#: The text picture ends with a line for developers; the presentation says it in plain words.
INTERNAL_PREFIX = "to decide:"


class WongarPresentation(Presentation):
    """Wongar's words: one seat decides at a time, and its ``pending`` decision says what."""

    def next_text(self, state: State, names: Sequence[str]) -> str:
        if state.is_over():
            return "game over"
        mover = state.to_move()[0]
        pending = state.observation(mover).get("pending")
        if not isinstance(pending, Mapping):
            return super().next_text(state, names)
        decision = str(pending.get("decision"))
        where = pending.get("territory")
        place = f" in {where!s}" if isinstance(where, str) else ""
        return f"{names[mover]} to {DECISIONS.get(decision, decision.replace('_', ' '))}{place}"

    def running_scores(self, state: State) -> list[int]:
        if not isinstance(state, WongarState):
            return super().running_scores(state)
        return [int(s) for s in state.scores]

    def picture(self, state: State) -> str:
        return "\n".join(line for line in state.render().splitlines() if not line.startswith(INTERNAL_PREFIX))

    def viewer_script(self) -> str:
        return package_text("engine.wongar", "viewer.js")

    def viewer_style(self) -> str:
        return package_text("engine.wongar", "viewer.css")
