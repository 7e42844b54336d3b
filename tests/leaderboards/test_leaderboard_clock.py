"""The clock a board's games were timed by: read from each match record, cpu or wall when they
agree, mixed when they differ, and stated in every published form."""

from __future__ import annotations

import dataclasses
import io
import json

from rich.console import Console

from arena.rating_input import rated_game
from arena.record import MatchRecord
from json_schema import violations
from lb_boards import pair
from leaderboards.build import build_leaderboard
from leaderboards.model import Leaderboard, RatingSettings
from leaderboards.render_html import render_html
from leaderboards.render_json import leaderboard_data, schema
from leaderboards.render_markdown import render_markdown
from leaderboards.render_table import render_table
from leaderboards.results import common_clock

SETTINGS = RatingSettings(bootstrap_samples=20)


def timed(clock: str | None, seed: int) -> MatchRecord:
    """A finished three-seat match whose record names ``clock`` (none at all for ``None``)."""
    bots = ("A", "B", "C")[seed % 3:] + ("A", "B", "C")[:seed % 3]
    return MatchRecord(game="wongar", version=1, variant="basic", knobs={}, seed=seed, bots=bots,
                       decisions=(), faults=(), scores=(3, 2, 1), ranks=(1, 2, 3), forfeited=(),
                       detail={} if clock is None else {"clock": clock})


def board_of(*clocks: str | None) -> Leaderboard:
    return build_leaderboard([rated_game(timed(clock, seed)) for seed, clock in enumerate(clocks)],
                             None, SETTINGS)


def test_common_clock_known_answers() -> None:
    assert common_clock(["cpu", "cpu"]) == "cpu"
    assert common_clock(["wall"]) == "wall"
    assert common_clock(["cpu", "wall", "cpu"]) == "mixed"
    assert common_clock([None, "wall"]) == "wall"  # a record from before the clock was kept
    assert common_clock([]) is None and common_clock([None, 7]) is None


def test_a_rated_game_keeps_its_records_clock() -> None:
    assert rated_game(timed("cpu", 1)).clock == "cpu"
    assert rated_game(timed(None, 1)).clock is None


def test_the_board_states_the_clock_of_its_games() -> None:
    assert board_of("cpu", "cpu", "cpu").clock == "cpu"
    assert board_of("wall", "wall", "wall").clock == "wall"
    assert board_of("cpu", "wall", "cpu").clock == "mixed"
    assert board_of(None, None, None).clock is None


def test_every_published_form_names_the_clock() -> None:
    board = dataclasses.replace(pair(), clock="cpu")
    line = "clock: cpu (decisions timed by each bot's own CPU time)"
    console = Console(width=120, record=True, color_system=None, file=io.StringIO())
    console.print(render_table(board))
    assert line in " ".join(console.export_text().split())  # the caption may wrap
    assert "\n\nClock: cpu (decisions timed by each bot's own CPU time).\n\n" in render_markdown(board)
    assert ('<p class="note" id="clock">Clock: cpu (decisions timed by each bot&#39;s own CPU '
            'time).</p>') in render_html(board)
    data = json.loads(json.dumps(leaderboard_data(board)))
    assert data["clock"] == "cpu" and violations(data, schema(), schema()) == []
    mixed = dataclasses.replace(board, clock="mixed")
    assert ("Clock: mixed (decisions timed by CPU time in some games, elapsed time in others)."
            in render_markdown(mixed))
    unknown = leaderboard_data(pair())
    assert unknown["clock"] is None and violations(unknown, schema(), schema()) == []
    assert "clock" not in render_markdown(pair()).lower()
    broken = {**unknown, "clock": "sundial"}
    assert violations(broken, schema(), schema()) == [
        "$.clock: 'sundial' not in ['cpu', 'wall', 'mixed', None]"]
