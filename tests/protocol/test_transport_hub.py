"""The hub's rules, each pinned on both sides of its boundary, over real sockets.

Bots are raw DEALER sockets in the test's own thread: the hub is pumped with short ``receive``
calls until the effect under test shows (an answer at the DEALER, a counter, a flag), so no test
waits out a timeout it does not assert.
"""

from __future__ import annotations

import gc
import logging
import os
import shutil
import stat
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator

import msgpack
import pytest
import zmq
from polling import wait_until

import protocols.transport as transport
from protocols.codec import DEFAULT_LIMITS, Limits, decode, encode
from protocols.errors import PeerGone, ProtocolError
from protocols.messages import (
    OLDEST_PROTOCOL_VERSION,
    PROTOCOL_VERSION,
    Act,
    Action,
    Bye,
    ClockMs,
    Error,
    Hello,
    Message,
    Ping,
    Pong,
    Welcome,
)
from protocols.transport import (
    DECODES_PER_REQUEST,
    HELLO_LIMIT,
    NAME_LIMIT,
    NAME_LIMIT,
    PINGS_MISSED,
    QUEUE_FRAMES,
    STRANGER_STRIKES,
    CurveKeys,
    Hub,
    Incoming,
    Peer,
)

LOGGER = "protocols.transport"


@pytest.fixture()
def context() -> Iterator[zmq.Context[zmq.Socket[bytes]]]:
    ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    yield ctx
    ctx.destroy(linger=0)


def dealer(
    context: zmq.Context[zmq.Socket[bytes]], endpoint: str, server_key: bytes | None = None
) -> zmq.Socket[bytes]:
    """A DEALER connected to ``endpoint`` (as a CURVE client of ``server_key`` if given)."""
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    if server_key is not None:
        public, secret = zmq.curve_keypair()
        socket.curve_serverkey, socket.curve_publickey, socket.curve_secretkey = server_key, public, secret
    socket.connect(endpoint)
    return socket


def pump(hub: Hub, done: Callable[[], bool], timeout: float = 30.0) -> list[Incoming]:
    """Receive in short steps until ``done()``; what was returned meanwhile."""
    returned: list[Incoming] = []
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the hub never got there"
        incoming = hub.receive(0.005)
        if incoming is not None:
            returned.append(incoming)
    return returned


def answer(hub: Hub, socket: zmq.Socket[bytes], timeout: float = 30.0) -> object:
    """Pump the hub (which must return nothing) until ``socket`` has a frame; that frame decoded."""
    assert pump(hub, lambda: bool(socket.poll(0)), timeout) == []
    return decode(received(socket))


def received(socket: zmq.Socket[bytes]) -> bytes:
    """The next frame at ``socket``, failing the test (not hanging) if none comes within 3 s."""
    assert socket.poll(3000), "nothing came"
    return socket.recv()


def hello(token: str, name: str = "bot", version: str = "1", protocol: int = PROTOCOL_VERSION) -> bytes:
    return encode(Hello(protocol, name, version, token))


def connect(hub: Hub, context: zmq.Context[zmq.Socket[bytes]], peer: Peer) -> zmq.Socket[bytes]:
    """A DEALER at ``peer``'s endpoint that has said hello and been welcomed."""
    socket = dealer(context, peer.endpoint)
    socket.send(hello(peer.token))
    assert answer(hub, socket) == Welcome(PROTOCOL_VERSION, "arena")
    assert peer.connected
    return socket


def pinged_remote_peer(
    hub: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch
) -> tuple[Peer, zmq.Socket[bytes], Ping]:
    """A remote peer connected to ``hub``, its first keepalive ping received and not yet answered;
    the next ping is 30 s away."""
    monkeypatch.setattr(transport, "PING_EVERY", 0.05)
    peer = hub.expect("r", remote=True)
    socket = connect(hub, context, peer)
    assert pump(hub, lambda: bool(socket.poll(0))) == []
    ping = decode(received(socket))
    assert isinstance(ping, Ping)
    monkeypatch.setattr(transport, "PING_EVERY", 30.0)
    return peer, socket, ping


def act(hub: Hub, peer: Peer) -> int:
    """Send ``peer`` an ``act``; its ``seq``."""
    seq = hub.next_seq()
    hub.send(peer, Act(seq, 0, 0, {}, (1, 2), [], ClockMs(100, 0, 0)))
    return seq


def next_returned(hub: Hub, timeout: float = 30.0) -> Incoming:
    """The next frame ``receive`` returns, pumping in short steps."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "nothing returned"
        incoming = hub.receive(0.005)
        if incoming is not None:
            return incoming


def messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The lines logged so far, whole."""
    return [record.getMessage() for record in caplog.records]


# --- keys, binding, closing --------------------------------------------------------------------


def test_generated_curve_keys_are_a_matching_z85_pair() -> None:
    keys = CurveKeys.generate()
    assert len(keys.public) == len(keys.secret) == 40 and keys.public != keys.secret
    assert zmq.curve_public(keys.secret) == keys.public
    assert CurveKeys.generate() != keys


def test_an_ipc_hub_binds_a_private_folder_and_configures_its_socket() -> None:
    hub = Hub()
    try:
        assert hub.endpoint.startswith("ipc://") and hub.endpoint.endswith("/hub.sock")
        folder = os.path.dirname(hub.endpoint[len("ipc://"):])
        assert os.path.basename(folder).startswith("arena-hub-")
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o711
        assert hub.listening is None and hub.curve_public is None
        assert hub.refused == hub.dropped == 0 and hub.refused_hellos == [] and hub.refresh_tokens is None
        socket = hub._socket
        assert socket.getsockopt(zmq.LINGER) == 0
        assert socket.getsockopt(zmq.MAXMSGSIZE) == 2 * DEFAULT_LIMITS.max_frame
        assert socket.getsockopt(zmq.RCVHWM) == socket.getsockopt(zmq.SNDHWM) == QUEUE_FRAMES
        assert socket.getsockopt(zmq.TCP_KEEPALIVE) == 1
        assert socket.getsockopt(zmq.TCP_KEEPALIVE_IDLE) == transport.TCP_KEEPALIVE_IDLE
        assert socket.getsockopt(zmq.TCP_KEEPALIVE_INTVL) == transport.TCP_KEEPALIVE_INTERVAL
        assert socket.getsockopt(zmq.CURVE_SERVER) == 0
    finally:
        hub.close()
    assert not os.path.exists(folder)
    hub.close()  # again: nothing happens


def test_an_explicit_ipc_endpoint_has_no_tcp_keepalive_and_no_private_folders(tmp_path: object) -> None:
    path = os.path.join(str(tmp_path), "h.sock")
    with Hub(f"ipc://{path}", server="other") as hub:
        assert hub.endpoint == f"ipc://{path}" and hub.listening is None
        assert hub._socket.getsockopt(zmq.TCP_KEEPALIVE) == -1
        peer = hub.expect("x")
        assert peer.endpoint == hub.endpoint and hub.private_folder(peer) is None
    assert os.path.exists(str(tmp_path))


def test_a_tcp_hub_listens_where_it_is_bound(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub("tcp://127.0.0.1:*", server="judge") as hub:
        assert hub.listening == hub.endpoint and hub.endpoint.startswith("tcp://127.0.0.1:")
        assert hub._socket.getsockopt(zmq.TCP_KEEPALIVE) == 1
        peer = hub.expect("x")
        assert peer.endpoint == hub.endpoint and hub.private_folder(peer) is None
        socket = dealer(context, hub.endpoint)
        socket.send(hello(peer.token))
        assert answer(hub, socket) == Welcome(PROTOCOL_VERSION, "judge")
        assert hub.server_key(peer) is None


def test_binding_failures_are_protocol_errors() -> None:
    with Hub("tcp://127.0.0.1:*") as taken:
        with pytest.raises(ProtocolError, match=f"cannot bind {taken.endpoint}: "):
            Hub(taken.endpoint)
        with pytest.raises(ProtocolError, match="cannot bind ipc://x: only tcp:// endpoints can be listened on"):
            Hub(listen="ipc://x")
        with pytest.raises(ProtocolError, match=f"cannot bind {taken.endpoint}: "):
            Hub(listen=taken.endpoint)


def test_a_private_endpoint_that_cannot_be_bound_is_a_protocol_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    # A base folder long enough that the hub's socket path fits (108 bytes) but a peer's does not.
    base = os.path.join(str(tmp_path), "d" * 200)[:72]
    os.makedirs(base, exist_ok=True)
    monkeypatch.setattr(tempfile, "tempdir", base)
    with Hub() as hub:
        folder = os.path.dirname(hub.endpoint[len("ipc://"):])
        with pytest.raises(ProtocolError, match=r"cannot bind ipc://.*/peer-.*/hub\.sock: "):
            hub.expect("x")
        assert os.listdir(folder) == ["hub.sock"]  # the peer's folder was removed again


# --- expecting and forgetting peers ------------------------------------------------------------


def test_expect_issues_fresh_tokens_and_private_endpoints() -> None:
    with Hub() as hub:
        first, second = hub.expect("a"), hub.expect("b")
        assert len(first.token) == 32 and int(first.token, 16) >= 0 and first.token != second.token
        assert (first.label, second.label) == ("a", "b") and not first.remote
        folder = hub.private_folder(first)
        assert folder is not None and first.endpoint == f"ipc://{folder}/hub.sock"
        assert os.path.dirname(folder) == os.path.dirname(hub.endpoint[len("ipc://"):])
        assert os.path.basename(folder).startswith("peer-") and first.endpoint != second.endpoint
        assert hub.expect("c", "chosen").token == "chosen"
        with pytest.raises(ValueError, match="token for 'd' is already expected"):
            hub.expect("d", "chosen")
        with pytest.raises(ProtocolError, match="e is remote, but this hub listens on no tcp:// endpoint"):
            hub.expect("e", remote=True)
        assert hub.server_key(first) is None


def test_forget_unbinds_a_private_endpoint_and_removes_its_folder(
    context: zmq.Context[zmq.Socket[bytes]],
) -> None:
    with Hub() as hub:
        peer, other = hub.expect("x"), hub.expect("y")
        folder = hub.private_folder(peer)
        socket = connect(hub, context, peer)
        act(hub, peer)
        hub.forget(peer)
        assert peer.lost and peer.awaiting is None and not peer.connected
        assert hub.private_folder(peer) is None and folder is not None and not os.path.exists(folder)
        assert hub.private_folder(other) is not None
        other_socket = connect(hub, context, other)  # the others' endpoints stay bound
        hub.forget(peer)  # twice: nothing more happens
        assert other.connected and isinstance(decode(received(socket)), Act) and not other_socket.poll(0)
        socket.send(hello(peer.token))  # its endpoint is gone, and its connection with it
        seq = act(hub, other)
        other_socket.send(encode(Action(seq, 0)))
        assert next_returned(hub).message == Action(seq, 0)
        assert hub.receive(0.02) is None and hub.refused == 0 and not socket.poll(0)


def test_a_forgotten_peer_is_a_stranger_and_its_token_may_be_expected_again(
    context: zmq.Context[zmq.Socket[bytes]],
) -> None:
    with Hub("tcp://127.0.0.1:*") as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        fd = peer.fd
        hub.forget(peer)
        assert peer.lost and peer.awaiting is None and fd not in hub._peers_by_fd
        socket.send(encode(Action(seq, 1)))  # now a stranger: refused, never returned
        assert pump(hub, lambda: hub.refused == 1) == []
        assert hub.dropped == 0
        again = hub.expect("again", peer.token)  # its token may be expected again
        assert again is not peer
        hub.forget(peer)  # forgetting it again leaves the new peer alone
        fresh = dealer(context, hub.endpoint)
        fresh.send(hello(peer.token))
        assert answer(hub, fresh) == Welcome(PROTOCOL_VERSION, "arena")
        assert again.connected and again.fd is not None and hub._peers_by_fd[again.fd] is again


def test_a_forgotten_peer_is_not_kept_by_the_hub(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    # A league server forgets every bot it has seen: none may stay referenced (or pinged) for ever.
    with Hub("tcp://127.0.0.1:*") as hub:
        peers = [hub.expect("r", remote=True), hub.expect("x")]
        sockets = [connect(hub, context, peer) for peer in peers]
        kept = [weakref.ref(peer) for peer in peers]
        for peer in peers:
            hub.forget(peer)
        del peer, peers
        gc.collect()
        assert [ref() for ref in kept] == [None, None]
        assert all(not socket.poll(0) for socket in sockets)


def test_forgetting_a_peer_that_never_connected_keeps_the_others() -> None:
    with Hub("tcp://127.0.0.1:*") as hub:
        kept, gone = hub.expect("kept"), hub.expect("gone")
        hub.forget(gone)
        assert gone.lost and not kept.lost
        hub.expect("back", gone.token)
        with pytest.raises(ValueError):
            hub.expect("kept again", kept.token)


# --- strangers ---------------------------------------------------------------------------------


def token_for(size: int) -> str:
    """A token whose ``hello`` (name ``b``, version ``1``) packs to exactly ``size`` bytes."""
    for length in range(size):
        token = "t" * length
        if len(hello(token, "b")) == size:
            return token
    raise AssertionError(size)


def test_a_hello_of_exactly_the_hello_limit_is_welcomed(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x", token_for(HELLO_LIMIT))
        socket = dealer(context, hub.endpoint)
        socket.send(hello(peer.token, "b"))
        assert answer(hub, socket) == Welcome(PROTOCOL_VERSION, "arena")
        assert (peer.name, peer.version, peer.connections, hub.refused) == ("b", "1", 1, 0)


def test_a_hello_with_the_longest_name_and_version_of_four_byte_characters_is_welcomed(
    context: zmq.Context[zmq.Socket[bytes]]
) -> None:
    name, version = "🦘" * NAME_LIMIT, "🦂" * NAME_LIMIT
    with Hub() as hub:
        peer = hub.expect("x", "0123456789abcdef" * 2)
        socket = dealer(context, hub.endpoint)
        socket.send(hello(peer.token, name, version))
        assert answer(hub, socket) == Welcome(PROTOCOL_VERSION, "arena")
        assert (peer.name, peer.version) == (name, version)


def test_a_hello_one_byte_over_the_limit_is_refused_unread(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.WARNING, LOGGER):
        peer = hub.expect("x", token_for(HELLO_LIMIT + 1))
        socket = dealer(context, hub.endpoint)
        socket.send(hello(peer.token, "b"))
        assert pump(hub, lambda: hub.refused == 1) == []
        assert not peer.connected and hub.refused_hellos == []
        assert f"unknown sender sent {HELLO_LIMIT + 1} bytes before saying hello" in messages(caplog)
        assert not socket.poll(20)


def test_a_stranger_may_strike_twice_and_still_say_hello(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.WARNING, LOGGER):
        peer = hub.expect("x")
        socket = dealer(context, hub.endpoint)
        socket.send_multipart([b"a", b"b"])
        socket.send(encode(Pong(1)))
        for _ in range(STRANGER_STRIKES - 3):
            socket.send(b"\xc1")
        socket.send(hello(peer.token))
        assert answer(hub, socket) == Welcome(PROTOCOL_VERSION, "arena")
        assert hub.refused == STRANGER_STRIKES - 1 and peer.connected
        text = messages(caplog)
        assert "unknown sender: 2 frames in one message" in text
        assert "refused Pong from a sender that has not said hello" in text


def test_a_stranger_is_ignored_after_its_last_strike(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.WARNING, LOGGER):
        peer = hub.expect("x")
        socket = dealer(context, hub.endpoint)
        socket.send(b"\xc1")  # refused once decoded
        assert pump(hub, lambda: hub.refused == 1) == []
        socket.send(b"x" * (HELLO_LIMIT + 1))
        socket.send_multipart([b"a", b"b", b"c"])
        socket.send(hello(peer.token))
        assert pump(hub, lambda: hub.refused == STRANGER_STRIKES + 1) == []
        assert not peer.connected and not socket.poll(20)
        text = messages(caplog)
        assert "unknown sender sent a malformed frame: byte 0xc1 at offset 0 is not allowed" in text
        assert "unknown sender: 3 frames in one message" in text
        other = dealer(context, hub.endpoint)  # another connection is not ignored
        other.send(hello(peer.token))
        assert answer(hub, other) == Welcome(PROTOCOL_VERSION, "arena")


def test_ignored_strangers_are_forgotten_oldest_first(
    context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport, "IGNORED_KEPT", 2)
    with Hub() as hub:
        first, second = hub.expect("1"), hub.expect("2")
        ignored, struck, newest = (dealer(context, hub.endpoint) for _ in range(3))
        for _ in range(STRANGER_STRIKES):
            ignored.send_multipart([b"a", b"b"])
        assert pump(hub, lambda: hub.refused == STRANGER_STRIKES) == []
        struck.send_multipart([b"a", b"b"])
        assert pump(hub, lambda: hub.refused == STRANGER_STRIKES + 1) == []
        newest.send_multipart([b"a", b"b"])  # a third entry: the oldest is forgotten
        assert pump(hub, lambda: hub.refused == STRANGER_STRIKES + 2) == []
        for _ in range(STRANGER_STRIKES - 1):
            struck.send_multipart([b"a", b"b"])  # kept: its strikes add up to the last
        struck.send(hello(second.token))
        assert pump(hub, lambda: hub.refused == 2 * STRANGER_STRIKES + 2) == []
        assert not second.connected
        ignored.send(hello(first.token))  # forgotten: its hello is read again
        assert answer(hub, ignored) == Welcome(PROTOCOL_VERSION, "arena")
        assert not struck.poll(0)


def test_refusals_are_logged_one_by_one_then_summed_up(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport, "REFUSALS_LOGGED", 2)
    with Hub() as hub, caplog.at_level(logging.WARNING, LOGGER):
        hub.expect("x")
        sockets = [dealer(context, hub.endpoint) for _ in range(2)]
        for socket in sockets:
            for _ in range(STRANGER_STRIKES):
                socket.send(hello("wrong"))
        assert pump(hub, lambda: hub.refused == 2 * STRANGER_STRIKES) == []
        assert hub.refused_hellos == ["unknown token from bot 'bot'"] * 2
        why = "refused a hello: unknown token from bot 'bot'"
        summary = "refusing more frames from unknown senders; counting them in Hub.refused"
        assert [r.getMessage() for r in caplog.records] == [
            why, "refused a hello", why, "refused a hello", why, summary, why, why, why
        ]
        assert [decode(received(s)) for s in sockets for _ in range(STRANGER_STRIKES)] == [
            Error("unknown token from bot 'bot'")
        ] * (2 * STRANGER_STRIKES)


@pytest.mark.parametrize(
    ("name", "version", "accepted"),
    [
        ("n" * NAME_LIMIT, "v" * NAME_LIMIT, True),
        ("n" * (NAME_LIMIT + 1), "1", False),
        ("b", "v" * (NAME_LIMIT + 1), False),
    ],
)
def test_names_and_versions_are_capped(
    context: zmq.Context[zmq.Socket[bytes]], name: str, version: str, accepted: bool
) -> None:
    with Hub() as hub:
        peer = hub.expect("x", "tok")
        socket = dealer(context, hub.endpoint)
        socket.send(hello(peer.token, name, version))
        reply = answer(hub, socket)
        if accepted:
            assert reply == Welcome(PROTOCOL_VERSION, "arena")
            assert (peer.name, peer.version) == (name, version)
        else:
            reason = f"name and version may have at most {NAME_LIMIT} characters"
            assert reply == Error(reason) and hub.refused_hellos == [reason] and hub.refused == 1
            assert not peer.connected and peer.name == ""


def test_unknown_tokens_name_the_bot_cut_to_the_name_limit(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        hub.expect("x", "right")
        socket = dealer(context, hub.endpoint)
        socket.send(hello("rightish", "n" * 100))
        assert answer(hub, socket) == Error(f"unknown token from bot {'n' * NAME_LIMIT!r}")
        socket.send(hello("righ"))
        assert answer(hub, socket) == Error("unknown token from bot 'bot'")


def test_an_old_protocol_version_is_refused(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = dealer(context, hub.endpoint)
        socket.send(hello(peer.token, protocol=OLDEST_PROTOCOL_VERSION - 1))
        assert answer(hub, socket) == Error(
            f"protocol version {OLDEST_PROTOCOL_VERSION - 1} is not supported; "
            f"this referee speaks {OLDEST_PROTOCOL_VERSION} to {PROTOCOL_VERSION}"
        )
        assert not peer.connected and hub.refused == 1


@pytest.mark.parametrize(
    ("spoken", "agreed"),
    [(OLDEST_PROTOCOL_VERSION, OLDEST_PROTOCOL_VERSION), (PROTOCOL_VERSION, PROTOCOL_VERSION),
     (PROTOCOL_VERSION + 1, PROTOCOL_VERSION)],
)
def test_the_lower_of_the_newest_versions_is_agreed(
    context: zmq.Context[zmq.Socket[bytes]], spoken: int, agreed: int
) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = dealer(context, hub.endpoint)
        socket.send(hello(peer.token, protocol=spoken))
        assert answer(hub, socket) == Welcome(agreed, "arena")
        assert peer.protocol == agreed and peer.connected


def test_tokens_are_looked_up_again_after_a_refresh(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        calls: list[int] = []
        issued: list[Peer] = []

        def refresh() -> None:
            calls.append(1)
            if len(calls) == 2:
                issued.append(hub.expect("late", "late-token"))

        hub.refresh_tokens = refresh
        known = hub.expect("known")
        socket = dealer(context, hub.endpoint)
        socket.send(hello(known.token))
        assert answer(hub, socket) == Welcome(PROTOCOL_VERSION, "arena")
        assert calls == []  # a known token needs no refresh
        for expected in (Error("unknown token from bot 'bot'"), Welcome(PROTOCOL_VERSION, "arena")):
            late = dealer(context, hub.endpoint)
            late.send(hello("late-token"))
            assert answer(hub, late) == expected
        assert issued[0].connected and len(calls) == 2


def test_a_local_token_already_connected_is_refused(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        first = connect(hub, context, peer)
        thief = dealer(context, hub.endpoint)
        thief.send(hello(peer.token))
        assert answer(hub, thief) == Error("token of x is already connected")
        assert peer.connections == 1 and not first.poll(20)


# --- connected peers: what is decoded, returned and dropped --------------------------------------


def test_an_answer_is_returned_once_and_what_follows_is_dropped(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.INFO, LOGGER):
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        socket.send(encode(Action(99, 1)))  # nothing asked: dropped
        assert pump(hub, lambda: peer.dropped == 1) == []
        before = time.monotonic()
        seq = act(hub, peer)
        assert peer.awaiting == seq and peer.decodes_left == DECODES_PER_REQUEST and peer.answer is Action
        assert peer.asked_at >= before
        socket.send(encode(Action(seq, 2)))
        socket.send(encode(Action(seq, 3)))  # answered already: dropped
        incoming = next_returned(hub)
        assert incoming.peer is peer and incoming.message == Action(seq, 2) and incoming.error is None
        assert before <= incoming.arrived <= time.monotonic() and peer.heard_at == incoming.arrived
        assert peer.awaiting is None
        assert pump(hub, lambda: peer.dropped == 2) == []
        assert hub.dropped == 2 and peer.wrong_seq is None
        drops = [m for m in messages(caplog) if m.startswith("x: dropped a frame") and m.endswith("(nothing asked)")]
        assert len(drops) == 2
        assert drops[0] == f"x: dropped a frame of {len(encode(Action(99, 1)))} bytes (nothing asked)"


def test_a_frame_taken_with_the_answer_is_dropped_when_its_turn_comes(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    # The frame behind the answer is dropped when it is screened (it came after the answer was
    # returned) or when it is accepted (it was taken with the answer): the second path needs both at
    # the hub before it drains, so the wait grows until a busy machine has delivered them.
    with Hub() as hub, caplog.at_level(logging.INFO, LOGGER):
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        for attempt in range(1, transport.DROPS_LOGGED + 1):
            seq = act(hub, peer)
            socket.send(encode(Action(seq, 2)))
            socket.send(encode(Action(seq, 3)))
            time.sleep(0.05 * attempt)
            assert next_returned(hub).message == Action(seq, 2)
            assert pump(hub, lambda: peer.dropped == attempt) == []
            if "x: dropped a frame (nothing asked)" in messages(caplog):
                break
        assert messages(caplog)[-1] == "x: dropped a frame (nothing asked)"
        assert peer.awaiting is None and hub.dropped == peer.dropped


def test_a_receive_waits_on_after_a_frame_it_drops(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        assert isinstance(decode(received(socket)), Act)
        socket.send(encode(Action(seq + 1, 0)))  # another seq: dropped, and no reason to return

        def answer_later() -> None:
            time.sleep(0.2)
            socket.send(encode(Action(seq, 1)))

        answering = threading.Thread(target=answer_later)
        answering.start()
        incoming = hub.receive(3.0)
        answering.join()
        assert incoming is not None and incoming.message == Action(seq, 1) and peer.dropped == 1


def test_frames_carrying_another_seq_or_none_are_dropped_unread(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.INFO, LOGGER):
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        socket.send(encode(Action(seq + 1, 0)))
        socket.send(msgpack.packb({"type": "action", "action": 0}))
        socket.send(encode(Action(seq, 5)))
        incoming = next_returned(hub)
        assert incoming.message == Action(seq, 5)
        assert peer.dropped == hub.dropped == 2 and peer.wrong_seq == seq
        assert f"x: dropped a frame of {len(encode(Action(seq + 1, 0)))} bytes (not seq {seq})" in messages(caplog)
        later = act(hub, peer)
        socket.send(encode(Action(later + 7, 0)))
        socket.send(encode(Action(later, 1)))
        assert next_returned(hub).message == Action(later, 1)
        assert peer.wrong_seq == seq  # the first one is kept


def test_at_most_four_frames_are_decoded_per_request(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.INFO, LOGGER):
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        for _ in range(DECODES_PER_REQUEST):
            socket.send(encode(Pong(seq)))  # the seq, but not an action: returned, still awaited
        socket.send(encode(Pong(seq)))  # beyond the allowance: dropped undecoded
        socket.send(encode(Action(seq, 1)))  # beyond the allowance: dropped undecoded
        returned = [next_returned(hub) for _ in range(DECODES_PER_REQUEST)]
        assert [i.message for i in returned] == [Pong(seq)] * DECODES_PER_REQUEST
        assert pump(hub, lambda: peer.dropped == 2) == []
        assert peer.awaiting == seq and peer.decodes_left == 0
        size = len(encode(Pong(seq)))
        assert f"x: dropped a frame of {size} bytes (beyond the frames decoded per request)" in messages(caplog)
        again = act(hub, peer)  # a new request, a new allowance
        socket.send(encode(Action(again, 0)))
        assert next_returned(hub).message == Action(again, 0)


def test_an_error_with_the_seq_ends_the_request(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        socket.send(encode(Error("cannot", seq)))
        incoming = next_returned(hub)
        assert incoming.message == Error("cannot", seq) and peer.awaiting is None
        seq = act(hub, peer)
        socket.send(encode(Error("no seq")))  # carries none: dropped
        socket.send(encode(Action(seq, 1)))
        assert next_returned(hub).message == Action(seq, 1) and peer.dropped == 1


def test_a_ping_is_answered_by_a_pong_only(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = hub.next_seq()
        hub.send(peer, Ping(seq))
        assert peer.awaiting == seq and peer.answer is Pong and peer.decodes_left == DECODES_PER_REQUEST
        assert decode(received(socket)) == Ping(seq)
        socket.send(encode(Action(seq, 1)))
        socket.send(encode(Pong(seq)))
        assert next_returned(hub).message == Action(seq, 1) and peer.awaiting == seq
        assert next_returned(hub).message == Pong(seq) and peer.awaiting is None


def test_other_messages_do_not_start_a_request(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        hub.send(peer, Bye("x"))
        assert decode(received(socket)) == Bye("x") and peer.awaiting is None
        socket.send(encode(Pong(hub._seq)))
        assert pump(hub, lambda: peer.dropped == 1) == []


def test_a_malformed_answer_is_returned_as_an_error_and_ends_the_request(
    context: zmq.Context[zmq.Socket[bytes]],
) -> None:
    with Hub(limits=Limits(max_frame=200)) as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        socket.send(encode(Action(seq, 1, info={"pad": "p" * 250})))
        socket.send(encode(Action(seq, 1)))
        incoming = next_returned(hub)
        assert incoming.message is None and incoming.error is not None and incoming.peer is peer
        assert incoming.arrived > 0 and peer.awaiting is None
        assert "exceeds the limit of 200" in str(incoming.error)
        assert pump(hub, lambda: peer.dropped == 1) == []


def test_several_frames_in_one_message_are_an_error(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        socket.send_multipart([encode(Action(seq, 1)), b"more"])
        incoming = next_returned(hub)
        assert incoming.message is None and peer.awaiting is None and incoming.arrived > 0
        assert incoming.peer is peer and str(incoming.error) == "expected one frame per message, got 2"


def test_a_second_hello_is_dropped_and_the_request_stays_open(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.INFO, LOGGER):
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        again = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "b", "version": "1", "token": peer.token}
        socket.send(msgpack.packb({**again, "seq": seq}))  # a hello that may answer: decoded
        socket.send(encode(Action(seq, 1)))
        assert next_returned(hub).message == Action(seq, 1)
        assert peer.dropped == 1 and "x: dropped a second hello (already connected)" in messages(caplog)
        assert peer.connections == 1


def test_settle_ends_a_request(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        hub.settle(peer)
        assert peer.awaiting is None
        socket.send(encode(Action(seq, 1)))
        assert pump(hub, lambda: peer.dropped == 1) == []


def test_next_seq_counts_from_one() -> None:
    with Hub() as hub:
        assert [hub.next_seq() for _ in range(3)] == [1, 2, 3]


# --- sizes ------------------------------------------------------------------------------------


def test_frames_up_to_twice_the_limit_reach_the_codec_and_larger_close_the_connection(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    limit = 1000
    with Hub(limits=Limits(max_frame=limit)) as hub, caplog.at_level(logging.WARNING, LOGGER):
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        socket.send(b"\x00" * (2 * limit))
        incoming = next_returned(hub)
        assert incoming.error is not None and str(limit) in str(incoming.error)
        act(hub, peer)
        socket.send(b"\x00" * (2 * limit + 1))
        assert pump(hub, lambda: peer.lost) == []
        assert "x lost: the connection closed" in messages(caplog)
        assert peer.fd not in hub._peers_by_fd
        with pytest.raises(PeerGone, match="x is not connected"):
            hub.send(peer, Ping(seq))


def test_set_limits_applies_to_decoding_and_to_new_connections(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        hub.set_limits(Limits(max_frame=64))
        assert hub._socket.getsockopt(zmq.MAXMSGSIZE) == 128
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = act(hub, peer)
        socket.send(encode(Action(seq, 1, info={"p": "p" * 70})))
        incoming = next_returned(hub)
        assert incoming.error is not None and "64" in str(incoming.error)


# --- connections closing ------------------------------------------------------------------------


def test_a_closed_connection_marks_its_peer_lost(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.WARNING, LOGGER):
        peer, other = hub.expect("x"), hub.expect("y")
        socket = connect(hub, context, peer)
        kept = connect(hub, context, other)
        assert peer.fd is not None and hub._peers_by_fd[peer.fd] is peer
        socket.close()
        start = time.monotonic()
        assert hub.receive(0.15) is None  # the closing is seen, and nothing returned in time
        # Waited out, not woken by the closing (nor ended early by the poll's own millisecond clock).
        assert time.monotonic() - start >= 0.15
        assert peer.lost and not peer.connected and other.connected
        assert [r.getMessage() for r in caplog.records].count("x lost: the connection closed") == 1
        kept.close()
        assert pump(hub, lambda: other.lost) == []


def test_a_frame_on_a_lost_peers_descriptor_under_a_new_identity(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.WARNING, LOGGER):
        peer, other = hub.expect("x"), hub.expect("y")
        socket = connect(hub, context, peer)
        assert peer.fd is not None
        hub._check_reused_fd(peer.identity or b"", peer.fd)  # its own identity: nothing happens
        assert peer.connected
        hub._check_reused_fd(b"new", peer.fd + 1000)  # another descriptor: nothing happens
        assert peer.connected
        hub._check_reused_fd(b"new", peer.fd)
        assert peer.lost and "x lost: a new connection took over its descriptor" in messages(caplog)
        socket.send(encode(Pong(1)))


def test_a_new_connection_on_a_closed_ones_descriptor_loses_its_peer_before_the_monitor_tells(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, LOGGER):
        gone, new = listening.expect("gone", remote=True), listening.expect("new", remote=True)
        started = context.socket(zmq.DEALER)  # the context's own threads and descriptors made
        before = set(os.listdir("/proc/self/fd"))
        connect(listening, context, gone).close()
        assert listening._monitor.poll(3000)  # the hub has closed its end of the connection...
        monkeypatch.setattr(listening, "_drain_monitor", lambda: False)  # ...but has not heard yet
        deadline = time.monotonic() + 3  # every descriptor of that connection free again, so
        while set(os.listdir("/proc/self/fd")) != before:  # the next one takes the same ones
            assert time.monotonic() < deadline, "the closed connection kept its descriptors"
            time.sleep(0.005)
        connect(listening, context, new)
        assert new.fd == gone.fd  # the kernel hands out the lowest free descriptor
        assert gone.lost and not new.lost
        assert "gone lost: a new connection took over its descriptor" in messages(caplog)
        started.close()


def test_send_to_a_vanished_connection_is_peer_gone(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        with pytest.raises(PeerGone, match="x is not connected"):
            hub.send(peer, Ping(1))
        socket = connect(hub, context, peer)
        socket.close()  # and the hub does not receive, so only the send can tell
        deadline = time.monotonic() + 3
        with pytest.raises(PeerGone, match="x: cannot send"):
            while time.monotonic() < deadline:
                hub.send(peer, Ping(1))
                time.sleep(0.005)
        assert peer.lost


# --- waiting and pinging ----------------------------------------------------------------------


def test_wait_connected_returns_the_missing_and_drops_what_else_comes(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.INFO, LOGGER):
        first, second = hub.expect("a"), hub.expect("b")
        socket = connect(hub, context, first)
        seq = act(hub, first)
        socket.send(encode(Pong(seq)))
        start = time.monotonic()
        assert hub.wait_connected([first, second], 0.1) == [second]
        assert 0.1 <= time.monotonic() - start < 1
        assert first.dropped == 1 and f"a: dropped {Pong(seq)!r} while waiting for handshakes" in messages(caplog)
        late = dealer(context, second.endpoint)
        late.send(hello(second.token))
        assert hub.wait_connected([first, second], 3) == []
        assert hub.wait_connected([first], 0) == []


def test_ping_measures_the_round_trip(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        seq = hub.next_seq() + 1  # the seq the ping will carry
        socket.send(encode(Pong(seq)))  # taken off the socket only once the ping is sent
        start = time.monotonic()
        rtt = hub.ping(peer, 3)
        assert rtt is not None and 0 < rtt <= time.monotonic() - start
        assert decode(received(socket)) == Ping(seq) and peer.awaiting is None and peer.dropped == 0


def test_ping_drops_what_else_comes_and_gives_up_after_its_timeout(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.INFO, LOGGER):
        peer, other = hub.expect("x"), hub.expect("y")
        assert hub.ping(peer, 1) is None  # not connected
        socket = connect(hub, context, peer)
        noisy = connect(hub, context, other)
        act_seq = act(hub, other)
        seq = hub.next_seq() + 1
        noisy.send(encode(Action(act_seq, 0)))  # an answer, but from another peer
        noisy.send(encode(Pong(seq)))  # the pong, but from another peer: dropped unread
        socket.send(encode(Action(seq, 0)))  # the ping's seq, but not a pong
        start = time.monotonic()
        assert hub.ping(peer, 0.1) is None
        assert 0.1 <= time.monotonic() - start < 1
        assert peer.dropped == 1 and other.dropped == 2
        assert [r.getMessage() for r in caplog.records].count(
            f"x: dropped {Action(seq, 0)!r} while waiting for pong"
        ) == 1
        assert f"y: dropped {Action(act_seq, 0)!r} while waiting for pong" in messages(caplog)


# --- remote peers: replacement and keepalive ------------------------------------------------------


@pytest.fixture()
def listening() -> Iterator[Hub]:
    with Hub(listen="tcp://127.0.0.1:*") as hub:
        yield hub


def test_a_listening_hub_keeps_private_ipc_for_local_peers(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]]
) -> None:
    assert listening.endpoint.startswith("ipc://") and listening.listening is not None
    assert listening.listening.startswith("tcp://127.0.0.1:")
    remote, local = listening.expect("r", remote=True), listening.expect("l")
    assert remote.remote and remote.endpoint == listening.listening and listening.private_folder(remote) is None
    assert local.endpoint.startswith("ipc://") and listening.private_folder(local) is not None
    assert listening._socket.getsockopt(zmq.TCP_KEEPALIVE) == 1
    remote_socket = connect(listening, context, remote)
    local_socket = connect(listening, context, local)
    assert remote.connections == local.connections == 1
    assert not remote_socket.poll(0) and not local_socket.poll(0)


def test_a_new_hello_with_a_remote_token_replaces_the_connection(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport, "IGNORED_KEPT", 1)
    with caplog.at_level(logging.INFO, LOGGER):
        stranger = dealer(context, listening.listening or "")
        stranger.send_multipart([b"a", b"b"])  # remembered first, so forgotten first
        assert pump(listening, lambda: listening.refused == 1) == []
        peer = listening.expect("r", remote=True)
        old = connect(listening, context, peer)
        old_identity, old_fd = peer.identity, peer.fd
        seq = act(listening, peer)
        peer.missed = 2
        new = dealer(context, peer.endpoint)
        new.send(hello(peer.token, "again"))
        assert answer(listening, new) == Welcome(PROTOCOL_VERSION, "arena")
        assert peer.connections == 2 and peer.identity != old_identity and peer.name == "again"
        assert peer.awaiting is None and peer.pinged is None and peer.missed == 0
        assert peer.fd is not None and peer.fd != old_fd and old_fd not in listening._peers_by_fd
        assert "r reconnected; the new connection replaces the old" in messages(caplog)
        assert decode(received(old)) == Act(seq, 0, 0, {}, (1, 2), [], ClockMs(100, 0, 0))
        assert decode(received(old)) == Bye("replaced by a new connection with this token")
        old.send(encode(Action(seq, 1)))  # the old connection is now an ignored stranger
        old.send(hello(peer.token))
        assert pump(listening, lambda: listening.refused == 3) == []
        assert peer.identity != old_identity and not old.poll(20)
        seq = act(listening, peer)
        new.send(encode(Action(seq, 1)))
        assert next_returned(listening).message == Action(seq, 1)


def test_a_lost_remote_peer_reconnects_without_a_bye_to_the_old_connection(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]]
) -> None:
    peer = listening.expect("r", remote=True)
    old = connect(listening, context, peer)
    peer.lost = True
    new = connect(listening, context, peer)
    assert peer.connected and peer.connections == 2
    assert not old.poll(20)


@pytest.fixture()
def fast_pings(monkeypatch: pytest.MonkeyPatch) -> float:
    monkeypatch.setattr(transport, "PING_EVERY", 0.05)
    return 0.05


def test_an_idle_remote_peer_is_pinged_and_its_pong_taken_by_the_hub(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], fast_pings: float
) -> None:
    peer = listening.expect("r", remote=True)
    local = listening.expect("l")
    socket = connect(listening, context, peer)
    local_socket = connect(listening, context, local)
    connected = time.monotonic()
    assert pump(listening, lambda: bool(socket.poll(0))) == []
    ping = decode(received(socket))
    assert peer.pinged_at - peer.connected_at >= fast_pings and peer.heard_at == peer.connected_at
    assert isinstance(ping, Ping) and peer.pinged == ping.seq and peer.ping_decodes == DECODES_PER_REQUEST
    peer.missed = 1
    socket.send(encode(Pong(ping.seq)))
    assert pump(listening, lambda: peer.pinged is None) == []
    assert peer.missed == 0 and peer.heard_at >= connected and peer.dropped == 0
    assert not local_socket.poll(0)  # local peers are never pinged


def test_a_silent_remote_peer_is_lost_after_missing_its_pings(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], fast_pings: float, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, LOGGER):
        peer = listening.expect("r", remote=True)
        socket = connect(listening, context, peer)
        start = time.monotonic()
        assert pump(listening, lambda: peer.missed == PINGS_MISSED - 1) == []
        assert peer.connected
        assert pump(listening, lambda: peer.lost) == []
        took = time.monotonic() - start
        # Lost on the fast pings' schedule, far sooner than the 20 s of the usual one, however busy
        # the machine.
        assert (PINGS_MISSED + 1) * fast_pings * 0.9 <= took < 15
        assert peer.missed == PINGS_MISSED and f"r lost: {PINGS_MISSED} pings unanswered" in messages(caplog)
        pings = []
        while len(pings) < PINGS_MISSED and socket.poll(10_000):  # the last may still be on its way
            pings.append(decode(received(socket)))
        while socket.poll(0):
            pings.append(decode(received(socket)))
        assert len(pings) == PINGS_MISSED and all(isinstance(p, Ping) for p in pings)


def test_a_receive_wakes_up_to_ping(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], fast_pings: float
) -> None:
    peer = listening.expect("r", remote=True)
    socket = connect(listening, context, peer)
    start = time.monotonic()
    assert listening.receive(1) is None  # returns when a ping is due, with nothing to return
    # Due a ping's interval after the hello was heard (a busy machine may take a while to connect).
    assert fast_pings * 0.9 <= time.monotonic() - peer.heard_at and time.monotonic() - start < 0.5
    assert listening.receive(0) is None
    assert socket.poll(500) and isinstance(decode(received(socket)), Ping)


def test_every_idle_remote_peer_is_pinged_whatever_comes_before_it(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], fast_pings: float
) -> None:
    listening.expect("absent", remote=True)  # never connects
    peers = [listening.expect("one", remote=True), listening.expect("two", remote=True)]
    sockets = [connect(listening, context, peer) for peer in peers]
    assert pump(listening, lambda: all(socket.poll(0) for socket in sockets)) == []
    assert [type(decode(received(socket))) for socket in sockets] == [Ping, Ping]


def test_a_ping_is_due_an_interval_after_the_last_act(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport, "PING_EVERY", 0.2)
    peer = listening.expect("r", remote=True)
    socket = connect(listening, context, peer)
    time.sleep(0.15)
    act(listening, peer)
    listening.settle(peer)  # timed out: never answered, and the bot heard from last at its hello
    assert isinstance(decode(received(socket)), Act)
    assert pump(listening, lambda: bool(socket.poll(0))) == []
    assert isinstance(decode(received(socket)), Ping)
    assert peer.pinged_at - peer.asked_at >= 0.2


def until_lost(hub: Hub, peers: list[Peer]) -> float:
    """Seconds from now to the start of the 1 s ``receive`` in which the last of ``peers`` was lost
    (a receive returns when a ping is due, or after its second)."""
    start = last_call = time.monotonic()
    while not all(peer.lost for peer in peers):
        last_call = time.monotonic()
        assert hub.receive(1.0) is None and last_call - start < 5
    return last_call - start


def test_a_peer_lost_to_missed_pings_does_not_hold_up_the_next(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], fast_pings: float
) -> None:
    peers = [listening.expect("first", remote=True), listening.expect("second", remote=True)]
    sockets = [connect(listening, context, peer) for peer in peers]  # that never answer a ping
    # Both are lost a few intervals after they connected, not when a 1 s receive gives up.
    assert until_lost(listening, peers) < (PINGS_MISSED + 1) * fast_pings + 0.5
    assert [peer.missed for peer in peers] == [PINGS_MISSED] * 2 and not any(s.closed for s in sockets)


def test_a_peer_lost_to_a_ping_it_cannot_take_does_not_hold_up_the_next(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport, "PING_EVERY", 30.0)
    full, idle = listening.expect("full", remote=True), listening.expect("idle", remote=True)
    stopped = connect_and_stop_reading(listening, context, full)
    socket = connect(listening, context, idle)
    monkeypatch.setattr(transport, "PING_EVERY", 0.05)
    assert until_lost(listening, [full]) < 0.5
    assert pump(listening, lambda: bool(socket.poll(0))) == []
    assert isinstance(decode(received(socket)), Ping) and idle.pinged_at - full.pinged_at < 0.5
    assert not stopped.closed


def test_a_peer_with_a_request_outstanding_is_not_pinged(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], fast_pings: float
) -> None:
    peer = listening.expect("r", remote=True)
    socket = connect(listening, context, peer)
    seq = act(listening, peer)
    assert isinstance(decode(received(socket)), Act)
    end = time.monotonic() + 3 * fast_pings
    assert pump(listening, lambda: time.monotonic() > end) == []
    assert not socket.poll(0) and peer.pinged is None
    socket.send(encode(Action(seq, 0)))
    assert next_returned(listening).message == Action(seq, 0)
    assert pump(listening, lambda: bool(socket.poll(0))) == []  # idle again: pinged
    assert peer.pinged_at - peer.heard_at >= fast_pings
    assert isinstance(decode(received(socket)), Ping)


def test_junk_while_a_ping_is_outstanding_is_dropped(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, LOGGER):
        peer, socket, ping = pinged_remote_peer(listening, context, monkeypatch)
        for _ in range(DECODES_PER_REQUEST):
            socket.send(encode(Action(ping.seq, 0)))  # its seq, but not a pong
        socket.send(encode(Pong(ping.seq)))  # beyond the allowance
        assert pump(listening, lambda: peer.dropped == DECODES_PER_REQUEST + 1) == []
        assert peer.pinged == ping.seq and peer.ping_decodes == 0
        assert "r: dropped a frame (while a keepalive ping was outstanding)" in messages(caplog)


def test_the_last_frame_a_ping_may_decode_can_be_its_pong(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    peer, socket, ping = pinged_remote_peer(listening, context, monkeypatch)
    for _ in range(DECODES_PER_REQUEST - 1):
        socket.send(encode(Action(ping.seq, 0)))  # its seq, but not a pong
    socket.send(encode(Pong(ping.seq)))  # the last frame of the allowance
    assert pump(listening, lambda: peer.pinged is None) == []
    assert peer.dropped == DECODES_PER_REQUEST - 1 and peer.missed == 0


def connect_and_stop_reading(
    hub: Hub, context: zmq.Context[zmq.Socket[bytes]], peer: Peer
) -> zmq.Socket[bytes]:
    """``peer`` connected as a bot that then stops reading; the hub's queue to it filled by hand
    until it stays full. Keep the socket: closing it would close the connection."""
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.setsockopt(zmq.RCVHWM, 1)
    socket.setsockopt(zmq.RCVBUF, 4096)
    socket.connect(peer.endpoint)
    socket.send(hello(peer.token))
    assert answer(hub, socket) == Welcome(PROTOCOL_VERSION, "arena")
    assert peer.identity is not None
    full_since = None
    while full_since is None or time.monotonic() - full_since < 0.2:
        try:
            hub._socket.send_multipart([peer.identity, b"f" * 65536], flags=zmq.NOBLOCK)
            full_since = None
        except zmq.Again:
            full_since = full_since or time.monotonic()
            time.sleep(0.01)
    return socket


def test_a_ping_to_a_peer_whose_queue_is_full_loses_it_without_waiting(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(transport, "PING_EVERY", 30.0)
    with caplog.at_level(logging.WARNING, LOGGER):
        peer = listening.expect("r", remote=True)
        stopped = connect_and_stop_reading(listening, context, peer)
        monkeypatch.setattr(transport, "PING_EVERY", 0.01)
        assert pump(listening, lambda: peer.lost) == []
        assert f"could not send Ping: {zmq.Again()}" in messages(caplog)
        assert not stopped.closed


def padded_pong(seq: int, size: int) -> bytes:
    """A ``pong`` with an unknown field padding it to exactly ``size`` bytes."""
    for pad in range(size):
        frame: bytes = msgpack.packb({"type": "pong", "seq": seq, "pad": "p" * pad})
        if len(frame) == size:
            return frame
    raise AssertionError(size)


@pytest.mark.parametrize(("size", "answers"), [(HELLO_LIMIT, True), (HELLO_LIMIT + 1, False)])
def test_a_pong_answers_a_keepalive_ping_up_to_the_hello_limit(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch,
    size: int, answers: bool
) -> None:
    peer, socket, ping = pinged_remote_peer(listening, context, monkeypatch)
    socket.send(padded_pong(ping.seq, size))
    if answers:
        assert pump(listening, lambda: peer.pinged is None) == []
        assert peer.dropped == 0
    else:
        assert pump(listening, lambda: peer.dropped == 1) == []
        assert peer.pinged == ping.seq


def test_a_big_or_foreign_frame_does_not_answer_a_keepalive_ping(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    peer, socket, ping = pinged_remote_peer(listening, context, monkeypatch)
    big = msgpack.packb({"type": "pong", "seq": ping.seq, "pad": "p" * HELLO_LIMIT})
    socket.send(big)  # too big for a pong, and nothing asked
    socket.send(encode(Pong(ping.seq + 1)))  # another seq
    socket.send_multipart([encode(Pong(ping.seq)), b""])  # two frames
    assert pump(listening, lambda: peer.dropped == 3) == []
    assert peer.pinged == ping.seq and peer.ping_decodes == DECODES_PER_REQUEST
    socket.send(encode(Pong(ping.seq)))
    assert pump(listening, lambda: peer.pinged is None) == []


def test_an_answer_to_a_request_during_a_keepalive_ping_is_returned(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    peer, socket, ping = pinged_remote_peer(listening, context, monkeypatch)
    seq = act(listening, peer)
    socket.send(encode(Action(seq, 1)))
    socket.send(encode(Pong(ping.seq)))
    assert next_returned(listening).message == Action(seq, 1)
    assert pump(listening, lambda: peer.pinged is None) == []
    assert peer.dropped == 0
    seq = act(listening, peer)
    peer.pinged = ping.seq  # as if another ping were outstanding
    socket.send(b"\xc1")  # may answer either: it goes to the request
    incoming = next_returned(listening)
    assert incoming.error is not None and peer.awaiting is None and peer.pinged == ping.seq


# --- CURVE ------------------------------------------------------------------------------------


@pytest.mark.skipif(not zmq.has("curve"), reason="libzmq without CURVE")
def test_curve_on_a_tcp_hub_lets_only_encrypting_clients_in(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    keys = CurveKeys.generate()
    with Hub("tcp://127.0.0.1:*", curve=keys) as hub:
        assert hub.curve_public == keys.public and hub._socket.getsockopt(zmq.CURVE_SERVER) == 1
        peer = hub.expect("x")
        assert hub.server_key(peer) == keys.public
        plain = dealer(context, hub.endpoint)
        plain.send(hello(peer.token))
        secure = dealer(context, hub.endpoint, keys.public)
        secure.send(hello(peer.token))
        assert answer(hub, secure) == Welcome(PROTOCOL_VERSION, "arena")
        assert hub.refused == 0 and not plain.poll(20)


@pytest.mark.skipif(not zmq.has("curve"), reason="libzmq without CURVE")
def test_curve_with_listen_encrypts_the_tcp_endpoint_only(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    keys = CurveKeys.generate()
    with Hub(curve=keys, listen="tcp://127.0.0.1:*") as hub:
        remote, local = hub.expect("r", remote=True), hub.expect("l")
        assert hub.server_key(remote) == keys.public and hub.server_key(local) is None
        local_socket = connect(hub, context, local)  # private ipc: no CURVE
        plain = dealer(context, remote.endpoint)
        plain.send(hello(remote.token))
        secure = dealer(context, remote.endpoint, keys.public)
        secure.send(hello(remote.token))
        assert answer(hub, secure) == Welcome(PROTOCOL_VERSION, "arena")
        assert not plain.poll(20) and hub.refused == 0 and local.connected and not local_socket.poll(0)


def test_messages_round_trip_unchanged(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    sent: list[Message] = []
    with Hub() as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        for message in (Bye("a"), Ping(3)):
            hub.send(peer, message)
            sent.append(decode(received(socket)))
    assert sent == [Bye("a"), Ping(3)]


def test_the_log_says_what_was_bound_sent_received_and_refused(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, LOGGER), Hub() as hub:
        peer = hub.expect("x")
        socket = connect(hub, context, peer)
        hub.send(peer, Ping(7))
        socket.send(encode(Pong(7)))
        assert next_returned(hub).message == Pong(7)
        hub.send(peer, Ping(8))
        socket.send(b"\xc1")
        assert next_returned(hub).error is not None
        stranger = dealer(context, hub.endpoint)
        stranger.send(hello("wrong"))
        assert answer(hub, stranger) == Error("unknown token from bot 'bot'")
        lines = [record.getMessage() for record in caplog.records]
    assert lines[0] == f"hub bound at {hub.endpoint}"
    assert "x connected as 'bot' '1'" in lines
    assert "→ x Ping(seq=7)" in lines and "← x Pong(seq=7)" in lines
    assert "← x malformed: byte 0xc1 at offset 0 is not allowed" in lines
    assert "refused a hello: unknown token from bot 'bot'" in lines


def test_a_welcome_that_cannot_be_sent_is_logged(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.WARNING, LOGGER):
        peer = hub.expect("x")
        socket = dealer(context, hub.endpoint)
        socket.send(hello(peer.token))
        time.sleep(0.05)
        socket.close()  # gone before its hello is read
        time.sleep(0.05)
        assert pump(hub, lambda: peer.connections == 1) == []
        assert f"could not send Welcome: {zmq.ZMQError(zmq.EHOSTUNREACH)}" in messages(caplog)


def test_without_curve_in_libzmq_no_keys_are_made(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zmq, "has", lambda feature: feature != "curve")
    with pytest.raises(ProtocolError) as raised:
        CurveKeys.generate()
    assert str(raised.value) == "this libzmq was built without CURVE support"


def test_a_pong_with_more_items_than_a_hello_may_have_does_not_answer_a_keepalive_ping(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    peer, socket, ping = pinged_remote_peer(listening, context, monkeypatch)
    crowded = {"type": "pong", "seq": ping.seq, **{f"k{i}": i for i in range(20)}}  # 22 > 16 items
    socket.send(msgpack.packb(crowded))
    assert pump(listening, lambda: peer.dropped == 1) == []
    assert peer.pinged == ping.seq


def test_a_second_pong_to_a_keepalive_ping_is_dropped(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    peer, socket, ping = pinged_remote_peer(listening, context, monkeypatch)
    assert ping == Ping(1)  # the hub's first seq
    socket.send(encode(Pong(1)))
    socket.send(encode(Pong(1)))
    time.sleep(0.02)  # both wait on the socket: taken off together
    assert pump(listening, lambda: peer.dropped == 1) == []
    assert peer.pinged is None and listening.receive(0.01) is None and peer.dropped == 1


def routable(hub: Hub, peer: Peer) -> bool:
    """Whether ``hub``'s socket still routes to ``peer``'s identity (an empty frame is sent if so)."""
    try:
        hub._socket.send_multipart([peer.identity or b"", b""], flags=zmq.NOBLOCK)
    except zmq.ZMQError as exc:
        if exc.errno == zmq.EHOSTUNREACH:
            return False
        raise
    return True


def test_a_keepalive_ping_that_cannot_be_sent_loses_the_peer(
    listening: Hub, context: zmq.Context[zmq.Socket[bytes]], fast_pings: float,
    caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, LOGGER):
        peer = listening.expect("r", remote=True)
        socket = connect(listening, context, peer)
        socket.close()
        # Gone: the router refuses to route to it (as it will refuse the ping; what is sent before
        # then goes nowhere), and the monitor's report of it waits unread; and a ping is due.
        assert wait_until(lambda: not routable(listening, peer), timeout=30)
        assert wait_until(lambda: listening._monitor.poll(0) == zmq.POLLIN, timeout=30)
        last = max(peer.heard_at, peer.asked_at)
        assert wait_until(lambda: time.monotonic() - last >= fast_pings, timeout=30)
        assert listening.receive(0.01) is None
        assert peer.lost and peer.pinged is not None and peer.missed == 0
        assert f"could not send Ping: {zmq.ZMQError(zmq.EHOSTUNREACH)}" in messages(caplog)
        assert "r lost: the connection closed" not in messages(caplog)


def test_close_and_forget_do_not_mind_folders_removed_already() -> None:
    hub = Hub()
    peer = hub.expect("x")
    folder = hub.private_folder(peer)
    assert folder is not None
    shutil.rmtree(folder)
    hub.forget(peer)
    assert hub.private_folder(peer) is None
    shutil.rmtree(os.path.dirname(hub.endpoint[len("ipc://"):]))
    hub.close()


def test_a_hello_with_more_items_than_a_hello_may_have_is_refused_unanswered(
    context: zmq.Context[zmq.Socket[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    with Hub() as hub, caplog.at_level(logging.WARNING, LOGGER):
        peer = hub.expect("x")
        fields = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "b", "version": "1", "token": peer.token}
        socket = dealer(context, hub.endpoint)
        socket.send(msgpack.packb({**fields, **{f"k{i}": i for i in range(20)}}))  # 25 > 16 items
        assert pump(hub, lambda: hub.refused == 1) == []
        assert "unknown sender sent a malformed frame: container of 25 items exceeds the limit of 16" in messages(caplog)
        assert not peer.connected and not socket.poll(20)


def test_messages_other_than_hello_are_strikes_too(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = dealer(context, hub.endpoint)
        for _ in range(STRANGER_STRIKES):
            socket.send(encode(Pong(1)))
        assert pump(hub, lambda: hub.refused == STRANGER_STRIKES) == []
        socket.send(hello(peer.token))
        assert pump(hub, lambda: hub.refused == STRANGER_STRIKES + 1) == []
        assert not peer.connected and not socket.poll(20)


def test_refused_hellos_are_strikes_too(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with Hub() as hub:
        peer = hub.expect("x")
        socket = dealer(context, hub.endpoint)
        for _ in range(STRANGER_STRIKES):
            socket.send(hello("wrong"))
            assert answer(hub, socket) == Error("unknown token from bot 'bot'")
        socket.send(hello(peer.token))
        assert pump(hub, lambda: hub.refused == STRANGER_STRIKES + 1) == []
        assert not peer.connected and not socket.poll(20)


def test_a_hub_that_cannot_bind_leaves_no_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with pytest.raises(ProtocolError):
        Hub(listen="ipc://not-tcp")
    assert os.listdir(str(tmp_path)) == []

