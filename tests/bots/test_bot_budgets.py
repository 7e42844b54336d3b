"""How much the built-in bots think: a node budget repeats a seeded match move for move, and is
given by ``ARENA_NODES``, a manifest or a tournament entry. (How much they think by the clock:
``test_builtin_bots_cpu_clock``.)"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec, ManifestError, load_manifest, resolve_bot
from arena.record import MatchRecord
from arena.referee import play_match
from arena.tournament import TournamentError
from arena.tournament.config import config_from_plain, parse_config
from engine.core import Game
from engine.registry import games
from protocols.messages import ENV_NODES
from protocols.transport import Hub

#: Seat order of every table here.
TABLE = ("ismcts", "greedy", "random")
#: Node budgets small enough for a quick test, large enough that the searches branch.
BUDGETS = {"ismcts": 6, "greedy": 2}
#: A clock no node-budgeted search comes near: only the budget decides how much a bot thinks.
SLACK = TimeControl.parse("5s")
#: Every game; all but Waroong Wars (the quickest to play) in the ``slow`` tier.
GAMES = [pytest.param(game, id=game.key, marks=[] if game.name == "waroong" else [pytest.mark.slow])
         for game in games().values()]


def _play(game: Game, hub: Hub, logs: Path, specs: list[BotSpec], clock: TimeControl) -> MatchRecord:
    """One three-seat match on seed 5150 with freshly started bots."""
    handles = BotHandle.launch_all(specs, hub, logs)
    try:
        for handle in handles:
            assert handle.alive(), f"{handle.spec.name} did not start: {handle.failure}"
        record = play_match(game, game.configure(3), 5150, handles, clock)
    finally:
        close_all(handles)
    assert record.faults == (), record.faults
    return record


def _budgeted(hash_seed: str) -> list[BotSpec]:
    """The table with node budgets, each process hashing strings with ``hash_seed``."""
    specs = []
    for name in TABLE:
        env = {"PYTHONHASHSEED": hash_seed}
        if name in BUDGETS:
            env[ENV_NODES] = str(BUDGETS[name])
        specs.append(replace(resolve_bot(name), env=env))
    return specs


@pytest.mark.parametrize("game", GAMES)
def test_a_node_budget_repeats_a_seeded_match(game: Game, hub: Hub, tmp_path: Path) -> None:
    """The same seed and budgets, new processes with other string hashing: the same decisions, and
    every search runs exactly its budget."""
    first = _play(game, hub, tmp_path, _budgeted("1"), SLACK)
    second = _play(game, hub, tmp_path, _budgeted("2"), SLACK)
    assert [(d.seat, d.action) for d in first.decisions] == [(d.seat, d.action) for d in second.decisions]
    for record in (first, second):
        for decision in record.decisions:
            name = TABLE[decision.seat]
            if name in BUDGETS and decision.info and decision.info["nodes"]:
                assert decision.info["nodes"] == BUDGETS[name]
                assert "cut" not in decision.info


@pytest.mark.parametrize("game", GAMES)
def test_a_match_plays_the_same_whatever_the_process_played_before(
    game: Game, hub: Hub, tmp_path: Path
) -> None:
    """Every built-in bot draws from its match's own generator (from ``start.seed``): processes
    that played another deal first make the decisions of freshly started ones, so a resumed or
    redistributed tournament plays the games of an uninterrupted one."""
    handles = BotHandle.launch_all(_budgeted("1"), hub, tmp_path)
    try:
        for handle in handles:
            assert handle.alive(), f"{handle.spec.name} did not start: {handle.failure}"
        play_match(game, game.configure(3), 4242, handles, SLACK)
        seasoned = play_match(game, game.configure(3), 5150, handles, SLACK)
    finally:
        close_all(handles)
    fresh = _play(game, hub, tmp_path, _budgeted("1"), SLACK)
    assert seasoned.faults == ()
    assert [(d.seat, d.action) for d in seasoned.decisions] == [(d.seat, d.action) for d in fresh.decisions]


@pytest.mark.parametrize("value", ["-1", "0", "many", "2.5", ""])
def test_a_bad_node_budget_stops_a_bot_with_one_line(value: str) -> None:
    """A bot given a bad ``ARENA_NODES`` exits with status 2 and says why in one line."""
    env = {"ARENA_ENDPOINT": "ipc:///nonexistent", "ARENA_TOKEN": "t", ENV_NODES: value}
    done = subprocess.run(
        [sys.executable, "-m", "bots.ismcts"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == [f"ismcts: {ENV_NODES} must be a positive whole number, not {value!r}"]


def test_a_manifest_node_budget_reaches_the_bot_as_arena_nodes(tmp_path: Path) -> None:
    """``nodes = N`` in a manifest becomes ``ARENA_NODES``; anything but a positive whole number is
    refused in one line naming the file."""
    manifest = tmp_path / "bot.toml"
    head = f'name = "b"\ncommand = ["{sys.executable}", "-m", "bots.greedy"]\n'
    manifest.write_text(head + "nodes = 7\n")
    assert load_manifest(manifest).env[ENV_NODES] == "7"
    for bad in ("-1", "0", '"7"', "2.5", "true"):
        manifest.write_text(f"{head}nodes = {bad}\n")
        with pytest.raises(ManifestError) as caught:
            load_manifest(manifest)
        assert str(caught.value).startswith(f"bot manifest {manifest}: 'nodes' must be a positive whole number")
        assert "\n" not in str(caught.value)


def test_a_tournament_node_budget_reaches_the_bot_and_is_stored(tmp_path: Path) -> None:
    """``nodes`` in a ``[[bots]]`` entry wins over the manifest's, survives the store's round trip,
    and is refused in one line when it is not a positive whole number."""
    raw = {"name": "t", "game": "wongar", "table_size": 2, "time_control": "1s", "seed": 1,
           "bots": [{"name": "g", "bot": "greedy", "nodes": 9}, {"name": "r", "bot": "random"}]}
    config = parse_config(raw, source="t.toml", base=tmp_path)
    assert config.bots[0].spec().env[ENV_NODES] == "9"
    assert ENV_NODES not in config.bots[1].spec().env
    assert config_from_plain(config.to_plain()) == config
    for bad, problem in ((0, "must be at least 1, not 0"), ("9", "expected a whole number, got str '9'")):
        raw["bots"] = [{"name": "g", "bot": "greedy", "nodes": bad}, {"name": "r", "bot": "random"}]
        with pytest.raises(TournamentError) as caught:
            parse_config(raw, source="t.toml", base=tmp_path)
        assert str(caught.value) == f"t.toml: bots[0].nodes: {problem}"
