"""Liar's Dice, a game package outside ``engine/``, installed beside Arena: its entry point, a
real match of its search bot against the built-in random bot, and ``arena play`` by its name."""

from __future__ import annotations

import json
import subprocess
from importlib.metadata import entry_points
from pathlib import Path

from liars_dice_setup import ARENA, search_bot, search_manifest

from arena.clock import TimeControl
from arena.manifest import resolve_bot
from arena.referee import run_match
from engine.core import Game, replay
from liars_dice import GAME

#: A clock no node-budgeted search here comes near: only the budget decides how much a bot thinks.
SLACK = TimeControl.parse("5s")


def test_the_package_declares_its_game_under_the_arena_games_entry_point() -> None:
    (point,) = [p for p in entry_points(group="arena.games") if p.name == "liars_dice"]
    assert point.value == "liars_dice:GAME"
    assert point.load() is GAME
    assert isinstance(GAME, Game) and GAME.key == "liars_dice@1"
    assert GAME.contract == 1


def test_a_real_match_of_the_search_bot_against_random_replays_from_its_record() -> None:
    config = GAME.configure(3, "wild-ones", {"dice": 2})
    bots = [resolve_bot("random"), search_bot(nodes=40), resolve_bot("random")]
    record = run_match(GAME, config, 17, bots, SLACK)
    assert record.faults == () and record.forfeited == ()
    assert sorted(record.ranks) == [1, 2, 3]
    searched = [d.info for d in record.decisions if d.seat == 1 and d.info and d.info["nodes"]]
    assert searched and all(info["nodes"] == 40 for info in searched)
    final = replay(GAME, config, record.seed, [(d.seat, d.action) for d in record.decisions])
    assert final.result().ranks == record.ranks
    assert record.detail["result"] == final.result().detail


def test_arena_play_runs_the_game_by_its_name(tmp_path: Path) -> None:
    """``arena play liars_dice`` with the built-in random bot and the package's bot (a manifest)."""
    manifest = search_manifest(tmp_path, nodes=30)
    out = tmp_path / "record.json"
    done = subprocess.run(
        [*ARENA, "play", "liars_dice", "-b", "random", "-b", str(manifest), "--seed", "5",
         "--tc", "5s", "-k", "dice=2", "--record", str(out)],
        capture_output=True, text=True, timeout=240, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text(encoding="utf-8"))
    assert (record["game"], record["bots"], record["faults"]) == ("liars_dice", ["random", "liars-dice-search"], [])
    assert sorted(record["ranks"]) == [1, 2]
    assert record["detail"]["result"]["end"] == "last-standing"
