"""Wongar in words and pictures: the pending decision in plain words, the running scores, where the
final scores came from, and the site's viewer (``viewer.js``, ``viewer.css`` beside this module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core import State
from arena_bot.wire_types import WireMap
from engine.presentation import Presentation, package_text
from engine.wongar.cards import CARD_MAJORITY_BONUS, KIND_NAMES, TERRITORY_CARD_KINDS
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

    def score_breakdown(self, state: State, events: Sequence[WireMap]) -> list[tuple[str, list[int]]]:
        """Where the final scores came from: the ceremony majorities of each Scorpion phase (from
        the ``scoring`` events), the Scorpion penalties (``penalty`` events, negative), and the end
        bonus for the most territory cards of each piece kind (W14). Rows in which nobody scored
        are left out; the columns sum to the final scores."""
        assert isinstance(state, WongarState), "a Wongar presentation reads Wongar states"
        seats = state.n
        phases: dict[int, list[int]] = {}
        penalties = [0] * seats
        for event in events:
            if event.get("type") == "scoring" and isinstance(awards := event.get("awards"), list):
                row = phases.setdefault(_int(event.get("phase")), [0] * seats)
                for award in awards:
                    assert isinstance(award, dict)
                    row[_int(award.get("seat"))] += _int(award.get("points"))
            elif event.get("type") == "penalty":
                penalties[_int(event.get("seat"))] -= _int(event.get("points"))
        rows = [(f"phase {p} ceremony majorities", phases[p]) for p in sorted(phases)]
        rows.append(("Scorpion penalties", penalties))
        if state.is_over():
            for k, kind in enumerate(KIND_NAMES):
                counts = [state.taken[s * TERRITORY_CARD_KINDS + k] for s in range(seats)]
                best = max(counts)
                rows.append((f"most {kind} cards (end bonus)",
                             [CARD_MAJORITY_BONUS if best and c == best else 0 for c in counts]))
        return [(label, points) for label, points in rows if any(points)]

    def picture(self, state: State) -> str:
        return "\n".join(line for line in state.render().splitlines() if not line.startswith(INTERNAL_PREFIX))

    def viewer_script(self) -> str:
        return package_text("engine.wongar", "viewer.js")

    def viewer_style(self) -> str:
        return package_text("engine.wongar", "viewer.css")


def _int(value: object) -> int:
    """An event's integer field (the engine always writes one there)."""
    assert isinstance(value, int)
    return value
