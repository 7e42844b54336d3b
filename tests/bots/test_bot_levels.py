"""Levels of the searching built-in bots: ``level`` in a tournament entry becomes ``ARENA_LEVEL``,
each level a node budget per game, level 3 the ladders' budget; anything else is refused in one line."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import resolve_bot
from arena.referee import play_match
from arena.tournament import TournamentError
from arena.tournament.config import config_from_plain, load_config, parse_config
from bots.shared.levels import BUDGETS, ENV_LEVEL, LEVELS, LevelError, env_level, level_nodes
from engine.registry import get_game
from protocols.messages import ENV_NODES
from protocols.transport import Hub

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _raw(entry: dict[str, object]) -> dict[str, object]:
    return {"name": "t", "game": "wongar", "table_size": 2, "time_control": "1s", "seed": 1,
            "bots": [entry, {"name": "r", "bot": "random"}]}


@pytest.mark.parametrize("bot", sorted(BUDGETS))
@pytest.mark.parametrize("game", ["wongar", "waroong", "liars_dice"])
def test_each_level_searches_more_than_the_one_below(bot: str, game: str) -> None:
    """Five levels, node budgets rising strictly with the level, in every game."""
    budgets = [level_nodes(bot, game, level) for level in LEVELS]
    assert list(LEVELS) == [1, 2, 3, 4, 5]
    assert all(low < high for low, high in zip(budgets, budgets[1:])), budgets


@pytest.mark.parametrize("game", ["wongar", "waroong"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_ladder_config_plays_the_ladder_at_level_three(game: str, players: int) -> None:
    """Each ladder config loads, seats ``players`` at a table, fields random, greedy, ismcts and
    expert (the seats beyond four more entries of random), and gives greedy and ismcts the level-3
    node budgets."""
    name = f"ladder-{game}.toml" if players == 3 else f"ladder-{game}-{players}.toml"
    config = load_config(EXAMPLES / name)
    assert (config.game.split("@")[0], config.table_size) == (game, players)
    budgets = {entry.name: entry.nodes for entry in config.bots}
    assert {entry.bot for entry in config.bots} == {"random", "greedy", "ismcts", "expert"}
    assert len(config.bots) == max(players, 4)
    assert budgets["greedy"] == level_nodes("greedy", game, 3)
    assert budgets["ismcts"] == level_nodes("ismcts", game, 3)


def test_a_tournament_level_reaches_the_bot_and_is_stored(tmp_path: Path) -> None:
    """``level`` in a ``[[bots]]`` entry becomes ``ARENA_LEVEL`` and survives the store's round trip."""
    config = parse_config(_raw({"name": "g", "bot": "ismcts", "level": 4}), source="t.toml", base=tmp_path)
    env = config.bots[0].spec().env
    assert env[ENV_LEVEL] == "4" and ENV_NODES not in env
    assert config_from_plain(config.to_plain()) == config


@pytest.mark.parametrize(("entry", "problem"), [
    ({"bot": "greedy", "level": 0}, "a level is a whole number from 1 to 5, not 0"),
    ({"bot": "greedy", "level": 6}, "a level is a whole number from 1 to 5, not 6"),
    ({"bot": "ismcts", "level": "3"}, "a level is a whole number from 1 to 5, not '3'"),
    ({"bot": "ismcts", "level": True}, "a level is a whole number from 1 to 5, not True"),
    ({"bot": "random", "level": 2}, "only greedy and ismcts take a level, not 'random'"),
    ({"bot": "greedy", "level": 2, "nodes": 4}, "give a level or a node budget (nodes), not both"),
])
def test_a_bad_level_is_refused_in_one_line(entry: dict[str, object], problem: str, tmp_path: Path) -> None:
    with pytest.raises(TournamentError) as caught:
        parse_config(_raw({"name": "g", **entry}), source="t.toml", base=tmp_path)
    assert str(caught.value) == f"t.toml: bots[0].level: {problem}"


def test_the_level_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ARENA_LEVEL`` unset is no level; a level is read; anything else names the variable."""
    monkeypatch.delenv(ENV_LEVEL, raising=False)
    assert env_level("greedy") is None
    monkeypatch.setenv(ENV_LEVEL, " 5 ")
    assert env_level("greedy") == 5
    monkeypatch.setenv(ENV_LEVEL, "high")
    with pytest.raises(LevelError, match=f"^{ENV_LEVEL}: a level is a whole number from 1 to 5, not 'high'$"):
        env_level("ismcts")


def test_a_bad_level_stops_a_bot_with_one_line() -> None:
    """A bot given a bad ``ARENA_LEVEL`` exits with status 2 and says why in one line."""
    env = {"ARENA_ENDPOINT": "ipc:///nonexistent", "ARENA_TOKEN": "t", ENV_LEVEL: "9"}
    done = subprocess.run([sys.executable, "-m", "bots.greedy"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"greedy: {ENV_LEVEL}: a level is a whole number from 1 to 5, not 9"]


@pytest.mark.slow
@pytest.mark.parametrize("game_name", ["wongar", "waroong"])
def test_a_level_is_the_node_budget_of_the_game_in_a_real_match(game_name: str, hub: Hub,
                                                                  tmp_path: Path) -> None:
    """Bot processes given ``ARENA_LEVEL`` search exactly their level's budget for the game played."""
    levels = {"ismcts": 1, "greedy": 2}
    specs = [replace(resolve_bot(name), env={ENV_LEVEL: str(levels[name])} if name in levels else {})
             for name in ("ismcts", "greedy", "random")]
    game = get_game(game_name)
    handles = BotHandle.launch_all(specs, hub, tmp_path)
    try:
        for handle in handles:
            assert handle.alive(), f"{handle.spec.name} did not start: {handle.failure}"
        record = play_match(game, game.configure(3), 77, handles, TimeControl.parse("5s"))
    finally:
        close_all(handles)
    assert record.faults == (), record.faults
    searched: dict[int, set[object]] = {0: set(), 1: set()}
    for decision in record.decisions:
        if decision.seat in searched and decision.info and decision.info.get("nodes"):
            assert "cut" not in decision.info
            searched[decision.seat].add(decision.info["nodes"])
    assert searched == {0: {level_nodes("ismcts", game_name, 1)}, 1: {level_nodes("greedy", game_name, 2)}}
