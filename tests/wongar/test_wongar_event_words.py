"""Wongar's engine events in plain words: every event type the engine writes has its own words (not
the generic dump), names the bots its seat fields hold, and reads as the known answers below."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena_bot.wire_types import WireMap
from engine.presentation import generic_event_text, seat_names
from engine.wongar import state as wongar_state
from engine.wongar.presentation import EVENTS, WongarPresentation
from tests.helpers.random_games import played

PRESENTATION = WongarPresentation()
NAMES = seat_names(["ann", "bob", "cy", "dee", "eve"])

#: Event fields that hold one seat number.
SEAT_FIELDS = ("seat", "to", "owner", "ancestor_owner", "elder_owner", "start_player")


def named_seats(event: WireMap) -> set[int]:
    """Every seat the event names: its seat fields, a ceremony's participants, a scoring's awards."""
    seats = {v for f in SEAT_FIELDS if isinstance(v := event.get(f), int)}
    participants = event.get("participants")
    if isinstance(participants, list):
        seats |= {s for s in participants if isinstance(s, int)}
    awards = event.get("awards")
    if isinstance(awards, list):
        seats |= {s for a in awards if isinstance(a, dict) and isinstance(s := a.get("seat"), int)}
    return seats


def test_every_event_type_the_engine_writes_has_words() -> None:
    source = Path(wongar_state.__file__).read_text(encoding="utf-8")
    written = set(re.findall(r'"type": "(\w+)"', source))
    assert len(written) >= 30
    assert written <= set(EVENTS)


@pytest.mark.parametrize(("variant", "players"), [(v, p) for v in ("basic", "initiated") for p in (3, 4, 5)])
def test_random_games_read_in_words_naming_the_bots(variant: str, players: int) -> None:
    _, events = played("wongar", variant, players, seed=players)
    names = NAMES[:players]
    for event in events:
        text = PRESENTATION.event_text(event, names)
        assert text != generic_event_text(event, names), event
        for seat in named_seats(event):
            assert names[seat] in text, (event, text)
        assert "a seat" not in text, (event, text)


def test_scoring_known_answer() -> None:
    event: WireMap = {"type": "scoring", "territory": "Moon", "phase": 2, "trigger": "Ancestor and Elder",
                      "awards": [{"piece": "Disc", "seat": 0, "points": 5}, {"piece": "Cylinder", "seat": 2, "points": 5}]}
    assert PRESENTATION.event_text(event, NAMES[:3]) == (
        "ceremony in Moon (phase 2, called by the Ancestor and Elder): "
        "seat 0 (ann) scores 5 for the most discs, seat 2 (cy) 5 for the most cylinders")
    empty: WireMap = {"type": "scoring", "territory": "Fish", "phase": 1, "trigger": "Elder", "awards": []}
    assert PRESENTATION.event_text(empty, NAMES[:3]) == "ceremony in Fish (phase 1, called by the Elder): nobody scores"


def test_remove_and_private_events_known_answers() -> None:
    names = NAMES[:3]
    remove: WireMap = {"type": "remove", "seat": 2, "owner": 1, "piece": "Cube"}
    assert PRESENTATION.event_text(remove, names) == "seat 2 (cy) returned a cube of seat 1 (bob) to its owner"
    deal: WireMap = {"type": "deal", "seat": 1, "hand": {"Disc": 2, "Cube": 0, "Cylinder": 0, "Double": 1}}
    assert PRESENTATION.event_text(deal, names) == "seat 1 (bob) was dealt 2× Disc, Double"
    drew: WireMap = {"type": "drew", "seat": 0, "card": "Cylinder"}
    assert PRESENTATION.event_text(drew, names) == "seat 0 (ann) drew the ritual card Cylinder"
    assert PRESENTATION.event_text({"type": "scorpion", "space": 7}, names) == "the Scorpion moves to space 7"


def test_an_unknown_event_falls_back_to_the_generic_words() -> None:
    event: WireMap = {"type": "novel", "seat": 1}
    assert PRESENTATION.event_text(event, NAMES[:3]) == generic_event_text(event, NAMES[:3])
