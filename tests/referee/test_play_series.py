"""``arena play --games N``: a series of matches between bots kept running, seats rotating."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.clock import TimeControl
from arena.manifest import BotSpec, resolve_bot
from arena.record import FaultKind, MatchRecord
from arena.series import entry_at, match_seed, play_series
from engine.core import replay
from engine.registry import get_game
from referee_helpers import BOTS

runner = CliRunner()
TC = TimeControl.parse("2s")


def test_seats_rotate_deals_follow_the_seed_and_every_match_replays(tmp_path: Path) -> None:
    game = get_game("wongar")
    config = game.configure(3)
    bots = [replace(resolve_bot("random"), name=name) for name in ("a", "b", "c")]
    seen: list[int] = []
    records = play_series(game, config, 77, bots, TC, 4, log_dir=tmp_path,
                          on_match=lambda number, record: seen.append(number))
    assert seen == [0, 1, 2, 3]
    assert [r.bots for r in records] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b"), ("a", "b", "c")]
    assert [r.seed for r in records] == [match_seed(77, n) for n in range(4)]
    assert len({r.seed for r in records}) == 4
    for record in records:
        assert record.faults == ()
        state = replay(game, config, record.seed, [(d.seat, d.action) for d in record.decisions])
        assert state.result().scores == record.scores
    assert [entry_at(seat, 1, 3) for seat in range(3)] == [1, 2, 0]
    # Bots started once: one log per bot, not one per match.
    assert len(list(tmp_path.glob("*.log"))) == 3


@pytest.mark.usefixtures("working_sandbox")
def test_a_bot_that_crashed_is_started_afresh_for_the_next_match(tmp_path: Path) -> None:
    game = get_game("wongar")
    config = game.configure(3)
    crasher = BotSpec("crasher", (sys.executable, str(BOTS / "misbehave.py"), "crash"))
    bots = [crasher, resolve_bot("random"), resolve_bot("random")]
    first, second = play_series(game, config, 5, bots, TC, 2, log_dir=tmp_path)
    assert [f.kind for f in first.faults] == [FaultKind.CRASH] and first.forfeited == (0,)
    # It crashes again after three decisions, but it started and played them: no start fault.
    crashed = [f for f in second.faults if f.kind is FaultKind.CRASH]
    assert crashed and crashed[0].ply > 0
    assert not [f for f in second.faults if f.kind is FaultKind.START]
    assert second.bots[2] == "crasher" and sum(1 for d in second.decisions if d.seat == 2 and not d.fallback) == 3


def test_cli_prints_a_summary_and_writes_each_record_on_its_line(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    result = runner.invoke(app, ["play", "waroong", "-b", "random", "-b", "greedy", "-b", "random",
                                 "--games", "3", "--seed", "9", "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert "3 matches of waroong" in result.output and "seed 9" in result.output
    assert "2. greedy" in result.output
    records = [MatchRecord.from_wire(json.loads(line)) for line in path.read_text().splitlines()]
    assert [r.seed for r in records] == [match_seed(9, n) for n in range(3)]
    assert [r.bots.index("greedy") for r in records] == [1, 0, 2]


def test_cli_refuses_a_series_with_watching_or_remote_seats_or_none() -> None:
    bots = ["-b", "random"] * 3
    watched = runner.invoke(app, ["play", "wongar", *bots, "--games", "2", "--watch"])
    assert watched.exit_code == 2 and "--games plays local bots unwatched" in watched.output
    none = runner.invoke(app, ["play", "wongar", *bots, "--games", "0"])
    assert none.exit_code == 2
