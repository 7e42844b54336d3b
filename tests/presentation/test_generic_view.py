"""A game that provides no presentation of its own is still shown: its events as type and fields,
its actions by their labels, the seats to move, no running score before the end, its own text
picture, and on the site the generic view (no viewer files, the replay page loads none)."""

from __future__ import annotations

import io

from rich.console import Console

from arena.cli.audience import audience_view, names_of
from arena.record import DecisionRecord, MatchRecord
from arena.site.frames import replay_data
from arena.site.pages import render_page
from arena.site.viewers import viewer_of
from engine.core import State
from engine.presentation import Presentation, generic_event_text, seat_names
from tests.presentation.toy_game import GAME

BOTS = ("ann", "bob", "cy")
#: Seats 0, 1, 2 take in turn: every seat 2, then every seat 1, then 2, 1, 2: piles 5, 4, 5.
TAKES = (1, 1, 1, 0, 0, 0, 1, 0, 1)


def played(upto: int) -> State:
    state = GAME.start(GAME.configure(3), 0)
    for action in TAKES[:upto]:
        state.apply_checked(state.to_move()[0], action)
    return state


def test_a_game_without_hooks_gets_the_generic_presentation() -> None:
    presentation = GAME.presentation()
    assert type(presentation) is Presentation
    names = seat_names(BOTS)
    state = played(1)
    assert presentation.next_text(state, names) == "seat 1 (bob) and seat 2 (cy) to decide"
    assert presentation.next_text(played(0), names) == "every seat to decide"
    assert presentation.event_text(state.log[0].data, names) == "took: seat 0 (ann), pebbles 2"
    assert presentation.action_text(state, 0, 1) == "take 2"
    assert presentation.running_scores(state) == []
    assert presentation.picture(state) == state.render()
    finished = played(len(TAKES))
    assert finished.is_over() and presentation.running_scores(finished) == [5, 4, 5]
    assert presentation.next_text(finished, names) == "game over"
    assert presentation.viewer_script() is None and presentation.viewer_style() is None


def test_generic_event_text_names_seats_and_reads_values() -> None:
    names = seat_names(BOTS)
    assert generic_event_text({"type": "end_turn"}, names) == "end turn"
    assert generic_event_text({"type": "gave", "by": 2, "to": 0, "cards": {"Emu": 2, "Fox": 1, "Owl": 0}}, names) == (
        "gave: by seat 2 (cy), to seat 0 (ann), cards 2× Emu, Fox"
    )
    assert generic_event_text({"type": "x", "seat": 7, "what": None, "list": [], "flag": True}, names) == (
        "x: seat 7, what none, list none, flag true"
    )


def test_watch_shows_the_generic_view_with_no_score_until_the_end() -> None:
    def shown(upto: int) -> str:
        console = Console(record=True, width=100, file=io.StringIO())
        decision = DecisionRecord((upto - 1) % 3, TAKES[upto - 1], 0.003)
        console.print(audience_view(played(upto), decision, upto, BOTS, GAME.presentation()))
        return console.export_text()

    middle = shown(4)
    assert "every seat to decide" not in middle and "next: seat 1 (bob) and seat 2 (cy) to decide" in middle
    assert "take 1" in middle and "round 2 of 3; piles [2, 2, 2]" in middle
    rows = [line.split() for line in middle.splitlines()[1:4]]
    assert [row[-2:] for row in rows] == [["–", "–"]] * 3, middle
    end = shown(len(TAKES))
    assert "next: game over" in end
    assert [line.split()[-2:] for line in end.splitlines()[1:4]] == [["5", "1"], ["4", "3"], ["5", "1"]], end
    assert names_of(["a\x1b[31m"]) == ["seat 0 (a\\x1b[31m)"]


def test_the_site_shows_a_game_without_a_viewer_generically() -> None:
    viewer = viewer_of(GAME)
    assert (viewer.script, viewer.style, viewer.files) == (None, None, {})
    page = render_page("replay.html.j2", root="../", title="t", game_id="g1", previous=None, next=None, viewer=viewer)
    assert page.count("<script") == 2 and ".viewer." not in page
    decisions = tuple(DecisionRecord(s, a, 0.001) for s, a in zip((0, 1, 2) * 3, TAKES))
    record = MatchRecord("pebbles", 1, "plain", {}, 0, BOTS, decisions, (), (5, 4, 5), (1, 3, 1))
    data = replay_data(record, "g1", game=GAME)
    assert data["complete"] and [entry[1] for entry in data["log"]][:2] == ["take 2", "take 2"]
    first = data["steps"][1]
    assert first["ev"] == [[[0], "took: seat 0 (ann), pebbles 2"]]
    assert "score" not in first and data["steps"][-1]["score"] == [5, 4, 5]
    assert data["steps"][3]["ev"][-1] == [None, "revealed: takes 2, 2, 2"]
    # what one seat took stays in its own channel until the round reveals it
    assert first["priv"][0] == [[["mine"], 2]] and "mine" not in str(first["pub"])
