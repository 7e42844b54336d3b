"""Whole matches between built-in bots on every registered game: complete, faultless, replayable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import zmq

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec, resolve_bot
from arena.record import MatchRecord
from arena.referee import FaultPolicy, RefereeError, final_ranks, play_match, run_match
from engine.core import Game, replay
from engine.registry import games
from protocols.transport import CurveKeys, Hub

GAMES = list(games().values())
TC = TimeControl.parse("2s")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_random_bots_play_a_full_match_that_replays_exactly(game: Game, tmp_path: Path) -> None:
    players = game.min_players
    config = game.configure(players)
    record = run_match(game, config, 2024, [resolve_bot("random")] * players, TC, log_dir=tmp_path)
    assert record.faults == () and record.forfeited == ()
    assert record.bots == ("random",) * players
    assert not any(d.fallback for d in record.decisions)
    assert all(d.elapsed > 0 for d in record.decisions)
    state = replay(game, config, 2024, [(d.seat, d.action) for d in record.decisions])
    assert state.is_over() and state.result().scores == record.scores
    assert record.ranks == state.result().ranks
    assert MatchRecord.from_wire(record.to_wire()) == record
    assert list(tmp_path.glob("random-*.log"))


def test_the_same_seed_gives_the_same_match(first_game: Game, hub: Hub,
                                            random_bots: list[BotHandle]) -> None:
    players = first_game.min_players
    config = first_game.configure(players)
    seats = random_bots[:players]
    first = play_match(first_game, config, 99, seats, TC)
    second = play_match(first_game, config, 99, seats, TC)
    assert [(d.seat, d.action) for d in first.decisions] == [(d.seat, d.action) for d in second.decisions]


@pytest.mark.usefixtures("working_sandbox")
def test_simultaneous_decisions_are_requested_together(tmp_path: Path) -> None:
    from referee_helpers import misbehaving

    simultaneous = [g for g in GAMES if _has_simultaneous_turns(g)]
    if not simultaneous:
        pytest.skip("no registered game has simultaneous decisions")
    game = simultaneous[0]
    players = game.min_players
    config = game.configure(players)
    record = run_match(game, config, 3, [misbehaving("echo")] * players, TC, log_dir=tmp_path)
    assert record.faults == ()
    state = game.start(config, 3)
    rounds = round_start = 0
    pending: set[int] = set()
    for index, decision in enumerate(record.decisions):
        if not pending:
            pending, round_start = set(state.to_move()), index
            rounds += len(pending) > 1
        # every seat of a round was asked before any decision of that round was applied
        assert decision.info == {"ply": round_start}
        pending.remove(decision.seat)
        state.apply(decision.seat, decision.action)
    assert rounds > 0


def _has_simultaneous_turns(game: Game) -> bool:
    state = game.new_state(game.min_players, 1)
    for _ in range(200):
        if state.is_over():
            return False
        movers = state.to_move()
        if len(movers) > 1:
            return True
        state.apply(movers[0], state.legal_actions(movers[0])[0])
    return False


def test_remote_bot_over_tcp_plays_a_seat(first_game: Game, tmp_path: Path) -> None:
    players = first_game.min_players
    config = first_game.configure(players)
    with Hub("tcp://127.0.0.1:*") as hub:
        local = BotHandle.launch_all([resolve_bot("random")] * (players - 1), hub, tmp_path)
        remote = BotHandle.remote(resolve_bot("random"), hub)
        process = subprocess.Popen([sys.executable, "-m", "bots.random", "--endpoint", hub.endpoint,
                                    "--token", remote.peer.token])
        try:
            assert hub.wait_connected([remote.peer], 10) == []
            record = play_match(first_game, config, 8, [remote, *local], TC)
            assert record.faults == ()
            assert any(d.seat == 0 and not d.fallback for d in record.decisions)
        finally:
            for handle in [remote, *local]:
                handle.close(grace=0.5)
            assert process.wait(5) == 0


@pytest.mark.usefixtures("working_sandbox")
def test_a_crashed_bot_is_restarted_for_the_next_match(first_game: Game, hub: Hub,
                                                      random_bots: list[BotHandle],
                                                      tmp_path: Path) -> None:
    from referee_helpers import misbehaving

    players = first_game.min_players
    config = first_game.configure(players)
    crasher = BotHandle.launch(misbehaving("crash"), hub, tmp_path)
    try:
        seats = [crasher, *random_bots[: players - 1]]
        first = play_match(first_game, config, 4, seats, TC)
        assert first.forfeited == (0,) and not crasher.alive()
        crasher.restart()
        assert crasher.alive() and crasher.starts == 2
        second = play_match(first_game, config, 4, seats, TC)
        assert [d.action for d in second.decisions] == [d.action for d in first.decisions]
        assert second.faults == first.faults
    finally:
        crasher.close(grace=0.2)


def test_bad_seatings_are_refused(first_game: Game, random_bots: list[BotHandle]) -> None:
    config = first_game.configure(first_game.min_players)
    with pytest.raises(RefereeError, match="need"):
        play_match(first_game, config, 1, random_bots[:1], TC)
    with pytest.raises(RefereeError, match="two seats"):
        play_match(first_game, config, 1, [random_bots[0]] * first_game.min_players, TC)
    with pytest.raises(RefereeError, match="at least 1"):
        FaultPolicy(0)


def test_forfeited_seats_rank_last_and_the_rest_keep_their_order() -> None:
    assert final_ranks((1, 2, 3, 4), ()) == (1, 2, 3, 4)
    assert final_ranks((1, 2, 2, 4), (0,)) == (4, 1, 1, 3)
    assert final_ranks((3, 1, 2, 1), (1, 3)) == (2, 3, 1, 3)


@pytest.mark.usefixtures("working_sandbox")
def test_sdk_hooks_see_every_start_and_end_and_the_clock(first_game: Game, tmp_path: Path) -> None:
    from referee_helpers import BOTS

    players = first_game.min_players
    config = first_game.configure(players)
    spec = BotSpec("hooked", (sys.executable, str(BOTS / "hooked.py")))
    control = TimeControl.parse("1s+100ms/5s")
    with Hub() as hub:
        handles = BotHandle.launch_all([spec] * players, hub, tmp_path)
        try:
            first = play_match(first_game, config, 1, handles, control, match_id="one")
            second = play_match(first_game, config, 2, handles, control, match_id="two")
        finally:
            close_all(handles)
    assert first.faults == () and second.faults == ()
    assert {d.info["starts"] for d in first.decisions if d.info} == {1}
    assert {(d.info["starts"], d.info["ends"], d.info["match"]) for d in second.decisions if d.info} == {
        (2, 1, "two")
    }
    banks = [d.info["bank_ms"] for d in second.decisions if d.info and d.seat == 0]
    assert banks[0] == 5000 and banks[1] == 5100  # each decision adds the increment to the bank


def test_run_match_over_tcp_with_curve(first_game: Game, tmp_path: Path) -> None:
    if not zmq.has("curve"):
        pytest.skip("libzmq without CURVE")
    players = first_game.min_players
    record = run_match(first_game, first_game.configure(players), 6, [resolve_bot("random")] * players,
                       TC, endpoint="tcp://127.0.0.1:*", curve=CurveKeys.generate(), log_dir=tmp_path)
    assert record.faults == () and not any(d.fallback for d in record.decisions)
