"""The expert bot as a real process: it plays legal moves to the end of a Wongar and a Waroong Wars
match on a small node budget, and it plays sandboxed like any untrusted bot (``sandbox`` tier).

The clock is one no such search comes near, so only the node budget decides how much it thinks and
a busy machine changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from sandboxed import require_sandbox

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec, builtin_bots, resolve_bot
from arena.record import MatchRecord
from arena.referee import play_match
from engine.registry import get_game
from protocols.messages import ENV_NODES
from protocols.transport import Hub

#: A node budget small enough for a quick match: the whole search still runs, without its depth.
NODES = 4
SLACK = TimeControl.parse("5s")
SEED = 4200
GAMES = (("wongar", "basic"), ("waroong", "five-stars"))


def expert(nodes: int = NODES) -> BotSpec:
    """The built-in expert on a node budget."""
    return replace(resolve_bot("expert"), env={ENV_NODES: str(nodes)})


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[BotHandle]]:
    """An expert and two random bots, long-lived processes on one hub."""
    with Hub() as hub:
        handles = BotHandle.launch_all([expert(), resolve_bot("random"), resolve_bot("random")], hub,
                                       tmp_path_factory.mktemp("bot-logs"))
        try:
            assert all(handle.alive() for handle in handles), [h.failure for h in handles]
            yield handles
        finally:
            close_all(handles)


def _assert_searched_cleanly(record: MatchRecord, seat: int) -> None:
    """No fault, no forfeit, no fallback move; ``seat`` reported searches of exactly its budget."""
    assert record.faults == (), record.faults
    assert record.forfeited == ()
    assert not any(d.fallback for d in record.decisions)
    searched = [d.info for d in record.decisions if d.seat == seat and d.info and d.info.get("nodes")]
    assert searched and all(info["nodes"] == NODES and "value" in info for info in searched)


def test_expert_is_a_builtin_bot() -> None:
    assert "expert" in builtin_bots()


@pytest.mark.parametrize(("game_name", "variant"), GAMES)
def test_expert_plays_a_whole_match_of_legal_moves(game_name: str, variant: str,
                                                   table: list[BotHandle]) -> None:
    game = get_game(game_name)
    record = play_match(game, game.configure(3, variant), SEED, table, SLACK)
    assert len(record.ranks) == 3
    _assert_searched_cleanly(record, 0)


@pytest.mark.sandbox
@pytest.mark.parametrize(("game_name", "variant"), GAMES)
def test_expert_plays_sandboxed(game_name: str, variant: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    require_sandbox()
    game = get_game(game_name)
    with Hub() as hub:
        handles = BotHandle.launch_all([replace(expert(), trusted=False), resolve_bot("random"),
                                        resolve_bot("random")], hub, tmp_path_factory.mktemp("bot-logs"))
        try:
            assert all(handle.alive() for handle in handles), [h.failure for h in handles]
            process = handles[0].process
            assert process is not None and process.sandboxed
            record = play_match(game, game.configure(3, variant), SEED, handles, SLACK)
        finally:
            close_all(handles)
    _assert_searched_cleanly(record, 0)
