"""What a seat sees, and what a search bot's determinized copy may change."""

from __future__ import annotations

import random

from engine.wongar.arrange import staged
from engine.wongar.cards import RitualCard, TerritoryCard
from wongar_scenario import act, quiet_game

SCORPION = int(TerritoryCard.SCORPION)


def test_observation_shows_own_hand_only_and_the_pending_context() -> None:
    state = quiet_game()
    state.begin()
    act(state, "take", "Kangaroo")
    view = state.observation(0)
    assert view["hand"] == {
        "Disc": state.hands[0], "Cube": state.hands[1], "Cylinder": state.hands[2], "Double": state.hands[3],
    }
    assert view["hand_sizes"] == [sum(state.hands[s * 5: s * 5 + 5]) for s in range(4)]
    assert view["pending"] == {
        "decision": "piece_extra", "seat": 0, "piece": "Disc", "steps_left": 2, "territory": "Kangaroo",
    }
    assert view["taken"][0]["Disc"] == 1  # type: ignore[index,call-overload]
    assert "pile" not in view and "stacks" not in view
    other = state.observation(2)
    assert other["hand"] == dict(zip(("Disc", "Cube", "Cylinder", "Double"), state.hands[10:14]))
    assert {k: v for k, v in other.items() if k not in ("hand", "seat")} == {
        k: v for k, v in view.items() if k not in ("hand", "seat")
    }


def test_render_hides_other_hands() -> None:
    state = quiet_game()
    state.begin()
    size = sum(state.hands[10:15])
    seat_lines = {line[:6]: line for line in state.render(0).splitlines() if line.startswith("seat ")}
    assert f"hand: {size} cards" in seat_lines["seat 2"]
    assert "cards  cards" not in seat_lines["seat 0"] and "hand: " in seat_lines["seat 0"]
    assert f"hand: {sum(state.hands[0:5])} cards" not in seat_lines["seat 0"]
    omniscient = {line[:6]: line for line in state.render(None).splitlines() if line.startswith("seat ")}
    assert f"hand: {size} cards" not in omniscient["seat 2"]


def test_determinize_keeps_what_the_seat_knows() -> None:
    seed = next(s for s in range(50) if any(staged(4, s).bottom_known))
    state = staged(4, seed)
    state.begin()
    copy = state.determinize(1, random.Random(4))
    assert copy.observation(1) == state.observation(1)
    assert copy.hands[5:10] == state.hands[5:10]
    for t in range(10):
        known = state.bottom_known[t]
        assert copy.stacks[t][:known] == [SCORPION] * known
        assert sorted(copy.stacks[t]) == sorted(state.stacks[t])
    assert copy.pile.count(int(RitualCard.SCORPION)) == state.pile.count(int(RitualCard.SCORPION))
    changed = any(copy.stacks[t] != state.stacks[t] for t in range(10)) or copy.pile != state.pile
    assert changed, "hidden orders are resampled"
    assert copy.inventory() == state.inventory()
