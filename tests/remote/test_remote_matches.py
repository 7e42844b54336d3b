"""Matches with a remote seat over real tcp with CURVE: a bot that reconnects between games, one
that drops mid-game and comes back within the grace, and one that vanishes (a crash fault)."""

from __future__ import annotations

import pytest

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import resolve_bot
from arena.record import FaultKind
from arena.referee import play_match
from arena.remote.seats import remote_spec
from remote_helpers import flaky, sdk_bot, settings, start, stop, wait_until
from engine.core import Game
from engine.registry import games
from protocols.transport import Hub

TC = TimeControl.parse("1s")


@pytest.fixture(scope="module")
def game() -> Game:
    return next(iter(games().values()))


def seat_remote(hub: Hub, game: Game, tmp_path: object) -> tuple[BotHandle, list[BotHandle]]:
    """A remote seat and local random bots for the rest of ``game``'s minimum of players."""
    remote = BotHandle.remote(remote_spec("alice"), hub)
    local = BotHandle.launch_all([resolve_bot("random")] * (game.min_players - 1), hub, tmp_path)  # type: ignore[arg-type]
    return remote, local


@pytest.mark.slow
def test_a_remote_bot_that_reconnects_between_games_plays_on(remote_hub: Hub, game: Game,
                                                              tmp_path: object) -> None:
    remote, local = seat_remote(remote_hub, game, tmp_path)
    config = game.configure(game.min_players)
    bot = start(sdk_bot(), settings(remote_hub, remote.peer))
    try:
        assert remote_hub.wait_connected([remote.peer], 10) == []
        first = play_match(game, config, 1, [remote, *local], TC)
        stop(bot)  # gone between games, then back with the same token
        bot = start(sdk_bot(), settings(remote_hub, remote.peer))
        assert wait_until(remote_hub, lambda: remote.peer.connections == 2, 10)
        second = play_match(game, config, 2, [remote, *local], TC)
        for record in (first, second):
            assert record.faults == () and record.forfeited == ()
            assert any(d.seat == 0 and not d.fallback for d in record.decisions)
    finally:
        close_all([remote, *local])
        stop(bot)


def test_a_remote_bot_that_drops_mid_game_and_reconnects_is_sent_start_again(
    remote_hub: Hub, game: Game, tmp_path: object
) -> None:
    remote, local = seat_remote(remote_hub, game, tmp_path)
    config = game.configure(game.min_players)
    bot = start(flaky("drop", 3), settings(remote_hub, remote.peer))
    try:
        assert remote_hub.wait_connected([remote.peer], 10) == []
        record = play_match(game, config, 3, [remote, *local], TC)
        assert record.forfeited == ()
        assert all(f.kind is FaultKind.TIMEOUT for f in record.faults)  # never a crash
        assert remote.peer.connections == 2
        assert sum(1 for d in record.decisions if d.seat == 0 and not d.fallback) > 3
    finally:
        close_all([remote, *local])
        out, _ = stop(bot)
    assert out.split() == ["start", "start"]


def test_a_remote_bot_that_vanishes_mid_game_is_a_crash_after_the_grace(
    remote_hub: Hub, game: Game, tmp_path: object
) -> None:
    remote, local = seat_remote(remote_hub, game, tmp_path)
    config = game.configure(game.min_players)
    bot = start(flaky("vanish", 2), settings(remote_hub, remote.peer))
    try:
        assert remote_hub.wait_connected([remote.peer], 10) == []
        # A second of grace: the local seats are not late on a busy machine.
        record = play_match(game, config, 4, [remote, *local], TimeControl.parse("200ms~1s"),
                            rejoin_grace=0.5)
        assert record.forfeited == (0,)
        crash = [f for f in record.faults if f.seat == 0]
        assert [f.kind for f in crash] == [FaultKind.CRASH]
        assert "not back within 0.5 s" in crash[0].detail
        assert record.faults[-1].seat == 0 and len(record.ranks) == config.players
    finally:
        close_all([remote, *local])
        stop(bot)
