"""Remote connections over real tcp with CURVE: keys, tokens, screening, replacement, keepalive,
and the SDK giving up or reconnecting when the referee goes silent."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

import protocols.transport as transport
from arena.remote.keys import new_keys
from remote_helpers import curve_dealer, flaky, sdk_bot, settings, start, stop, wait_until
from protocols.codec import Limits, decode, encode
from protocols.messages import Hello, Message
from protocols.transport import Hub, Peer


def test_an_sdk_bot_connects_with_the_server_key_and_its_token(remote_hub: Hub) -> None:
    peer = remote_hub.expect("alice", remote=True)
    bot = start(sdk_bot(), settings(remote_hub, peer))
    try:
        assert remote_hub.wait_connected([peer], 10) == []
        assert peer.name == "random" and peer.connections == 1
    finally:
        stop(bot)


@pytest.mark.slow
def test_a_wrong_server_key_never_reaches_the_referee(remote_hub: Hub) -> None:
    peer = remote_hub.expect("alice", remote=True)
    bot = start(sdk_bot("--give-up", "1"), settings(remote_hub, peer, server_key=new_keys().public))
    try:
        assert remote_hub.wait_connected([peer], 1.5) == [peer]
        _, err = bot.communicate(timeout=10)
        assert bot.returncode == 1 and "no welcome from the referee within 1 s" in err
        assert remote_hub.refused == 0  # the CURVE handshake failed: not one frame got through
    finally:
        stop(bot)


def test_a_wrong_token_is_refused(remote_hub: Hub) -> None:
    peer = remote_hub.expect("alice", remote=True)
    wrong = {**settings(remote_hub, peer), "ARENA_TOKEN": "0" * 32}
    bot = start(sdk_bot(), wrong)
    try:
        assert wait_until(remote_hub, lambda: bot.poll() is not None, 10)
        _, err = bot.communicate(timeout=10)
        assert bot.returncode == 1 and "refused by the referee: unknown token" in err
        assert not peer.connected and remote_hub.refused_hellos
    finally:
        stop(bot)


def test_frames_before_hello_are_screened_over_tcp_as_over_ipc(remote_hub: Hub) -> None:
    peer = remote_hub.expect("alice", remote=True)
    socket = curve_dealer(remote_hub)
    try:
        socket.send(msgpack.packb({"type": "hello", "padding": "x" * 1000}))
        assert remote_hub.receive(0.5) is None
        assert remote_hub.refused == 1 and not peer.connected  # over 512 bytes before hello
        socket.send(encode(Hello(1, "late", "1", peer.token)))
        assert remote_hub.wait_connected([peer], 5) == []
    finally:
        socket.close()


def test_a_new_connection_with_the_token_replaces_the_old_one(remote_hub: Hub) -> None:
    peer = remote_hub.expect("alice", remote=True)
    first = start(sdk_bot(), settings(remote_hub, peer))
    second = None
    try:
        assert remote_hub.wait_connected([peer], 10) == []
        second = start(sdk_bot(), settings(remote_hub, peer))
        assert wait_until(remote_hub, lambda: peer.connections == 2, 10)
        assert peer.connected
        first.communicate(timeout=10)
        assert first.returncode == 0  # told bye: replaced by a new connection
        assert second.poll() is None
    finally:
        stop(first)
        if second is not None:
            stop(second)


@pytest.mark.slow
def test_idle_remote_peers_are_pinged_and_a_silent_one_is_lost(
    remote_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport, "PING_EVERY", 0.2)
    answering = remote_hub.expect("alice", remote=True)
    mute = remote_hub.expect("bob", remote=True)
    bots = [start(sdk_bot(), settings(remote_hub, answering)), start(flaky("mute"), settings(remote_hub, mute))]
    try:
        assert remote_hub.wait_connected([answering, mute], 10) == []
        assert wait_until(remote_hub, lambda: mute.lost, 5)
        assert transport.PINGS_MISSED == mute.missed
        assert answering.connected and answering.missed == 0 and answering.dropped == 0
    finally:
        for bot in bots:
            stop(bot)


@pytest.mark.slow
def test_the_sdk_gives_up_when_the_referee_vanishes(keys: transport.CurveKeys) -> None:
    hub = Hub(curve=keys, listen="tcp://127.0.0.1:*")
    peer = hub.expect("alice", remote=True)
    bot = start(sdk_bot("--give-up", "1"), settings(hub, peer))
    try:
        assert hub.wait_connected([peer], 10) == []
        hub.close()  # no bye
        _, err = bot.communicate(timeout=10)
        assert bot.returncode == 1 and "nothing from the referee for 1 s; giving up" in err
    finally:
        hub.close()
        stop(bot)


@pytest.mark.slow
def test_the_sdk_reconnects_by_option_when_the_referee_comes_back(keys: transport.CurveKeys) -> None:
    first = Hub(curve=keys, listen="tcp://127.0.0.1:*")
    peer: Peer = first.expect("alice", remote=True)
    assert first.listening is not None
    bot = start(sdk_bot("--give-up", "1", "--reconnect"), settings(first, peer))
    try:
        assert first.wait_connected([peer], 10) == []
        listening = first.listening
        first.close()
        with Hub(curve=keys, listen=listening) as second:
            again = second.expect("alice", peer.token, remote=True)
            assert second.wait_connected([again], 10) == []
            assert bot.poll() is None
    finally:
        first.close()
        _, err = stop(bot)
    assert "reconnecting" in err


def test_an_unreadable_connection_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.env"
    bad.write_text("ARENA_ENDPOINT tcp://x:1\n")
    for path, message in ((tmp_path / "missing.env", "cannot read the connection file"),
                          (bad, "bad.env:1: expected NAME=VALUE")):
        bot = start(sdk_bot("--connect", str(path)), {})
        _, err = bot.communicate(timeout=10)
        assert bot.returncode == 2 and message in err


def test_junk_answering_a_keepalive_ping_is_decoded_at_most_four_times(
    remote_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoded: list[int] = []

    def counted(frame: bytes, limits: Limits) -> Message:
        decoded.append(len(frame))
        return decode(frame, limits)

    monkeypatch.setattr(transport, "decode", counted)
    peer = remote_hub.expect("alice", remote=True)
    socket = curve_dealer(remote_hub)
    try:
        socket.send(encode(Hello(1, "junk", "1", peer.token)))
        assert remote_hub.wait_connected([peer], 5) == []
        peer.heard_at = 0.0  # as if it had been silent for long: it is pinged at once
        assert wait_until(remote_hub, lambda: peer.pinged is not None, 5)
        seq = peer.pinged  # and it stays outstanding (for PING_EVERY seconds)
        decoded.clear()
        for _ in range(10):  # the ping's seq, but not a pong
            socket.send(msgpack.packb({"type": "action", "seq": seq, "action": 0}))
        assert wait_until(remote_hub, lambda: peer.dropped == 10, 5)
        assert len(decoded) == transport.DECODES_PER_REQUEST
    finally:
        socket.close()


def test_a_token_issued_elsewhere_a_moment_ago_is_looked_up_before_refusing(remote_hub: Hub) -> None:
    issued: list[Peer] = []
    remote_hub.refresh_tokens = lambda: issued.append(remote_hub.expect("alice", "ab" * 16, remote=True))
    socket = curve_dealer(remote_hub)
    try:
        socket.send(encode(Hello(1, "quick", "1", "ab" * 16)))
        assert wait_until(remote_hub, lambda: bool(issued) and issued[0].connected, 5)
        assert remote_hub.refused_hellos == []
    finally:
        socket.close()


def test_a_frame_over_twice_the_limit_closes_a_remote_connection(remote_hub: Hub) -> None:
    peer = remote_hub.expect("alice", remote=True)
    socket = curve_dealer(remote_hub)
    try:
        socket.send(encode(Hello(1, "big", "1", peer.token)))
        assert remote_hub.wait_connected([peer], 5) == []
        socket.send(b"\x00" * (2 * 64 * 1024 + 1))  # libzmq's cap, as on ipc (SPEC.md §2)
        assert wait_until(remote_hub, lambda: peer.lost, 5)
    finally:
        socket.close()
