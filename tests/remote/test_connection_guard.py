"""The guard of a hub's tcp endpoint (``protocols.guard``): connections without a valid hello are
shed beyond the per-address cap, beyond the total cap (from the address holding the most), and
when late; admitted connections never are; a hub that listens raises the descriptor limit."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
from collections.abc import Iterator

import msgpack
import pytest
import zmq

from remote_helpers import ROOT, curve_dealer, wait_until
from protocols.codec import decode, encode
from protocols.guard import ConnectionCaps, ConnectionGuard, address_key
from protocols.messages import Hello, Ping
from protocols.transport import CurveKeys, Hub, Peer


def guarded_hub(keys: CurveKeys, caps: ConnectionCaps) -> Hub:
    return Hub(curve=keys, listen="tcp://127.0.0.1:*", caps=caps)


def raw(hub: Hub, source: str = "127.0.0.1") -> socket.socket:
    """A plain TCP connection to ``hub``'s tcp endpoint from ``source`` that sends nothing."""
    assert hub.listening is not None
    conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    conn.bind((source, 0))
    conn.connect(("127.0.0.1", int(hub.listening.rsplit(":", 1)[1])))
    return conn


def closed_by_referee(conn: socket.socket, within: float = 10.0) -> bool:
    """Whether the referee's side closes ``conn`` within ``within`` seconds (its greeting is read
    and skipped)."""
    conn.settimeout(within)
    try:
        while conn.recv(4096):
            pass
    except TimeoutError:
        return False
    except OSError:  # reset
        pass
    return True


def still_reaches(hub: Hub, peer: Peer, bot: zmq.Socket[bytes]) -> bool:
    """Whether a ``ping`` the hub sends ``peer`` reaches ``bot`` (its connection) within 10 s."""
    seq = hub.next_seq()
    hub.send(peer, Ping(seq))
    while bot.poll(10_000):
        if decode(bot.recv()) == Ping(seq):
            return True
    return False


@pytest.fixture()
def conns() -> Iterator[list[socket.socket]]:
    made: list[socket.socket] = []
    yield made
    for conn in made:
        conn.close()


def test_addresses_are_counted_by_host_and_ipv6_by_its_64_prefix() -> None:
    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("2001:db8:1:2:3:4:5:6") == address_key("2001:db8:1:2::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::9") != address_key("2001:db8:1:2::9")
    assert address_key("fe80::1%lo") == "fe80::/64"


def test_the_budget_keeps_a_reserve_of_descriptors_below_the_soft_limit() -> None:
    caps = ConnectionCaps()
    assert caps.budget(20_000) == caps.connections == 1024
    assert caps.budget(1024) == 1024 - 256
    assert caps.budget(256) == 128  # the reserve is at most half the limit
    assert ConnectionCaps(reserve=0).budget(100) == 100
    assert caps.budget(1) == 1
    for bad in ({"per_address": 0}, {"connections": 0}, {"reserve": -1}, {"hello_within": 0.0}):
        with pytest.raises(ValueError):
            ConnectionCaps(**bad)  # type: ignore[arg-type]


def test_a_hub_that_listens_raises_the_soft_descriptor_limit_to_the_hard_one() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    code = ("import resource\nfrom protocols.transport import Hub\n"
            "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n"
            "with Hub(listen='tcp://127.0.0.1:*'):\n"
            "    print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n")
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["64", str(hard)]


def test_beyond_the_per_address_cap_the_oldest_connections_of_that_address_are_shed(
        keys: CurveKeys, conns: list[socket.socket]) -> None:
    with guarded_hub(keys, ConnectionCaps(per_address=2)) as hub:
        conns += [raw(hub) for _ in range(5)]
        assert wait_until(hub, lambda: hub.guard.shed["address"] == 3, 10)
        assert all(closed_by_referee(conn) for conn in conns[:3])
        assert hub.guard.pending == 2
        conns.append(raw(hub, "127.0.0.2"))  # another address has a cap of its own
        assert wait_until(hub, lambda: hub.guard.pending == 3, 10)
        assert hub.guard.shed["address"] == 3


def test_beyond_the_total_cap_the_address_holding_most_gives_way_to_a_newcomer(
        keys: CurveKeys, conns: list[socket.socket]) -> None:
    with guarded_hub(keys, ConnectionCaps(connections=3)) as hub:
        peer = hub.expect("alice", remote=True)
        conns += [raw(hub, "127.0.0.2") for _ in range(3)]
        assert wait_until(hub, lambda: hub.guard.pending == 3, 10)
        conns.append(raw(hub, "127.0.0.3"))
        assert wait_until(hub, lambda: hub.guard.shed["total"] == 1, 10)
        assert closed_by_referee(conns[0])  # the oldest of 127.0.0.2
        bot = curve_dealer(hub)  # from 127.0.0.1, while every place is taken
        try:
            bot.send(encode(Hello(1, "alice", "1", peer.token)))
            assert hub.wait_connected([peer], 10) == []
            assert hub.guard.shed["total"] == 2 and hub.guard.connections == 3
            assert closed_by_referee(conns[1])
        finally:
            bot.close()


def test_connections_without_a_hello_in_time_are_shed_and_a_bot_that_said_hello_is_kept(
        keys: CurveKeys, conns: list[socket.socket]) -> None:
    with guarded_hub(keys, ConnectionCaps(hello_within=0.5)) as hub:
        peer = hub.expect("alice", remote=True)
        bot = curve_dealer(hub)
        silent = curve_dealer(hub)  # finishes the encrypted handshake, never says hello
        try:
            bot.send(encode(Hello(1, "alice", "1", peer.token)))
            assert hub.wait_connected([peer], 10) == []
            conns.append(raw(hub))  # never even finishes the handshake
            assert wait_until(hub, lambda: hub.guard.shed["late"] >= 1, 10)
            assert closed_by_referee(conns[0])
            assert peer.connected and still_reaches(hub, peer, bot)  # older than 0.5 s, kept
        finally:
            bot.close()
            silent.close()


def test_a_stranger_refused_three_times_is_shed(keys: CurveKeys) -> None:
    with guarded_hub(keys, ConnectionCaps()) as hub:
        stranger = curve_dealer(hub)
        try:
            for _ in range(3):
                stranger.send(msgpack.packb({"type": "pong", "seq": 1}))
            assert wait_until(hub, lambda: hub.guard.shed["refused"] == 1, 10)
            assert hub.refused == 3
        finally:
            stranger.close()


def test_a_replaced_connection_loses_its_place_and_is_shed_if_it_stays(keys: CurveKeys) -> None:
    with guarded_hub(keys, ConnectionCaps(hello_within=0.5)) as hub:
        peer = hub.expect("alice", remote=True)
        first, second = curve_dealer(hub), curve_dealer(hub)
        try:
            first.send(encode(Hello(1, "alice", "1", peer.token)))
            assert hub.wait_connected([peer], 10) == []
            second.send(encode(Hello(1, "alice", "1", peer.token)))
            assert wait_until(hub, lambda: peer.connections == 2, 10)
            # The first connection is sent bye and, as it stays, shed once its time is up.
            assert wait_until(hub, lambda: hub.guard.shed["late"] == 1, 10)
            assert peer.connected and still_reaches(hub, peer, second)
        finally:
            first.close()
            second.close()


def test_the_descriptors_of_shed_connections_are_closed(keys: CurveKeys, conns: list[socket.socket]) -> None:
    with guarded_hub(keys, ConnectionCaps(per_address=1)) as hub:
        before = len(os.listdir("/proc/self/fd"))
        conns += [raw(hub) for _ in range(50)]
        assert wait_until(hub, lambda: hub.guard.shed["address"] == 49, 10)
        assert all(closed_by_referee(conn) for conn in conns[:49])
        # Ours stay open (50), the referee's side keeps one: libzmq closed what was shed.
        assert wait_until(hub, lambda: len(os.listdir("/proc/self/fd")) <= before + 50 + 1, 10)


def test_a_descriptor_closed_before_it_is_shed_is_left_alone() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        guard = ConnectionGuard(ConnectionCaps(per_address=1), budget=10)
        first = socket.create_connection(("127.0.0.1", port))
        gone, _ = listener.accept()
        guard.accepted(gone.fileno(), port, 0.0)
        spare = socket.socket()  # takes the next descriptor, so that the closed one is not reused
        gone_fd = gone.fileno()
        gone.close()  # as libzmq may close it before its close is reported
        second = socket.create_connection(("127.0.0.1", port))
        kept, _ = listener.accept()
        try:
            assert kept.fileno() != gone_fd
            guard.accepted(kept.fileno(), port, 1.0)  # over the cap: sheds the closed one
            assert guard.shed["address"] == 1 and guard.pending == 1
            guard.refuse(gone_fd)
            guard.closed(gone_fd)
            assert guard.pending == 1
            guard.sweep(100.0)  # the kept one is late: shut down
            assert guard.shed["late"] == 1 and guard.pending == 0
            second.settimeout(10)
            assert second.recv(1) == b""
        finally:
            for conn in (first, second, kept, spare):
                conn.close()
