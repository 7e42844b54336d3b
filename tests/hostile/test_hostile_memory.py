"""Floods and oversized frames: the referee's memory stays bounded (resident size sampled after
every decision), unsolicited frames are dropped and counted, and the match completes."""

from __future__ import annotations

import threading
from pathlib import Path

import msgpack
import pytest
import zmq

from arena.clock import TimeControl
from arena.handle import BotHandle
from arena.record import FaultKind, MatchRecord
from arena.referee import FaultPolicy, play_match
from engine.core import Game
from hostile_helpers import check_match, hostile, live_group_members, rss_bytes
from protocols.errors import PeerGone
from protocols.messages import Act, ClockMs
from protocols.transport import DROPS_LOGGED, Hub

SLOW = TimeControl(2.0, grace=1.0)
MiB = 1 << 20


def play_measured(game: Game, seats: list[BotHandle], control: TimeControl) -> tuple[MatchRecord, int]:
    """Play one match; the record and the largest growth of resident memory seen meanwhile."""
    before = rss_bytes()
    peak = before

    def sample(*_: object) -> None:
        nonlocal peak
        peak = max(peak, rss_bytes())

    record = play_match(game, game.configure(3), 5, seats, control, FaultPolicy(2), on_decision=sample)
    return record, peak - before


def test_a_flood_of_unsolicited_frames_is_dropped_counted_and_bounded(
    wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path
) -> None:
    flood = BotHandle.launch(hostile("flood"), hub, tmp_path)
    try:
        record, growth = play_measured(wongar, [flood, *honest], SLOW)
    finally:
        flood.close(grace=0.2)
    check_match(wongar, record, [0], ())
    # 3 x 1000 frames of 60 KiB (176 MiB) went through; each was dropped and counted.
    assert record.detail["dropped"] == [3000, 0, 0]
    assert growth < 64 * MiB, f"resident memory grew by {growth / MiB:.0f} MiB"
    assert flood.process is not None and flood.process.pid is not None
    assert live_group_members(flood.process.pid) == []


def test_a_64_mib_frame_is_never_buffered_and_the_peer_is_lost(
    wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path
) -> None:
    huge = BotHandle.launch(hostile("huge"), hub, tmp_path)
    try:
        record, growth = play_measured(wongar, [huge, *honest], SLOW)
        # The bot's socket reconnected under a new identity: it is no longer this peer.
        assert huge.peer.lost and huge.process is not None and huge.process.alive()
    finally:
        huge.close(grace=0.2)
    check_match(wongar, record, [0], (FaultKind.CRASH,))
    assert record.faults[0].detail == "connection lost"
    assert growth < 32 * MiB, f"resident memory grew by {growth / MiB:.0f} MiB"


def test_frames_from_connections_that_never_said_hello_are_refused_and_counted(
    wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path
) -> None:
    stop = threading.Event()
    sent = 0

    def stranger() -> None:
        nonlocal sent
        context = zmq.Context()
        socket = context.socket(zmq.DEALER)
        socket.setsockopt(zmq.LINGER, 0)
        socket.setsockopt(zmq.SNDTIMEO, 100)
        socket.connect(hub.endpoint)
        frame = msgpack.packb({"type": "action", "seq": 1, "action": 0, "pad": "x" * 60000})
        try:
            while not stop.is_set():
                try:
                    socket.send(frame)
                    sent += 1
                except zmq.Again:
                    pass
        finally:
            socket.close()
            context.term()

    player = BotHandle.launch(hostile("echo"), hub, tmp_path)
    refused_before = hub.refused
    thread = threading.Thread(target=stranger)
    thread.start()
    try:
        record, growth = play_measured(wongar, [player, *honest], SLOW)
    finally:
        stop.set()
        thread.join()
        player.close(grace=0.2)
    check_match(wongar, record, [], ())
    refused = hub.refused - refused_before
    assert 0 < refused <= sent
    assert growth < 64 * MiB, f"resident memory grew by {growth / MiB:.0f} MiB"


def test_a_peer_that_never_reads_makes_sends_fail_instead_of_queueing() -> None:
    with Hub() as hub:
        peer = hub.expect("deaf")
        context = zmq.Context()
        deaf = context.socket(zmq.DEALER)
        deaf.setsockopt(zmq.LINGER, 0)
        deaf.setsockopt(zmq.RCVHWM, 1)
        deaf.setsockopt(zmq.RCVBUF, 4096)
        deaf.connect(hub.endpoint)
        hello = {"type": "hello", "protocol": 1, "name": "deaf", "version": "0", "token": peer.token}
        deaf.send(msgpack.packb(hello))
        try:
            assert hub.wait_connected([peer], 10) == []
            before = rss_bytes()
            act = Act(0, 0, 0, {"pad": "x" * 60000}, (0,), [], ClockMs(100, 0, 0))
            sent = 0
            with pytest.raises(PeerGone):
                while sent < 100_000:
                    hub.send(peer, act)
                    sent += 1
            assert peer.lost and sent < 100_000
            assert rss_bytes() - before < 64 * MiB
        finally:
            deaf.close()
            context.term()


def test_frames_from_a_connected_bot_not_seated_are_dropped_with_bounded_logging(
    wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    idle = hub.expect("idle")
    context = zmq.Context()
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(hub.endpoint)
    hello = {"type": "hello", "protocol": 1, "name": "idle", "version": "0", "token": idle.token}
    socket.send(msgpack.packb(hello))
    assert hub.wait_connected([idle], 10) == []
    sent = 0

    def flood(*_: object) -> None:
        """At every decision, as many unsolicited frames as the transport takes without waiting."""
        nonlocal sent
        try:
            for _frame in range(100):
                socket.send(msgpack.packb({"type": "pong", "seq": sent}), zmq.NOBLOCK)
                sent += 1
        except zmq.Again:
            pass

    player = BotHandle.launch(hostile("echo"), hub, tmp_path)
    try:
        with caplog.at_level("INFO", logger="protocols.transport"):
            record = play_match(wongar, wongar.configure(3), 5, [player, *honest], SLOW,
                                FaultPolicy(2), on_decision=flood)
    finally:
        player.close(grace=0.2)
        hub.forget(idle)
        socket.close()
        context.term()
    check_match(wongar, record, [], ())
    # Nothing was asked of that connection: its frames were dropped unread, a few of them logged.
    assert record.detail["dropped"] == [0, 0, 0] and sent > 1000 and idle.dropped > 1000
    logged = [r for r in caplog.records if "nothing asked" in r.getMessage()]
    assert len(logged) == DROPS_LOGGED  # one peer's first few
