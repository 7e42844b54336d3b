"""The hub and the SDK over real sockets: handshakes, tokens, tcp, CURVE, ping and bye."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import msgpack
import pytest
import zmq

from protocols.codec import decode, encode
from protocols.messages import (
    ENV_ENDPOINT,
    ENV_SERVER_KEY,
    ENV_TOKEN,
    Act,
    Action,
    Bye,
    ClockMs,
    Error,
    Hello,
    Ping,
    Pong,
    Start,
    Welcome,
)
from protocols.transport import DROPS_LOGGED, REFUSALS_LOGGED, CurveKeys, Hub

RANDOM_BOT = [sys.executable, "-m", "bots.random"]


def start_bot(args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    return subprocess.Popen(RANDOM_BOT + args, env={**clean, **(env or {})},
                            stderr=subprocess.PIPE, text=True)


@pytest.fixture()
def raw_dealer() -> Iterator[zmq.Socket[bytes]]:
    context = zmq.Context()
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    yield socket
    socket.close()
    context.term()


def test_sdk_bot_handshakes_answers_and_leaves_on_bye() -> None:
    with Hub() as hub:
        peer = hub.expect("r")
        bot = start_bot([], {ENV_ENDPOINT: hub.endpoint, ENV_TOKEN: peer.token})
        try:
            assert hub.wait_connected([peer], 10) == []
            assert (peer.name, peer.version) == ("random", "1")
            assert hub.ping(peer, 5) is not None
            hub.send(peer, Start("m", "wongar", 2, "basic", {}, 0, 3, 7, [], ClockMs(100, 0, 0), 50))
            hub.send(peer, Act(hub.next_seq(), 0, 0, {}, (3, 8), [], ClockMs(100, 0, 0)))
            incoming = hub.receive(5)
            assert incoming is not None and incoming.peer is peer
            assert isinstance(incoming.message, Action) and incoming.message.action in (3, 8)
            hub.send(peer, Bye("done"))
            assert bot.wait(5) == 0
        finally:
            bot.kill()
            bot.wait()


def test_remote_bot_over_tcp_with_token_arguments() -> None:
    with Hub("tcp://127.0.0.1:*") as hub:
        assert hub.endpoint.startswith("tcp://127.0.0.1:")
        peer = hub.expect("remote")
        bot = start_bot(["--endpoint", hub.endpoint, "--token", peer.token])
        try:
            assert hub.wait_connected([peer], 10) == []
            assert hub.ping(peer, 5) is not None
        finally:
            bot.kill()
            bot.wait()


def test_wrong_token_is_refused_and_the_bot_says_why() -> None:
    with Hub("tcp://127.0.0.1:*") as hub:
        peer = hub.expect("expected")
        bot = start_bot(["--endpoint", hub.endpoint, "--token", "not-the-token"])
        try:
            deadline = time.monotonic() + 20
            while bot.poll() is None and time.monotonic() < deadline:
                assert hub.receive(0.05) is None  # the hub answers the hello itself
            assert bot.returncode == 1 and not peer.connected
            assert bot.stderr is not None
            assert "refused by the referee: unknown token" in bot.stderr.read()
        finally:
            bot.kill()
            bot.wait()


def test_bot_without_settings_exits_2() -> None:
    bot = start_bot([])
    _, err = bot.communicate(timeout=10)
    assert bot.returncode == 2 and "ARENA_ENDPOINT" in err


def pump_until(hub: Hub, done: Callable[[], bool]) -> None:
    """Receive in short steps (nothing may be returned) until ``done()``."""
    deadline = time.monotonic() + 5
    while not done():
        assert time.monotonic() < deadline
        assert hub.receive(0.005) is None


def exchange(hub: Hub, socket: zmq.Socket[bytes], body: Hello) -> object:
    socket.send(encode(body))
    pump_until(hub, lambda: bool(socket.poll(0)))  # a hello is answered by the hub, never returned
    return decode(socket.recv())


def test_handshake_refusals(raw_dealer: zmq.Socket[bytes]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        raw_dealer.connect(hub.endpoint)
        raw_dealer.send(encode(Action(1, 0)))
        pump_until(hub, lambda: hub.refused == 1)  # no hello yet: refused and logged
        refused = exchange(hub, raw_dealer, Hello(0, "ancient", "1", peer.token))
        assert isinstance(refused, Error) and "protocol version 0 is not supported" in refused.message
        # a bot that also speaks a newer version is told the version to use
        assert exchange(hub, raw_dealer, Hello(3, "newer", "1", peer.token)) == Welcome(2, "arena")
        assert peer.protocol == 2
        raw_dealer.send(msgpack.packb({"type": "pong", "seq": 1}))
        pump_until(hub, lambda: peer.dropped == 1)  # nothing was asked
        seq = hub.next_seq()
        hub.send(peer, Ping(seq))
        raw_dealer.send(msgpack.packb({"type": "pong", "seq": seq}))
        incoming = hub.receive(2)
        assert incoming is not None and incoming.peer is peer and incoming.message == Pong(seq)
        other: zmq.Socket[bytes] = zmq.Context.instance().socket(zmq.DEALER)
        other.setsockopt(zmq.LINGER, 0)
        try:
            other.connect(hub.endpoint)
            other.send(encode(Hello(1, "thief", "1", peer.token)))
            pump_until(hub, lambda: bool(other.poll(0)))  # handled by the hub, not returned
            taken = decode(other.recv())
            assert isinstance(taken, Error) and "already connected" in taken.message
        finally:
            other.close()


def test_unasked_frames_from_a_connected_peer_are_dropped_counted_and_logged_a_few_times(
    raw_dealer: zmq.Socket[bytes], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        raw_dealer.connect(hub.endpoint)
        assert exchange(hub, raw_dealer, Hello(1, "ok", "1", peer.token)) == Welcome(1, "arena")
        for _ in range(3 * REFUSALS_LOGGED):
            raw_dealer.send(encode(Hello(1, "again", "1", peer.token)))
        with caplog.at_level("INFO", logger="protocols.transport"):
            pump_until(hub, lambda: peer.dropped == 3 * REFUSALS_LOGGED)
        seq = hub.next_seq()
        hub.send(peer, Ping(seq))
        raw_dealer.send(msgpack.packb({"type": "pong", "seq": seq}))
        incoming = hub.receive(5)
        assert incoming is not None and incoming.peer is peer and peer.connected
        assert hub.dropped == peer.dropped == 3 * REFUSALS_LOGGED
        logged = [r for r in caplog.records if "nothing asked" in r.getMessage()]
        assert len(logged) == DROPS_LOGGED


def test_malformed_frame_from_a_peer_is_reported_with_the_peer(raw_dealer: zmq.Socket[bytes]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        raw_dealer.connect(hub.endpoint)
        assert exchange(hub, raw_dealer, Hello(1, "ok", "1", peer.token)) == Welcome(1, "arena")
        hub.send(peer, Ping(hub.next_seq()))
        raw_dealer.send(b"\xc1")
        incoming = hub.receive(5)
        assert incoming is not None and incoming.peer is peer and incoming.message is None
        assert incoming.error is not None and "0xc1" in str(incoming.error)


@pytest.mark.skipif(not zmq.has("curve"), reason="libzmq without CURVE")
def test_curve_encrypted_remote_bot() -> None:
    keys = CurveKeys.generate()
    with Hub("tcp://127.0.0.1:*", curve=keys) as hub:
        peer = hub.expect("secure")
        plain = hub.expect("plain")
        env = {ENV_SERVER_KEY: keys.public.decode()}
        secure = start_bot(["--endpoint", hub.endpoint, "--token", peer.token], env)
        unencrypted = start_bot(["--endpoint", hub.endpoint, "--token", plain.token])
        try:
            assert hub.wait_connected([peer], 15) == []
            # started at the same moment, the unencrypted bot had as long, and cannot get in
            assert hub.wait_connected([plain], 0.5) == [plain]
            assert hub.ping(peer, 5) is not None
        finally:
            for bot in (secure, unencrypted):
                bot.kill()
                bot.wait()
