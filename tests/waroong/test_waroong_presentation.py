"""Waroong Wars' words: every private event names the seat it belongs to, so the omniscient replay
says whose pick, hand, customer card or kept grocery it is."""

from __future__ import annotations

from engine.presentation import seat_names
from engine.waroong.presentation import WaroongPresentation
from tests.helpers.random_games import played

NAMES = seat_names(["ann", "bob", "cy", "dan"])


def test_each_private_event_names_the_seat_that_saw_it() -> None:
    state, _ = played("waroong", "five-stars", 4, seed=2)
    words = WaroongPresentation()
    private = [e for e in state.log if e.seats is not None and len(e.seats) == 1]
    assert {e.data["type"] for e in private} >= {"dealt", "picked", "drew"}
    for event in private:
        (seat,) = event.seats
        assert seat in (event.data.get("seat"), event.data.get("by"), event.data.get("target"))
        assert NAMES[seat] in words.event_text(event.data, NAMES)
    first_picks = [e for e in private if e.data["type"] == "picked"][:4]
    assert [words.event_text(e.data, NAMES) for e in first_picks] == [
        f"{NAMES[s]} picked {e.data['grocery']}" for s, e in enumerate(first_picks)]


def test_a_cooked_dish_reads_as_who_cooked_what_for_how_much() -> None:
    words = WaroongPresentation()
    event = {"type": "cooked", "seat": 2, "dish": "Lontong Balap", "position": 1, "boss": [],
             "supplements": ["sambal"], "points": 5}
    assert words.event_text(event, NAMES) == "seat 2 (cy) cooked Lontong Balap for 5 points with sambal"
