"""``arena play --watch`` for an audience: running scores in both games, plain words for what
comes next, the final places at the end."""

from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest
from rich.console import Console

from arena.cli.audience import audience_view, names_of
from arena.record import DecisionRecord
from engine.registry import get_game
from engine.waroong.presentation import PHASES as WAROONG_PHASES
from engine.wongar.presentation import DECISIONS as WONGAR_DECISIONS

BOTS = ["first", "second\x1b[31m", "third"]


def watched(game_name: str, seed: int, every: int = 6) -> dict[int, str]:
    """The display after every ``every``-th decision of a seeded random game, the 5th (a referee's
    fallback) and the last, as plain text by decision number."""
    game = get_game(game_name)
    state = game.start(game.configure(3, None, {}), seed)
    rng = random.Random(seed)
    shown: dict[int, str] = {}
    count = 0
    while not state.is_over():
        seat = state.to_move()[0]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        count += 1
        if count % every and count != 5 and not state.is_over():
            continue
        console = Console(record=True, width=110, file=io.StringIO())
        console.print(audience_view(state, DecisionRecord(seat, action, 0.004, fallback=count == 5), count, BOTS,
                                   game.presentation()))
        shown[count] = console.export_text()
    return shown


@pytest.mark.parametrize("game", ["wongar", "waroong"])
def test_the_scores_run_through_the_game_and_end_at_the_result(game: str) -> None:
    frames = watched(game, 21)
    half = list(frames.values())[len(frames) // 2]
    table = [line.split() for line in half.splitlines()[1:4]]
    assert [row[-3] if row[0] == "▶" else row[1] for row in table] == ["first", "second\\x1b[31m", "third"]
    assert any(int(row[-2]) > 0 for row in table), half  # scores before the end, Waroong's included
    assert "the referee chose for seat" in frames[5]
    assert "next: game over" in frames[max(frames)]


@pytest.mark.parametrize("game", ["wongar", "waroong"])
def test_what_comes_next_is_said_in_plain_words(game: str) -> None:
    internal = [name for name in (*WONGAR_DECISIONS, *WAROONG_PHASES) if "_" in name] + ["to decide:"]
    for frame in watched(game, 5).values():
        assert not any(name in frame for name in internal), frame
        assert "\x1b" not in frame


def test_next_up_names_the_seat_and_the_decision() -> None:
    game = get_game("wongar")
    state = game.start(game.configure(3, None, {}), 3)
    text = game.presentation().next_text(state, names_of(BOTS))
    assert text.startswith(f"seat {state.to_move()[0]} (") and " to " in text
    assert text.split(" to ", 1)[1].split(" in ")[0] in WONGAR_DECISIONS.values()


@pytest.mark.slow
def test_play_watch_runs_a_real_match_to_the_end() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from arena.cli.app import main; main()", "play", "waroong",
         "-b", "random", "-b", "greedy", "-b", "random", "--watch", "--delay", "0", "--seed", "4"],
        capture_output=True, text=True, timeout=120, env={"COLUMNS": "120", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert "next: game over" in done.stdout and "place now" in done.stdout
